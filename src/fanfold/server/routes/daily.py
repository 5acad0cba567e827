"""The daily Fan deal's board (:mod:`fanfold.server.daily_board`): ``GET /api/daily/board``
and the page ``/daily``, drawn on the server."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from fanfold.server import protocol
from fanfold.server.daily import daily_deal, today
from fanfold.server.daily_board import board
from fanfold.server.i18n import gettext
from fanfold.server.routes.deps import HubDep
from fanfold.server.routes.players import _page

router = APIRouter(tags=["daily"])


def _aid_words() -> dict[str, str]:
    """The aids in players' words, in the request's language."""
    return {
        "undo": gettext("undo"),
        "hint": gettext("hint"),
        "winnable": gettext("“still winnable?”"),
    }


async def _board(hub: Any) -> dict[str, Any]:
    day = today()
    deal = await asyncio.to_thread(daily_deal, day)
    lines = await asyncio.to_thread(board, hub.store, deal)
    return {"date": day.isoformat(), "deal": deal, "lines": lines}


@router.get("/api/daily/board", response_model=protocol.DailyBoard)
async def daily_board_api(hub: HubDep) -> dict[str, Any]:
    return await _board(hub)


@router.get("/daily", include_in_schema=False)
async def daily_board_page(hub: HubDep) -> HTMLResponse:
    found = await _board(hub)
    return HTMLResponse(_page(gettext("The daily deal"), "daily.html", aids=_aids, **found))


def _aids(aids: list[str]) -> str:
    """The aids a win used, in players' words."""
    words = _aid_words()
    return ", ".join(words.get(a, a) for a in aids) or gettext("none")
