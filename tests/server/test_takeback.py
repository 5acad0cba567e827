"""Takebacks at casual tables of two people: asked by one player, accepted (the asker's last
move and every move after it taken back, stored, told to both) or declined by the other; one
request waiting at a time, a few a game, lapsing once a move is played; refused with a
sentence, nothing changed, at a rated table, against a bot, at one link's two seats, in a game
with hidden cards, on the clock, after the end, for a stranger or a malformed answer."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

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
    # on the clock
    clocked = open_table(client, game="morris", seats=["you", "friend"], speed="rapid")
    assert "on the clock" in refusal(
        client, clocked["table"], clocked["token"], "ask", look_as=clocked["token"]
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
