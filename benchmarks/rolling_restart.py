"""A rolling restart under play: what each player waits from its socket's 1012 to a fresh
``state`` from the table's new owner.

It starts a throw-away PostgreSQL, ``fanfold serve --processes 3`` (the supervisor, its
processes named s1 to s3) and HAProxy with ``deploy/haproxy.cfg`` in front; opens ``--tables``
Morris tables (a scripted player against a ``random`` bot), each player on a loopback address
of its own and a WebSocket through HAProxy, acting at a person's pace (``--think`` seconds),
the players shared among ``--clients`` load-generator processes (as a site's players bring
their own machines: one process holding hundreds of sockets would time itself); then sends the
supervisor ``SIGHUP`` (what ``fanfold restart`` does): it restarts its processes one at a
time, each handing its tables to the others as it stops. A player whose socket is closed with
1012 reconnects at once (as the browser's table page does), through HAProxy, and the time from
the 1012 to the next ``state`` is its gap. A failed reconnect is tried again after 0.1 s, and
counts, by its kind (the code its socket was closed with, the status its handshake met).

It prints the gaps' p50, p99 and max, the players that met a 1012, the failed reconnects, how
long the restart took (and each process's time from its start to ``/ready``, as the supervisor
logs it), and the machine's load average before and after.

Run: ``python3 benchmarks/server.py --rolling-restart --tables 60`` (the same as
``python3 benchmarks/rolling_restart.py --tables 60``; ``--clients 4``, ``--think 2``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import cast

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.server import (  # the repository's root is first on the path
    free_port,
    haproxy,
    loopback,
    new_database,
    percentile,
    postgres,
)

BODY = {"game": "morris", "seats": ["you", "random"]}


class Player:
    """One scripted player: its table, and the gaps it met."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.table = ""
        self.token = ""
        self.gaps: list[float] = []
        #: Of each gap, the part until the new socket was open (the rest: to its ``state``).
        self.opening: list[float] = []
        #: The failed reconnects, by kind (:func:`failure`).
        self.failed: Counter[str] = Counter()
        self.closed_at: float | None = None
        #: When each gap began (the 1012, ``time.monotonic()``: one clock for every process).
        self.closes: list[float] = []


async def open_table(base: str, player: Player) -> None:
    # Plain HTTP: no TLS context (building one, 19 ms of processor time, for every table
    # opened took the load generator's share of the cores from the servers it measures).
    transport = httpx.AsyncHTTPTransport(local_address=loopback(1, player.number), verify=False)
    async with httpx.AsyncClient(transport=transport, timeout=60) as client:
        for _ in range(50):
            answer = await client.post(f"{base}/api/tables", json=BODY)
            if answer.status_code == 200:
                player.table, player.token = answer.json()["table"], answer.json()["token"]
                return
            await asyncio.sleep(0.5)
    raise RuntimeError(f"no table opened: {answer.status_code} {answer.text[:200]}")


async def play(
    address: str, player: Player, stop: asyncio.Event, think: float, spread: float = 0.0
) -> None:
    """Play ``player``'s table until ``stop``, a new table when the game ends; after a 1012,
    reconnect after a random pause of up to ``spread`` seconds (0: at once)."""
    rng = random.Random(player.number)
    base = f"http://{address}"
    while not stop.is_set():
        try:
            async with websockets.connect(
                f"ws://{address}/ws/tables/{player.table}",
                local_addr=(loopback(1, player.number), 0),
                open_timeout=10,
            ) as socket_:
                if player.closed_at is not None:
                    player.opening.append(time.monotonic() - player.closed_at)
                await socket_.send(json.dumps({"type": "hello", "token": player.token}))
                while not stop.is_set():
                    message = json.loads(await socket_.recv())
                    if message["type"] != "state":
                        continue
                    if player.closed_at is not None:
                        player.gaps.append(time.monotonic() - player.closed_at)
                        player.closes.append(player.closed_at)
                        player.closed_at = None
                    if message["outcome"] is not None:
                        await open_table(base, player)
                        break
                    if message["decider"] == message["seat"] and message["legal"]:
                        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                        act = {
                            "type": "act",
                            "version": message["version"],
                            "action": rng.choice(message["legal"]),
                        }
                        await socket_.send(json.dumps(act))
        except websockets.ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == 1012:
                if player.closed_at is None:
                    player.closed_at = time.monotonic()
                if spread > 0:
                    await asyncio.sleep(rng.uniform(0, spread))
                continue  # as the browser does
            player.failed[failure(closed)] += 1
            await asyncio.sleep(0.1)
        except (OSError, TimeoutError, websockets.WebSocketException) as error:
            player.failed[failure(error)] += 1
            await asyncio.sleep(0.1)


def failure(error: BaseException) -> str:
    """A failed reconnect's kind, for the report: the code its socket was closed with, the
    HTTP status its handshake met, or the exception's name."""
    if isinstance(error, websockets.ConnectionClosed):
        code = error.rcvd.code if error.rcvd is not None else None
        return "closed without a code" if code is None else f"closed {code}"
    if isinstance(error, websockets.InvalidStatus):
        return f"handshake answered {error.response.status_code}"
    return type(error).__name__


def _stat(pid: int) -> tuple[int, float] | None:
    """A process's parent and its processor time, its own and its reaped children's (user
    and system, seconds), or None once it is gone (Linux's ``/proc/PID/stat``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    ticks = sum(int(fields[index]) for index in (11, 12, 13, 14))
    return int(fields[1]), ticks / os.sysconf("SC_CLK_TCK")


def tree_cpu(roots: dict[str, list[int]]) -> dict[str, float]:
    """The processor seconds of each group of process trees (``roots``: a group's name, the
    process ids its trees start at), the children that ended and were reaped included: a
    server process that stopped counts in its supervisor's total, a finished PostgreSQL
    backend in its postmaster's."""
    stats = {
        int(entry.name): stat
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None
    }
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in stats.items():
        children.setdefault(parent, []).append(pid)
    totals = {}
    for group, pids in roots.items():
        seen, total, stack = set(), 0.0, [pid for pid in pids if pid in stats]
        while stack:
            pid = stack.pop()
            if pid not in seen:
                seen.add(pid)
                total += stats[pid][1]
                stack += children.get(pid, [])
        totals[group] = total
    return totals


def spent(before: dict[str, float], after: dict[str, float]) -> str:
    """Each group's processor seconds between two :func:`tree_cpu` samples, and their sum."""
    each = {group: after[group] - before[group] for group in before}
    parts = ", ".join(f"{group} {seconds:.1f}" for group, seconds in each.items())
    return f"{sum(each.values()):.1f} s ({parts})"


def children_named(name: str) -> list[int]:
    """This process's children whose command is ``name`` (HAProxy's)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                comm = (entry / "comm").read_text().strip()
                stat = _stat(int(entry.name))
            except OSError:
                continue
            if comm == name and stat is not None and stat[0] == os.getpid():
                found.append(int(entry.name))
    return found


def restarted(log: Path) -> list[str]:
    """What the supervisor says of each process it restarted (its JSON lines): "s1
    restarted: ready in 4.2 s", ..."""
    said = []
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("{") and "restarted: ready in" in line:
            said.append(json.loads(line)["message"])
    return said


def shares(tables: int, clients: int) -> list[list[int]]:
    """The players' numbers each of ``clients`` load-generator processes plays, in turn (the
    first ``tables % clients`` one more), none empty."""
    clients = max(1, min(clients, tables))
    return [list(range(first, tables, clients)) for first in range(clients)]


@dataclass
class Met:
    """What one player met, as a load-generator process hands it back."""

    number: int
    gaps: list[float]
    opening: list[float]
    closes: list[float]
    failed: dict[str, int]
    waiting: bool


async def crowd(
    numbers: list[int], address: str, pace: tuple[float, float], pipe: Connection
) -> list[Met]:
    """Open a table for each of ``numbers``, say so on ``pipe``, play them until ``pipe``
    says stop; what each player met."""
    players = [Player(number) for number in numbers]
    await asyncio.gather(*(open_table(f"http://{address}", player) for player in players))
    pipe.send("open")
    stop = asyncio.Event()
    tasks = [asyncio.create_task(play(address, p, stop, *pace)) for p in players]
    await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # "stop"
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return [
        Met(p.number, p.gaps, p.opening, p.closes, dict(p.failed), p.closed_at is not None)
        for p in players
    ]


def client(numbers: list[int], address: str, pace: tuple[float, float], pipe: Connection) -> None:
    """One load-generator process (``--clients``): its share of the players, at ``pace``
    (``--think``, ``--spread``)."""
    pipe.send(asyncio.run(crowd(numbers, address, pace, pipe)))


def wait_for(pipe: Connection, worker: BaseProcess, what: str, seconds: float) -> object:
    """The next thing ``worker`` sends on ``pipe`` (within ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not pipe.poll(0.2):
        if not worker.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"a load-generator process sent no {what}")
    return pipe.recv()


def storms(met: list[Met], pause: float = 3.0) -> list[list[float]]:
    """The gaps by the process stop that began them: the 1012s of one stop come together,
    and those of two stops more than ``pause`` seconds apart; each list sorted."""
    gaps = sorted(
        (close, gap)
        for player in met
        for close, gap in zip(player.closes, player.gaps, strict=True)
    )
    grouped: list[list[float]] = []
    last = None
    for close, gap in gaps:
        if last is None or close - last > pause:
            grouped.append([])
        grouped[-1].append(gap)
        last = close
    return [sorted(group) for group in grouped]


def report(
    args: argparse.Namespace, met: list[Met], took: float, loads: tuple[object, object]
) -> None:
    """Print the gaps' p50, p99 and max, the moved players, the failed reconnects."""
    gaps = sorted(gap for player in met for gap in player.gaps)
    print(
        f"tables (players): {args.tables}, think {args.think:g} s, {args.clients} clients"
        + (f", reconnects spread over {args.spread:g} s" if args.spread else "")
    )
    print(f"rolling restart of 3 processes: {took:.1f} s ({'; '.join(restarted(args.log))})")
    print(f"players moved by a 1012: {sum(bool(p.gaps) for p in met)} ({len(gaps)} moves)")
    if gaps:
        print(
            f"1012 -> next state: p50 {percentile(gaps, 0.5):.3f} s, "
            f"p99 {percentile(gaps, 0.99):.3f} s, max {gaps[-1]:.3f} s"
        )
        for number, storm in enumerate(storms(met), start=1):
            print(
                f"  stop {number}: {len(storm)} moves, p50 {percentile(storm, 0.5):.3f} s, "
                f"p99 {percentile(storm, 0.99):.3f} s, max {storm[-1]:.3f} s"
            )
        opening = sorted(gap for player in met for gap in player.opening)
        print(
            f"  of which 1012 -> socket open: p50 {percentile(opening, 0.5):.3f} s, "
            f"p99 {percentile(opening, 0.99):.3f} s, max {opening[-1]:.3f} s"
        )
    print(f"still waiting for a state at the end: {sum(p.waiting for p in met)}")
    failed: Counter[str] = Counter()
    for player in met:
        failed.update(player.failed)
    kinds = ", ".join(f"{kind} {count}" for kind, count in failed.most_common(5))
    print(f"failed reconnects: {failed.total()}" + (f" ({kinds})" if kinds else ""))
    print(f"load average (1, 5, 15 min) before: {loads[0]}, after: {loads[1]}")
    print(args.cpu)


def run(args: argparse.Namespace, address: str, supervisor: subprocess.Popen[bytes]) -> None:
    """The players in ``args.clients`` processes, a rolling restart, the report."""
    context = multiprocessing.get_context("spawn")
    workers: list[tuple[Connection, BaseProcess]] = []
    for numbers in shares(args.tables, args.clients):
        ours, theirs = context.Pipe()
        pace = (args.think, args.spread)
        process = context.Process(target=client, args=(numbers, address, pace, theirs))
        process.start()
        workers.append((ours, process))
    roots = {
        "servers": [supervisor.pid],
        "haproxy": children_named("haproxy"),
        "postgres": [args.postmaster],
        "load generators": [cast(int, worker.pid) for _, worker in workers],
    }
    try:
        for pipe, worker in workers:
            wait_for(pipe, worker, "word that its tables are open", 600)
        playing = tree_cpu(roots), time.monotonic()
        time.sleep(args.warm)
        load_before = os.getloadavg()
        began = time.monotonic()
        at_restart = tree_cpu(roots)
        supervisor.send_signal(signal.SIGHUP)
        while len(restarted(args.log)) < 3:
            if time.monotonic() - began > 600:
                raise RuntimeError("the rolling restart did not end in 10 minutes")
            time.sleep(0.2)
        took = time.monotonic() - began
        time.sleep(args.after)
        load_after = os.getloadavg()
        args.cpu = (
            f"processor time at play, before the restart ({began - playing[1]:.1f} s): "
            f"{spent(playing[0], at_restart)}\n"
            f"processor time from the restart's start to the end ({time.monotonic() - began:.1f}"
            f" s): {spent(at_restart, tree_cpu(roots))}"
        )
        for pipe, _ in workers:
            pipe.send("stop")
        met: list[Met] = []
        for pipe, worker in workers:
            met += cast(list[Met], wait_for(pipe, worker, "results", 120))
    finally:
        for _, worker in workers:
            worker.join(timeout=30)
            if worker.is_alive():
                worker.kill()
    report(args, met, took, (load_before, load_after))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The options (``argv``: the command line's, without the program's name)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60, help="tables, one player each")
    parser.add_argument(
        "--clients",
        type=int,
        default=4,
        help="load-generator processes, the players shared among them (one process holding "
        "hundreds of sockets measures itself more than the server)",
    )
    parser.add_argument("--think", type=float, default=2.0, help="a player's seconds a move")
    parser.add_argument(
        "--spread",
        type=float,
        default=0.0,
        help="after a 1012, reconnect after a random pause of up to so many seconds (counted "
        "in the player's wait; 0: at once)",
    )
    parser.add_argument("--warm", type=float, default=5.0, help="seconds of play before")
    parser.add_argument("--after", type=float, default=5.0, help="seconds of play after")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.clients < 1:
        parser.error("--tables and --clients take a positive count")
    args.clients = min(args.clients, args.tables)
    return args


def main(argv: list[str] | None = None) -> None:
    """Run the measure with the options ``argv`` (the command line's by default)."""
    measure(parse(argv))


def measure(args: argparse.Namespace) -> None:
    """Start PostgreSQL, the supervisor and its three processes, HAProxy; play, restart, and
    print the report."""
    folder = Path(tempfile.mkdtemp(prefix="fanfold-rolling-"))
    args.log = folder / "supervisor.log"
    with postgres(fsync=False) as socket_folder:
        url = new_database(socket_folder, "rolling")
        pid_file = Path(socket_folder) / "data" / "postmaster.pid"
        args.postmaster = int(pid_file.read_text().split()[0])
        port, health = free_port(), free_port()
        while {port + 1, port + 2} & {health, health + 1, health + 2}:
            health = free_port()
        command = [
            *(sys.executable, "-m", "fanfold", "serve", "--processes", "3"),
            *("--port", str(port), "--health-port", str(health), "--db", url),
            *("--bot-workers", "1", "--bot-pause", "0", "--log-format", "json"),
            *("--trusted-proxy", "127.0.0.1"),
        ]
        with args.log.open("wb") as output:
            supervisor = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        try:
            ports, checks = [port, port + 1, port + 2], [health, health + 1, health + 2]
            deadline = time.monotonic() + 300
            for check in checks:
                while True:
                    try:
                        if httpx.get(f"http://127.0.0.1:{check}/ready", timeout=2).is_success:
                            break
                    except httpx.TransportError:
                        pass
                    if time.monotonic() > deadline or supervisor.poll() is not None:
                        raise RuntimeError(args.log.read_text()[-3000:])
                    time.sleep(0.2)
            with haproxy(folder, ports, checks) as front:
                run(args, f"127.0.0.1:{front}", supervisor)
        finally:
            supervisor.terminate()
            supervisor.wait(timeout=180)


if __name__ == "__main__":
    main()
