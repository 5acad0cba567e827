"""Table-level endings at the server: resign, draw offers and abort over HTTP and the socket,
told to every seat, stored with the table (a restart keeps them), in the record, and rated
(an aborted rated game is not)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from fanfold.server.live import GONE_SECONDS
from fanfold.server.store import rating_changes
from tests.server.support import (
    JSON,
    act,
    friends_table,
    hello,
    look,
    open_table,
    receive_until,
    refused,
    serve,
)
from tests.server.test_accounts import csrf
from tests.server.test_ratings import (  # noqa: F401 (a fixture, by name)
    browsers,
    open_rated,
    play_out,
)


def end(client: TestClient, table: str, token: str, ending: str, **more: Any) -> Any:
    return client.post(f"/api/tables/{table}/end", json={"token": token, "ending": ending, **more})


def test_a_resignation_ends_the_game_for_everyone_and_the_record_keeps_it(
    client: TestClient,
) -> None:
    table, white, black = friends_table(client)
    assert look(client, table, white)["endings"] == ["resign", "draw"]
    assert look(client, table)["endings"] == []  # a spectator ends nothing
    answer = end(client, table, black, "resign", version=2)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"ok": True, "version": 3}
    for token in (white, black, None):
        message = look(client, table, token)
        assert message["outcome"]["termination"] == "resigned"
        assert message["outcome"]["winners"] == [0]
        assert message["outcome"]["reason"] == "Black resigned."
        # as a code, so that a page words it in its reader's language
        assert message["outcome"]["said"]["code"] == "ruling.resigned"
        assert message["outcome"]["said"]["params"]["seat"]["code"] == "morris.black"
        assert message["legal"] == []
        assert message["endings"] == []
    record = client.get(f"/api/tables/{table}/record").json()
    assert record["ruling"] == {"ending": "resign", "seat": 1, "after": 2}
    refused(act(client, table, white, "C3", version=3), 409)  # the game is over
    again = refused(end(client, table, white, "resign"), 400)
    assert "over already" in again["error"]
    # The record loads into a new table that ends where it ended.
    loaded = client.post("/api/records", json={"record": record})
    assert loaded.status_code == 200, loaded.text
    copy = look(client, loaded.json()["table"], loaded.json()["token"])
    assert copy["outcome"]["termination"] == "resigned"
    assert copy["outcome"]["said"]["code"] == "ruling.resigned"


def test_refused_endings_change_nothing(client: TestClient) -> None:
    table, white, _ = friends_table(client)
    before = look(client, table, white)
    refused(end(client, table, "forged-token", "resign"), 403)
    refused(end(client, table, white, "resign", version=1), 409)  # a stale version
    assert "every side has moved" in refused(end(client, table, white, "abort"), 400)["error"]
    assert refused(end(client, table, white, "surrender"), 422)["kind"]
    refused(end(client, table, white, "resign", seat=1), 403)  # not white's seat
    assert look(client, table, white)["version"] == before["version"]
    assert look(client, table, white)["outcome"] is None


def test_a_draw_is_offered_accepted_or_declined_by_playing_on(client: TestClient) -> None:
    table, white, black = friends_table(client)
    offered = end(client, table, white, "draw", version=2)
    assert offered.json() == {"ok": False, "version": 2}  # an offer ends nothing yet
    assert look(client, table, black)["options"]["draw_offer"] == 0
    # Offering again from the same side accepts nothing.
    assert end(client, table, white, "draw").json()["ok"] is False
    # Black plays on: the offer is declined.
    assert act(client, table, white, "C3", version=2).status_code == 200
    assert "draw_offer" in look(client, table, black)["options"]  # white's own move keeps it
    assert act(client, table, black, "T4", version=3).status_code == 200
    assert "draw_offer" not in look(client, table, white)["options"]
    assert end(client, table, black, "draw").json()["ok"] is False  # black offers now
    accepted = end(client, table, white, "draw")
    assert accepted.json()["ok"] is True
    outcome = look(client, table, white)["outcome"]
    assert outcome["termination"] == "agreed_draw"
    assert outcome["winners"] == []


def test_a_game_without_draws_takes_no_offer(client: TestClient) -> None:
    created = open_table(client, game="fano", seats=["you", "friend"])
    table, token = created["table"], created["token"]
    assert "draw" not in look(client, table, token)["endings"]
    assert "no drawn games" in refused(end(client, table, token, "draw"), 400)["error"]


def test_an_abort_over_the_socket_before_the_other_side_moved(client: TestClient) -> None:
    created = open_table(client, game="morris", seats=["you", "friend"], seed=3)
    table, white = created["table"], created["token"]
    assert act(client, table, white, "C1", version=0).status_code == 200
    black = created["friends"]["1"]
    assert look(client, table, black)["endings"] == ["resign", "draw", "abort"]
    with client.websocket_connect(f"/ws/tables/{table}") as socket:
        hello(socket, black)
        socket.send_json({"type": "end", "ending": "abort", "version": 1})
        seen = receive_until(socket, lambda m: m.get("type") == "ok")
        assert seen[-1]["ended"] is True
        told = [m for m in seen if m.get("type") == "state"]  # told before the answer
        assert told[-1]["outcome"]["termination"] == "aborted"


def test_a_restart_keeps_the_ending(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        table, white, black = friends_table(client)
        assert end(client, table, white, "resign").status_code == 200
    with serve(tmp_path) as client:
        message = look(client, table, black)
        assert message["outcome"]["termination"] == "resigned"
        assert message["outcome"]["winners"] == [1]
        assert message["outcome"]["said"]["code"] == "ruling.resigned"  # worded after a restart
        assert message["version"] == 3


def test_a_rated_resignation_is_rated_and_an_abort_is_not(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    white, black = players[0][1], players[1][1]
    played = alice.post(
        f"/api/tables/{table}/act",
        json={"token": white, "action": "C1", "version": 0},
        headers=csrf(alice),
    )
    assert played.status_code == 200, played.text
    aborted = bob.post(
        f"/api/tables/{table}/end",
        json={"token": black, "ending": "abort"},
        headers=csrf(bob),
    )
    assert aborted.status_code == 200, aborted.text
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    with hub.store.engine.connect() as connection:
        rows = connection.execute(sa.select(rating_changes)).all()
    assert rows == []  # called off: nobody's rating moved

    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    white = players[0][1]
    resigned = alice.post(
        f"/api/tables/{table}/end",
        json={"token": white, "ending": "resign"},
        headers=csrf(alice),
    )
    assert resigned.status_code == 200, resigned.text
    with hub.store.engine.connect() as connection:
        changes = {
            row.seat: row
            for row in connection.execute(
                sa.select(rating_changes).where(rating_changes.c.rated_table == table)
            )
        }
    assert changes[0].mu_after < changes[0].mu_before  # alice resigned
    assert changes[1].mu_after > changes[1].mu_before
    message: JSON = look(alice, table, white)
    assert message["outcome"]["termination"] == "resigned"


def test_the_win_is_claimed_once_the_other_side_has_left(client: TestClient) -> None:
    table, white, black = friends_table(client)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = hub.live[table]
    with client.websocket_connect(f"/ws/tables/{table}") as socket:
        hello(socket, black)  # black is here: nothing to claim, no countdown
        message = look(client, table, white)
        assert message["claim"] is None
        assert "claim" not in message["endings"]
        early = refused(end(client, table, white, "claim"), 400)
        assert "once the other side has left" in early["error"]
    # Black's connection went: the countdown runs from then.
    message = look(client, table, white)
    assert 0 < message["claim"]["left"] <= GONE_SECONDS
    assert "claim" not in message["endings"]
    assert "s to go" in refused(end(client, table, white, "claim"), 400)["error"]
    live.seen[1] -= GONE_SECONDS  # as if two minutes had passed
    message = look(client, table, white)
    assert message["claim"] == {"left": 0.0}
    assert "claim" in message["endings"]
    claimed = end(client, table, white, "claim")
    assert claimed.json()["ok"] is True
    outcome = look(client, table, black)["outcome"]
    assert outcome["termination"] == "abandoned"
    assert outcome["winners"] == [0]
    assert outcome["reason"] == "White claimed the win: the other side left the game."
    assert client.get(f"/api/tables/{table}/record").json()["ruling"]["ending"] == "claim"


def test_a_friend_not_come_yet_has_not_left_and_their_arrival_stops_the_countdown(
    client: TestClient,
) -> None:
    """A seat claimed through its link whose player has not connected yet has not left: the
    creator sees no countdown. Once the friend has come and gone the countdown runs, and the
    friend's next connection tells the creator's page again, with no countdown."""
    created = open_table(client, game="morris", seats=["you", "friend"], seed=3)
    table, white, black = created["table"], created["token"], created["friends"]["1"]
    live = client.app.state.hub.live[table]  # type: ignore[attr-defined]
    live.seen[1] -= GONE_SECONDS  # however long ago the seat was claimed
    message = look(client, table, white)
    assert message["claim"] is None  # black took the seat and never came: nobody left
    assert "claim" not in message["endings"]
    early = refused(end(client, table, white, "claim"), 400)
    assert "once the other side has left" in early["error"]
    with client.websocket_connect(f"/ws/tables/{table}") as socket:
        hello(socket, black)
    assert 0 < look(client, table, white)["claim"]["left"] <= GONE_SECONDS  # came and left
    with client.websocket_connect(f"/ws/tables/{table}") as creator:
        assert hello(creator, white)["claim"] is not None  # counting down
        with client.websocket_connect(f"/ws/tables/{table}") as friend:
            hello(friend, black)
            told = receive_until(creator, lambda m: m["type"] == "state")
            assert told[-1]["claim"] is None  # the countdown stopped on the creator's page
            assert "claim" not in told[-1]["endings"]


def test_no_win_is_claimed_against_a_bot_or_an_empty_seat(client: TestClient) -> None:
    created = open_table(client, game="morris", seats=["you", "random"])
    table, token = created["table"], created["token"]
    client.app.state.hub.live[table].seen[1] = -1e9  # type: ignore[attr-defined]
    assert look(client, table, token)["claim"] is None
    refused(end(client, table, token, "claim"), 400)
    unclaimed = client.post("/api/tables", json={"game": "morris", "seats": ["you", "friend"]})
    made = unclaimed.json()
    assert look(client, made["table"], made["token"])["claim"] is None  # nobody sat down


def test_a_leaver_at_a_rated_table_of_three_sides_is_rated_last_and_a_bot_plays_on(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    table, players = open_rated(
        alice, bob, "fantan", ["you", "friend", "easy"], rated=True, players=3
    )
    bobs = players[1][1]
    message = look(bob, table, bobs)
    assert "leave" in message["endings"]
    assert "resign" not in message["endings"]
    with bob.websocket_connect(f"/ws/tables/{table}") as socket:
        hello(socket, bobs)
        left = bob.post(
            f"/api/tables/{table}/end",
            json={"token": bobs, "ending": "leave"},
            headers=csrf(bob),
        )
        assert left.status_code == 200, left.text
        assert left.json()["ok"] is False  # the game goes on
        told = receive_until(socket, lambda m: m.get("type") == "state" and m["yours"] == [])
        assert told[-1]["seat"] is None  # a spectator's view now
    hub = alice.app.state.hub  # type: ignore[attr-defined]
    with hub.store.engine.connect() as connection:
        rows = connection.execute(
            sa.select(rating_changes).where(rating_changes.c.rated_table == table)
        ).all()
    assert [(row.seat, row.rank) for row in rows] == [(1, 3)]  # bob alone, last of three
    assert rows[0].mu_after < rows[0].mu_before
    state = look(alice, table, players[0][1])
    assert state["seats"][1]["bot"] is True
    assert state["options"]["left"] == {"1": int(rows[0].player.removeprefix("a:"))}
    refused(
        bob.post(
            f"/api/tables/{table}/end", json={"token": bobs, "ending": "leave"}, headers=csrf(bob)
        ),
        403,
    )  # bob's link holds no seat now
    # His page says hello with it again (a reload): refused by its code, which the page takes
    # to watch the table instead, as a spectator does.
    with bob.websocket_connect(f"/ws/tables/{table}") as socket:
        refused_hello = hello(socket, bobs)
        assert refused_hello["type"] == "error"
        assert refused_hello["code"] == "server.no_seat_held"
        watched = hello(socket)
        assert watched["type"] == "state"
        assert watched["seat"] is None
        assert watched["yours"] == []
    # Bob's profile counts the game lost from his leaving on (ranked last of three), never
    # drawn, while the others play on.
    (family,) = alice.get("/api/players/bob/record").json()["families"]
    assert (family["games"], family["won"], family["lost"], family["drawn"]) == (1, 0, 1, 0)
    ended = play_out({0: players[0]}, table)
    assert ended["outcome"] is not None
    # Once it ended, each profile's line of the game says what its rated result says, whatever
    # the bot made of bob's seat: bob lost; alice won it where her row ranks her first.
    (family,) = alice.get("/api/players/bob/record").json()["families"]
    assert (family["games"], family["won"], family["lost"], family["drawn"]) == (1, 0, 1, 0)
    (recent,) = alice.get("/api/players/bob/record").json()["recent"]
    assert recent["result"] == "lost"
    hers = alice.get("/api/players/alice/record").json()
    (family,) = hers["families"]
    (recent,) = hers["recent"]
    assert recent["result"] == ("won" if family["won"] == 1 else "lost")
    with hub.store.engine.connect() as connection:
        final = connection.execute(
            sa.select(rating_changes).where(rating_changes.c.rated_table == table)
        ).all()
    by_seat = {row.seat: row for row in final}
    assert set(by_seat) == {0, 1, 2}  # alice and the bot rated at the end, bob once
    assert by_seat[1].rank == 3
    assert by_seat[1].at == rows[0].at  # bob's change is the one made when he left
