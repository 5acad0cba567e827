"""Takebacks at casual tables of two people: asked by one player, accepted (the asker's last
move and every move after it taken back, stored, told to both) or declined by the other, over
HTTP or the table's socket; one request waiting at a time, a few a game, lapsing once a move is
played; on the clock, no time goes back (the asker's clock runs from what it has left); refused
with a sentence, nothing changed, at a rated table, against a bot, at one link's two seats, in
a game with hidden cards, after the end, for a stranger or a malformed answer."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from fanfold.server.clocks import CLOCK, Clocks
from fanfold.server.hub.takebacks import LIMIT
from tests.server.support import (
    JSON,
    act,
    fingerprint,
    friends_table,
    hello,
    look,
    open_table,
    receive_until,
    refused,
)
from tests.server.test_accounts import csrf
from tests.server.test_ratings import browsers, open_rated  # noqa: F401 (a fixture, by name)


def takeback(client: TestClient, table: str, token: str, answer: str, **more: Any) -> Any:
    return client.post(
        f"/api/tables/{table}/takeback", json={"token": token, "answer": answer}, **more
    )


def asked(client: TestClient, table: str, token: str, answer: str) -> JSON:
    answered = takeback(client, table, token, answer)
    assert answered.status_code == 200, answered.text
    body: JSON = answered.json()
    return body


def refusal(client: TestClient, table: str, token: str, answer: str, *, look_as: str) -> str:
    """A refused takeback request: its sentence; the table is as it was."""
    before = look(client, table, look_as)
    body = refused(takeback(client, table, token, answer), (400, 403))
    after = look(client, table, look_as)
    assert fingerprint(after) == fingerprint(before)
    assert after["options"] == before["options"]
    return str(body["error"])


def test_an_accepted_takeback_takes_back_the_askers_move_and_the_ones_after(
    client: TestClient,
) -> None:
    table, white, black = friends_table(client)  # C1 T2: White decides at version 2
    with client.websocket_connect(f"/ws/tables/{table}") as socket:
        hello(socket, black)
        assert asked(client, table, white, "ask") == {"ok": False, "version": 2}
        told = receive_until(socket, lambda m: m.get("type") == "state")[-1]
        assert told["options"]["takeback"] == {"seat": 0, "version": 2}  # Black is told
        assert look(client, table, white)["options"]["takebacks"] == {"0": 1}
        assert asked(client, table, black, "accept") == {"ok": True, "version": 3}
        now = receive_until(socket, lambda m: m.get("type") == "state" and m["version"] == 3)[-1]
    assert now["log"] == []  # C1, and T2 after it, taken back
    assert now["decider"] == 0
    assert "takeback" not in now["options"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.store.load(table).actions == ()  # stored: a restart finds the same game
    assert hub.store.load(table).version == 3
    # White plays again from there; the numbers go on from the table's new version
    assert act(client, table, white, "C3", version=3).status_code == 200
    assert [entry["text"].split()[0] for entry in look(client, table, black)["log"]] == ["C3"]
    # Black has not moved now: nothing of theirs to take back
    sentence = refusal(client, table, black, "ask", look_as=black)
    assert "not moved yet" in sentence


def test_black_takes_back_only_its_own_last_move(client: TestClient) -> None:
    table, white, black = friends_table(client)
    assert act(client, table, white, "C3", version=2).status_code == 200  # C1 T2 C3
    asked(client, table, black, "ask")  # Black's last move is T2: T2 and C3 go
    assert asked(client, table, white, "accept")["ok"] is True
    message = look(client, table, white)
    assert [entry["text"].split()[0] for entry in message["log"]] == ["C1"]
    assert message["decider"] == 1


def test_a_declined_takeback_changes_no_move_and_may_be_asked_again(client: TestClient) -> None:
    table, white, black = friends_table(client)
    before = fingerprint(look(client, table, white))
    asked(client, table, white, "ask")
    assert asked(client, table, black, "decline") == {"ok": False, "version": 2}
    message = look(client, table, white)
    assert fingerprint(message) == before
    assert "takeback" not in message["options"]
    asked(client, table, white, "ask")  # again: the second of the game
    assert look(client, table, black)["options"]["takebacks"] == {"0": 2}


def test_one_request_waits_at_a_time_and_each_player_asks_a_few_a_game(
    client: TestClient,
) -> None:
    table, white, black = friends_table(client)
    asked(client, table, white, "ask")
    assert "waiting for its answer" in refusal(client, table, white, "ask", look_as=white)
    assert "White's takeback is waiting" in refusal(client, table, black, "ask", look_as=black)
    assert "the other player answers" in refusal(client, table, white, "accept", look_as=white)
    asked(client, table, black, "decline")
    assert "no takeback is waiting" in refusal(client, table, black, "accept", look_as=black)
    for _ in range(LIMIT - 1):
        asked(client, table, white, "ask")
        asked(client, table, black, "decline")
    sentence = refusal(client, table, white, "ask", look_as=white)
    assert f"{LIMIT} takebacks a game" in sentence


def test_a_request_lapses_once_a_move_is_played(client: TestClient) -> None:
    table, white, black = friends_table(client)
    asked(client, table, black, "ask")  # Black asks while White decides
    assert act(client, table, white, "C3", version=2).status_code == 200  # White plays on
    assert "no takeback is waiting" in refusal(client, table, white, "accept", look_as=white)
    asked(client, table, black, "ask")  # asked again, at the new position
    assert asked(client, table, white, "accept")["ok"] is True
    assert [entry["text"].split()[0] for entry in look(client, table, white)["log"]] == ["C1"]


def test_a_takeback_is_refused_where_the_table_takes_none(client: TestClient) -> None:
    # against a bot: undo, not a takeback
    bot = open_table(client, game="morris", seats=["you", "random"])
    assert act(client, bot["table"], bot["token"], "C1", version=0).status_code == 200
    sentence = refusal(client, bot["table"], bot["token"], "ask", look_as=bot["token"])
    assert "against a bot" in sentence
    # one link holding both seats: undo
    both = open_table(client, game="morris", seats=["you", "hotseat"])
    assert "one link plays both seats" in refusal(
        client, both["table"], both["token"], "ask", look_as=both["token"]
    )
    # hidden cards
    cards = open_table(client, game="fano", seats=["you", "friend"])
    assert "hidden cards" in refusal(
        client, cards["table"], cards["token"], "ask", look_as=cards["token"]
    )
    # a stranger, and a malformed answer
    table, white, black = friends_table(client)
    assert "only a player" in refusal(client, table, "not-a-token", "ask", look_as=white)
    body = refused(takeback(client, table, white, "maybe"), (400, 422))
    assert "answer" in body["error"]
    assert "takebacks" not in look(client, table, white)["options"]
    # after the end
    ended = client.post(f"/api/tables/{table}/end", json={"token": black, "ending": "resign"})
    assert ended.status_code == 200, ended.text
    assert "the game is over" in refusal(client, table, white, "ask", look_as=white)


def test_a_rated_game_takes_no_takeback(
    browsers: tuple[TestClient, TestClient],  # noqa: F811 (the imported fixture, by name)
) -> None:
    alice, bob = browsers
    table, players = open_rated(alice, bob, "morris", ["you", "friend"], rated=True)
    white, black = players[0][1], players[1][1]
    for client, token, action, version in ((alice, white, "C1", 0), (bob, black, "T2", 1)):
        answer = client.post(
            f"/api/tables/{table}/act",
            json={"token": token, "action": action, "version": version},
            headers=csrf(client),
        )
        assert answer.status_code == 200, answer.text
    before = look(alice, table, white)
    body = refused(takeback(alice, table, white, "ask", headers=csrf(alice)), 400)
    assert "rated game takes no takebacks" in body["error"]
    assert fingerprint(look(alice, table, white)) == fingerprint(before)


def test_a_takeback_on_the_clock_over_the_sockets_leaves_the_times_as_they_are(
    client: TestClient,
) -> None:
    """A casual Morris table on the rapid clock, White to move after C1 T2: Black asks on its
    socket, White accepts on its own; T2 is taken back and, as lichess does, no time goes
    back: White's clock, which ran, is charged its time so far, and Black's clock runs from
    what it had left. A spectator's request, a malformed answer and a second answer are
    refused on the socket, and nothing changes."""
    created = open_table(client, game="morris", seats=["you", "friend"], speed="rapid", seed=3)
    table, white, black = created["table"], created["token"], created["friends"]["1"]
    assert act(client, table, white, "C1", version=0).status_code == 200
    assert act(client, table, black, "T2", version=1).status_code == 200
    hub = client.app.state.hub  # type: ignore[attr-defined]

    def answered(socket: Any, message: JSON) -> JSON:
        socket.send_json(message)
        last: JSON = receive_until(socket, lambda m: m["type"] in ("ok", "error"))[-1]
        return last

    with (
        client.websocket_connect(f"/ws/tables/{table}") as white_socket,
        client.websocket_connect(f"/ws/tables/{table}") as black_socket,
        client.websocket_connect(f"/ws/tables/{table}") as watching,
    ):
        hello(white_socket, white)
        hello(black_socket, black)
        hello(watching)
        refused_here = answered(watching, {"type": "takeback", "answer": "ask"})
        assert "only a player" in refused_here["error"]
        malformed = answered(black_socket, {"type": "takeback", "answer": "maybe"})
        assert (malformed["type"], malformed["kind"]) == ("error", "MalformedRequest")
        assert "takebacks" not in look(client, table, white)["options"]
        assert answered(black_socket, {"type": "takeback", "answer": "ask"})["undone"] is False
        told = receive_until(white_socket, lambda m: "takeback" in m.get("options", {}))[-1]
        assert told["options"]["takeback"] == {"seat": 1, "version": 2}
        before: Clocks = hub.live[table].options.clocks
        assert before.running == 0  # White's clock runs while it decides
        assert answered(white_socket, {"type": "takeback", "answer": "accept"})["undone"] is True
        now = receive_until(black_socket, lambda m: m.get("version") == 3)[-1]
        again = answered(white_socket, {"type": "takeback", "answer": "accept"})
        assert "no takeback is waiting" in again["error"]
    assert [entry["text"].split()[0] for entry in now["log"]] == ["C1"]
    assert (now["decider"], now["clocks"]["running"]) == (1, 1)
    after: Clocks = hub.live[table].options.clocks
    assert before.since is not None
    assert after.since is not None
    ran = after.since - before.since
    assert ran >= 0
    assert after.left[0] == pytest.approx(max(0.0, before.left[0] - ran))  # type: ignore[operator]
    assert after.left[1] == before.left[1]  # Black's clock runs again from what it had
    assert after.running == 1
    stored = hub.store.load(table)
    assert stored.options[CLOCK] == after.to_json()  # kept with the move taken back
    assert act(client, table, black, "T4", version=3).status_code == 200
