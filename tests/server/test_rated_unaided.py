"""A rated game is played unaided and by the players who sat down: a claimed seat at a rated
table is never given to someone else, and while the game runs nobody gets an analysis, a
hint, an undo, its record or its replay, nor a casual table that copies it (a record whose
moves are a prefix of it, or its position now)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.server import hub as hub_module
from fanfold.server.app import create_app
from tests.server.support import JSON, ROOMY, look, refused, sqlite_url
from tests.server.test_accounts import create, csrf
from tests.server.test_ratings import open_rated, second_browser


@pytest.fixture
def browsers(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient, TestClient]]:
    """Three signed-in browsers: alice, bob and carol (alice's second account)."""
    app = create_app(sqlite_url(tmp_path), bot_seconds=0.5, limits=ROOMY)
    with TestClient(app) as alice:
        bob, carol = second_browser(alice), second_browser(alice)
        create(alice, "alice")
        create(bob, "bob")
        create(carol, "carol")
        yield alice, bob, carol


def _play(client: TestClient, table: str, token: str, action: str, version: int) -> JSON:
    answer = client.post(
        f"/api/tables/{table}/act",
        json={"token": token, "action": action, "version": version},
        headers=csrf(client),
    )
    assert answer.status_code == 200, answer.text
    body: JSON = answer.json()
    return body


def _my_turn(client: TestClient, table: str, token: str, seat: int) -> JSON:
    """The seat's message once it decides (its bot opponent has answered)."""
    deadline = time.monotonic() + 60
    while True:
        message = look(client, table, token)
        if message["decider"] == seat and message["legal"]:
            return message
        assert message["outcome"] is None, message["outcome"]
        assert time.monotonic() < deadline, "the bot did not answer"
        time.sleep(0.02)


def test_a_claimed_seat_at_a_rated_table_is_never_given_again(
    browsers: tuple[TestClient, TestClient, TestClient],
) -> None:
    alice, bob, carol = browsers
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    creator = players[0][1]
    live = alice.app.state.hub.live[table]  # type: ignore[attr-defined]
    live.seen[1] = live.loaded - hub_module.GONE_SECONDS - 1  # bob left long ago
    answer = alice.post(
        f"/api/tables/{table}/invite", json={"token": creator, "seat": 1}, headers=csrf(alice)
    )
    assert "never given to someone else" in refused(answer, 403)["error"]
    assert live.seat_hashes[1] is not None
    assert live.accounts[1] is not None
    state = look(alice, table, creator)
    assert state["options"]["rated"] is True
    assert state["options"]["fair"] is True
    # carol, alice's second account, has no way in.
    assert look(carol, table)["yours"] == []


def test_an_unclaimed_seat_at_a_rated_table_may_get_a_new_link(
    browsers: tuple[TestClient, TestClient, TestClient],
) -> None:
    alice, bob, _ = browsers
    made = alice.post(
        "/api/tables",
        json={"game": "morris", "seats": ["you", "friend"], "rated": True},
        headers=csrf(alice),
    ).json()
    table, old = made["table"], made["invites"]["1"]
    answer = alice.post(
        f"/api/tables/{table}/invite", json={"token": made["token"], "seat": 1}, headers=csrf(alice)
    )
    assert answer.status_code == 200, answer.text
    stale = bob.post(f"/api/tables/{table}/claim", json={"invite": old}, headers=csrf(bob))
    refused(stale, 403)
    fresh = answer.json()["invite"]
    claimed = bob.post(f"/api/tables/{table}/claim", json={"invite": fresh}, headers=csrf(bob))
    assert claimed.status_code == 200, claimed.text


def test_a_rated_morris_game_against_a_bot_has_no_analysis_record_or_replay(
    browsers: tuple[TestClient, TestClient, TestClient],
) -> None:
    alice, _, carol = browsers
    made = alice.post(
        "/api/tables",
        json={"game": "morris", "seats": ["you", "easy"], "rated": True},
        headers=csrf(alice),
    ).json()
    table, token = made["table"], made["token"]
    message = _my_turn(alice, table, token, 0)
    assert message["options"]["analysis"] is False
    assert message["analyses"] == []
    assert message["options"]["rated"] is True
    asked = alice.get(f"/api/tables/{table}/analysis/values", headers={"X-Fanfold-Token": token})
    assert "without analysis" in refused(asked, 403)["error"]
    for client in (alice, carol):  # the player, and anyone else
        record = client.get(f"/api/tables/{table}/record")
        assert "once the game is over" in refused(record, 403)["error"]
        replay = client.get(f"/api/tables/{table}/replay")
        assert "once it is over" in refused(replay, 403)["error"]
    undo = alice.post(
        f"/api/tables/{table}/undo",
        json={"token": token, "version": message["version"]},
        headers=csrf(alice),
    )
    assert undo.json() == {"ok": False, "version": message["version"]}  # nothing taken back
    assert message["can_undo"] is False


def test_a_rated_table_stored_with_analysis_on_still_refuses_it(
    browsers: tuple[TestClient, TestClient, TestClient],
) -> None:
    """A table stored before rated games went unaided kept ``analysis`` on: the route itself
    refuses it while the rated game runs."""
    alice, _, _ = browsers
    made = alice.post(
        "/api/tables",
        json={"game": "morris", "seats": ["you", "easy"], "rated": True},
        headers=csrf(alice),
    ).json()
    table, token = made["table"], made["token"]
    live = alice.app.state.hub.live[table]  # type: ignore[attr-defined]
    live.options = replace(live.options, analysis=True)
    asked = alice.get(f"/api/tables/{table}/analysis/values", headers={"X-Fanfold-Token": token})
    assert "without analysis" in refused(asked, 403)["error"]


def test_a_copy_of_a_running_rated_game_is_refused_and_allowed_once_it_is_over(
    browsers: tuple[TestClient, TestClient, TestClient],
) -> None:
    alice, bob, carol = browsers
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    token = players[0][1]
    # Three moves that end nothing (no line of three): the game goes on.
    for version, (client, mine, move) in enumerate(
        [(alice, token, "C1"), (bob, players[1][1], "T2"), (alice, token, "C3")]
    ):
        _play(client, table, mine, move, version)
    stored = alice.app.state.hub.store.load(table)  # type: ignore[attr-defined]
    played = [text for _, text in stored.actions]
    assert played == ["C1", "T2", "C3"]
    assert stored.outcome is None

    def record(moves: list[str]) -> JSON:
        return GameRecord(stored.game, stored.config, 1, tuple(moves)).to_json()

    for count in (1, len(played)):  # a prefix of the running game, and the whole of it
        copy = record(played[:count])
        answer = carol.post("/api/records", json={"record": copy}, headers=csrf(carol))
        assert "being played at a rated table" in refused(answer, 403)["error"], count
    # Its position now, written as a chosen start, is refused too.
    game = get_game("morris")
    position = game.format_position(GameRecord(game.id, stored.config, 1, tuple(played)).replay())
    answer = carol.post(
        "/api/tables",
        json={"game": "morris", "seats": ["you", "random"], "position": position},
        headers=csrf(carol),
    )
    assert "being played at a rated table" in refused(answer, 403)["error"]
    # A record that leaves the running game is anyone's.
    other = next(
        text
        for text in _legal_after(played[:1])
        if text != played[1]  # another reply than the one played
    )
    answer = carol.post(
        "/api/records",
        json={"record": record([played[0], other])},
        headers=csrf(carol),
    )
    assert answer.status_code == 200, answer.text
    # Once the game is over, its record loads.
    stored_copy = record(played)
    resigned = alice.post(
        f"/api/tables/{table}/end", json={"token": token, "ending": "resign"}, headers=csrf(alice)
    )
    assert resigned.status_code == 200, resigned.text
    answer = carol.post("/api/records", json={"record": stored_copy}, headers=csrf(carol))
    assert answer.status_code == 200, answer.text
    assert alice.get(f"/api/tables/{table}/record").status_code == 200


def _legal_after(texts: list[str]) -> list[str]:
    game = get_game("morris")
    state = game.new_state(game.config_from_json({}), 0)
    for text in texts:
        state = game.apply_text(state, text)
    return [game.action_text(action) for action in game.legal_actions(state)]
