"""What the engines' reviews cost the games being played: ``benchmarks/review.py --impact``.

``fanfold serve`` runs in its own process (SQLite in a temporary folder, bots without pauses);
the load generator of ``benchmarks/server.py`` plays N tables at once (Fano, Fan Tan, Morris
and Fan in turn, a scripted player at a person's pace against ``random`` bots, no spectators)
for a number of seconds, twice: once with no review, once with ``--reviews`` reviews asked for
all along (finished games loaded as records, their first seat a person's, each review watched
as the review page does: on its socket, ``/ws/reviews/{id}``, which pushes each new step; one
that is done is replaced by a new one). The reviews are the site's own: Fano on 24 deals a
decision, Fan Tan on 1,000, in the server's review worker (one process at the lowest CPU priority,
:mod:`fanfold.server.bots.reviewer`).

Each review is asked for by a reader of its own, from a loopback address of its own
(127.3.x.y; players are 127.1.x.y), as a site's readers would: the server's limits per client
(``POST /api/records`` opens a table: 30 a minute) see each reader load one record, never one
client loading them all. Were the server to refuse a request anyway (HTTP 429), the run says
so in a line and asks again after the server's ``Retry-After``; past
:data:`REFUSALS_IN_A_ROW` refusals in a row it stops with a message (no traceback).

It prints, for each run, the players' act-to-``ok`` p50 and p99 and the bots' reply p50 and p99
(from a human action sent to the player's next turn where bots moved in between: the action's
commit, the pool's queue and the bots' decisions, as a player waits for them), the review
moves judged during the run, the server's main process's CPU (its bot workers' not counted),
the change of each p99 from the run without reviews (the aim: at most 10%), the machine's
load (the one-minute load average at the run's start and end: on a shared machine the other
work moves the p99s too), and the review worker's hold: its limit (``--hold``: the server's
``FANFOLD_REVIEW_HOLD``; 0 turns it off), the seconds its steps waited for the live work in all
(before a step and paused inside it), the steps started and the pauses inside steps (from the
server's ``/metrics``), with the reviews finished during the run and their seconds from their
table's loading to their end, and the readers who asked for them (the requests refused).

Run: ``python3 benchmarks/review.py --impact --tables 200 --seconds 30 --reviews 4``; with
``--reviews 0`` both runs are without reviews, and the change shows the noise of the machine;
``--hold 0`` runs the reviews without the hold (A/B: alternate ``--hold 0`` and the default).
``--pairs N`` runs N rounds, each a noise pair (no reviews in either run) and a pair with the
reviews, in turn first (:func:`pair_order`), and ends with a table of the p99s' changes, the
median and range of the pairs with reviews beside the noise pairs' (:func:`summary`): the
reviews' change means something only where it stands out of the noise's.
A quick check: ``--tables 50 --seconds 20``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import os
import re
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import httpx
import orjson
import uvloop
import websockets

from benchmarks.server import (
    Tally,
    cpu_seconds,
    free_port,
    level,
    loopback,
    loopback_transport,
    percentile,
    start_server,
)
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play.setup import play_game


def review_records(count: int) -> list[tuple[GameRecord, list[str]]]:
    """Finished games to review, their first seat a person's: two-player Fano games and
    four-player Fan Tan hands in turn (random players: long games, many decisions)."""
    fano, fantan = get_game("fano"), get_game("fantan")
    made: list[tuple[GameRecord, list[str]]] = []
    for index in range(count):
        if index % 2 == 0:
            record = play_game(fano, None, ["random"] * 2, seed=index, agent_seed=index)
            made.append((record.finish(), ["you", "random"]))
        else:
            record = play_game(fantan, None, ["random"] * 4, seed=index, agent_seed=index)
            made.append((record.finish(), ["you"] + ["random"] * 3))
    return made


_T = TypeVar("_T")

#: The least seconds between two reviews opened by one reader slot: a reader reads a review a
#: while before the next; 4 s keeps the reviews' rate of the runs whose readers polled every
#: second (about one review every 4 s a reader, 121 to 124 in the quiet verdict's 2 minutes
#: of ``on`` windows at 4 readers), so that runs before and after compare.
READER_PACE = 4.0

#: The loopback group of the readers' addresses (1: players, 2: spectators).
READERS = 3
#: Refusals (HTTP 429) in a row after which a run stops.
REFUSALS_IN_A_ROW = 5


class RefusedError(Exception):
    """The server kept refusing the benchmark's requests (HTTP 429): the run stops, saying so."""


@dataclasses.dataclass
class Reviewing:
    """The reviews asked for during a run."""

    done: int = 0
    judged: int = 0
    #: Seconds from each finished review's table loaded to its end.
    took: list[float] = dataclasses.field(default_factory=list)
    #: Readers so far (each loads one record, from an address of its own).
    readers: int = 0
    #: Requests the server refused (HTTP 429).
    refused: int = 0


def refusal(answer: httpx.Response, what: str) -> str:
    """A refusal (HTTP 429) in a sentence: what was refused, the server's own reason."""
    try:
        reason = str(answer.json().get("error", answer.text))
    except ValueError:
        reason = answer.text
    wait = answer.headers.get("retry-after", "1")
    return (
        f"the server refused {what} (HTTP 429, over its limit per client: {reason[:160]}); "
        f"asking again in {wait} s"
    )


async def sent(
    send: Callable[[], Awaitable[httpx.Response]], what: str, seen: Reviewing
) -> httpx.Response:
    """``send()``'s answer; one refused (HTTP 429) is said in a line and sent again after the
    server's ``Retry-After``, at most :data:`REFUSALS_IN_A_ROW` times (then
    :class:`RefusedError`). Another error status raises :class:`httpx.HTTPStatusError`."""
    for _ in range(REFUSALS_IN_A_ROW):
        answer = await send()
        if answer.status_code != 429:
            answer.raise_for_status()
            return answer
        seen.refused += 1
        print(f"#   {refusal(answer, what)}", flush=True)
        await asyncio.sleep(float(answer.headers.get("retry-after", "1")))
    raise RefusedError(
        f"the server refused {what} {REFUSALS_IN_A_ROW} times in a row (HTTP 429): the run "
        "stops, its readers' requests over the server's limits per client"
    )


class Reader:
    """A reader of one review: a client from a loopback address of its own (the
    ``number``-th reader's), that loads a record and polls its review as the page does."""

    def __init__(self, base: str, number: int) -> None:
        self.address = loopback(READERS, number)
        transport = loopback_transport(self.address)
        self.client = httpx.AsyncClient(base_url=base, timeout=60, transport=transport)
        self.table = ""
        self.judged = 0
        self.loaded = time.monotonic()

    async def load(self, record: GameRecord, seats: list[str], seen: Reviewing) -> None:
        """Load ``record`` as a new table (its review's)."""
        body = {"record": record.to_json(), "seats": seats}
        answer = await sent(
            lambda: self.client.post("/api/records", json=body), "a record's load", seen
        )
        self.table = answer.json()["table"]
        self.loaded = time.monotonic()

    async def watch(self, seen: Reviewing, opened: asyncio.Event | None = None) -> bool:
        """Watch the review as the page does, on its socket (``/ws/reviews/{id}``: each new
        step pushed, only what is new), until it ends (True) or the server closes the socket
        first (False); ``opened`` is set once its first message came."""
        url = str(self.client.base_url).replace("http", "ws", 1).rstrip("/")
        async with websockets.connect(
            f"{url}/ws/reviews/{self.table}?seen={self.judged}",
            max_size=2**24,
            compression=None,
            proxy=None,
            local_addr=(self.address, 0),
            open_timeout=60,
        ) as socket:
            async for text in socket:
                body = orjson.loads(text)
                if opened is not None:
                    opened.set()
                if body.get("type") != "review":
                    raise RuntimeError(f"the review's socket said {body}")
                seen.judged += body["judged"] - self.judged
                self.judged = body["judged"]
                if body["state"] in ("done", "failed"):
                    return True
        return False

    async def poll(self, seen: Reviewing) -> bool:
        """Ask for the review as the page does (only the moves it lacks); whether it ended."""
        answer = await sent(
            lambda: self.client.get(
                f"/api/tables/{self.table}/review", params={"seen": self.judged}
            ),
            "a review's poll",
            seen,
        )
        body = answer.json()
        seen.judged += body["judged"] - self.judged
        self.judged = body["judged"]
        return body["state"] in ("done", "failed")


async def until(stop: asyncio.Event, work: Awaitable[_T]) -> _T | None:
    """``work``'s answer, or ``None`` if ``stop`` is set first (``work`` then cancelled)."""
    task = asyncio.ensure_future(work)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
    if task.done():
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return None


async def keep_reviewing(base: str, count: int, stop: asyncio.Event, seen: Reviewing) -> None:
    """Keep ``count`` reviews asked for until ``stop``: each watched on its socket as the
    review page does (each new step pushed), a finished one replaced by the review of a new
    table of the same record, asked for by a new reader."""
    records = review_records(count)

    async def keep(index: int) -> None:
        while not stop.is_set():
            reader = Reader(base, seen.readers)
            seen.readers += 1
            try:
                record, seats = records[index]
                await reader.load(record, seats, seen)
                if await until(stop, reader.watch(seen)):
                    seen.done += 1
                    seen.took.append(time.monotonic() - reader.loaded)
            finally:
                await reader.client.aclose()
            with contextlib.suppress(TimeoutError):  # a reader reads it a while first
                rest = reader.loaded + READER_PACE - time.monotonic()
                await asyncio.wait_for(stop.wait(), max(rest, 0.0))

    await asyncio.gather(*(keep(index) for index in range(count)))


async def run(
    base: str, tables: int, seconds: float, think: float, reviews: int
) -> tuple[Tally, Reviewing]:
    """One run: the level, with ``reviews`` reviews asked for all along (0: none)."""
    stop = asyncio.Event()
    seen = Reviewing()
    reviewer = asyncio.create_task(keep_reviewing(base, reviews, stop, seen)) if reviews else None
    if reviewer is not None:
        await asyncio.sleep(2.0)  # the reviews asked for and running before the level starts
    tally = await level(base, tables, seconds, think, 0, 0)
    stop.set()
    if reviewer is not None:
        await reviewer
    return tally, seen


def held_of(base: str) -> tuple[float, float, float]:
    """The review worker's waits so far, from the server's ``/metrics``: the seconds its steps
    waited for the live work in all (before and inside them), the steps, and the pauses inside
    steps."""
    text = httpx.get(f"{base}/metrics", timeout=10).text
    found = {
        name: float(value)
        for name, value in re.findall(
            r"^fanfold_review_(hold_seconds_sum|hold_seconds_count|pauses_total) (\S+)$",
            text,
            re.M,
        )
    }
    return (
        found.get("hold_seconds_sum", 0.0),
        found.get("hold_seconds_count", 0.0),
        found.get("pauses_total", 0.0),
    )


@dataclasses.dataclass
class Measured:
    """One run's figures (a fresh server, ``asked`` reviews asked for all along)."""

    asked: int
    acts: int
    act50: float
    act99: float
    bot50: float
    bot99: float
    judged: int
    server_cpu: float
    loads: str
    held: float
    holds: float
    pauses: float
    done: int
    took: str
    readers: int
    refused: int
    errors: list[str]


def measure(
    folder: Path, number: int, tables: int, seconds: float, think: float, asked: int
) -> Measured:
    """One run: a fresh server (nothing left of the run before), the level played with
    ``asked`` reviews asked for all along (0: none)."""
    port = free_port()
    path = Path(folder) / f"run{number}"
    path.mkdir()
    server = start_server(path, port, 0.05)
    try:
        load = os.getloadavg()[0]
        cpu = cpu_seconds(server.pid)
        began = time.monotonic()
        try:
            tally, seen = uvloop.run(run(f"http://127.0.0.1:{port}", tables, seconds, think, asked))
        except RefusedError as refused:
            raise SystemExit(f"# stopped: {refused}") from None
        wall = time.monotonic() - began
        held, holds, pauses = held_of(f"http://127.0.0.1:{port}")
        server_cpu = (cpu_seconds(server.pid) - cpu) / wall * 100
        loads = f"{load:.1f}-{os.getloadavg()[0]:.1f}"
    finally:
        server.kill()
        server.wait()
    acts, replies = tally.latencies, tally.bot_replies
    return Measured(
        asked=asked,
        acts=len(acts),
        act50=statistics.median(acts) * 1000 if acts else float("nan"),
        act99=percentile(acts, 0.99) * 1000 if acts else float("nan"),
        bot50=statistics.median(replies) * 1000 if replies else float("nan"),
        bot99=percentile(replies, 0.99) * 1000 if replies else float("nan"),
        judged=seen.judged,
        server_cpu=server_cpu,
        loads=loads,
        held=held,
        holds=holds,
        pauses=pauses,
        done=seen.done,
        took=f"{statistics.median(seen.took):.1f}" if seen.took else "-",
        readers=seen.readers,
        refused=seen.refused,
        errors=sorted(set(tally.errors))[:5],
    )


def change(before: float, after: float) -> float:
    """The change from ``before`` to ``after``, in percent."""
    return (after / before - 1) * 100


def row(label: str, measured: Measured, base: Measured | None) -> str:
    """A run's line of the table (``base``: the pair's run without reviews, for the p99s'
    changes; ``None``: this is that run)."""
    one = measured
    changes = "| | "
    if base is not None:
        act, bot = change(base.act99, one.act99), change(base.bot99, one.bot99)
        changes = f"| {act:+.0f}% | {bot:+.0f}% "
    return (
        f"| {label} | {one.asked} | {one.acts} | {one.act50:.1f} | {one.act99:.1f} "
        f"| {one.bot50:.1f} | {one.bot99:.1f} | {one.judged} | {one.server_cpu:.0f} {changes}"
        f"| {one.loads} | {one.held:.1f} ({one.holds:.0f}, {one.pauses:.0f}) "
        f"| {one.done}, {one.took} | {one.readers} ({one.refused}) |"
    )


def pair_order(pairs: int, reviews: int) -> list[tuple[str, int]]:
    """The pairs of ``--pairs``, in the order run: each a label and the reviews asked for in
    its second run (its first has none). Each round is a noise pair (no reviews in either run)
    and a pair with ``reviews``, in turn first and second, so the machine's drift over the
    rounds weighs on both alike."""
    order: list[tuple[str, int]] = []
    for number in range(1, pairs + 1):
        noise, reviewed = (f"{number} noise", 0), (f"{number} reviews", reviews)
        order += [noise, reviewed] if number % 2 else [reviewed, noise]
    return order


def spread(changes: list[float]) -> str:
    """Changes in percent as their median and range: ``+3% (-5% to +12%)``."""
    if not changes:
        return "-"
    return f"{statistics.median(changes):+.0f}% ({min(changes):+.0f}% to {max(changes):+.0f}%)"


def summary(pairs: list[tuple[str, Measured, Measured]]) -> list[str]:
    """The table of ``--pairs``: for the pairs with reviews and the noise pairs side by side,
    the median change of each p99 from the pair's run without reviews and its range."""
    lines = [
        "| pairs | count | act p99 change, median (range) | bot p99 change, median (range) |",
        "|---|---:|---|---|",
    ]
    for kind in ("reviews", "noise"):
        chosen = [(base, run) for label, base, run in pairs if label.endswith(kind)]
        acts = [change(base.act99, run.act99) for base, run in chosen]
        bots = [change(base.bot99, run.bot99) for base, run in chosen]
        name = f"with {chosen[0][1].asked} reviews" if kind == "reviews" and chosen else kind
        lines.append(f"| {name} | {len(chosen)} | {spread(acts)} | {spread(bots)} |")
    return lines


def impact_main(
    tables: int,
    seconds: float,
    think: float,
    reviews: int,
    hold: float | None,
    pairs: int | None = None,
) -> None:
    """Run the pair (no reviews, then ``reviews``), or with ``pairs`` that many rounds of a
    noise pair and a pair with reviews (:func:`pair_order`) and their summary."""
    if hold is not None:
        os.environ["FANFOLD_REVIEW_HOLD"] = f"{hold:g}"  # the servers started below read it
    said = os.environ.get("FANFOLD_REVIEW_HOLD", "").strip() or "default (2 s)"
    order = [("1", reviews)] if pairs is None else pair_order(pairs, reviews)
    print(
        f"{tables} tables for {seconds:g} s a run (players think {think:g} s), each pair a run "
        f"without reviews then one with the reviews asked for; review hold limit: {said} "
        "(0: no hold)"
    )
    if pairs is not None:
        print(
            f"{pairs} rounds, each a noise pair (0 then 0 reviews) and a pair with {reviews} "
            "reviews, in turn first"
        )
    print(
        "| pair | reviews asked | human actions | act-to-ok p50 ms | act-to-ok p99 ms "
        "| bot reply p50 ms | bot reply p99 ms | review moves judged | server CPU % "
        "| act p99 change | bot p99 change | load | held s (steps, pauses in steps) "
        "| reviews done, s p50 | readers (refused) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|")
    done: list[tuple[str, Measured, Measured]] = []
    with tempfile.TemporaryDirectory() as folder:
        runs = itertools.count()
        for label, asked in order:  # --reviews 0: both runs of each pair without reviews
            base = measure(Path(folder), next(runs), tables, seconds, think, 0)
            print(row(label, base, None), flush=True)
            for error in base.errors:
                print(f"#   error: {error}", flush=True)
            second = measure(Path(folder), next(runs), tables, seconds, think, asked)
            print(row(label, second, base), flush=True)
            for error in second.errors:
                print(f"#   error: {error}", flush=True)
            done.append((label, base, second))
    if pairs is not None:
        print()
        for line in summary(done):
            print(line)
