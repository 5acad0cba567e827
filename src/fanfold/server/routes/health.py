"""What an operator's tools ask a server process: ``/health`` (the process answers),
``/ready`` (it can serve tables: its loop runs, its store answers and, with several
processes, it holds its ownership connection, :mod:`fanfold.server.checks`; a router such as
HAProxy sends requests only to a ready process) and
``/metrics`` (Prometheus, :mod:`fanfold.server.metrics`). With ``--health-port`` the three are
answered on that port too, from a thread that never waits behind the tables
(:mod:`fanfold.server.checks`): the port a router checks and Prometheus scrapes."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from fanfold.server.checks import CHECK_HEADER, Readiness
from fanfold.server.routes.deps import HubDep

router = APIRouter(tags=["health"])


@router.get("/health")
async def health() -> JSONResponse:
    """The process is up and its event loop answers."""
    return JSONResponse({"status": "ok"})


@router.get("/ready")
async def ready(request: Request) -> JSONResponse:
    """200 when the process can serve tables, else 503 with the reason
    (:class:`~fanfold.server.checks.Readiness`; ``--health-port`` answers it beside the
    loop)."""
    readiness: Readiness = request.app.state.readiness
    asker = request.client.host if request.client is not None else ""
    router = request.headers.get(CHECK_HEADER)
    status, body = await asyncio.to_thread(readiness.check, asker, router)
    return JSONResponse(body, status_code=status)


@router.get("/metrics")
async def metrics(hub: HubDep) -> Response:
    """Prometheus's text format (the same on the health port, read beside the loop)."""
    from fanfold.server.metrics import CONTENT_TYPE

    return Response(hub.metrics.exposition(), media_type=CONTENT_TYPE)
