"""The protocol, byte for byte: fixed-seed tables of every game driven through the app, every
message in and out compared with the files in ``tests/server/snapshots/``.

What differs from run to run (table ids, tokens, invitations, times, a clock's time left) is
replaced by placeholders before comparing. A change to a message must be meant: rewrite the
files with ``FANFOLD_SNAPSHOT_UPDATE=1 python3 -m pytest tests/server/test_protocol_snapshot.py``
and read their diff (a later feature adds fields; it never changes or drops one without a new
protocol version: see docs/server/protocol.md).
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.server.support import TOKEN, serve, wait_for

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("FANFOLD_SNAPSHOT_UPDATE") == "1"

JSON = dict[str, Any]
#: Numbers that say when: a table's last change, a clock's time left (a number, or the seats'
#: list in the stored clock state), when the running clock started, a chat line's time.
_TIMES = re.compile(r'"(updated|left|at|since)": ?(-?[0-9.eE+-]+|\[[^\]]*\])')


def _placeholder(found: re.Match[str]) -> str:
    """A time as its placeholder: ``"left": "<left>"``; a list of times (the seats' clocks)
    as a list of placeholders, a bot's ``null`` kept."""
    name, value = found.group(1), found.group(2)
    if not value.startswith("["):
        return f'"{name}": "<{name}>"'
    items = [item.strip() for item in value[1:-1].split(",") if item.strip()]
    return (
        f'"{name}": ['
        + ", ".join("null" if item == "null" else f'"<{name}>"' for item in items)
        + "]"
    )


class Recorder:
    """Drives the app and writes down every message in and out, with placeholders for what is
    random (:meth:`secret`)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.entries: list[JSON] = []
        self._secrets: dict[str, str] = {}

    def secret(self, value: str, kind: str) -> None:
        """Say ``value`` (a table id, a token, an invitation) is random: it is written as
        ``<kind-N>``."""
        if value not in self._secrets:
            count = sum(1 for name in self._secrets.values() if name.startswith(f"<{kind}-"))
            self._secrets[value] = f"<{kind}-{count + 1}>"

    def scrub(self, text: str) -> str:
        for value, name in sorted(self._secrets.items(), key=lambda item: -len(item[0])):
            text = text.replace(value, name)
        return _TIMES.sub(_placeholder, text)

    def http(
        self,
        method: str,
        path: str,
        body: JSON | None = None,
        *,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        learn: Callable[[Any], None] | None = None,
    ) -> Any:
        """One request, written down; returns its answer as JSON. ``learn`` is told the
        answer first (to name the secrets in it)."""
        sent = dict(headers or {})
        if token is not None:
            sent[TOKEN] = token
        content = None if body is None else json.dumps(body)
        answer = self.client.request(
            method,
            path,
            content=content,
            headers={**sent, "content-type": "application/json"} if content else sent,
        )
        if learn is not None:
            learn(answer.json())
        self.entries.append(
            {
                "via": self.scrub(f"{method} {path}"),
                "headers": self.scrub(json.dumps(sorted(sent.items()))) if sent else None,
                "in": None if content is None else self.scrub(content),
                "status": answer.status_code,
                "out": self.scrub(answer.text),
            }
        )
        return answer.json()

    def send(self, socket: WebSocketTestSession, name: str, message: JSON) -> None:
        text = json.dumps(message)
        socket.send_text(text)
        self.entries.append({"via": f"ws {name}", "in": self.scrub(text)})

    def receive(self, socket: WebSocketTestSession, name: str) -> JSON:
        """The next message on ``socket``, written down as the server's own text."""

        async def next_message() -> Any:
            with anyio.fail_after(10):
                return await socket._send_rx.receive()

        frame = socket.portal.call(next_message)
        assert frame["type"] == "websocket.send", frame
        self.entries.append({"via": f"ws {name}", "out": self.scrub(frame["text"])})
        message: JSON = json.loads(frame["text"])
        return message

    def open(self, body: JSON) -> JSON:
        created: JSON = self.http("POST", "/api/tables", body, learn=self.created)
        return created

    def created(self, answer: JSON) -> None:
        """Name the secrets of a new table's answer."""
        assert "table" in answer, answer
        self.secret(answer["table"], "table")
        self.secret(answer["token"], "token")
        for invite in answer["invites"].values():
            self.secret(invite, "invite")

    def compare(self, name: str, *, update: bool = UPDATE) -> None:
        path = SNAPSHOTS / f"{name}.json"
        text = json.dumps(self.entries, indent=1, ensure_ascii=False) + "\n"
        if update:
            SNAPSHOTS.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        assert path.exists(), f"no snapshot {path.name}: run with FANFOLD_SNAPSHOT_UPDATE=1"
        stored = json.loads(path.read_text(encoding="utf-8"))
        assert len(stored) == len(self.entries), (len(stored), len(self.entries))
        for number, (old, new) in enumerate(zip(stored, self.entries, strict=True)):
            assert old == new, f"{name}, message {number}: {old} != {new}"


@pytest.fixture
def recorder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorder]:
    # The bots' seed is drawn from the operating system; fixed here, so they play the same.
    monkeypatch.setattr(secrets, "randbits", lambda bits: 12345 % (1 << bits))
    with serve(tmp_path) as client:
        yield Recorder(client)


def _first_legal(rec: Recorder, table: str, token: str, moves: int) -> JSON:
    """``moves`` actions over HTTP, each the first legal one for the decider; returns the last
    state seen."""
    state: JSON = rec.http("GET", f"/api/tables/{table}", token=token)
    for _ in range(moves):
        if not state["legal"]:
            break
        body = {"token": token, "version": state["version"], "action": state["legal"][0]}
        rec.http("POST", f"/api/tables/{table}/act", body)
        state = rec.http("GET", f"/api/tables/{table}", token=token)
    return state


def _socket_round(rec: Recorder, client: TestClient, table: str, token: str, undo: bool) -> None:
    """A seat and a spectator on sockets: hello, an action, a view of another seat, an undo,
    a malformed and a stale message."""
    with (
        client.websocket_connect(f"/ws/tables/{table}") as seat,
        client.websocket_connect(f"/ws/tables/{table}") as spectator,
    ):
        rec.send(seat, "seat", {"type": "hello", "token": token})
        state = rec.receive(seat, "seat")
        rec.send(spectator, "spectator", {"type": "hello"})
        rec.receive(spectator, "spectator")
        if state["legal"]:
            act = {"type": "act", "version": state["version"], "action": state["legal"][0]}
            rec.send(seat, "seat", act)
            rec.receive(seat, "seat")  # the new state
            rec.receive(seat, "seat")  # ok
            rec.receive(spectator, "spectator")
        others = [n for n in state["yours"] if n != state["seat"]]
        if others:
            rec.send(seat, "seat", {"type": "view", "seat": others[0]})
            rec.receive(seat, "seat")
        if undo:
            rec.send(seat, "seat", {"type": "undo"})
            rec.receive(seat, "seat")  # the state taken back
            rec.receive(seat, "seat")  # ok
            rec.receive(spectator, "spectator")
        rec.send(seat, "seat", {"type": "act", "version": 0, "action": "nonsense"})
        rec.receive(seat, "seat")
        rec.send(seat, "seat", {"type": "wave"})
        rec.receive(seat, "seat")
        rec.send(spectator, "spectator", {"type": "act", "action": "x"})
        rec.receive(spectator, "spectator")


def _hot_seat(
    rec: Recorder, body: JSON, moves: int, *, undo: bool, replay: bool
) -> tuple[str, str]:
    created = rec.open(body)
    table, token = created["table"], created["token"]
    state = _first_legal(rec, table, token, moves)
    rec.http("POST", f"/api/tables/{table}/act", {"token": token, "version": 0, "action": "?"})
    rec.http("POST", f"/api/tables/{table}/act", {"token": "forged", "action": "x"})
    rec.http("GET", f"/api/tables/{table}")  # a spectator
    if undo:
        rec.http("POST", f"/api/tables/{table}/undo", {"token": token, "version": state["version"]})
    rec.http("GET", f"/api/tables/{table}/replay?step=1")
    if replay:
        rec.http("GET", f"/api/tables/{table}/replay?step=1&seat=0")
    _socket_round(rec, rec.client, table, token, undo)
    return table, token


GAMES: dict[str, Callable[[Recorder], None]] = {}


def scenario(function: Callable[[Recorder], None]) -> Callable[[Recorder], None]:
    GAMES[function.__name__] = function
    return function


@scenario
def morris(rec: Recorder) -> None:
    _hot_seat(
        rec, {"game": "morris", "seats": ["you", "hotseat"], "seed": 7}, 4, undo=True, replay=True
    )


@scenario
def fano_classic(rec: Recorder) -> None:
    body = {"game": "fano", "variant": "classic", "seats": ["you", "you"], "seed": 11}
    _hot_seat(rec, body, 3, undo=False, replay=False)


@scenario
def fano_trionfey(rec: Recorder) -> None:
    body = {
        "game": "fano",
        "variant": "trionfey",
        "seats": ["you", "you"],
        "seed": 12,
        "time_limit": 600,
    }
    _hot_seat(rec, body, 3, undo=False, replay=False)


@scenario
def fantan(rec: Recorder) -> None:
    body = {"game": "fantan", "seats": ["you", "you", "you", "you"], "seed": 13, "practice": True}
    _hot_seat(rec, body, 4, undo=True, replay=False)


@scenario
def fan(rec: Recorder) -> None:
    _hot_seat(rec, {"game": "fan", "seats": ["you"], "seed": 14}, 3, undo=True, replay=True)


@scenario
def lobby_and_friends(rec: Recorder) -> None:
    rec.http("GET", "/api/games")
    created = rec.open({"game": "morris", "seats": ["you", "friend"], "seed": 3, "public": True})
    table, token = created["table"], created["token"]
    invite = created["invites"]["1"]
    rec.http("GET", f"/api/tables/{table}/invitation", headers={"X-Fanfold-Invite": invite})
    claimed = rec.http(
        "POST",
        f"/api/tables/{table}/claim",
        {"invite": invite},
        learn=lambda answer: rec.secret(answer["token"], "token"),
    )
    rec.http("POST", f"/api/tables/{table}/claim", {"invite": invite})  # spent
    rec.http("POST", f"/api/tables/{table}/invite", {"token": token, "seat": 1})  # still there
    rec.http(
        "POST",
        f"/api/tables/{table}/invite",
        {"token": token, "seat": 0},  # not a friend's seat
    )
    rec.http("POST", f"/api/tables/{table}/act", {"token": token, "version": 0, "action": "C1"})
    rec.http("GET", f"/api/tables/{table}", token=claimed["token"])
    rec.http("GET", "/api/tables")
    rec.http("GET", "/api/tables/nosuchtable")
    rec.http("POST", "/api/tables", {"game": "chess"})
    rec.http("POST", "/api/tables", {"game": "morris", "seats": 3})


@scenario
def bots(rec: Recorder) -> None:
    created = rec.open({"game": "morris", "seats": ["you", "random"], "seed": 21})
    table, token = created["table"], created["token"]
    state = rec.http("GET", f"/api/tables/{table}", token=token)
    for _ in range(3):
        body = {"token": token, "version": state["version"], "action": state["legal"][0]}
        rec.http("POST", f"/api/tables/{table}/act", body)
        wait_for(rec.client, table, token, lambda m: m["decider"] == 0 and m["thinking"] is None)
        state = rec.http("GET", f"/api/tables/{table}", token=token)
    rec.http("GET", f"/api/tables/{table}/analysis/values", token=token)
    rec.http("GET", f"/api/tables/{table}/analysis/nothing", token=token)


@scenario
def records(rec: Recorder) -> None:
    created = rec.open({"game": "morris", "seats": ["you", "hotseat"], "seed": 5})
    table, token = created["table"], created["token"]
    _first_legal(rec, table, token, 2)
    answer = rec.client.get(f"/api/tables/{table}/record")
    rec.entries.append(
        {
            "via": "GET record",
            "status": answer.status_code,
            "out": answer.text,
            "disposition": rec.scrub(answer.headers["content-disposition"]),
        }
    )
    loaded = rec.http("POST", "/api/records", {"text": answer.text}, learn=rec.created)
    rec.http("GET", f"/api/tables/{loaded['table']}", token=loaded["token"])
    rec.http("POST", "/api/records", {"record": answer.json()}, learn=rec.created)
    rec.http("POST", "/api/records", {"text": "not a record"})
    rec.http("POST", "/api/records", {})


@scenario
def chat(rec: Recorder) -> None:
    """A seat and a spectator in the table's chat: the rooms, a line, refusals."""
    created = rec.open({"game": "morris", "seats": ["you", "friend"], "seed": 9})
    table, token = created["table"], created["token"]
    with (
        rec.client.websocket_connect(f"/ws/tables/{table}") as seat,
        rec.client.websocket_connect(f"/ws/tables/{table}") as spectator,
    ):
        rec.send(seat, "seat", {"type": "hello", "token": token, "chat": True})
        rec.receive(seat, "seat")  # the state
        rec.receive(seat, "seat")  # the players' room
        rec.send(seat, "seat", {"type": "chat", "room": "players", "text": "Good luck"})
        rec.receive(seat, "seat")
        rec.send(seat, "seat", {"type": "chat", "room": "players", "text": " \u0007 "})
        rec.receive(seat, "seat")
        rec.send(spectator, "spectator", {"type": "hello", "chat": True})
        rec.receive(spectator, "spectator")
        rec.receive(spectator, "spectator")  # the spectators' room: no players' line
        rec.send(spectator, "spectator", {"type": "chat", "room": "players", "text": "hi"})
        rec.receive(spectator, "spectator")
        rec.send(spectator, "spectator", {"type": "chat", "room": "spectators", "text": "hi"})
        rec.receive(spectator, "spectator")


@scenario
def takeback_and_rematch(rec: Recorder) -> None:
    """Two people at a casual table: a takeback asked, told to the other's socket in the
    state's options, refused while it waits, accepted; the game resigned and its rematch
    asked at the same seats."""
    created = rec.open({"game": "morris", "seats": ["you", "friend"], "seed": 15})
    table, white = created["table"], created["token"]
    black = rec.http(
        "POST",
        f"/api/tables/{table}/claim",
        {"invite": created["invites"]["1"]},
        learn=lambda answer: rec.secret(answer["token"], "token"),
    )["token"]
    rec.http("POST", f"/api/tables/{table}/act", {"token": white, "version": 0, "action": "C1"})
    rec.http("POST", f"/api/tables/{table}/act", {"token": black, "version": 1, "action": "T2"})
    with rec.client.websocket_connect(f"/ws/tables/{table}") as socket:
        rec.send(socket, "black", {"type": "hello", "token": black})
        rec.receive(socket, "black")
        rec.http("POST", f"/api/tables/{table}/takeback", {"token": white, "answer": "ask"})
        rec.receive(socket, "black")  # the request, in the options
        rec.http("POST", f"/api/tables/{table}/takeback", {"token": white, "answer": "ask"})
        rec.http("POST", f"/api/tables/{table}/takeback", {"token": black, "answer": "maybe"})
        rec.http("POST", f"/api/tables/{table}/takeback", {"token": black, "answer": "accept"})
        rec.receive(socket, "black")  # both moves taken back
    rec.http("POST", f"/api/tables/{table}/end", {"token": white, "ending": "resign"})
    rec.http(
        "POST",
        f"/api/tables/{table}/rematch",
        {"token": white, "seats": "same"},
        learn=lambda answer: rec.secret(answer["table"], "table"),
    )
    rec.http("GET", f"/api/tables/{table}", token=black)


@scenario
def takeback_on_the_socket(rec: Recorder) -> None:
    """Two people at a casual table on the rapid clock: a malformed takeback refused on a
    socket, a takeback asked on Black's socket and accepted on White's, each told to the
    other's socket (the clocks' times are placeholders)."""
    created = rec.open({"game": "morris", "seats": ["you", "friend"], "seed": 15, "speed": "rapid"})
    table, white = created["table"], created["token"]
    black = rec.http(
        "POST",
        f"/api/tables/{table}/claim",
        {"invite": created["invites"]["1"]},
        learn=lambda answer: rec.secret(answer["token"], "token"),
    )["token"]
    rec.http("POST", f"/api/tables/{table}/act", {"token": white, "version": 0, "action": "C1"})
    rec.http("POST", f"/api/tables/{table}/act", {"token": black, "version": 1, "action": "T2"})
    with (
        rec.client.websocket_connect(f"/ws/tables/{table}") as white_socket,
        rec.client.websocket_connect(f"/ws/tables/{table}") as black_socket,
    ):
        rec.send(white_socket, "white", {"type": "hello", "token": white})
        rec.receive(white_socket, "white")
        rec.send(black_socket, "black", {"type": "hello", "token": black})
        rec.receive(black_socket, "black")
        rec.send(black_socket, "black", {"type": "takeback", "answer": "maybe"})
        rec.receive(black_socket, "black")  # refused: malformed
        rec.send(black_socket, "black", {"type": "takeback", "answer": "ask"})
        rec.receive(black_socket, "black")  # the request, in the options
        rec.receive(black_socket, "black")  # then the ok
        rec.receive(white_socket, "white")  # the request, told to White
        rec.send(white_socket, "white", {"type": "takeback", "answer": "accept"})
        rec.receive(white_socket, "white")  # T2 taken back, Black's clock running
        rec.receive(white_socket, "white")  # then the ok
        rec.receive(black_socket, "black")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_message_is_as_recorded(recorder: Recorder, name: str) -> None:
    GAMES[name](recorder)
    recorder.compare(name)


def test_a_changed_message_is_seen(recorder: Recorder) -> None:
    """The comparison fails on one changed byte (the check can fail)."""
    GAMES["fan"](recorder)
    recorder.compare("fan")
    recorder.entries[3]["out"] = recorder.entries[3]["out"].replace('"', "'", 1)
    with pytest.raises(AssertionError, match="message 3"):
        recorder.compare("fan", update=False)
