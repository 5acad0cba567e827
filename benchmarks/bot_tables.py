"""Fano's ``hard`` at many tables at once: how long a player waits for each of its decisions
on a real server whose bot pool every table shares.

The server runs as ``fanfold serve`` in its own process (uvicorn, a SQLite store in a
temporary folder, its bot pool of ``--bot-workers`` worker processes, ``--bot-pause 0`` by
default so that only the decisions are timed). ``--tables`` tables of Fano at two players
(``--variant``, Trionfey by default) are opened at once, each a scripted player in seat 0
choosing a random legal move (after ``--think`` seconds; 0, at once, by default) against
``--agent`` (``hard`` by default) over the table's WebSocket, every player from a loopback
address of its own (a client of its own for the pool's fair shares). A finished game is
replaced by a new table.

A bot decision's wait is timed as the player sees it: from the ``ok`` of the player's action
(the move acknowledged) to the message telling the bot's move, and for the bot's next
decisions of the same turn from the message telling its move before. The tables play
``--warm`` seconds untimed (the workers load the compiled kernels), then ``--seconds`` timed.

It prints the decisions timed, their mean, p50, p99 and maximum wait, the load average over
the run (the machine's, other work included: say it with the figures), how many decisions the
wall-clock guard cut (``fanfold_bot_budget_cut_total`` of the agent's game and level, from the
server's ``/metrics``), and the server's own split of the same decisions: the mean wait for a
free worker (``fanfold_bot_queue_wait_seconds``) and the mean from asking the pool to its
answer (``fanfold_bot_decision_seconds``).

Run::

    python3 benchmarks/bot_tables.py --quick            # about two minutes: 90 s timed
    python3 benchmarks/bot_tables.py --tables 10 --seconds 600
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.rolling_restart import tree_cpu  # the repository's root is first on the path
from benchmarks.server import cpu_seconds, free_port, loopback, loopback_transport

#: The untimed and timed seconds of ``--quick`` (with the start, about two minutes).
QUICK = (15.0, 90.0)
#: How often the load average is read while the tables are timed, in seconds.
LOAD_EVERY = 5.0
#: The counter of the decisions the guard cut, and the server's timings of the pool.
CUTS = "fanfold_bot_budget_cut_total"
QUEUE = "fanfold_bot_queue_wait_seconds"
DECISION = "fanfold_bot_decision_seconds"


@dataclass
class Waits:
    """What the players saw."""

    #: Each bot decision's wait, in seconds, while timed.
    seconds: list[float] = field(default_factory=list)
    #: Bot moves told while timed (a message may tell more than one: then one wait counts).
    moves: int = 0
    #: Games finished while timed.
    games: int = 0
    #: The players' actions acknowledged while timed.
    acted: int = 0
    #: The players (by number) who acted while timed: every one, unless a table stalled.
    players: set[int] = field(default_factory=set)
    #: Acknowledged actions whose table was told before the ``ok`` (the server posts the new
    #: state first) and was the player's to decide again: it acts on that state at once.
    told_first: int = 0
    errors: list[str] = field(default_factory=list)
    #: Whether the tables are timed now.
    timing: bool = False


@dataclass(frozen=True)
class Figures:
    """The waits summed up (seconds)."""

    count: int
    mean: float
    p50: float
    p99: float
    most: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Figures:
        """The figures of ``seconds`` (all ``nan`` but the count when there are none)."""
        if not seconds:
            nan = float("nan")
            return cls(0, nan, nan, nan, nan)
        ordered = sorted(seconds)
        return cls(
            len(ordered),
            statistics.fmean(ordered),
            _rank(ordered, 0.50),
            _rank(ordered, 0.99),
            ordered[-1],
        )


def _rank(ordered: Sequence[float], share: float) -> float:
    """The value ``share`` of the way up ``ordered`` (nearest rank)."""
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * share + 0.5) - 1))]


def metric(text: str, name: str, **labels: str) -> float:
    """The sum of the samples called ``name`` in a Prometheus text exposition whose labels
    include ``labels`` (0 when there is none).

        >>> metric('a_total{game="fano.v1",level="hard"} 3.0\\na_total{game="x",level="hard"} 1',
        ...        "a_total", game="fano.v1")
        3.0
    """
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name) or line.startswith("#"):
            continue
        head, _, value = line.rpartition(" ")
        sample, _, rest = head.partition("{")
        if sample != name:
            continue
        found = dict(_labels(rest.rstrip("}")))
        if all(found.get(key) == wanted for key, wanted in labels.items()):
            total += float(value)
    return total


def _labels(text: str) -> list[tuple[str, str]]:
    """The ``key="value"`` pairs of a sample's labels (values without commas or quotes)."""
    pairs = []
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if sep:
            pairs.append((key.strip(), value.strip().strip('"')))
    return pairs


@dataclass(frozen=True)
class Server:
    """The server's counters of one moment (``/metrics``) for the timed agent's game."""

    cuts: float
    queued: float
    queue_seconds: float
    decided: float
    decision_seconds: float
    #: The CPU seconds of the server's process and of its bot workers (0: not read).
    server_cpu: float = 0.0
    workers_cpu: float = 0.0

    @classmethod
    def read(cls, text: str, game: str, level: str, pid: int | None = None) -> Server:
        """The counters in ``text``; with ``pid`` (the server's process), its CPU time and
        its children's (the bot workers, Linux)."""
        own = cpu_seconds(pid) if pid is not None else 0.0
        tree = tree_cpu({"server": [pid]})["server"] if pid is not None else 0.0
        return cls(
            metric(text, CUTS, game=game, level=level),
            metric(text, f"{QUEUE}_count"),
            metric(text, f"{QUEUE}_sum"),
            metric(text, f"{DECISION}_count"),
            metric(text, f"{DECISION}_sum"),
            own,
            tree - own,
        )

    def since(self, before: Server) -> Server:
        return Server(
            self.cuts - before.cuts,
            self.queued - before.queued,
            self.queue_seconds - before.queue_seconds,
            self.decided - before.decided,
            self.decision_seconds - before.decision_seconds,
            self.server_cpu - before.server_cpu,
            self.workers_cpu - before.workers_cpu,
        )


def report(
    args: argparse.Namespace, waits: Waits, server: Server, loads: Sequence[float], before: float
) -> list[str]:
    """The lines printed: what ran, the load, the figures, the server's split."""
    figures = Figures.of(waits.seconds)
    load = (
        f"mean {statistics.fmean(loads):.1f}, {min(loads):.1f} to {max(loads):.1f}"
        if loads
        else "not read"
    )
    queue = server.queue_seconds / server.queued if server.queued else float("nan")
    asked = server.decision_seconds / server.decided if server.decided else float("nan")
    each = server.workers_cpu / server.decided if server.decided else float("nan")
    cores = os.cpu_count() or 1
    return [
        f"# {args.tables} tables of Fano ({args.variant}, two players): a random player "
        f"(think {args.think:g} s) against {args.agent}; fanfold serve --bot-workers "
        f"{args.bot_workers} --bot-seconds {args.bot_seconds:g} --bot-pause {args.bot_pause:g}",
        f"# {platform.platform()}, {os.cpu_count()} cores, python {platform.python_version()}; "
        f"{args.warm:g} s untimed, then {args.seconds:g} s timed",
        f"# load average (1 min): {before:.1f} before the server started; while timed {load}",
        "",
        "| decisions | mean s | p50 s | p99 s | max s | cut by the guard | bot moves | "
        "player actions | games ended | errors |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {figures.count} | {figures.mean:.3f} | {figures.p50:.3f} | {figures.p99:.3f} | "
        f"{figures.most:.3f} | {server.cuts:g} | {waits.moves} | {waits.acted} | {waits.games} | "
        f"{len(waits.errors)} |",
        "",
        f"# players who acted while timed: {len(waits.players)} of {args.tables}; actions whose "
        f"next decision was the player's again, told before the ok: {waits.told_first}",
        f"# the server's split of its bot decisions while timed: {server.decided:g} decided, "
        f"mean {queue:.3f} s waiting for a free worker, mean {asked:.3f} s from asking the "
        "pool to its answer (the wait included)",
        f"# CPU while timed: the server's process {server.server_cpu:.1f} s, its bot workers "
        f"{server.workers_cpu:.1f} s, {each:.3f} s a decision: on {cores} idle cores the "
        f"workers could decide {cores / each if each else float('nan'):.1f} a second "
        f"({server.decided / args.seconds:.1f} a second here)",
        *(f"# error: {error}" for error in waits.errors[:5]),
    ]


# ---------------------------------------------------------------- the players


async def open_table(
    client: httpx.AsyncClient, base: str, body: dict[str, object]
) -> tuple[str, str]:
    """A new table: (its id, the player's token); waits and tries again when refused for a
    while (429)."""
    for _ in range(30):
        answer = await client.post(f"{base}/api/tables", json=body)
        if answer.status_code == 429:
            await asyncio.sleep(float(answer.headers.get("retry-after", "1")))
            continue
        answer.raise_for_status()
        created = answer.json()
        return created["table"], created["token"]
    raise RuntimeError("the server kept refusing to open a table")


async def player(
    base: str, number: int, body: dict[str, object], think: float, stop: asyncio.Event, waits: Waits
) -> None:
    """Play table after table until ``stop``, timing each bot decision (see the module)."""
    address = loopback(1, number)
    rng = random.Random(number)
    transport = loopback_transport(address)
    async with httpx.AsyncClient(transport=transport, timeout=60) as client:
        table, token = await open_table(client, base, body)
        while not stop.is_set():
            try:
                finished = await play(base, address, table, token, think, rng, stop, waits, number)
            except (OSError, TimeoutError, websockets.WebSocketException) as error:
                waits.errors.append(f"table {table}: {error!r}"[:160])
                await asyncio.sleep(0.1)
                continue
            if finished and not stop.is_set():
                if waits.timing:
                    waits.games += 1
                table, token = await open_table(client, base, body)


async def play(
    base: str,
    address: str,
    table: str,
    token: str,
    think: float,
    rng: random.Random,
    stop: asyncio.Event,
    waits: Waits,
    number: int = 0,
) -> bool:
    """One table over one WebSocket until its game ends (True) or ``stop`` (``number``: the
    player's)."""
    url = base.replace("http", "ws") + f"/ws/tables/{table}"
    async with websockets.connect(
        url, max_size=2**22, compression=None, proxy=None, local_addr=(address, 0)
    ) as socket_:
        await socket_.send(json.dumps({"type": "hello", "token": token}))
        pending = False  # an action sent, its ok not yet come
        after = 0  # the table's version once the action sent is played
        base_version: int | None = None  # the version since which bot moves are timed
        mark = 0.0  # when the last timed thing (the ok, a bot's move) arrived
        latest: dict[str, object] | None = None

        async def act(state: dict[str, object]) -> None:
            nonlocal pending, base_version, after
            if think:
                await asyncio.sleep(think * (0.5 + rng.random()))
            legal = state["legal"]
            assert isinstance(legal, list)
            pending, base_version, after = True, None, int(str(state["version"])) + 1
            move = {"type": "act", "version": state["version"], "action": rng.choice(legal)}
            await socket_.send(json.dumps(move))

        def ours(state: dict[str, object]) -> bool:
            return state["decider"] == state["seat"] and bool(state["legal"])

        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(socket_.recv(), 1.0)
            except TimeoutError:
                continue
            now = time.perf_counter()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "ok" and pending:
                pending = False
                base_version, mark = after, now
                if waits.timing:
                    waits.acted += 1
                    waits.players.add(number)
                if latest is not None and int(str(latest["version"])) >= base_version:
                    # The table as told before its ok (the server posts the new state first):
                    # the bot's moves after it are timed from it, and a decision of the
                    # player's own is made now (waiting for another message would stall the
                    # table for good: nothing else comes while its player decides).
                    base_version = int(str(latest["version"]))
                    if due(latest):
                        if waits.timing and int(str(latest["version"])) == after:
                            waits.told_first += 1
                        await act(latest)
                continue
            if kind == "error":
                waits.errors.append(str(message.get("error"))[:160])
                pending, base_version = False, None
                if latest is not None and ours(latest) and latest["outcome"] is None:
                    await act(latest)
                continue
            if kind != "state":
                continue
            latest = message
            version = int(message["version"])
            if base_version is not None and version > base_version:
                if waits.timing:
                    waits.seconds.append(now - mark)
                    waits.moves += version - base_version
                base_version, mark = version, now
            if message["outcome"] is not None:
                return True
            if ours(message) and not pending:
                await act(message)
        return False


def due(state: dict[str, object]) -> bool:
    """Whether the table told in ``state`` waits for its player: the player's seat decides,
    with legal moves, and the game goes on.

        >>> due({"decider": 0, "seat": 0, "legal": ["a"], "outcome": None})
        True
        >>> due({"decider": 1, "seat": 0, "legal": [], "outcome": None})
        False
    """
    return state["decider"] == state["seat"] and bool(state["legal"]) and state["outcome"] is None


# ---------------------------------------------------------------- the server


def start_server(folder: Path, port: int, args: argparse.Namespace) -> subprocess.Popen[bytes]:
    """``fanfold serve`` on a temporary SQLite store, answering ``/api/games``."""
    command = [
        sys.executable,
        "-m",
        "fanfold",
        "serve",
        *("--port", str(port), "--db", f"sqlite:///{folder / 'bench.db'}"),
        *("--bot-pause", f"{args.bot_pause:g}", "--bot-seconds", f"{args.bot_seconds:g}"),
        *("--bot-workers", str(args.bot_workers)),
    ]
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).raise_for_status()
            return process
        except httpx.HTTPError:
            if process.poll() is not None:
                break
            time.sleep(0.3)
    process.kill()
    raise RuntimeError(f"the server did not start (its log: {folder / 'server.log'})")


def scrape(base: str) -> str:
    return httpx.get(f"{base}/metrics", timeout=10).text


def wait_warm(base: str, seconds: float = 300.0) -> None:
    """Wait until the bots' workers have loaded the compiled kernels (the server's warm-up
    gauge is set), so that no decision is timed while a bot plays the fallback level."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if metric(scrape(base), "fanfold_bots_warm_up_seconds") > 0:
            return
        time.sleep(0.5)
    raise RuntimeError("the bots' workers did not warm up (are the compiled kernels built?)")


async def measure(
    base: str, args: argparse.Namespace, pid: int | None = None
) -> tuple[Waits, Server, list[float]]:
    """The tables played: untimed, then timed; what the players saw, the server's counters
    over the timed part (with ``pid``, the server's process, its CPU and its workers'), and
    the load averages read meanwhile."""
    waits = Waits()
    stop = asyncio.Event()
    body: dict[str, object] = {
        "game": "fano",
        "variant": args.variant,
        "seats": ["you", args.agent],
    }
    players = [
        asyncio.create_task(player(base, number, body, args.think, stop, waits))
        for number in range(args.tables)
    ]
    await asyncio.sleep(args.warm)
    game, level = "fano.v1", args.agent.split("(", 1)[0].strip()
    before = Server.read(await asyncio.to_thread(scrape, base), game, level, pid)
    waits.timing = True
    loads: list[float] = []
    ends = time.monotonic() + args.seconds
    while time.monotonic() < ends:
        loads.append(os.getloadavg()[0])
        await asyncio.sleep(min(LOAD_EVERY, max(0.0, ends - time.monotonic())))
    waits.timing = False
    after = Server.read(await asyncio.to_thread(scrape, base), game, level, pid)
    stop.set()
    for task in players:
        try:
            await asyncio.wait_for(task, 30)
        except (TimeoutError, Exception) as error:  # a player's failure is reported, not raised
            waits.errors.append(f"a player stopped: {error!r}"[:160])
    return waits, after.since(before), loads


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=10, help="tables at once (10)")
    parser.add_argument("--seconds", type=float, default=300.0, help="seconds timed (300)")
    parser.add_argument("--warm", type=float, default=20.0, help="seconds untimed first (20)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK[0]:g} s untimed, {QUICK[1]:g} s timed: about two minutes with the start",
    )
    parser.add_argument("--agent", default="hard", help="the bot's agent text (hard)")
    parser.add_argument("--variant", default="trionfey", help="Fano's variant (trionfey)")
    parser.add_argument("--think", type=float, default=0.0, help="the player's think time (0)")
    parser.add_argument("--bot-workers", type=int, default=4, help="the server's (4)")
    parser.add_argument("--bot-seconds", type=float, default=1.0, help="the server's (1)")
    parser.add_argument("--bot-pause", type=float, default=0.0, help="the server's (0 here)")
    args = parser.parse_args(argv)
    if args.quick:
        args.warm, args.seconds = QUICK
    if args.tables < 1 or args.seconds <= 0 or args.warm < 0 or args.think < 0:
        parser.error(
            "--tables must be at least 1, --seconds more than 0, --warm and --think 0 or more"
        )
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(argv)
    before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="fanfold-bot-tables-") as folder:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        process = start_server(Path(folder), port, args)
        try:
            wait_warm(base)
            waits, server, loads = asyncio.run(measure(base, args, process.pid))
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
    print("\n".join(report(args, waits, server, loads, before)), flush=True)


if __name__ == "__main__":
    main()
