"""The daily Fan deal's board (:mod:`fanfold.server.daily_board`): ``GET /api/daily/board``
and the page ``/daily``, drawn on the server."""

from __future__ import annotations

import asyncio
from html import escape
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from fanfold.server import protocol
from fanfold.server.daily import daily_deal, today
from fanfold.server.daily_board import board
from fanfold.server.routes import HubDep
from fanfold.server.routes.players import _page

router = APIRouter()

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
    rows = "".join(
        f"<tr><td>{line['rank'] if line['rank'] is not None else 'not ranked'}</td>"
        f'<td><a href="/players/{escape(line["name"])}">{escape(line["name"])}</a></td>'
        f"<td>{line['moves']}</td>"
        f"<td>{escape(', '.join(AID_WORDS.get(a, a) for a in line['aids']) or 'none')}</td>"
        f'<td><a href="/table/{escape(line["table"])}?replay=1">replay</a></td></tr>'
        for line in found["lines"]
    )
    intro = (
        f"<p>Today's Fan deal ({escape(found['date'])}, UTC) is deal {found['deal']}, classic "
        'rules: <a href="/?game=fan">play it from the lobby</a> ("Today\'s deal"). Wins by '
        "signed-in players are listed; only a win without undo, hint or “still winnable?” is "
        "ranked, fewest moves first.</p>"
    )
    table = (
        "<table><caption>Today's wins</caption><thead><tr><th scope=col>#</th>"
        "<th scope=col>Player</th><th scope=col>Moves</th><th scope=col>Aids used</th>"
        f"<th scope=col>Game</th></tr></thead><tbody>{rows}</tbody></table>"
        if found["lines"]
        else "<p>Nobody has won today's deal yet.</p>"
    )
    return HTMLResponse(_page("The daily deal", intro + table))
