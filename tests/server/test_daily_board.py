"""The daily Fan deal's board: an unaided win is ranked, a win with undo or a hint is listed
with its aids and not ranked, a guest's win is not on the board; the page reads them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fanfold.games.fan import GAME as FAN
from fanfold.server.app import create_app
from fanfold.server.daily import daily_deal, today
from fanfold.solvers.fan import solve_deal
from tests.server.support import ROOMY, sqlite_url
from tests.server.test_accounts import create, csrf
from tests.server.test_ratings import second_browser


@pytest.fixture
def alice(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(sqlite_url(tmp_path), bot_seconds=0.5, limits=ROOMY)
    with TestClient(app) as client:
        yield client


def _win(client: TestClient, deal: int, *, undo: bool = False, hint: bool = False) -> str:
    """Open the deal and win it with the solver's moves (after an undone move, or a hint)."""
    headers = csrf(client) if "fanfold_csrf" in client.cookies else {}
    made = client.post(
        "/api/tables", json={"game": "fan", "seats": ["you"], "seed": str(deal)}, headers=headers
    )
    assert made.status_code == 200, made.text
    table, token = made.json()["table"], made.json()["token"]
    moves = [FAN.action_text(move) for move in solve_deal(deal).moves]
    if undo:
        client.post(
            f"/api/tables/{table}/act", json={"token": token, "action": moves[0]}, headers=headers
        ).raise_for_status()
        client.post(
            f"/api/tables/{table}/undo", json={"token": token}, headers=headers
        ).raise_for_status()
    if hint:
        client.get(
            f"/api/tables/{table}/analysis/hint", headers={"X-Fanfold-Token": token}
        ).raise_for_status()
    for move in moves:
        client.post(
            f"/api/tables/{table}/act", json={"token": token, "action": move}, headers=headers
        ).raise_for_status()
    state = client.get(f"/api/tables/{table}", headers={"X-Fanfold-Token": token}).json()
    assert state["outcome"]["returns"][0] > 0
    return str(table)


def test_only_unaided_wins_by_signed_in_players_are_ranked(alice: TestClient) -> None:
    deal = daily_deal(today())
    bob, guest = second_browser(alice), second_browser(alice)
    create(alice, "alice")
    create(bob, "bob")
    assert alice.get("/api/daily/board").json()["lines"] == []
    clean = _win(alice, deal)
    aided = _win(bob, deal, undo=True, hint=True)
    _win(guest, deal)
    answer = alice.get("/api/daily/board").json()
    assert answer["deal"] == deal
    moves = len(solve_deal(deal).moves)
    assert answer["lines"] == [
        {"rank": 1, "name": "alice", "moves": moves, "aids": [], "table": clean},
        {"rank": None, "name": "bob", "moves": moves, "aids": ["undo", "hint"], "table": aided},
    ]
    page = alice.get("/daily")
    assert page.status_code == 200
    assert "alice" in page.text
    assert "undo, hint" in page.text
    assert "not ranked" in page.text


def test_another_deal_is_not_on_the_board(alice: TestClient) -> None:
    create(alice, "carol")
    other = next(d for d in range(1, 50) if d != daily_deal(today()) and solve_deal(d).moves)
    _win(alice, other)
    assert alice.get("/api/daily/board").json()["lines"] == []
