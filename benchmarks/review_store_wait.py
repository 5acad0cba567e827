"""What an engine review's writes cost the live commits on one SQLite file, apart from the rest
of the server (``benchmarks/review.py --store-wait``).

A SQLite file has one writer. The server's live commits run in the store's own thread
(:class:`fanfold.server.hub.commits.Commits`, a group commit); a review's writes (its moves, about
one transaction a second a review, its lease) ran in a thread of their own, so a live commit that
met one waited for the file's lock in SQLite's busy handler, which sleeps 1 ms, then 2, 5, ...
before it tries again. They then went to the store's thread after the live commits
(:meth:`~fanfold.server.hub.commits.Commits.after_live`), where a live row that came while one
ran waited for it in the queue. They now go to a file of their own with its own writer thread
(:mod:`fanfold.server.store.review_file`): neither waits for the other.

This runs the server's own :class:`~fanfold.server.hub.commits.Commits` on a SQLite file with
``--tables`` tables, each committing an action every 0.5 to 1.5 s (about 200 a second at 200
tables: a 200-table site's players and bots), and ``--reviews`` reviews each storing 6 judged
moves (Fano-sized entries) every ``--every`` seconds or so (default 0.1: ten times the server's
rate of about one a second, so that the writes meet often), in four modes in turn, ``--rounds``
times: ``none`` (no review), ``thread`` (the review's writes to the main file in a thread of
their own, the first way), ``after_live`` (to the main file in the store's thread after the live
commits, the second), ``file`` (to the reviews' own file in its own writer thread of this
process, the third) and ``worker`` (to the reviews' own file by a process of its own at nice 19,
as the server's review worker stores a step's moves now:
:func:`fanfold.server.store.review_step_writes.store_step`; the modes before ``file`` write the
reviews' tables the main file keeps). It prints each mode's live commit times (from queueing
the row to its commit), pooled over the rounds, a review write's mean time (the worker's:
its transaction with its moves' text made first), how many of the store's group commits
overlapped a review's write, with their mean time against the others' (what meeting one cost),
and this process's processor seconds per second (the server's process's cost: in ``worker``
mode the reviews' writes are not in it). The times are one machine's; compare the modes of
one run.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import random
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from fanfold.core.config import JSONObject
from fanfold.server.hub.commits import Commits
from fanfold.server.metrics import Metrics
from fanfold.server.reviews import Writes, in_thread
from fanfold.server.store import AppendRow, SeatPlan, Store, TablePlan
from fanfold.server.store.review_file import FileReviews
from fanfold.server.store.review_memory import review_store
from fanfold.server.store.review_step_writes import entry_rows, store_step
from fanfold.server.store.review_store import SqlReviews

MODES = ("none", "thread", "after_live", "file", "worker")

#: A judged Fano move as a review stores it (about the size of the real entries).
ENTRY: JSONObject = {
    "number": 0,
    "seat": 0,
    "move": "7H",
    "judged": "yes",
    "best": "7S",
    "best_words": "plays the seven of spades",
    "mark": "inaccuracy",
    "before": {"expected": 0.61, "deals": 24},
    "after": {"expected": 0.55, "deals": 24},
    "options": [{"move": f"{rank}S", "expected": 0.5 + rank / 100} for rank in range(2, 10)],
}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Timed:
    """The store, its group commits' spans (``perf_counter`` at their start and end) kept."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.spans: list[tuple[float, float]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def append_many(self, rows: list[AppendRow]) -> set[str]:
        started = time.perf_counter()
        try:
            return self.store.append_many(rows)
        finally:
            self.spans.append((started, time.perf_counter()))


def met(commits: list[tuple[float, float]], writes: list[tuple[float, float]]) -> list[bool]:
    """Whether each group commit's span overlapped a review write's."""
    ordered = sorted(writes)
    found = []
    for start, end in commits:
        found.append(any(w_start < end and start < w_end for w_start, w_end in ordered))
    return found


def mean_ms(values: list[float]) -> str:
    return f"{statistics.fmean(values) * 1e3:.2f}" if values else "-"


def make_store(folder: Path, tables: int, reviews: int) -> Store:
    store = Store(f"sqlite:///{folder / 'wait.db'}")
    for number in range(tables):
        plan = TablePlan(
            game="morris.v1",
            config={"adjacency": "geometric"},
            seed=number,
            start_position=None,
            seats=(SeatPlan("human"), SeatPlan("random")),
            allow_undo=False,
        )
        store.create(f"t{number}", plan, {})
    for found in (SqlReviews(store.engine), review_store(store)):  # the main file, its own
        for number in range(reviews):
            found.open(f"t{number}", 1, game="fano", moves=10**6, seed="1", budget=24, now=0.0)
            found.claim(f"t{number}", 1, "bench", time.time(), 1e6)
    return store


def worker_writes(
    path: str, reviews: int, every: float, seconds: float
) -> tuple[int, list[tuple[float, float]]]:
    """``worker`` mode, in a process of its own at nice 19 (the review worker's): each review
    stores 6 moves every ``every`` seconds or so for ``seconds``, by
    :func:`~fanfold.server.store.review_step_writes.store_step` (its moves made into text
    first, as the worker does); the writes done and their spans (``perf_counter``: the
    system's monotonic clock, comparable across processes)."""
    os.nice(19)
    spans: list[tuple[float, float]] = []
    stored = 0
    end = time.monotonic() + seconds
    moves = [1_000_000 * (n + 1) + int(time.time() * 1000) % 1_000_000 * 6 for n in range(reviews)]
    while time.monotonic() < end:
        time.sleep(random.uniform(0.5, 1.5) * every / reviews)
        number = stored % reviews
        entries = [{**ENTRY, "number": moves[number] + k} for k in range(6)]
        moves[number] += 6
        started = time.perf_counter()
        rows = entry_rows(entries)
        assert store_step(path, f"t{number}", 1, "bench", rows, time.time(), 1e6).stored
        spans.append((started, time.perf_counter()))
        stored += 1
    return stored, spans


async def run_mode(
    store: Store,
    mode: str,
    seconds: float,
    numbers: dict[int, int],
    reviews: int,
    every: float,
    pace: float,
) -> tuple[list[float], int, list[float], list[float], list[float]]:
    """One mode for ``seconds``: the live commits' times (s), the review writes done, the
    store's group commits' times (s) that met a review's write and that did not, and the
    review writes' times (s) (``numbers``: each table's next action number)."""
    outage: Any = SimpleNamespace(since=None)
    timed: Any = Timed(store)
    commits = Commits(timed, appender=None, metrics=Metrics(), outage=outage, let_go=lambda _: None)
    spans: list[tuple[float, float]] = []
    found = review_store(store) if mode in ("file", "worker") else SqlReviews(store.engine)
    writes: Writes = in_thread
    if mode == "after_live":
        writes = commits.after_live
    elif isinstance(found, FileReviews):
        writes = found.writes
    times: list[float] = []
    stored = 0
    end = time.monotonic() + seconds

    async def table(number: int) -> None:
        while time.monotonic() < end:
            await asyncio.sleep(random.uniform(0.5, 1.5) * pace)
            row = AppendRow(f"t{number}", numbers[number], 0, "C1", numbers[number] + 1, None)
            numbers[number] += 1
            started = time.perf_counter()
            await commits.commit(row)
            times.append(time.perf_counter() - started)

    async def review(number: int) -> None:
        nonlocal stored
        move = 1_000_000 * (number + 1) + int(time.time() * 1000) % 1_000_000 * 6
        while time.monotonic() < end:
            await asyncio.sleep(random.uniform(0.5, 1.5) * every)
            entries = {move + k: {**ENTRY, "number": move + k} for k in range(6)}
            move += 6
            write = functools.partial(
                spanned, found.add_moves, f"t{number}", 1, "bench", entries, time.time(), 1e6
            )
            assert await writes(write)
            stored += 1

    def spanned(write: Any, *args: Any) -> bool:
        started = time.perf_counter()
        try:
            done: bool = write(*args)
            return done
        finally:
            spans.append((started, time.perf_counter()))

    jobs = [table(n) for n in numbers]
    if mode == "worker":
        assert isinstance(found, FileReviews)
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            pool.submit(time.sleep, 0).result()  # started before the clock runs
            end = time.monotonic() + seconds
            apart = asyncio.get_running_loop().run_in_executor(
                pool, worker_writes, found.path, reviews, every, seconds
            )
            await asyncio.gather(*jobs)
            stored, spans = await apart
    else:
        if mode != "none":
            jobs += [review(n) for n in range(reviews)]
        await asyncio.gather(*jobs)
    commits.writer.shutdown()
    meets = met(timed.spans, spans)
    took = [end - start for start, end in timed.spans]
    return (
        times,
        stored,
        [t for t, hit in zip(took, meets, strict=True) if hit],
        [t for t, hit in zip(took, meets, strict=True) if not hit],
        [end - start for start, end in spans],
    )


def store_wait(
    *,
    tables: int = 200,
    reviews: int = 4,
    every: float = 0.1,
    pace: float = 1.0,
    seconds: float = 10.0,
    rounds: int = 3,
) -> None:
    """Print each mode's live commit times (see the module)."""
    with tempfile.TemporaryDirectory() as folder:
        store = make_store(Path(folder), tables, reviews)
        pooled: dict[str, list[float]] = {mode: [] for mode in MODES}
        writes = dict.fromkeys(MODES, 0)
        meeting: dict[str, list[float]] = {mode: [] for mode in MODES}
        alone: dict[str, list[float]] = {mode: [] for mode in MODES}
        numbers = dict.fromkeys(range(tables), 0)
        cpu = dict.fromkeys(MODES, 0.0)
        written: dict[str, list[float]] = {mode: [] for mode in MODES}
        wall = dict.fromkeys(MODES, 0.0)
        if not isinstance(review_store(store), FileReviews):
            raise SystemExit("the reviews have no file of their own in this tree")
        for _ in range(rounds):
            for mode in MODES:
                began, used = time.monotonic(), time.process_time()
                times, stored, hit, clear, spent = asyncio.run(
                    run_mode(store, mode, seconds, numbers, reviews, every, pace)
                )
                cpu[mode] += time.process_time() - used
                written[mode] += spent
                wall[mode] += time.monotonic() - began
                pooled[mode] += times
                writes[mode] += stored
                meeting[mode] += hit
                alone[mode] += clear
        store.close()
    print(
        f"tables {tables} (an action every {pace / 2:g} to {pace * 1.5:g} s each), reviews "
        f"{reviews} (a write every {every / 2:g} to {every * 1.5:g} s each), {rounds} rounds "
        f"of {seconds:g} s a mode"
    )
    print(
        "| mode | live commits | mean ms | p50 ms | p99 ms | max ms | > 2 ms | > 5 ms "
        "| review writes | review write mean ms | group commits meeting one | their mean ms "
        "| the others' mean ms | this process's CPU s/s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for mode in MODES:
        times = [t * 1e3 for t in pooled[mode]]
        over2 = sum(t > 2 for t in times) / len(times)
        over5 = sum(t > 5 for t in times) / len(times)
        print(
            f"| {mode} | {len(times)} | {statistics.fmean(times):.2f} | "
            f"{percentile(times, 0.5):.2f} | {percentile(times, 0.99):.2f} | {max(times):.1f} "
            f"| {over2:.2%} | {over5:.2%} | {writes[mode]} | {mean_ms(written[mode])} | "
            f"{len(meeting[mode])} of {len(meeting[mode]) + len(alone[mode])} | "
            f"{mean_ms(meeting[mode])} | {mean_ms(alone[mode])} | "
            f"{cpu[mode] / wall[mode]:.3f} |"
        )
