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
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
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


@dataclass
class Slot:
    """One of the N concurrent tables: the table its player is at now."""

    number: int
    table: str = ""
    token: str = ""
    moved: asyncio.Event = field(default_factory=asyncio.Event)


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
) -> None:
    """Play table after table until ``stop``: a random legal move each time, after ``think``
    seconds (a person's pace; 0: at once, the server saturated)."""
    body = GAMES[slot.number % len(GAMES)][1]
    transport = httpx.AsyncHTTPTransport(local_address=loopback(1, slot.number))
    rng = random.Random(slot.number)
    async with httpx.AsyncClient(transport=transport, timeout=60) as client:
        slot.table, slot.token = await create(base, client, body, tally)
        await start.wait()
        while time.monotonic() < stop[0]:
            url = base.replace("http", "ws") + f"/ws/tables/{slot.table}"
            async with websockets.connect(
                url,
                max_size=2**22,
                compression=None,
                proxy=None,
                local_addr=(loopback(1, slot.number), 0),
                open_timeout=60,
            ) as socket_:
                await socket_.send(json.dumps({"type": "hello", "token": slot.token}))
                sent_at: float | None = None
                while time.monotonic() < stop[0]:
                    try:
                        raw = await asyncio.wait_for(socket_.recv(), 5)
                    except TimeoutError:
                        continue
                    message = json.loads(raw)
                    if message["type"] == "ok":
                        if sent_at is not None:
                            tally.latencies.append(time.perf_counter() - sent_at)
                            sent_at = None
                        continue
                    if message["type"] == "error":
                        tally.errors.append(message["error"])
                        sent_at = None
                        continue
                    if message["outcome"] is not None:
                        break
                    if (
                        message["decider"] == message["seat"]
                        and message["legal"]
                        and sent_at is None
                    ):
                        if think:
                            await asyncio.sleep(think * (0.5 + rng.random()))
                        sent_at = time.perf_counter()
                        act = {
                            "type": "act",
                            "version": message["version"],
                            "action": rng.choice(message["legal"]),
                        }
                        await socket_.send(json.dumps(act))
            if time.monotonic() < stop[0]:
                slot.table, slot.token = await create(base, client, body, tally)
                moved, slot.moved = slot.moved, asyncio.Event()
                moved.set()  # its spectators follow it


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
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

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
    base: str, tables: int, seconds: float, think: float, watched: int, spectators: int
) -> Tally:
    """One level: ``tables`` concurrent tables for ``seconds``."""
    tally = Tally()
    slots = [Slot(number) for number in range(tables)]
    start = asyncio.Event()
    stop = [time.monotonic() + 3600.0]
    players = [asyncio.create_task(player(base, slot, start, stop, tally, think)) for slot in slots]
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
    stop[0] = time.monotonic() + seconds
    start.set()
    started = time.process_time()
    await asyncio.gather(*players)
    tally.client_cpu = time.process_time() - started
    stopped.set()
    await asyncio.gather(*watchers)
    return tally


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables", default="10,100,500", help="concurrency levels, comma-separated"
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
    args = parser.parse_args()
    levels = [int(part) for part in args.tables.split(",")]
    thinks = [float(part) for part in args.think.split(",")]
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
                    tally = asyncio.run(
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
