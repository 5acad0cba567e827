"""The WebSocket: hello as a seat or a spectator, acting and undoing, pushes to every watcher,
and every malformed, oversized, forged or flooding message refused without a change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fanfold.core.registry import get_game
from fanfold.server.app import BURST, MAX_MESSAGE
from fanfold.server.ownership import ElsewhereError
from tests.server.support import (
    JSON,
    act,
    fingerprint,
    friends_table,
    hello,
    look,
    open_table,
    receive,
    receive_until,
    serve,
    silent,
)


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with serve(tmp_path) as test_client:
        yield test_client


def connect(client: TestClient, table: str) -> Any:
    return client.websocket_connect(f"/ws/tables/{table}")


def is_error(message: JSON, kind: str | None = None) -> bool:
    return (
        message.get("type") == "error"
        and isinstance(message.get("error"), str)
        and bool(message["error"])
        and (kind is None or message.get("kind") == kind)
    )


def state_at(version: int) -> Any:
    return lambda message: message["type"] == "state" and message["version"] == version


def test_hello_as_a_seat_and_as_a_spectator(client: TestClient) -> None:
    table, token, friend = friends_table(client)
    with connect(client, table) as mine, connect(client, table) as theirs:
        message = hello(mine, token)
        assert message["type"] == "state"
        assert (message["seat"], message["yours"], message["decider"]) == (0, [0], 0)
        assert message["legal"] == look(client, table, token)["legal"] != []
        message = hello(theirs, friend, seat=1)
        assert (message["seat"], message["yours"], message["legal"]) == (1, [1], [])
    with connect(client, table) as watcher:
        message = hello(watcher)
        assert message["type"] == "state"
        assert (message["seat"], message["yours"], message["legal"]) == (None, [], [])
        assert message["view"]["player"] is None
        assert message["view"]["position"] == look(client, table, token)["view"]["position"]
        assert message["version"] == 2
    with connect(client, table) as wrong:
        assert is_error(hello(wrong, token, seat=1), "ForbiddenError")
        assert is_error(hello(wrong, token, seat=7), "ForbiddenError")
        assert hello(wrong, token)["seat"] == 0  # a refused hello leaves the door open


def _no_spectator_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make Fano a game with hidden cards and no spectator's view (as a new game may be)."""

    def refuse(self: Any, state: Any) -> Any:
        raise NotImplementedError(f"{self.title} has no spectator view yet")

    monkeypatch.setattr(type(get_game("fano")), "public_view", refuse)


def test_no_spectators_where_hidden_cards_have_no_public_view(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_spectator_view(monkeypatch)
    created = open_table(client, game="fano", seats=["you", "random"], seed=3)
    with connect(client, created["table"]) as socket:
        assert is_error(hello(socket), "ForbiddenError")
        assert is_error(hello(socket, "forged"), "ForbiddenError")
        message = hello(socket, created["token"])  # the refusals registered nothing
        assert message["type"] == "state"
        assert message["seat"] == 0
        assert message["view"]["hand"]


def test_a_fan_tan_spectator_sees_no_hand(client: TestClient) -> None:
    created = open_table(client, game="fantan", seats=["you", "random", "random", "random"])
    hand = look(client, created["table"], created["token"])["view"]["hand"]
    with connect(client, created["table"]) as socket:
        message = hello(socket)
        assert (message["seat"], message["yours"], message["legal"]) == (None, [], [])
        assert message["view"]["hand"] == []
        assert not any(f'"{card}"' in json.dumps(message) for card in hand)


def test_a_forged_token_is_refused(client: TestClient) -> None:
    table, token, _ = friends_table(client)
    before = fingerprint(look(client, table, token))
    with connect(client, table) as socket:
        assert is_error(hello(socket, "x" * 32), "ForbiddenError")
        socket.send_json({"type": "act", "version": 2, "action": "C2"})
        assert is_error(receive(socket))
        socket.send_json({"type": "hello", "token": token[:-1]})
        assert is_error(receive(socket), "ForbiddenError")
        assert silent(socket)
    assert fingerprint(look(client, table, token)) == before


def test_an_unknown_table_is_refused_and_closed(client: TestClient) -> None:
    with connect(client, "no-such-table") as socket:
        assert is_error(receive(socket), "NotFoundError")
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(socket)
        assert closed.value.code == 4404


def test_a_table_moving_between_processes_is_refused_with_try_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket opened while its table is handed from one process to another is closed with
    4503 (try again soon), which the page answers by asking again shortly: not a store failure."""
    table, _, _ = friends_table(client)

    async def elsewhere(table_id: str) -> Any:
        raise ElsewhereError("this table is played by another server process just now; try again")

    monkeypatch.setattr(client.app.state.hub, "get", elsewhere)  # type: ignore[attr-defined]
    with connect(client, table) as socket:
        assert is_error(receive(socket), "ElsewhereError")
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(socket)
        assert closed.value.code == 4503


def test_act_and_undo_reach_every_watcher(client: TestClient) -> None:
    created = open_table(client, game="morris", seats=["you", "random"], seed=4)
    table, token = created["table"], created["token"]
    with connect(client, table) as player, connect(client, table) as watcher:
        first = hello(player, token)
        assert hello(watcher)["version"] == 0
        move = first["legal"][0]
        player.send_json({"type": "act", "version": 0, "action": move})
        seen = receive_until(player, state_at(2))  # my move, then the bot's
        assert {"protocol": 1, "type": "ok", "played": move, "number": 1} in seen
        states = [m for m in seen if m["type"] == "state"]
        assert [m["version"] for m in states] == [1, 2]
        entry = states[-1]["log"][0]
        assert (entry["number"], entry["seat"], entry["text"]) == (1, 0, move)
        assert entry["words"]
        assert states[-1]["legal"]
        pushed = receive_until(watcher, state_at(2))
        assert [m["version"] for m in pushed] == [1, 2]
        assert all(m["seat"] is None and m["legal"] == [] for m in pushed)
        assert pushed[-1]["view"] == look(client, table)["view"]
        # undo takes both back and tells everyone
        player.send_json({"type": "undo", "version": 2})
        seen = receive_until(player, lambda m: m["type"] == "ok")
        assert seen[-1] == {"protocol": 1, "type": "ok", "undone": True}
        assert [(m["version"], m["log"]) for m in seen if m["type"] == "state"] == [(3, [])]
        pushed = receive_until(watcher, state_at(3))
        assert pushed[-1]["log"] == []
        assert pushed[-1]["view"] == hello_view(client, table)
        # a stale undo or act is refused and changes nothing
        player.send_json({"type": "undo", "version": 2})
        assert is_error(receive(player), "StaleVersionError")
        player.send_json({"type": "act", "version": 2, "action": move})
        assert is_error(receive(player), "StaleVersionError")
        assert silent(watcher)
        assert look(client, table, token)["version"] == 3


def hello_view(client: TestClient, table: str) -> Any:
    return look(client, table)["view"]


def test_hot_seat_players_act_for_whoever_decides(client: TestClient) -> None:
    created = open_table(client, game="morris", seats=["you", "hotseat"], seed=1)
    table, token = created["table"], created["token"]
    with connect(client, table) as socket:
        message = hello(socket, token)
        assert (message["seat"], message["yours"]) == (0, [0, 1])
        for version in range(4):
            socket.send_json({"type": "act", "version": version, "action": message["legal"][0]})
            seen = receive_until(socket, lambda m: m["type"] in ("ok", "error"))
            assert seen[-1]["type"] == "ok", seen[-1]
            assert seen[-1]["number"] == version + 1
            # the legal moves of the seat that decides now
            message = look(client, table, token)
            assert message["decider"] == (version + 1) % 2
            assert message["seat"] == message["decider"]
        socket.send_json({"type": "view", "seat": 1})
        assert receive(socket)["seat"] == 1
        socket.send_json({"type": "view", "seat": 2})
        assert is_error(receive(socket), "ForbiddenError")
        socket.send_json({"type": "act", "version": 4, "action": "Q9"})
        assert is_error(receive(socket), "NotationError")


def test_a_fano_spectator_sees_no_hidden_card(client: TestClient) -> None:
    created = open_table(client, game="fano", seats=["you", "friend"], seed=3)
    table = created["table"]
    hands = [
        look(client, table, token)["view"]["hand"]
        for token in (created["token"], created["friends"]["1"])
    ]
    with connect(client, table) as socket:
        message = hello(socket)
        assert (message["seat"], message["yours"], message["legal"]) == (None, [], [])
        view = message["view"]
        assert view["player"] is None
        assert view["hand"] == view["face_down_discards"] == view["face_down_in_play"] == []
        assert [player["hand_count"] for player in view["players"]] == [len(hand) for hand in hands]
        shown = json.dumps(message)
        for card in hands[0] + hands[1]:
            assert f'"{card}"' not in shown
        socket.send_json({"type": "act", "version": message["version"], "action": "pass"})
        assert is_error(receive(socket), "ForbiddenError")  # watching holds no seat


def test_a_refused_view_keeps_the_watcher(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asking for the spectator's view of a game that has none, or for another seat, is
    refused, and the socket still hears the table as its seat."""
    _no_spectator_view(monkeypatch)
    created = open_table(client, game="fano", seats=["you", "friend"], seed=5)
    table = created["table"]
    tokens = [created["token"], created["friends"]["1"]]
    seat = look(client, table, tokens[0])["decider"]
    token = tokens[seat]
    with connect(client, table) as socket:
        first = hello(socket, token)
        assert first["seat"] == seat
        socket.send_json({"type": "view"})
        assert is_error(receive(socket), "ForbiddenError")
        socket.send_json({"type": "view", "seat": 1 - seat})
        assert is_error(receive(socket), "ForbiddenError")
        answer = act(client, table, token, first["legal"][0], first["version"])
        assert answer.status_code == 200, answer.text
        pushed = receive(socket)
        assert pushed["type"] == "state"
        assert (pushed["seat"], pushed["version"]) == (seat, first["version"] + 1)
        assert pushed["log"][-1]["text"] == first["legal"][0]


MALFORMED: list[str] = [
    "not json",
    "",
    "[1, 2, 3]",
    '"act"',
    "42",
    "null",
    "{}",
    '{"type": "dance"}',
    '{"type": 7}',
    '{"type": "act"}',
    '{"type": "act", "action": 5}',
    '{"type": "act", "action": ["C2"]}',
    '{"type": "act", "action": "C2", "version": "two"}',
    '{"type": "act", "action": "C2", "version": -1}',
    '{"type": "act", "action": "C2", "seat": 99}',
    '{"type": "act", "action": "C2", "cheat": true}',
    '{"type": "act", "action": "C2", "token": "x"}',
    '{"type": "undo", "version": "x"}',
    '{"type": "undo", "extra": 1}',
    '{"type": "view", "seat": "zero"}',
    '{"type": "hello"}',
    '{"type": "act", "action": "' + "C" * 401 + '"}',
    "{" * 50,
]


def test_malformed_messages_answer_errors_and_change_nothing(client: TestClient) -> None:
    table, token, _ = friends_table(client)
    before = fingerprint(look(client, table, token))
    with connect(client, table) as socket, connect(client, table) as watcher:
        for text in ["not json", "[]", '{"type": "act", "action": "C2"}', '{"type": "hi"}']:
            socket.send_text(text)  # before hello, too
            assert is_error(receive(socket))
        assert hello(socket, token)["version"] == 2
        assert hello(watcher)["version"] == 2
        for text in MALFORMED:
            socket.send_text(text)
            answer = receive(socket)
            assert is_error(answer), (text, answer)
            assert answer["kind"] in ("MalformedRequest", "TooLarge"), (text, answer)
        socket.send_bytes(b'{"type": "view"}')  # binary frames are not messages
        assert is_error(receive(socket), "MalformedRequest")
        assert silent(watcher)
        assert fingerprint(look(client, table, token)) == before
        # the socket still works
        socket.send_json({"type": "view"})
        assert receive(socket)["version"] == 2


def test_an_oversized_message_is_refused(client: TestClient) -> None:
    table, token, _ = friends_table(client)
    before = fingerprint(look(client, table, token))
    legal = look(client, table, token)["legal"][0]
    with connect(client, table) as socket:
        hello(socket, token)
        padding = "x" * MAX_MESSAGE
        socket.send_text(json.dumps({"type": "act", "version": 2, "action": legal, "p": padding}))
        assert is_error(receive(socket), "TooLarge")
        # the limit is in bytes: fewer characters than the limit can still be too many bytes
        wide = "\u20ac" * (MAX_MESSAGE // 2)
        socket.send_text(json.dumps({"type": "act", "action": wide}, ensure_ascii=False))
        assert is_error(receive(socket), "TooLarge")
        assert fingerprint(look(client, table, token)) == before
        socket.send_json({"type": "act", "version": 2, "action": legal})
        assert receive_until(socket, lambda m: m["type"] == "ok")[-1]["played"] == legal


def test_a_flood_is_refused_and_closed(client: TestClient) -> None:
    table, token, _ = friends_table(client)
    before = fingerprint(look(client, table, token))
    legal = look(client, table, token)["legal"][0]
    sent = int(BURST) * 4
    with connect(client, table) as socket:
        hello(socket, token)
        for _ in range(sent):
            socket.send_text('{"type": "act", "action": "Q9"}')
        socket.send_json({"type": "act", "version": 2, "action": legal})  # too late
        answers: list[JSON] = []
        code = None
        while code is None:
            try:
                answers.append(receive(socket))
            except WebSocketDisconnect as closed:
                code = closed.code
        assert code == 1008
    assert all(is_error(answer) for answer in answers)
    assert answers[-1]["kind"] == "Flood"
    assert int(BURST) - 1 <= len(answers) < sent
    assert fingerprint(look(client, table, token)) == before


def test_socket_messages_are_sent_to_the_right_watchers_only(client: TestClient) -> None:
    created = open_table(client, game="fantan", seats=["you", "friend", "random", "random"], seed=9)
    table, token, friend = created["table"], created["token"], created["friends"]["1"]
    with connect(client, table) as mine, connect(client, table) as theirs:
        first = hello(mine, token)
        other = hello(theirs, friend)
        assert (first["seat"], other["seat"]) == (0, 1)
        assert set(first["view"]["hand"]).isdisjoint(other["view"]["hand"])
        mine.send_json({"type": "act", "version": 0, "action": first["legal"][0]})
        seen = receive_until(mine, lambda m: m["type"] == "ok")
        pushed = receive_until(theirs, state_at(1))[-1]
        assert pushed["seat"] == 1
        assert pushed["view"]["hand"] == other["view"]["hand"]
        assert pushed["legal"] == look(client, table, friend)["legal"]
        for message in seen:
            if message["type"] == "state":
                assert message["seat"] == 0
                assert not set(message["view"]["hand"]) & set(other["view"]["hand"])
