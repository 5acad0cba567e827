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


#: A route's hub, as a FastAPI dependency.
HubDep = Annotated[Hub, Depends(hub_of)]
