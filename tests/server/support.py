"""Helpers shared by the server tests: an app on a fresh SQLite file, and short API calls."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import uvicorn
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from fanfold.server.app import create_app
from fanfold.server.throttle import ClientLimits

#: Header that carries a seat's token.
TOKEN = "X-Fanfold-Token"
#: Limits no test meets unless it means to: every test client is one address, and tests poll
#: and open tables far faster than a person (tests/server/test_limits.py checks the limits).
ROOMY = ClientLimits(
    tables_per_minute=100_000, requests_per_minute=1_000_000, sockets=10_000, spectators=10_000
)

JSON = dict[str, Any]


#: The project's root (the repository's folder).
ROOT = Path(__file__).resolve().parents[2]


def subprocess_environment() -> dict[str, str]:
    """This process's environment for a ``fanfold`` subprocess: the project's own sources
    first on its path, and a terminal 120 columns wide."""
    environment = dict(os.environ)
    source = str(ROOT / "src")
    environment["PYTHONPATH"] = os.pathsep.join(
        part for part in (source, environment.get("PYTHONPATH")) if part
    )
    environment["COLUMNS"] = "120"
    return environment


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def uvicorn_thread(app: Any, *, proxy_headers: bool = True) -> Iterator[int]:
    """``app`` served by uvicorn on a free loopback port, in a thread of this process; yields
    the port, and stops the server at the end."""
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=free_port(),
            log_level="warning",
            proxy_headers=proxy_headers,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield server.config.port
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def sqlite_url(folder: Path, name: str = "fanfold.db") -> str:
    """A SQLite URL for a file in ``folder``."""
    return f"sqlite:///{folder / name}"


@contextmanager
def serve(
    folder: Path,
    *,
    bot_seconds: float | None = 0.5,
    bot_pause: float = 0.0,
    resume: bool = True,
    limits: ClientLimits = ROOMY,
) -> Iterator[TestClient]:
    """A test client on an app whose store is a new SQLite file in ``folder`` (lifespan run)."""
    app = create_app(
        sqlite_url(folder),
        bot_seconds=bot_seconds,
        bot_pause=bot_pause,
        resume=resume,
        limits=limits,
    )
    with TestClient(app) as client:
        yield client


def open_table(client: TestClient, **body: Any) -> JSON:
    """``POST /api/tables``; fails the test unless the table was opened. Every friend's seat
    is claimed with its invitation: ``friends`` maps those seats to the tokens that hold
    them (``invites``: the invitations, spent now)."""
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 200, answer.text
    created: JSON = answer.json()
    assert set(created) == {"table", "token", "invites"}
    created["friends"] = {
        seat: claim(client, created["table"], invite) for seat, invite in created["invites"].items()
    }
    return created


def claim(client: TestClient, table: str, invite: str) -> str:
    """Claim the seat ``invite`` opens; returns the token that holds it now."""
    answer = client.post(f"/api/tables/{table}/claim", json={"invite": invite})
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def look(client: TestClient, table: str, token: str | None = None, seat: int | None = None) -> JSON:
    """The table's message for ``token`` (a spectator's without one); fails unless 200."""
    answer = client.get(
        f"/api/tables/{table}",
        params={} if seat is None else {"seat": seat},
        headers={} if token is None else {TOKEN: token},
    )
    assert answer.status_code == 200, answer.text
    message: JSON = answer.json()
    assert message["type"] == "state"
    return message


def act(
    client: TestClient,
    table: str,
    token: str,
    action: str,
    version: int | None = None,
    seat: int | None = None,
) -> Any:
    """``POST /api/tables/{table}/act`` (the raw response)."""
    body: JSON = {"token": token, "action": action}
    if version is not None:
        body["version"] = version
    if seat is not None:
        body["seat"] = seat
    return client.post(f"/api/tables/{table}/act", json=body)


def wait_for(
    client: TestClient,
    table: str,
    token: str | None,
    ready: Callable[[JSON], bool],
    timeout: float = 20.0,
    seat: int | None = None,
) -> JSON:
    """Poll the table until ``ready(message)``; fails the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        message = look(client, table, token, seat)
        if ready(message):
            return message
        if time.monotonic() > deadline:
            raise AssertionError(
                f"table {table} did not get there in {timeout}s: version {message['version']}, "
                f"decider {message['decider']}, outcome {message['outcome']}"
            )
        time.sleep(0.02)


def my_turn(seat: int) -> Callable[[JSON], bool]:
    """Ready when ``seat`` decides or the game is over."""
    return lambda message: message["decider"] == seat or message["outcome"] is not None


def refused(answer: Any, status: int | tuple[int, ...]) -> JSON:
    """Check an error answer: the status, and ``{"error": sentence, "kind": name}``."""
    wanted = (status,) if isinstance(status, int) else status
    assert answer.status_code in wanted, (answer.status_code, answer.text)
    body: JSON = answer.json()
    assert isinstance(body.get("error"), str), body
    assert len(body["error"]) > 5, body
    assert isinstance(body.get("kind"), str), body
    return body


def fingerprint(message: JSON) -> tuple[Any, ...]:
    """What must not change when a request is refused: version, log, decider and view."""
    return (message["version"], message["log"], message["decider"], message["view"])


def friends_table(client: TestClient) -> tuple[str, str, str]:
    """A Morris table between the creator (White) and a friend (Black), after ``C1 T2``:
    White decides at version 2."""
    created = open_table(client, game="morris", seats=["you", "friend"], seed=3)
    table, token, friend = created["table"], created["token"], created["friends"]["1"]
    assert act(client, table, token, "C1", version=0).status_code == 200
    assert act(client, table, friend, "T2", version=1).status_code == 200
    return table, token, friend


# ------------------------------------------------------------------ sockets


class SilenceError(AssertionError):
    """Nothing came on the socket in time."""


def receive(socket: WebSocketTestSession, timeout: float = 10.0) -> JSON:
    """The next message on ``socket`` as JSON; :class:`SilenceError` after ``timeout`` seconds, and
    ``WebSocketDisconnect`` when the server closed the socket."""

    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await socket._send_rx.receive()

    try:
        message = socket.portal.call(next_message)
    except TimeoutError:
        raise SilenceError(f"no message within {timeout}s") from None
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(code=message.get("code", 1000))
    data: JSON = json.loads(message["text"])
    return data


def silent(socket: WebSocketTestSession, timeout: float = 0.3) -> bool:
    """True when nothing arrives on ``socket`` within ``timeout`` seconds."""
    try:
        message = receive(socket, timeout)
    except SilenceError:
        return True
    raise AssertionError(f"unexpected message {message}")


def receive_until(
    socket: WebSocketTestSession, ready: Callable[[JSON], bool], timeout: float = 10.0
) -> list[JSON]:
    """Messages up to and including the first for which ``ready`` holds."""
    seen: list[JSON] = []
    deadline = time.monotonic() + timeout
    while True:
        message = receive(socket, max(0.05, deadline - time.monotonic()))
        seen.append(message)
        if ready(message):
            return seen


def hello(socket: WebSocketTestSession, token: str | None = None, seat: int | None = None) -> JSON:
    """Say hello (as a seat, or a spectator without a token) and return the answer."""
    message: JSON = {"type": "hello"}
    if token is not None:
        message["token"] = token
    if seat is not None:
        message["seat"] = seat
    socket.send_json(message)
    return receive(socket)


def no_server_started(
    monkeypatch: Any, started: list[uvicorn.Config] | None = None, *, refuse: str | None = None
) -> None:
    """Let ``fanfold serve`` run through to its server without serving: the server it starts
    (:class:`fanfold.server.stopping.DrainingServer`) is replaced by one that appends its
    uvicorn configuration (``config.app``, ``config.port``...) to ``started`` and returns at
    once, and no progress lines are printed; with ``refuse``, starting it fails the test with
    that sentence."""

    class NoServer:
        def __init__(self, config: uvicorn.Config, _state: object) -> None:
            if refuse is not None:
                raise AssertionError(refuse)
            if started is not None:
                started.append(config)
            self.started = True

        def run(self) -> None:
            pass

    monkeypatch.setattr("fanfold.server.stopping.DrainingServer", NoServer)
    # Nor its progress lines: their handler would hold this test's stream, closed after it,
    # and the next test's warm-up in the background would write to it.
    monkeypatch.setattr("fanfold.cli.serve._show_progress", lambda: None)
    # serve writes its log format and name into the environment for the processes it starts:
    # plain text here, and both put back after the test (JSON logging would take the root
    # logger's handlers from the test runner).
    monkeypatch.setenv("FANFOLD_LOG_FORMAT", "text")
    monkeypatch.delenv("FANFOLD_PROCESS_NAME", raising=False)
