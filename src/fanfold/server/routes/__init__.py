"""The application's routes, one :class:`fastapi.APIRouter` per area: :mod:`.pages` (the lobby,
the table page, the rules), :mod:`.tables` (opening, watching, acting, invitations, analyses,
the lobby's list), :mod:`.records` (download, replay, load) and :mod:`.lessons`. Each router
names its area in ``tags`` (the groups of ``/docs``) and, where its paths share a beginning,
declares it as its ``prefix`` (``/api``, ``/api/lessons``, ``/api/moderation``). Every ``/api``
route declares its answer (``response_model``), so ``/openapi.json`` describes them all; the
routes get the hub, the accounts, the settings and the signed-in account from
:mod:`.deps` (:data:`HubDep` is here too, for the WebSocket's module)."""

from __future__ import annotations

from fanfold.server.routes.deps import HubDep, hub_of

__all__ = ["HubDep", "hub_of"]
