"""The play server under load: many concurrent tables driven over WebSocket on loopback.

The server runs as ``fanfold serve`` in its own process (uvicorn, SQLite store in a temporary
folder, bots without pauses). This script opens N tables of Fano330-R-Morris, each a scripted
player (the first legal move) against the ``random`` bot, all at once, and keeps them busy for
a number of seconds: every finished game is replaced by a new table. It prints, per level of
concurrency, the human actions acknowledged per second and the round-trip latency of a human
action (from sending ``act`` to receiving ``ok``, which includes the store's commit), p50 and
p99.

Rows with ``--think 0`` saturate the server (every scripted player acts the moment it may);
rows with a think time (2 s by default, drawn from 0.5 to 1.5 times it) play at a person's pace,
the load a real server sees.

Run: ``python3 benchmarks/server.py`` (``--tables 10,100,500``, ``--seconds 10``,
``--think 0,2``).
"""

from __future__ import annotations

import argparse
import asyncio
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
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(folder: Path, port: int) -> subprocess.Popen[bytes]:
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
    ]
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).raise_for_status()
            return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("the server did not start")


async def create(base: str, client: httpx.AsyncClient) -> tuple[str, str]:
    """A new Morris table against the random bot: (table id, token)."""
    for attempt in range(5):
        try:
            answer = await client.post(
                f"{base}/api/tables", json={"game": "morris", "seats": ["you", "random"]}
            )
            created = answer.json()
            return created["table"], created["token"]
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.1)
    raise AssertionError("unreachable")


async def player(
    base: str,
    client: httpx.AsyncClient,
    first: tuple[str, str],
    start: asyncio.Event,
    stop: list[float],
    latencies: list[float],
    errors: list[str],
    think: float,
) -> None:
    """Play table after table until ``stop``: the first legal move each time, after ``think``
    seconds (a person's pace; 0: at once, the server saturated)."""
    table, token = first
    await start.wait()
    while time.monotonic() < stop[0]:
        url = base.replace("http", "ws") + f"/ws/tables/{table}"
        async with websockets.connect(url, max_size=2**22, compression=None) as socket_:
            await socket_.send(json.dumps({"type": "hello", "token": token}))
            sent_at: float | None = None
            while time.monotonic() < stop[0]:
                message = json.loads(await socket_.recv())
                if message["type"] == "ok":
                    if sent_at is not None:
                        latencies.append(time.perf_counter() - sent_at)
                        sent_at = None
                    continue
                if message["type"] == "error":
                    errors.append(message["error"])
                    sent_at = None
                    continue
                if message["outcome"] is not None:
                    break
                if message["decider"] == message["seat"] and message["legal"] and sent_at is None:
                    if think:
                        await asyncio.sleep(think * (0.5 + random.random()))
                    sent_at = time.perf_counter()
                    act = {
                        "type": "act",
                        "version": message["version"],
                        "action": message["legal"][0],
                    }
                    await socket_.send(json.dumps(act))
        table, token = await create(base, client)


async def level(
    base: str, tables: int, seconds: float, think: float
) -> tuple[int, float, float, int]:
    """(actions, p50 ms, p99 ms, errors) for ``tables`` concurrent tables."""
    latencies: list[float] = []
    errors: list[str] = []
    # Keep-alive shorter than the server's (5 s), so that no request goes out on a connection
    # the server is closing.
    limits = httpx.Limits(max_connections=tables + 10, keepalive_expiry=2.0)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        tables_made = []
        for _ in range(tables):  # opened before the clock starts
            tables_made.append(await create(base, client))
        start = asyncio.Event()
        stop = [0.0]
        players = [
            asyncio.create_task(player(base, client, made, start, stop, latencies, errors, think))
            for made in tables_made
        ]
        stop[0] = time.monotonic() + seconds
        start.set()
        await asyncio.gather(*players)
    if not latencies:
        return 0, float("nan"), float("nan"), len(errors)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return len(latencies), statistics.median(latencies) * 1000, p99 * 1000, len(errors)


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
    args = parser.parse_args()
    levels = [int(part) for part in args.tables.split(",")]
    print(
        f"# fanfold serve under load ({platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} cores)"
    )
    print(
        "# Morris tables: a scripted player (first legal move) against the random bot, "
        "over WebSocket"
    )
    print()
    thinks = [float(part) for part in args.think.split(",")]
    print("| tables | think s | human actions | actions/s | p50 ms | p99 ms | errors |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder), port)
        try:
            for think in thinks:
                for tables in levels:
                    actions, p50, p99, errors = asyncio.run(
                        level(f"http://127.0.0.1:{port}", tables, args.seconds, think)
                    )
                    print(
                        f"| {tables} | {think:g} | {actions} | {actions / args.seconds:,.0f} "
                        f"| {p50:.1f} | {p99:.1f} | {errors} |",
                        flush=True,
                    )
        finally:
            server.kill()
            server.wait()
            problems = (Path(folder) / "server.log").read_text(errors="replace").strip()
            if problems:
                print("\nserver log (last lines):\n" + "\n".join(problems.splitlines()[-15:]))


if __name__ == "__main__":
    main()
