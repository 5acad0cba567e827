"""The application's routes, one :class:`fastapi.APIRouter` per area: :mod:`.pages` (the lobby,
the table page, the rules), :mod:`.tables` (opening, watching, acting, invitations, analyses,
the lobby's list), :mod:`.records` (download, replay, load) and :mod:`.lessons`. Every ``/api``
route declares its answer (``response_model``), so ``/openapi.json`` describes them all; the
routes get the hub through :data:`HubDep`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from fanfold.server.hub import Hub


def hub_of(connection: HTTPConnection) -> Hub:
    """The running application's hub (set by :func:`fanfold.server.runtime.lifespan`)."""
    hub: Hub = connection.app.state.hub
    return hub


async def _hub_dependency(connection: HTTPConnection) -> Hub:
    """:func:`hub_of` as a dependency: a coroutine, so that FastAPI calls it on the event loop
    (a plain function dependency runs in a worker thread, at the cost of two hand-overs of the
    interpreter lock for every request and every WebSocket)."""
    return hub_of(connection)


#: A route's hub, as a FastAPI dependency.
HubDep = Annotated[Hub, Depends(_hub_dependency)]
