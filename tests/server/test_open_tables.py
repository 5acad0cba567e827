"""Open tables: listed tables with seats anyone may take, joining one (guests at a casual
table, signed-in players only at a rated one), quick match, and two people joining at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fanfold.server.app import create_app
from fanfold.server.hub import seating
from fanfold.server.store import SeatPlan, Store, TablePlan, token_hash
from tests.server.support import ROOMY, look, my_turn, refused, sqlite_url, wait_for
from tests.server.test_accounts import create, csrf
from tests.server.test_ratings import second_browser


@pytest.fixture
def lobby(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    app = create_app(sqlite_url(tmp_path), bot_seconds=0.5, limits=ROOMY)
    with TestClient(app) as alice:
        yield alice, second_browser(alice)


def test_an_open_seat_is_listed_and_taken_once(lobby: tuple[TestClient, TestClient]) -> None:
    alice, bob = lobby
    made = alice.post(
        "/api/tables", json={"game": "morris", "seats": ["you", "open"], "public": True}
    ).json()
    table = made["table"]
    assert made["invites"] == {}
    listed = alice.get("/api/open-tables").json()
    assert listed == [
        {
            "table": table,
            "game": "morris",
            "variant": listed[0]["variant"],
            "players": 2,
            "free": 1,
            "rated": False,
            "time_limit": None,
        }
    ]
    joined = bob.post(f"/api/tables/{table}/join")
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    state = look(bob, table, joined.json()["token"])
    assert state["seat"] == 1
    assert alice.get("/api/open-tables").json() == []
    again = second_browser(alice).post(f"/api/tables/{table}/join")
    assert "no open seat left" in refused(again, 400)["error"]


def test_friends_tables_and_unlisted_tables_are_not_open(
    lobby: tuple[TestClient, TestClient],
) -> None:
    alice, _ = lobby
    alice.post("/api/tables", json={"game": "morris", "seats": ["you", "friend"], "public": True})
    assert alice.get("/api/open-tables").json() == []
    unlisted = alice.post("/api/tables", json={"game": "morris", "seats": ["you", "open"]})
    assert "listed in the lobby" in refused(unlisted, 400)["error"]


def test_a_rated_open_table_takes_signed_in_players_only(
    lobby: tuple[TestClient, TestClient],
) -> None:
    alice, bob = lobby
    create(alice, "alice")
    body = {"game": "morris", "seats": ["you", "open"], "public": True, "rated": True}
    table = alice.post("/api/tables", json=body, headers=csrf(alice)).json()["table"]
    assert alice.get("/api/open-tables").json()[0]["rated"] is True
    guest = bob.post(f"/api/tables/{table}/join")
    assert "signed-in players" in refused(guest, 401)["error"]
    own = alice.post(f"/api/tables/{table}/join", headers=csrf(alice))
    assert "one seat each" in refused(own, 401)["error"]
    create(bob, "bob")
    joined = bob.post(f"/api/tables/{table}/join", headers=csrf(bob))
    assert joined.status_code == 200, joined.text


def test_quick_match_joins_the_table_of_the_same_settings(
    lobby: tuple[TestClient, TestClient],
) -> None:
    alice, bob = lobby
    none = bob.post("/api/quick-match", json={"game": "morris"})
    assert "no open table waits" in refused(none, 404)["error"]
    open_body = {"game": "fantan", "players": 3, "seats": ["you", "open", "easy"], "public": True}
    other = alice.post("/api/tables", json=open_body).json()["table"]
    wanted = alice.post(
        "/api/tables", json={"game": "morris", "seats": ["you", "open"], "public": True}
    ).json()["table"]
    matched = bob.post("/api/quick-match", json={"game": "morris"})
    assert matched.status_code == 200, matched.text
    assert matched.json()["table"] == wanted
    rated = bob.post("/api/quick-match", json={"game": "fantan", "players": 3, "rated": True})
    assert refused(rated, 404)  # the open Fan Tan table is casual
    casual = bob.post("/api/quick-match", json={"game": "fantan", "players": 3})
    assert casual.json()["table"] == other


def test_quick_match_keeps_to_the_time_limit_and_the_variants_own_options(
    lobby: tuple[TestClient, TestClient],
) -> None:
    alice, bob = lobby
    fano = {"game": "fano", "seats": ["you", "open"], "public": True}
    timed = alice.post("/api/tables", json={**fano, "time_limit": 30}).json()["table"]
    short = alice.post("/api/tables", json={**fano, "options": {"turns_per_player": "12"}})
    assert short.status_code == 200, short.text
    untimed = bob.post("/api/quick-match", json={"game": "fano"})
    assert "no open table waits" in refused(untimed, 404)["error"]  # neither is plain classic
    other = bob.post("/api/quick-match", json={"game": "fano", "time_limit": 60})
    assert refused(other, 404)
    matched = bob.post("/api/quick-match", json={"game": "fano", "time_limit": 30})
    assert matched.status_code == 200, matched.text
    assert matched.json()["table"] == timed
    plain = alice.post("/api/tables", json=fano).json()["table"]
    assert bob.post("/api/quick-match", json={"game": "fano"}).json()["table"] == plain
    assert short.json()["table"] in [line["table"] for line in bob.get("/api/open-tables").json()]


def test_two_people_joining_at_once_get_the_seat_once(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    seats = (SeatPlan("human", token_hash("creator")), SeatPlan("human"))
    plan = TablePlan("morris.v1", {}, 1, None, seats, allow_undo=False, listed=True)
    store.create("t1", plan, {"open": [1]})
    assert store.take_open("t1", 1, token_hash("first"), 7)
    assert not store.take_open("t1", 1, token_hash("second"), 8)
    loaded = store.load("t1")
    assert loaded is not None
    assert loaded.seats[1].token_hash == token_hash("first")
    assert loaded.seats[1].account_id == 7
    store.close()


def test_the_creator_gives_a_seat_nobody_took_to_a_bot_after_a_while(
    lobby: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = lobby
    made = alice.post(
        "/api/tables", json={"game": "morris", "seats": ["you", "open"], "public": True}
    ).json()
    table, token = made["table"], made["token"]
    body = {"token": token, "seat": 1, "level": "easy"}
    early = alice.post(f"/api/tables/{table}/bot", json=body)
    assert "waits 60 seconds" in refused(early, 400)["error"]
    monkeypatch.setattr(seating, "OPEN_WAIT_SECONDS", 0.0)
    other = bob.post(f"/api/tables/{table}/bot", json={**body, "token": "not the creator's"})
    assert "creator" in refused(other, 403)["error"]
    agent = alice.post(f"/api/tables/{table}/bot", json={**body, "level": "random"})
    assert "level" in refused(agent, 400)["error"]
    mine = alice.post(f"/api/tables/{table}/bot", json={**body, "seat": 0})
    assert "not an open seat" in refused(mine, 400)["error"]
    given = alice.post(f"/api/tables/{table}/bot", json=body)
    assert given.status_code == 200, given.text
    assert alice.get("/api/open-tables").json() == []
    state = look(alice, table, token)
    assert state["seats"][1]["bot"] is True
    assert state["options"]["open"] == []
    played = alice.post(
        f"/api/tables/{table}/act", json={"token": token, "action": state["legal"][0]}
    )
    assert played.status_code == 200, played.text
    wait_for(alice, table, token, my_turn(0))  # the bot answered
    assert refused(bob.post(f"/api/tables/{table}/join"), 400)
