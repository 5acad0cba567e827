"""Helpers shared by the server tests: an app on a fresh SQLite file, and short API calls."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import sqlalchemy as sa
import uvicorn
from alembic.config import Config
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from fanfold.server import logs
from fanfold.server.app import create_app
from fanfold.server.store import SeatPlan, Store, TablePlan
from fanfold.server.store.engine import MIGRATIONS
from fanfold.server.store.protocols import TableStore
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
#: Debian's PostgreSQL 15 programs (initdb, pg_ctl, createdb, pg_dump...).
PG_BIN = Path("/usr/lib/postgresql/15/bin")


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


#: The longest a test server may take to stop once told to, with pages still open. A server
#: whose socket handlers end when their clients go (or when it stops) takes a fraction of a
#: second; the allowance is for a machine busy with other work.
STOP_SECONDS = 5.0


@contextmanager
def uvicorn_server(
    app: Any, *, proxy_headers: bool = True, port: int | None = None
) -> Iterator[uvicorn.Server]:
    """``app`` served by uvicorn on a loopback port (a free one unless given), in a thread of
    this process; yields uvicorn's server (its port is ``server.config.port``, the tasks of its
    requests ``server.server_state.tasks``), stops it at the end and checks that it stopped
    within :data:`STOP_SECONDS` (a request's task outliving its client holds it up)."""
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=free_port() if port is None else port,
            log_level="warning",
            proxy_headers=proxy_headers,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        assert thread.is_alive(), "the server stopped while starting"
        time.sleep(0.05)
    try:
        yield server
    finally:
        server.should_exit = True
        thread.join(timeout=STOP_SECONDS)
        stopped = not thread.is_alive()
        left = (len(server.server_state.connections), len(server.server_state.tasks))
        if not stopped:
            thread.join(timeout=30)  # not left running into the next test
    assert stopped, (
        f"the server did not stop within {STOP_SECONDS:g} s: {left[0]} connections and "
        f"{left[1]} request tasks left then"
    )


@contextmanager
def uvicorn_thread(app: Any, *, proxy_headers: bool = True) -> Iterator[int]:
    """``app`` served by uvicorn on a free loopback port, in a thread of this process; yields
    the port, and stops the server at the end (:func:`uvicorn_server`)."""
    with uvicorn_server(app, proxy_headers=proxy_headers) as server:
        yield server.config.port


def sqlite_url(folder: Path, name: str = "fanfold.db") -> str:
    """A SQLite URL for a file in ``folder``."""
    return f"sqlite:///{folder / name}"


#: A new store's SQLite file, made once a process (:func:`new_store_file`).
_NEW_STORE: list[Path] = []


def new_store_file(folder: Path) -> None:
    """``folder``'s ``fanfold.db``, where there is none yet, as a new store makes it (its
    schema migrated to the newest revision): a copy of one made by :class:`Store` once a
    process, instead of the migrations run again for each test's server (a few tenths of a
    second each)."""
    target = folder / "fanfold.db"
    if target.exists():
        return  # a store the test made, or one its earlier server left: resumed as it is
    if not _NEW_STORE:
        made = Path(tempfile.mkdtemp(prefix="fanfold-new-store-")) / "fanfold.db"
        atexit.register(shutil.rmtree, made.parent, True)  # the process leaves no folder behind
        Store(sqlite_url(made.parent)).close()
        assert not made.with_name("fanfold.db-wal").exists()  # all of it in the one file
        _NEW_STORE.append(made)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_NEW_STORE[0], target)


@contextmanager
def serve(
    folder: Path,
    *,
    bot_seconds: float | None = 0.5,
    bot_pause: float = 0.0,
    resume: bool = True,
    limits: ClientLimits = ROOMY,
) -> Iterator[TestClient]:
    """A test client on an app whose store is a SQLite file in ``folder`` (new, as
    :func:`new_store_file` makes it, unless one is there already; lifespan run)."""
    new_store_file(folder)
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
    once, no port is bound (``tests/cli/test_serve_ports.py`` binds them), no progress lines
    are printed and no log handler is set up; with ``refuse``, starting it fails the test with
    that sentence."""

    class NoServer:
        def __init__(self, config: uvicorn.Config, _state: object) -> None:
            if refuse is not None:
                raise AssertionError(refuse)
            if started is not None:
                started.append(config)
            self.started = True

        def run(self, sockets: list[Any] | None = None) -> None:
            assert not sockets

    monkeypatch.setattr("fanfold.server.stopping.DrainingServer", NoServer)
    monkeypatch.setattr("fanfold.cli.serve._bind", lambda *_: [])

    def configure(log_format: str, name: str | None = None) -> None:
        del log_format, name
        logs.level_of_environment()  # refused as serve refuses it

    # Its log's handler would take the root logger's from the test runner, and write to this
    # test's stream, closed after it.
    monkeypatch.setattr(logs, "configure", configure)
    # Nor its progress lines: their handler would hold this test's stream, closed after it,
    # and the next test's warm-up in the background would write to it.
    monkeypatch.setattr("fanfold.cli.serve._show_progress", lambda: None)
    # serve writes its log format and name into the environment for the processes it starts:
    # plain text here, and both put back after the test (JSON logging would take the root
    # logger's handlers from the test runner).
    monkeypatch.setenv("FANFOLD_LOG_FORMAT", "text")
    # Set, then removed: what is put back is the environment before the test, even where
    # serve writes the variable (a delenv alone of an absent variable restores nothing).
    for name in ("FANFOLD_PROCESS_NAME", "FANFOLD_KEY_FILE"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)


# ------------------------------------------------ PostgreSQL and fanfold serve processes


def as_postgres(command: list[str]) -> list[str]:
    """``command`` run as the ``postgres`` user when we are root (initdb refuses root)."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@contextmanager
def start_cluster(folder: Path, port: int, fsync: bool) -> Iterator[str]:
    """A new PostgreSQL 15 cluster (initdb in ``folder``, which must exist) listening on a
    Unix socket in ``folder`` only, on ``port``; yields the socket's folder. Without
    ``fsync`` it writes nothing through to the disk and stops at once (``immediate``): for
    tests that throw it away; with it, a cluster as deployed, stopped cleanly (``fast``).
    Stopped and ``folder`` removed at the end."""
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data = folder / "data"
    initdb = [str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]
    options = f"-k {folder} -p {port} -c listen_addresses=''"
    if not fsync:
        initdb.append("--no-sync")
        options += " -c fsync=off"
    started = False
    try:
        subprocess.run(as_postgres(initdb), check=True, capture_output=True, timeout=120)
        pg_ctl = [str(PG_BIN / "pg_ctl"), "-D", str(data)]
        log = str(folder / "server.log")
        subprocess.run(
            as_postgres([*pg_ctl, "-o", options, "-l", log, "-w", "start"]),
            check=True,
            capture_output=True,
            timeout=120,
        )
        started = True
        yield str(folder)
    finally:
        if started:
            mode = "fast" if fsync else "immediate"
            subprocess.run(
                as_postgres([*pg_ctl, "-m", mode, "stop"]), capture_output=True, timeout=60
            )
        shutil.rmtree(folder, ignore_errors=True)


def stored_actions(url: str, table_id: str) -> list[tuple[int, int, str]]:
    """The actions the store at ``url`` keeps for a table: (number, seat, text) in order."""
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        rows = connection.execute(
            sa.text("SELECT number, seat, text FROM actions WHERE table_id = :t ORDER BY number"),
            {"t": table_id},
        ).all()
    engine.dispose()
    return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]


def start_process(
    url: str, folder: Path, name: str, port: int, health: int, extra: tuple[str, ...] = ()
) -> subprocess.Popen[str]:
    """One ``fanfold serve`` process named ``name`` (``--server-name``, its ``server`` line in
    ``deploy/haproxy.cfg``) on ``port`` and ``health``, with one bot worker and its log in
    ``folder`` (``NAME.log``, appended to; JSON lines from INFO, so that a hand-over shows);
    ``extra``: more of ``fanfold serve``'s options."""
    with (folder / f"{name}.log").open("a") as output:
        return subprocess.Popen(
            [
                *(sys.executable, "-m", "fanfold", "serve", "--port", str(port)),
                *("--db", url, "--bot-pause", "0", "--bot-seconds", "0.2"),
                *("--bot-workers", "1", "--health-port", str(health), "--server-name", name),
                *("--log-format", "json"),
                *extra,
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
            env=subprocess_environment(),
        )


def wait_ready(process: subprocess.Popen[str], port: int, health: int, log: Path) -> None:
    """Wait until ``process`` answers ``/ready`` on its health port and its game port."""
    deadline = time.monotonic() + 300  # a busy machine: the bots' workers start first
    while True:
        assert process.poll() is None, log.read_text()
        try:
            ready = httpx.get(f"http://127.0.0.1:{health}/ready", timeout=2)
            if ready.status_code == 200:
                assert httpx.get(f"http://127.0.0.1:{port}/ready", timeout=10).is_success
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)


@contextmanager
def bots_playing_on_two_processes(
    url: str, folder: Path, extra: tuple[str, ...]
) -> Iterator[tuple[list[subprocess.Popen[str]], str]]:
    """Two ``fanfold serve`` processes, ``s1`` and ``s2``, on the store at ``url`` (logs in
    ``folder``; ``extra``: more of their options), and a Fano table between two bots opened
    on ``s1``, whose first three actions are stored; yields the processes and the table.
    Killed at the end."""
    ports = [(free_port(), free_port()) for _ in range(2)]
    processes = [
        start_process(url, folder, f"s{n + 1}", port, health, extra=extra)
        for n, (port, health) in enumerate(ports)
    ]
    try:
        for process, (port, health), name in zip(processes, ports, ("s1", "s2"), strict=True):
            wait_ready(process, port, health, folder / f"{name}.log")
        first = f"http://127.0.0.1:{ports[0][0]}"
        made = httpx.post(
            f"{first}/api/tables", json={"game": "fano", "seats": ["random", "random"]}
        )
        assert made.status_code == 200, made.text
        table: str = made.json()["table"]
        deadline = time.monotonic() + 60
        while len(stored_actions(url, table)) < 3:
            assert time.monotonic() < deadline, "the bots did not start"
            time.sleep(0.1)
        yield processes, table
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)


def store_table(
    store: TableStore,
    table_id: str,
    *,
    players: list[str],
    token_hashes: list[str | None],
    options: JSON,
    invite_hashes: list[str | None] | None = None,
    account_ids: list[int | None] | None = None,
    actions_done: list[tuple[int, str]] | None = None,
    **plan: Any,
) -> None:
    """``store.create`` for a table given seat by seat: each seat's player, token hash and
    (when given) invitation hash and account; ``plan``: the rest of its
    :class:`~fanfold.server.store.TablePlan` (game, config, seed, start position...)."""
    count = len(players)
    seats = tuple(
        SeatPlan(player, hashed, invite, account)
        for player, hashed, invite, account in zip(
            players,
            token_hashes,
            invite_hashes or [None] * count,
            account_ids or [None] * count,
            strict=True,
        )
    )
    made = TablePlan(seats=seats, actions_done=tuple(actions_done or ()), **plan)
    store.create(table_id, made, options)


def schema_head() -> str:
    """This release's newest schema revision (the last migration's)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head
