"""What an operator's tools ask a server process: ``/health`` (the process answers),
``/ready`` (it can serve tables: its store answers and, with several processes, it holds its
ownership connection; a router such as HAProxy sends requests only to a ready process) and
``/metrics`` (Prometheus, :mod:`fanfold.server.metrics`)."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa
from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from fanfold.server.routes import HubDep

router = APIRouter()

#: How long ``/ready`` waits for the store's answer.
READY_TIMEOUT = 2.0


@router.get("/health")
async def health() -> JSONResponse:
    """The process is up and its event loop answers."""
    return JSONResponse({"status": "ok"})


@router.get("/ready")
async def ready(hub: HubDep) -> JSONResponse:
    """200 when the process can serve tables, else 503 with the reason."""

    def ping() -> None:
        with hub.store.engine.connect() as connection:
            connection.execute(sa.text("SELECT 1"))

    try:
        await asyncio.wait_for(asyncio.to_thread(ping), READY_TIMEOUT)
    except Exception:
        return JSONResponse(
            {"status": "unready", "reason": "the store does not answer"}, status_code=503
        )
    if hub.owner is not None and not hub.owner.healthy:
        return JSONResponse(
            {"status": "unready", "reason": "the ownership connection to the store is closed"},
            status_code=503,
        )
    return JSONResponse({"status": "ready", "tables": len(hub.live)})


@router.get("/metrics")
async def metrics(hub: HubDep) -> Response:
    """Prometheus's text format."""
    from fanfold.server.metrics import CONTENT_TYPE

    return Response(hub.metrics.exposition(), media_type=CONTENT_TYPE)
