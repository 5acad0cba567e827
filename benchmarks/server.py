"""The play server under load: many concurrent tables of every game, with spectators, driven
over WebSocket on loopback by a crowd of clients.

The server runs as ``fanfold serve`` in its own process (uvicorn, SQLite store in a temporary
folder, bots without pauses, its default limits per client). This script opens N tables, the
games in turn: Fano (classic and Trionfey), Fan Tan, Fano330-R-Morris and Fan patience, each a
scripted player choosing a random legal move against ``random`` bots (no compiled search to
wait for), all at once, and keeps them busy for a number of seconds: every finished game is
replaced by a new table. On 10 of the tables (``--watched``) 100 spectators each
(``--spectators``) watch the game; they follow their table's player to its next table.

Every player and every spectator connects from a loopback address of its own (127.1.x.y for
players, 127.2.x.y for spectators), as a crowd would: the server's limits per client (tables
and requests a minute, open sockets) see many clients, not one.

It prints, per level, the human actions acknowledged (and per second), the round-trip time of
a human action (from sending ``act`` to receiving ``ok``, which includes the store's commit),
p50 and p99, the errors and refusals the players met, the spectators the server dropped for
falling behind, the CPU the server and the load generator used (per cent of one core, over
the level; the server's includes opening the level's tables and a level's start-up), and the
server's memory (resident set, at the end of the level, and its peak).

Rows with ``--think 0`` saturate the server (every scripted player acts the moment it may);
rows with a think time (2 s by default, drawn from 0.5 to 1.5 times it) play at a person's pace,
the load a real server sees.

Run: ``python3 benchmarks/server.py`` (``--tables 10,100,500``, ``--seconds 10``,
``--think 0,2``, ``--spectators 100``, ``--watched 10``, ``--bot-seconds 0.05``).

``python3 benchmarks/server.py --rolling-restart --tables N`` measures a rolling restart of
three processes instead: per player, the time from its socket's 1012 to the next ``state``
(:mod:`benchmarks.rolling_restart`, whose options follow ``--rolling-restart``: ``--clients``,
``--think``, ``--warm``, ``--after``).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import json
import os
import platform
import random
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx
import orjson
import uvloop
import websockets

#: What each table is: a name for the report and the body of ``POST /api/tables`` (the
#: scripted player in seat 0, ``random`` bots in the others).
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("Fano classic", {"game": "fano", "variant": "classic", "seats": ["you", "random"]}),
    ("Fano Trionfey", {"game": "fano", "variant": "trionfey", "seats": ["you", "random"]}),
    ("Fan Tan", {"game": "fantan", "players": 4, "seats": ["you"] + ["random"] * 3}),
    ("Morris", {"game": "morris", "seats": ["you", "random"]}),
    ("Fan", {"game": "fan", "seats": ["you"]}),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def loopback(group: int, number: int) -> str:
    """The ``number``-th loopback address of a group (1: players, 2: spectators)."""
    return f"127.{group}.{number // 250}.{number % 250 + 1}"


#: One TLS context for every client of the load generator. httpx makes a new one, with the
#: system's certificates loaded, for each transport made without one: 15 to 80 ms of the load
#: generator's event loop, during which every player's action in flight waits to be told its
#: ``ok`` (a reader made a second, as the review benchmarks did, read as the server's delay).
SHARED_TLS = ssl.create_default_context()


def loopback_transport(address: str) -> httpx.AsyncHTTPTransport:
    """An HTTP transport from the loopback ``address``, made in microseconds (it shares
    :data:`SHARED_TLS`)."""
    return httpx.AsyncHTTPTransport(local_address=address, verify=SHARED_TLS)


def start_server(folder: Path, port: int, bot_seconds: float) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "fanfold",
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{folder / 'bench.db'}",
        "--bot-pause",
        "0",
        "--bot-seconds",
        f"{bot_seconds:g}",
    ]
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).raise_for_status()
            return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("the server did not start")


def memory_mb(pid: int) -> tuple[float, float]:
    """The process's resident set now and at its peak, in MB (Linux)."""
    fields: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) / 1024
    return fields.get("VmRSS", float("nan")), fields.get("VmHWM", float("nan"))


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far, user and system (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Tally:
    """What one level measured."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refused: int = 0
    dropped: int = 0
    spectated_bytes: int = 0
    client_cpu: float = 0.0
    #: Connections the server closed, opened again by their player.
    reconnects: int = 0
    #: Tables whose connection the kill broke, and the seconds from the kill to each one's
    #: next acknowledged action.
    interrupted: int = 0
    back: list[float] = field(default_factory=list)
    #: The seconds from the kill to each such table's WebSocket open again (through
    #: HAProxy, on another process): the part of ``back`` before the table is asked for.
    reconnected: list[float] = field(default_factory=list)
    #: The bots' reply: from a human action sent to the player's next turn, where bots moved
    #: in between (the action's commit, the bot pool's queue and the bots' decisions: what a
    #: player waits for).
    bot_replies: list[float] = field(default_factory=list)


@dataclass
class Kill:
    """A SIGKILL during a level: when it came (``time.monotonic()``; ``None``: not yet)."""

    at: float | None = None


@dataclass
class Slot:
    """One of the N concurrent tables: the table its player is at now."""

    number: int
    table: str = ""
    token: str = ""
    moved: asyncio.Event = field(default_factory=asyncio.Event)
    #: The kill broke this table's connection, and it has not played again yet.
    interrupted: bool = False
    #: Since then, its WebSocket was opened again.
    reopened: bool = False


async def create(base: str, client: httpx.AsyncClient, body: dict[str, Any], tally: Tally) -> Any:
    """A new table: (table id, token); waits and tries again when the server says to."""
    for attempt in range(20):
        try:
            answer = await client.post(f"{base}/api/tables", json=body)
        except httpx.TransportError:
            if attempt == 19:
                raise
            await asyncio.sleep(0.1)
            continue
        if answer.status_code == 429:
            tally.refused += 1
            await asyncio.sleep(float(answer.headers.get("retry-after", "1")))
            continue
        if answer.status_code in (502, 503, 504) and attempt < 19:
            # No process could answer just now, or the one asked was killed meanwhile.
            tally.errors.append(f"opening a table: {answer.text[:120]}")
            await asyncio.sleep(0.5)
            continue
        answer.raise_for_status()
        created = answer.json()
        return created["table"], created["token"]
    raise RuntimeError("the server kept refusing to open a table")


async def player(
    base: str,
    slot: Slot,
    start: asyncio.Event,
    stop: list[float],
    tally: Tally,
    think: float,
    kill: Kill | None = None,
) -> None:
    """Play table after table until ``stop``: a random legal move each time, after ``think``
    seconds (a person's pace; 0: at once, the server saturated). A connection the server
    closes (its process killed, the table moved) is opened again, to the same table; after
    ``kill``'s SIGKILL the player acts at once when it may, and the time from the kill to its
    next acknowledged action is the table's time to play again."""
    body = GAMES[slot.number % len(GAMES)][1]
    transport = loopback_transport(loopback(1, slot.number))
    rng = random.Random(slot.number)
    async with httpx.AsyncClient(transport=transport, timeout=60) as client:
        slot.table, slot.token = await create(base, client, body, tally)
        await start.wait()
        while time.monotonic() < stop[0]:
            try:
                finished = await play_table(base, slot, stop, tally, think, rng, kill)
            except (OSError, TimeoutError, websockets.WebSocketException):
                if kill is not None and kill.at is not None and not slot.interrupted:
                    slot.interrupted = True
                    tally.interrupted += 1
                tally.reconnects += 1
                await asyncio.sleep(0.05)
                continue
            if finished and time.monotonic() < stop[0]:
                slot.table, slot.token = await create(base, client, body, tally)
                moved, slot.moved = slot.moved, asyncio.Event()
                moved.set()  # its spectators follow it


async def play_table(
    base: str,
    slot: Slot,
    stop: list[float],
    tally: Tally,
    think: float,
    rng: random.Random,
    kill: Kill | None,
) -> bool:
    """Play ``slot``'s table over one WebSocket until the game ends (True) or ``stop``."""
    url = base.replace("http", "ws") + f"/ws/tables/{slot.table}"
    async with websockets.connect(
        url,
        max_size=2**22,
        compression=None,
        proxy=None,
        local_addr=(loopback(1, slot.number), 0),
        open_timeout=60,
    ) as socket_:
        if slot.interrupted and not slot.reopened and kill is not None and kill.at is not None:
            slot.reopened = True
            tally.reconnected.append(time.monotonic() - kill.at)
        closed = asyncio.ensure_future(socket_.wait_closed())
        try:
            await socket_.send(json.dumps({"type": "hello", "token": slot.token}))
            sent_at: float | None = None
            acted: tuple[float, int] | None = None  # the last action: when, its version after
            while time.monotonic() < stop[0]:
                try:
                    raw = await asyncio.wait_for(socket_.recv(), 5)
                except TimeoutError:
                    continue
                message = orjson.loads(raw)  # the load generator's own CPU kept low
                if message["type"] == "ok":
                    if sent_at is not None:
                        if slot.interrupted and kill is not None and kill.at is not None:
                            tally.back.append(time.monotonic() - kill.at)
                            slot.interrupted = False
                        else:
                            tally.latencies.append(time.perf_counter() - sent_at)
                        sent_at = None
                    continue
                if message["type"] == "error":
                    tally.errors.append(message["error"])
                    sent_at = None
                    continue
                if message["outcome"] is not None:
                    return True
                if acted is not None and message["decider"] == message["seat"]:
                    if message["version"] > acted[1]:  # bots moved since the action
                        tally.bot_replies.append(time.perf_counter() - acted[0])
                    if message["version"] >= acted[1]:
                        acted = None
                if message["decider"] == message["seat"] and message["legal"] and sent_at is None:
                    if think and not slot.interrupted:
                        # A person thinks; a connection closed meanwhile is noticed at once.
                        await asyncio.wait({closed}, timeout=think * (0.5 + rng.random()))
                        if closed.done():
                            raise websockets.ConnectionClosedError(None, None)
                    sent_at = time.perf_counter()
                    acted = (sent_at, message["version"] + 1)
                    act = {
                        "type": "act",
                        "version": message["version"],
                        "action": rng.choice(message["legal"]),
                    }
                    await socket_.send(json.dumps(act))
            return False
        finally:
            closed.cancel()


class Discard(asyncio.Protocol):
    """A spectator's connection: the WebSocket handshake, its hello, then everything it is
    sent counted and thrown away (no parsing, so the load generator spends little on it)."""

    def __init__(self, port: int, table: str, tally: Tally) -> None:
        self.request = (
            f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
        self.tally = tally
        self.head = b""
        self.frames = bytearray()
        self.skip = 0
        self.upgraded = False
        self.lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no subclass
        self.transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        if self.upgraded:
            self.tally.spectated_bytes += len(data)
            self.frames += data
            self._frames()
            return
        self.head += data
        if b"\r\n\r\n" not in self.head:
            return
        head, _, rest = self.head.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            self.tally.errors.append(head.split(b"\r\n")[0].decode())
            assert self.transport is not None
            self.transport.close()
            return
        self.upgraded = True
        self._send(0x1, b'{"type": "hello"}')
        self.frames += rest
        self._frames()

    def _send(self, opcode: int, payload: bytes) -> None:
        """One short masked frame (a client's frames are masked)."""
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        assert self.transport is not None
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

    def _frames(self) -> None:
        """Skip whole frames, answering the server's keep-alive pings."""
        buffer = self.frames
        while True:
            if self.skip:
                gone = min(self.skip, len(buffer))
                del buffer[:gone]
                self.skip -= gone
                if self.skip:
                    return
            if len(buffer) < 2:
                return
            opcode, length, start = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, start = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, start = int.from_bytes(buffer[2:10], "big"), 10
            if opcode == 0x9:  # ping: answer it, or the server closes the connection
                if len(buffer) < start + length:
                    return
                self._send(0xA, bytes(buffer[start : start + length]))
            del buffer[:start]
            self.skip = length

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(None)


async def spectator(base: str, slot: Slot, number: int, stop: asyncio.Event, tally: Tally) -> None:
    """Watch ``slot``'s table until ``stop``, following its player to the next table."""
    port = int(base.rsplit(":", 1)[1])
    loop = asyncio.get_running_loop()
    stopping = asyncio.ensure_future(stop.wait())
    while not stop.is_set():
        moved = slot.moved
        _, protocol = await loop.create_connection(
            lambda: Discard(port, slot.table, tally),
            "127.0.0.1",
            port,
            local_addr=(loopback(2, number), 0),
        )
        moving = asyncio.ensure_future(moved.wait())
        waiting: set[asyncio.Future[Any]] = {protocol.lost, moving, stopping}
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        moving.cancel()
        if protocol.lost.done() and not stop.is_set() and not moved.is_set():
            tally.dropped += 1  # the server closed it: it fell behind
            await asyncio.sleep(0.5)
        if protocol.transport is not None:
            protocol.transport.close()
    stopping.cancel()


async def level(
    base: str,
    tables: int,
    seconds: float,
    think: float,
    watched: int,
    spectators: int,
    kill: tuple[float, Callable[[], None]] | None = None,
) -> Tally:
    """One level: ``tables`` concurrent tables for ``seconds``; with ``kill`` (seconds into
    the level, and what kills a server process), a SIGKILL during it."""
    tally = Tally()
    slots = [Slot(number) for number in range(tables)]
    start = asyncio.Event()
    stop = [time.monotonic() + 3600.0]
    killed = Kill() if kill is not None else None
    players = [
        asyncio.create_task(player(base, slot, start, stop, tally, think, killed)) for slot in slots
    ]
    while not all(slot.table for slot in slots):  # every table opened before the clock starts
        await asyncio.sleep(0.05)
        for task in players:
            if task.done():
                task.result()  # a player that failed to open its table says why
    stopped = asyncio.Event()
    watchers = [
        asyncio.create_task(spectator(base, slots[index], index * spectators + n, stopped, tally))
        for index in range(min(watched, tables))
        for n in range(spectators)
    ]
    await asyncio.sleep(1.0)  # the spectators are in
    with uncollected():
        stop[0] = time.monotonic() + seconds
        start.set()
        started = time.process_time()
        if kill is not None and killed is not None:
            await asyncio.sleep(kill[0])
            killed.at = time.monotonic()
            kill[1]()
        await asyncio.gather(*players)
        tally.client_cpu = time.process_time() - started
    stopped.set()
    await asyncio.gather(*watchers)
    return tally


@contextmanager
def uncollected() -> Iterator[None]:
    """No garbage collection in the load generator while a level is timed: its thousands of
    players and spectators make each of its own collections a pause of tens of milliseconds
    (a full one, a fifth of a second), and every acknowledgement that arrived meanwhile would
    be timed as the server's latency. What the level leaves is collected after it."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()
        gc.collect()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


# ------------------------------------------------ several processes behind HAProxy

PG_BIN = Path("/usr/lib/postgresql/15/bin")
ROOT = Path(__file__).resolve().parents[1]
HAPROXY_CONFIG = ROOT / "deploy" / "haproxy.cfg"


#: PostgreSQL's settings a run may use (``--durability``), as the table labels them.
DURABILITY = {"durable": "durable (fsync on)", "fsync-off": "fsync off"}


def as_postgres(command: list[str]) -> list[str]:
    """``command`` run as the ``postgres`` user when we are root (initdb refuses root)."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@contextmanager
def postgres(fsync: bool) -> Iterator[str]:
    """A throw-away PostgreSQL 15 cluster in a temporary folder, on a Unix socket only
    (Debian's ``postgresql`` package, as the tests start it): with ``fsync`` durable, as a
    site runs it (``fsync`` and ``synchronous_commit`` on: a commit waits for the disk), else
    without ``fsync``, as the tests run it; yields the socket's folder."""
    import shutil

    if not (PG_BIN / "initdb").is_file():
        sys.exit(f"{PG_BIN / 'initdb'} is missing: apt-get install postgresql")
    folder = Path(tempfile.mkdtemp(prefix="fanfold-bench-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data = folder / "data"
    subprocess.run(
        as_postgres([str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]),
        check=True,
        capture_output=True,
    )
    options = f"-k {folder} -p 5432 -c listen_addresses='' -c max_connections=200"
    options += " -c fsync=on -c synchronous_commit=on" if fsync else " -c fsync=off"
    pg_ctl = str(PG_BIN / "pg_ctl")
    start = [pg_ctl, "-D", str(data), "-o", options, "-l", str(folder / "pg.log"), "-w", "start"]
    subprocess.run(as_postgres(start), check=True, capture_output=True)
    try:
        yield str(folder)
    finally:
        subprocess.run(
            as_postgres([pg_ctl, "-D", str(data), "-m", "fast", "stop"]), capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)


def new_database(socket_folder: str, name: str) -> str:
    """A new, empty database in the cluster; its URL."""
    import sqlalchemy as sa

    def url(database: str) -> str:
        return f"postgresql+psycopg://postgres@/{database}?host={socket_folder}&port=5432"

    engine = sa.create_engine(url("postgres"), isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return url(name)


def start_process(
    folder: Path, name: str, port: int, health: int, url: str, args: argparse.Namespace
) -> subprocess.Popen[bytes]:
    """One ``fanfold serve`` process named ``name`` (its ``server`` line in
    ``deploy/haproxy.cfg``) on ``port`` with its health checks on ``health`` (as ``fanfold
    serve --processes`` starts each), HAProxy's address trusted for the clients' own."""
    command = [
        *(sys.executable, "-m", "fanfold", "serve", "--port", str(port), "--db", url),
        *("--health-port", str(health), "--server-name", name),
        *("--bot-pause", "0", "--bot-seconds", f"{args.bot_seconds:g}"),
        *("--bot-workers", str(args.bot_workers), "--trusted-proxy", "127.0.0.1"),
        *("--keep-seconds", f"{args.keep_seconds:g}", "--allocator", args.allocator),
    ]
    log = (folder / f"server-{port}.log").open("wb")
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)


def wait_ready(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if process.poll() is not None:
            said = log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"the server on port {port} stopped at start-up: {said}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server on port {port} did not become ready")


@contextmanager
def haproxy(folder: Path, ports: list[int], health: list[int]) -> Iterator[int]:
    """HAProxy with ``deploy/haproxy.cfg`` (its server lines cut to ``ports``) in front of
    the processes, checking each on its ``health`` port; yields its port once it serves the
    API."""
    config = "\n".join(
        line
        for line in HAPROXY_CONFIG.read_text().splitlines()
        if not any(line.strip().startswith(f"server s{n} ") for n in range(len(ports) + 1, 10))
    )
    path = folder / f"haproxy-{len(ports)}.cfg"
    path.write_text(config + "\n")
    port = free_port()
    environment = dict(os.environ, FANFOLD_BIND=f"127.0.0.1:{port}")
    for number, (server, check) in enumerate(zip(ports, health, strict=True), start=1):
        environment[f"FANFOLD_S{number}"] = f"127.0.0.1:{server}"
        environment[f"FANFOLD_H{number}"] = str(check)
    log = (folder / "haproxy.log").open("ab")
    process = subprocess.Popen(
        ["haproxy", "-f", str(path), "-db"], stdout=log, stderr=log, env=environment
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError("haproxy stopped: " + (folder / "haproxy.log").read_text())
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).raise_for_status()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        time.sleep(1.5)  # every server checked up (rise 2, every 0.5 s)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        said = (folder / "haproxy.log").read_text(errors="replace").splitlines()
        changes = [line for line in said if " is DOWN" in line or " is UP" in line]
        for line in changes[-6:]:  # a process HAProxy marked down, or up again
            print(f"#   haproxy: {line.split(']', 1)[-1].strip()[:160]}", flush=True)
        (folder / "haproxy.log").write_text("")


def gauge(port: int, name: str) -> float:
    """A gauge of the process on ``port`` (its ``/metrics``): ``fanfold_tables_live``, the
    tables in its memory; ``fanfold_rate_counters``, its clients' rate-limit counters."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    for line in text.splitlines():
        if line.startswith(f"{name} "):
            return float(line.split()[1])
    return float("nan")


def wait_empty(ports: list[int], keep_seconds: float) -> None:
    """Wait until every table left the memory of every process (``--keep-seconds`` after
    its last use) and every client's rate-limit counter went (a minute after the client's
    last request), and for the sweep that follows."""
    deadline = time.monotonic() + keep_seconds + 180
    while time.monotonic() < deadline and any(
        gauge(port, "fanfold_tables_live") or gauge(port, "fanfold_rate_counters") for port in ports
    ):
        time.sleep(1.0)
    time.sleep(max(3.0, keep_seconds / 2))


@dataclass
class Run:
    """What one process count measured: a tally per level, the memory of each process (MB:
    after start-up, idle after a table or two of each game came and left, at the end of the
    levels, after the levels' tables and their clients' rate-limit counters left memory), and
    the kill's tally."""

    levels: dict[tuple[int, float], tuple[Tally, float]] = field(default_factory=dict)
    started: list[float] = field(default_factory=list)
    idle: list[float] = field(default_factory=list)
    loaded: list[float] = field(default_factory=list)
    after: list[float] = field(default_factory=list)
    kill: Tally | None = None
    #: The search for the most tables within the aim (:func:`largest_within_aim`): each
    #: table count tried, with its p99 (ms) and errors.
    largest: dict[int, tuple[float, int]] = field(default_factory=dict)
    #: The most connections to the run's database seen at the end of a level, by
    #: ``application_name`` (the pools' have none: "pool").
    connections: dict[str, int] = field(default_factory=dict)
    #: How many processes.
    count: int = 0


def connections(url: str) -> dict[str, int]:
    """The connections to ``url``'s database now, by kind: each process's pool ("pool": no
    ``application_name``), its writer of moves ("moves") and the rest, named ("listen": its
    advisory locks, its notifications of hand-overs and the lobby's LISTEN)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                sa.text(
                    "SELECT application_name, count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                    "GROUP BY application_name"
                )
            ).all()
    finally:
        engine.dispose()
    found: dict[str, int] = {}
    for name, number in rows:
        kind = "pool" if not name else "moves" if str(name).endswith(" moves") else "listen"
        found[kind] = found.get(kind, 0) + int(number)
    return found


def most(seen: dict[str, int], now: dict[str, int]) -> None:
    """Keep in ``seen`` the most of each kind of connection."""
    for kind, number in now.items():
        seen[kind] = max(seen.get(kind, 0), number)


def run_processes(
    count: int, socket_folder: str, folder: Path, args: argparse.Namespace, tag: str = ""
) -> Run:
    """Start ``count`` processes on a fresh database and HAProxy, run every level through
    HAProxy, wait for the tables to leave memory, then SIGKILL one process during a level at
    a person's pace (when there is another to take its tables)."""
    result = Run(count=count)
    url = new_database(socket_folder, f"bench_{count}{tag}")
    taken: list[int] = []
    while len(taken) < 2 * count:
        port = free_port()
        if port not in taken:
            taken.append(port)
    ports, health = taken[:count], taken[count:]
    with ExitStack() as stack:
        processes = [
            start_process(folder, f"s{number}", port, check, url, args)
            for number, (port, check) in enumerate(zip(ports, health, strict=True), start=1)
        ]

        def stop_all() -> None:
            for process in processes:
                if process.poll() is None:
                    process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()

        stack.callback(stop_all)
        for port, check, process in zip(ports, health, processes, strict=True):
            wait_ready(check, process, folder / f"server-{port}.log")
        proxy = stack.enter_context(haproxy(folder, ports, health))
        base = f"http://127.0.0.1:{proxy}"
        time.sleep(2.0)
        result.started = [memory_mb(process.pid)[0] for process in processes]
        # A few tables of every game first, so that what a first table of each game loads
        # for good (its modules) counts in the idle size; then they leave memory.
        uvloop.run(level(base, 2 * len(GAMES), 3.0, 0.0, 0, 0))
        wait_empty(ports, args.keep_seconds)
        result.idle = [memory_mb(process.pid)[0] for process in processes]
        for think in args.thinks:
            for tables in args.levels:
                cpu = sum(cpu_seconds(process.pid) for process in processes)
                tally = uvloop.run(
                    level(base, tables, args.seconds, think, args.watched, args.spectators)
                )
                used = sum(cpu_seconds(process.pid) for process in processes) - cpu
                result.levels[tables, think] = (tally, used / args.seconds * 100)
                most(result.connections, connections(url))
                show_level(f"{count} processes", tables, think, tally, args.seconds)
        if args.aim_ms is not None:
            result.largest = largest_within_aim(base, count, args)
            most(result.connections, connections(url))
        result.loaded = [memory_mb(process.pid)[0] for process in processes]
        # Every table leaves memory once nobody plays it (--keep-seconds), every client's
        # rate-limit counter a minute after its last request; then the memory each process
        # kept is read.
        wait_empty(ports, args.keep_seconds)
        result.after = [memory_mb(process.pid)[0] for process in processes]
        if count > 1:
            victim = processes[0]

            def kill() -> None:
                victim.send_signal(signal.SIGKILL)

            result.kill = uvloop.run(
                level(
                    base,
                    args.kill_tables,
                    args.kill_seconds,
                    args.kill_think,
                    0,
                    0,
                    kill=(args.kill_at, kill),
                )
            )
            show_level(
                f"{count} processes, one killed",
                args.kill_tables,
                args.kill_think,
                result.kill,
                args.kill_seconds,
            )
    return result


def largest_within_aim(
    base: str, count: int, args: argparse.Namespace
) -> dict[int, tuple[float, int]]:
    """The largest table count whose p99 act-to-ok stays under ``--aim-ms`` at a person's
    pace (``--aim-think``), without errors and without spectators (the players' own
    latency; the spectators' load is in the levels): table counts from ``--aim-from`` doubled until
    one misses the aim (or ``--aim-to`` is reached), then halved intervals until the counts
    that pass and miss are within ``--aim-step`` of each other. Returns each count tried
    with its p99 (ms) and errors."""
    tried: dict[int, tuple[float, int]] = {}

    def passes(tables: int) -> bool:
        tally = uvloop.run(level(base, tables, args.seconds, args.aim_think, args.watched, 0))
        show_level(f"{count} processes, aim", tables, args.aim_think, tally, args.seconds)
        p99 = percentile(tally.latencies, 0.99) * 1000 if tally.latencies else float("inf")
        tried[tables] = (p99, len(tally.errors))
        return p99 < args.aim_ms and not tally.errors

    good, bad = 0, None
    tables = args.aim_from
    while bad is None:
        if passes(tables):
            good = tables
            if tables >= args.aim_to:
                return tried
            tables = min(args.aim_to, tables * 2)
        else:
            bad = tables
    while bad - good > args.aim_step:
        middle = (good + bad) // 2
        if passes(middle):
            good = middle
        else:
            bad = middle
    return tried


def largest_passing(tried: dict[int, tuple[float, int]], aim: float) -> int:
    """The largest count tried that met the aim (0: none did)."""
    return max((t for t, (p99, errors) in tried.items() if p99 < aim and not errors), default=0)


def show_level(name: str, tables: int, think: float, tally: Tally, seconds: float) -> None:
    """A progress line for a level that ended."""
    actions = len(tally.latencies)
    p50 = statistics.median(tally.latencies) * 1000 if actions else float("nan")
    p99 = percentile(tally.latencies, 0.99) * 1000 if actions else float("nan")
    print(
        f"# {name}: {tables} tables, think {think:g} s: {actions / seconds:,.0f} actions/s, "
        f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, {len(tally.errors)} errors, "
        f"{tally.reconnects} reconnections",
        flush=True,
    )
    for error in sorted(set(tally.errors))[:3]:
        print(f"#   error: {error}", flush=True)


def cluster_table(runs: dict[str, Run], args: argparse.Namespace) -> None:
    """The measurements side by side, a column per run (its label: the process count, and
    PostgreSQL's durability when not the default)."""
    counts = list(runs)
    print()
    print("| measured | " + " | ".join(counts) + " |")
    print("|---|" + "---:|" * len(counts))

    def row(label: str, cells: list[str]) -> None:
        print(f"| {label} | " + " | ".join(cells) + " |")

    for think in args.thinks:
        for tables in args.levels:
            pace = "saturated (think 0)" if think == 0 else f"think {think:g} s"
            found = [runs[n].levels[tables, think] for n in counts]
            row(
                f"{tables} tables, {pace}: actions/s",
                [f"{len(t.latencies) / args.seconds:,.0f}" for t, _ in found],
            )
            row(
                f"{tables} tables, {pace}: p50 / p99 ms",
                [
                    f"{statistics.median(t.latencies) * 1000:.1f} / "
                    f"{percentile(t.latencies, 0.99) * 1000:.1f}"
                    if t.latencies
                    else "-"
                    for t, _ in found
                ],
            )
            row(
                f"{tables} tables, {pace}: errors, servers' / load's CPU %",
                [
                    f"{len(t.errors)}, {cpu:.0f} / {t.client_cpu / args.seconds * 100:.0f}"
                    for t, cpu in found
                ],
            )
            row(
                f"{tables} tables, {pace}: servers' CPU ms an acknowledged action",
                [
                    f"{cpu / 100 * args.seconds / len(t.latencies) * 1000:.2f}"
                    if t.latencies
                    else "-"
                    for t, cpu in found
                ],
            )
    if args.aim_ms is not None:
        pace = f"think {args.aim_think:g} s"
        row(
            f"most tables with p99 under {args.aim_ms:g} ms ({pace}, no errors)",
            [
                f"{largest_passing(runs[n].largest, args.aim_ms):,}"
                if largest_passing(runs[n].largest, args.aim_ms)
                else f"fewer than {min(runs[n].largest, default=args.aim_from):,}"
                for n in counts
            ],
        )
        row(
            "the search: tables tried, p99 ms",
            [
                ", ".join(
                    f"{t:,}: {p99:.0f}" + (f" ({e} errors)" if e else "")
                    for t, (p99, e) in sorted(runs[n].largest.items())
                )
                for n in counts
            ],
        )
    row(
        "PostgreSQL connections at most (pool / locks and LISTEN / moves), all processes",
        [
            " / ".join(
                str(runs[n].connections.get(kind, 0)) for kind in ("pool", "listen", "moves")
            )
            for n in counts
        ],
    )
    kills = [runs[n].kill for n in counts]
    row(
        f"SIGKILL of one process ({args.kill_tables} tables, think {args.kill_think:g} s): "
        "its tables / played again",
        [f"{k.interrupted} / {len(k.back)}" if k is not None else "-" for k in kills],
    )
    row(
        "SIGKILL to its WebSocket open again elsewhere: median / max s",
        [
            f"{statistics.median(k.reconnected):.2f} / {max(k.reconnected):.2f}"
            if k is not None and k.reconnected
            else "-"
            for k in kills
        ],
    )
    row(
        "SIGKILL to playing again elsewhere: median / max s",
        [
            f"{statistics.median(k.back):.2f} / {max(k.back):.2f}"
            if k is not None and k.back
            else "-"
            for k in kills
        ],
    )
    for label, values in (
        ("memory after start-up, MB a process", [runs[n].started for n in counts]),
        ("memory idle (every game played once), MB a process", [runs[n].idle for n in counts]),
        ("memory at the end of the levels, MB a process", [runs[n].loaded for n in counts]),
        (
            "memory after its tables and clients' counters left, MB a process",
            [runs[n].after for n in counts],
        ),
    ):
        row(label, [" / ".join(f"{v:.0f}" for v in value) for value in values])
    row(
        "after / idle",
        [
            " / ".join(f"{a / i:.2f}" for a, i in zip(runs[n].after, runs[n].idle, strict=True))
            for n in counts
        ],
    )


def main_cluster(args: argparse.Namespace) -> None:
    counts = [int(part) for part in args.processes.split(",")]
    print(
        f"# fanfold serve, {','.join(map(str, counts))} processes behind HAProxy on PostgreSQL "
        f"({platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start, "
        f"allocator {args.allocator})"
    )
    print(
        "# tables of " + ", ".join(name for name, _ in GAMES) + " in turn: a scripted player "
        f"(random legal moves) against random bots, over WebSocket through HAProxy; "
        f"{args.spectators} spectators on each of {args.watched} tables; {args.seconds:g} s "
        f"a level; PostgreSQL {' and then '.join(DURABILITY[d] for d in args.durability)}",
        flush=True,
    )
    runs: dict[str, Run] = {}
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        try:
            for durability in args.durability:
                with postgres(durability == "durable") as socket_folder:
                    for count in counts:
                        label = f"{count} process{'es' if count > 1 else ''}"
                        if durability != "durable":
                            label += f", {DURABILITY[durability]}"
                        tag = durability.replace("-", "_")
                        runs[label] = run_processes(count, socket_folder, folder, args, tag)
        finally:
            for log in sorted(folder.glob("server-*.log")):
                problems = log.read_text(errors="replace").strip()
                lines = [
                    line for line in problems.splitlines() if "Traceback" in line or "Error" in line
                ]
                if lines:
                    print(f"\n{log.name} (errors):\n" + "\n".join(lines[-5:]))
    cluster_table(runs, args)
    print(f"\n# load average {os.getloadavg()[0]:.1f} at the end")


#: The option that runs :mod:`benchmarks.rolling_restart` with the options that follow it.
ROLLING_RESTART = "--rolling-restart"


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark with the options ``argv`` (the command line's by default)."""
    argv = sys.argv[1:] if argv is None else argv
    if ROLLING_RESTART in argv:
        if str(ROOT) not in sys.path:  # run as a script: its folder is first on the path
            sys.path.insert(0, str(ROOT))
        from benchmarks import rolling_restart

        rolling_restart.main([part for part in argv if part != ROLLING_RESTART])
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--tables",
        default=None,
        help="concurrency levels, comma-separated (default 10,100,500; with --processes 200, "
        "what this 2-core machine holds with the cluster on it: the issue's 500 and 2000 by "
        "this option)",
    )
    parser.add_argument(
        "--processes",
        default=None,
        help="server process counts, comma-separated (1,2,3): each behind HAProxy "
        "(deploy/haproxy.cfg) on a PostgreSQL the benchmark starts, the counts side by side; "
        "without it, one process on SQLite",
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per level")
    parser.add_argument(
        "--think",
        default="0,2",
        help="seconds a scripted player waits before each action, on average (0: at once); "
        "comma-separated, each a row per level",
    )
    parser.add_argument("--watched", type=int, default=10, help="tables that have spectators")
    parser.add_argument("--spectators", type=int, default=100, help="spectators per such table")
    parser.add_argument(
        "--bot-seconds", type=float, default=0.05, help="the server's --bot-seconds"
    )
    parser.add_argument(
        "--bot-workers", type=int, default=2, help="each process's --bot-workers (--processes)"
    )
    parser.add_argument(
        "--allocator",
        choices=("python", "jemalloc"),
        default="python",
        help="each process's --allocator (--processes): jemalloc hands the memory of tables "
        'that left back to the system (docs/deploy.md, "Memory after the load")',
    )
    parser.add_argument(
        "--keep-seconds",
        type=float,
        default=5.0,
        help="each process's --keep-seconds: how soon its tables leave memory once nobody "
        "plays them, before its memory is read (--processes)",
    )
    parser.add_argument(
        "--kill-tables",
        type=int,
        default=None,
        help="tables in play when one process is killed (default: the largest level)",
    )
    parser.add_argument(
        "--kill-think", type=float, default=2.0, help="the players' think time then"
    )
    parser.add_argument(
        "--kill-at", type=float, default=4.0, help="seconds into that level of the SIGKILL"
    )
    parser.add_argument("--kill-seconds", type=float, default=14.0, help="the length of that level")
    parser.add_argument(
        "--aim-ms",
        type=float,
        default=None,
        help="with --processes: also search, for each process count, the most tables whose "
        "p99 act-to-ok stays under this many ms (the issue's aim: 50) at --aim-think, with "
        "--seconds a try and no spectators",
    )
    parser.add_argument(
        "--aim-think", type=float, default=2.0, help="the players' think time in that search"
    )
    parser.add_argument(
        "--aim-from", type=int, default=100, help="the search's first table count (doubled)"
    )
    parser.add_argument("--aim-to", type=int, default=4000, help="the search's largest count")
    parser.add_argument(
        "--aim-step", type=int, default=50, help="the search ends when it is this close"
    )
    parser.add_argument(
        ROLLING_RESTART,
        action="store_true",
        help="measure a rolling restart of three processes instead (benchmarks/"
        "rolling_restart.py; the options after it are its own: --tables N, --clients K, "
        "--think, --warm, --after)",
    )
    parser.add_argument(
        "--durability",
        default="durable,fsync-off",
        help="PostgreSQL's settings, comma-separated, each its own cluster and columns: "
        "durable (fsync and synchronous_commit on, as a site runs it: each commit waits for "
        "the disk), fsync-off (as the tests run it: what the disk costs, by difference)",
    )
    args = parser.parse_args(argv)
    args.durability = [part.strip() for part in args.durability.split(",") if part.strip()]
    unknown = [part for part in args.durability if part not in DURABILITY]
    if unknown or not args.durability:
        parser.error(f"--durability takes {', '.join(DURABILITY)}, not {', '.join(unknown)}")
    default_tables = "200" if args.processes else "10,100,500"
    levels = [int(part) for part in (args.tables or default_tables).split(",")]
    thinks = [float(part) for part in args.think.split(",")]
    if args.processes:
        args.levels, args.thinks = levels, thinks
        if args.kill_tables is None:
            args.kill_tables = max(levels)
        main_cluster(args)
        return
    print(
        f"# fanfold serve under load ({platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} cores)"
    )
    print(
        "# tables of " + ", ".join(name for name, _ in GAMES) + " in turn: a scripted player "
        f"(random legal moves) against random bots, over WebSocket; {args.spectators} "
        f"spectators on each of {args.watched} tables"
    )
    print()
    print(
        "| tables | think s | human actions | actions/s | p50 ms | p99 ms | errors "
        "| refused | dropped | server CPU % | load CPU % | RSS MB | peak MB |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder), port, args.bot_seconds)
        try:
            for think in thinks:
                for tables in levels:
                    cpu = cpu_seconds(server.pid)
                    tally = uvloop.run(
                        level(
                            f"http://127.0.0.1:{port}",
                            tables,
                            args.seconds,
                            think,
                            args.watched,
                            args.spectators,
                        )
                    )
                    server_cpu = (cpu_seconds(server.pid) - cpu) / args.seconds * 100
                    client_cpu = tally.client_cpu / args.seconds * 100
                    rss, peak = memory_mb(server.pid)
                    actions = len(tally.latencies)
                    p50 = statistics.median(tally.latencies) * 1000 if actions else float("nan")
                    p99 = percentile(tally.latencies, 0.99) * 1000 if actions else float("nan")
                    print(
                        f"| {tables} | {think:g} | {actions} | {actions / args.seconds:,.0f} "
                        f"| {p50:.1f} | {p99:.1f} | {len(tally.errors)} | {tally.refused} "
                        f"| {tally.dropped} | {server_cpu:.0f} | {client_cpu:.0f} "
                        f"| {rss:.0f} | {peak:.0f} |",
                        flush=True,
                    )
                    for error in sorted(set(tally.errors))[:5]:
                        print(f"#   error: {error}", flush=True)
        finally:
            server.kill()
            server.wait()
            problems = (Path(folder) / "server.log").read_text(errors="replace").strip()
            if problems:
                print("\nserver log (last lines):\n" + "\n".join(problems.splitlines()[-15:]))


if __name__ == "__main__":
    main()
