"""Chess clocks at the server: a speed's control, the time each decision costs and the
increment it earns, stored with the action (a restart goes on from it), a time-out that loses
the game, a side that never moved has its game called off, and bots without a clock."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from fanfold.server import clocks as clocks_module
from fanfold.server.clocks import (
    Clocks,
    advance,
    control_for,
    credited,
    deadline,
    expired,
    new_clocks,
    stopped,
    unowned,
)
from fanfold.server.live import BadRequestError
from fanfold.server.store import Store, rating_changes
from tests.server.support import JSON, act, look, open_table, refused, serve, wait_for
from tests.server.test_accounts import csrf
from tests.server.test_ratings import browsers, open_rated  # noqa: F401 (a fixture, by name)

BLITZ = control_for("blitz")


# ------------------------------------------------------------------ the arithmetic


def test_a_decision_costs_its_time_and_earns_the_increment() -> None:
    start = new_clocks(BLITZ, [True, True])
    assert start == Clocks((180.0, 180.0))  # none runs before the first move
    first = advance(start, BLITZ, 0, 1, [True, True], now=1000.0)
    assert first == Clocks((180.0, 180.0), running=1, since=1000.0)
    second = advance(first, BLITZ, 1, 0, [True, True], now=1030.5)
    assert second.left == (180.0, 180.0 - 30.5 + 2.0)
    assert second.running == 0
    assert second.remaining(0, now=1040.5) == pytest.approx(170.0)
    assert deadline(second) == 1030.5 + 180.0
    assert expired(second, now=1030.5 + 179.0) is None
    assert expired(second, now=1030.5 + 180.0) == 0
    over = stopped(second, now=1100.5)
    assert over == Clocks((110.0, 151.5))


def test_a_bot_has_no_clock_and_a_daily_move_gets_a_new_day() -> None:
    people = [True, False]
    clocks = advance(new_clocks(BLITZ, people), BLITZ, 0, 1, people, now=10.0)
    assert clocks == Clocks((180.0, None))  # the bot decides: no clock runs
    daily = control_for("daily")
    moved = advance(Clocks((86400.0, 86400.0), 0, 0.0), daily, 0, 1, [True, True], now=5000.0)
    assert moved.left == (86400.0, 86400.0)
    assert moved.running == 1
    with pytest.raises(BadRequestError, match="blitz, rapid, classical, daily"):
        control_for("bullet")
    assert Clocks.from_json({"left": "x"}) is None
    assert Clocks.from_json(moved.to_json()) == moved


def test_the_time_a_table_had_no_live_owner_is_given_back() -> None:
    running = Clocks((100.0, 100.0), running=1, since=1000.0)
    # The holder's last beat was at 1010; taken at 1050 it is long silent: 40 s given back.
    assert unowned(running, 1010.0, 1050.0, silent=6.0) == 40.0
    assert running.remaining(1, now=1050.0) == 50.0
    assert credited(running, 40.0).remaining(1, now=1050.0) == 90.0  # charged 10 s
    # A clock started after the holder's last beat: all of its running time given back.
    assert unowned(running, 990.0, 1050.0, silent=6.0) == 50.0
    # A holder that still beats handed the table over: nothing given back.
    assert unowned(running, 1046.0, 1050.0, silent=6.0) == 0.0
    # No beat known (a release before beats), or no clock running: nothing.
    assert unowned(running, None, 1050.0, silent=6.0) == 0.0
    assert unowned(Clocks((100.0, 100.0)), 1010.0, 1050.0, silent=6.0) == 0.0


# ------------------------------------------------------------------ at the server


def quick_speed(monkeypatch: pytest.MonkeyPatch, base: float, increment: float = 0.0) -> None:
    monkeypatch.setitem(clocks_module.SPEEDS, "blitz", (base, increment))


def test_a_casual_table_with_a_speed_shows_its_clocks_and_charges_each_move(
    client: TestClient,
) -> None:
    created = open_table(client, game="morris", seats=["you", "friend"], speed="blitz")
    table, white, black = created["table"], created["token"], created["friends"]["1"]
    message = look(client, table, white)
    assert message["clocks"] == {"speed": "blitz", "left": [180.0, 180.0], "running": None}
    assert act(client, table, white, "C1", version=0).status_code == 200
    assert look(client, table, white)["clocks"]["running"] == 1
    time.sleep(0.3)
    assert act(client, table, black, "T2", version=1).status_code == 200
    clocks = look(client, table, white)["clocks"]
    assert clocks["running"] == 0
    assert 181.0 <= clocks["left"][1] <= 182.0  # 180 less the time taken, plus 2
    stored = client.app.state.hub.store.load(table)  # type: ignore[attr-defined]
    assert stored.options["clock_state"]["running"] == 0  # stored with the action
    # The process holding the clock is stored, never shown: it names a server process.
    assert clocks_module.HOLDER in stored.options
    assert clocks_module.HOLDER not in look(client, table, white)["options"]
    assert clocks_module.HOLDER not in look(client, table, None)["options"]


def test_a_table_has_a_time_limit_or_a_clock_not_both(client: TestClient) -> None:
    answer = client.post(
        "/api/tables",
        json={"game": "fano", "seats": ["you", "random"], "speed": "rapid", "time_limit": 30},
    )
    assert "not both" in refused(answer, 400)["error"]
    answer = client.post("/api/tables", json={"game": "morris", "speed": "bullet"})
    refused(answer, 422)


def test_the_player_whose_time_runs_out_loses(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick_speed(monkeypatch, 1.5)
    created = open_table(client, game="morris", seats=["you", "friend"], speed="blitz")
    table, white, black = created["table"], created["token"], created["friends"]["1"]
    assert act(client, table, white, "C1", version=0).status_code == 200
    assert act(client, table, black, "T2", version=1).status_code == 200
    # White thinks too long.
    ended = wait_for(client, table, black, lambda m: m["outcome"] is not None, timeout=15)
    assert ended["outcome"]["termination"] == "time_forfeit"
    assert ended["outcome"]["winners"] == [1]
    assert ended["outcome"]["reason"] == "White ran out of time."
    assert ended["clocks"]["running"] is None
    assert ended["clocks"]["left"][0] == 0.0
    refused(act(client, table, white, "C3", version=2), 409)
    record = client.get(f"/api/tables/{table}/record").json()
    assert record["ruling"] == {"ending": "timeout", "seat": 0, "after": 2}


def test_a_clock_runs_out_across_a_restart_with_nobody_watching(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick_speed(monkeypatch, 3.0)
    with serve(tmp_path) as client:
        created = open_table(client, game="morris", seats=["you", "friend"], speed="blitz")
        table, white, black = created["table"], created["token"], created["friends"]["1"]
        assert act(client, table, white, "C1", version=0).status_code == 200
        assert act(client, table, black, "T2", version=1).status_code == 200
    # The server stopped while White's clock ran; a new one resumes the table at start-up.
    with serve(tmp_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        deadline_at = time.monotonic() + 15
        while True:
            stored = hub.store.load(table)
            if stored.outcome is not None:
                break
            assert time.monotonic() < deadline_at, "the clock did not run out"
            time.sleep(0.1)
        assert stored.outcome["termination"] == "time_forfeit"
        assert stored.outcome["winners"] == [1]


def test_a_side_that_never_moved_has_its_rated_game_called_off_unrated(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    quick_speed(monkeypatch, 1.0)
    alice, bob = browsers
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    white = players[0][1]
    assert look(alice, table, white)["clocks"]["speed"] == "blitz"  # rated: the default speed
    played = alice.post(
        f"/api/tables/{table}/act",
        json={"token": white, "action": "C1", "version": 0},
        headers=csrf(alice),
    )
    assert played.status_code == 200, played.text
    ended: JSON = wait_for(alice, table, white, lambda m: m["outcome"] is not None, timeout=15)
    assert ended["outcome"]["termination"] == "aborted"
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    with hub.store.engine.connect() as connection:
        assert connection.execute(sa.select(rating_changes)).all() == []


def test_a_rated_game_against_a_bot_runs_only_the_persons_clock(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, _ = browsers
    made = alice.post(
        "/api/tables",
        json={"game": "morris", "seats": ["you", "easy"], "rated": True},
        headers=csrf(alice),
    ).json()
    table, token = made["table"], made["token"]
    assert look(alice, table, token)["clocks"]["left"] == [180.0, None]
    played = alice.post(
        f"/api/tables/{table}/act",
        json={"token": token, "action": "C1", "version": 0},
        headers=csrf(alice),
    )
    assert played.status_code == 200, played.text
    mine = wait_for(alice, table, token, lambda m: m["decider"] == 0, timeout=30)
    assert mine["clocks"]["running"] == 0
    assert mine["clocks"]["left"][1] is None


def _store_down(*_args: object, **_kwargs: object) -> None:
    raise OSError("the database does not answer")


def test_no_time_is_charged_and_no_time_out_ruled_while_the_store_refuses_writes(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick_speed(monkeypatch, 2.0)
    created = open_table(client, game="morris", seats=["you", "friend"], speed="blitz")
    table, white, black = created["table"], created["token"], created["friends"]["1"]
    assert act(client, table, white, "C1", version=0).status_code == 200
    assert act(client, table, black, "T2", version=1).status_code == 200
    with monkeypatch.context() as down:  # White's clock runs; the store stops taking writes
        for name in ("append_many", "rule", "ping", "set_options"):
            down.setattr(Store, name, _store_down)
        refused(act(client, table, white, "C3", version=2), 503)
        time.sleep(3.0)  # past White's two seconds: its timer fires, and waits for the store
        assert look(client, table, white)["outcome"] is None
    # The store is back: the time it refused writes is given back, and White plays on.
    time.sleep(1.2)  # the timer's next try finds the store answering
    message = look(client, table, white)
    assert message["outcome"] is None
    assert 0.5 < message["clocks"]["left"][0] <= 2.0
    assert act(client, table, white, "C3", version=2).status_code == 200
    stored = client.app.state.hub.store.load(table)  # type: ignore[attr-defined]
    assert 0.5 < stored.options["clock_state"]["left"][0] <= 2.0


def test_a_rated_daily_game_is_rated_in_its_daily_family(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True, speed="daily")
    assert look(alice, table, players[0][1])["clocks"]["speed"] == "daily"
    played = alice.post(
        f"/api/tables/{table}/act",
        json={"token": players[0][1], "action": "C1", "version": 0},
        headers=csrf(alice),
    )
    assert played.status_code == 200, played.text
    resigned = bob.post(
        f"/api/tables/{table}/end",
        json={"token": players[1][1], "ending": "resign"},
        headers=csrf(bob),
    )
    assert resigned.status_code == 200, resigned.text
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    with hub.store.engine.connect() as connection:
        families = {
            row.family
            for row in connection.execute(
                sa.select(rating_changes).where(rating_changes.c.rated_table == table)
            )
        }
    assert families == {"morris-daily"}  # rated apart from live play
    assert alice.get("/api/leaderboard/morris-daily").status_code == 200
    refused(alice.get("/api/leaderboard/morris-weekly"), 404)
