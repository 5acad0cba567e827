"""axe-core (the pinned copy under ``tests/server/vendor``) finds no serious or critical
violation on any game's table, at two players and at the most the game seats, on a desktop
(1280 px) and a phone (390 px); screenshots of each go to ``build/screenshots/``."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser

from tests.server.test_browser import browser, server, shot  # noqa: F401  (pytest fixtures)
from tests.server.test_site_browser import SIZES, serious_violations

#: (game, players, the board's selector): two players (Fan Tan: its fewest, three; Fan: one)
#: and the most each game seats.
TABLES = [
    ("fano", 2, ".fano"),
    ("fano", 8, ".fano"),
    ("fantan", 3, ".ft-rows"),
    ("fantan", 8, ".ft-rows"),
    ("morris", 2, ".morris svg"),
    ("fan", 1, ".fans"),
]


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize(("game", "players", "board"), TABLES)
def test_every_table_has_no_serious_violation(
    browser: Browser, server: str, game: str, players: int, board: str, size: str
) -> None:
    seats = ["you"] + ["random"] * (players - 1)
    body: dict[str, Any] = {"game": game, "seats": seats}
    if game in ("fano", "fantan"):
        body["players"] = players
    answer = httpx.post(f"{server}/api/tables", json=body, timeout=10)
    assert answer.status_code == 200, answer.text
    created = answer.json()
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/table/{created['table']}#token={created['token']}")
    page.wait_for_selector(board)
    page.wait_for_function("() => document.querySelector('#status').textContent.length > 0")
    if players > 1:  # the chat's panel is checked too (a one-seat table has no players' room)
        page.wait_for_selector("#chat-form", state="visible")
    found = serious_violations(page)
    shot(page, f"table-{game}-{players}-{size}")
    context.close()
    assert not errors, errors
    assert not found, found
