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
from fanfold.server.routes.deps import HubDep
from fanfold.server.routes.players import _page

router = APIRouter(tags=["daily"])

#: The aids in players' words.
AID_WORDS = {"undo": "undo", "hint": "hint", "winnable": "“still winnable?”"}


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
    return HTMLResponse(_page("The daily deal", "daily.html", aids=_aids, **found))


def _aids(aids: list[str]) -> str:
    """The aids a win used, in players' words."""
    return ", ".join(AID_WORDS.get(a, a) for a in aids) or "none"
