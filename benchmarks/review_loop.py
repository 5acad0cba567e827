"""What a running review costs the server's own process, per poll and per step, in processor
time: ``benchmarks/review.py --loop-cost``.

A busy shared machine moves the p99s of ``--impact`` by far more than the reviews do; the
processor time the server's process spends on a review's polls and steps survives it. The
event loop's process holds one interpreter lock: whatever a poll or a step costs it (in the
loop or in a thread of the process) is time a live table's action waits for.

One finished two-player Fano game of random players (the longest games the site reviews:
about 900 moves), its first seat a person's, its review's steps computed once beforehand (a
deal a decision: the moves' JSON has the site's shape whatever the deals), then:

* **polls**: the app in this process on a SQLite file, the review stored (done, and a copy
  half done), and ``GET /api/tables/ID/review`` called through the app (no client or socket
  in the timing) as the review page polls it: the whole review, or with ``?seen=N`` (the
  page's count of moves: nothing new, or one step's new moves). The processor time of the
  process per poll, less that of ``GET /health``, and the answer's bytes;
* **steps**: the review stored as the server stores it, the steps' results handed over at the
  site's pace (:data:`PACE`; only the server's side is timed), each step in a transaction of
  its own (batch 0 s, as before batches) and batched (:data:`~fanfold.server.reviews.BATCH`):
  the process's processor time per step, the write transactions per step and their time
  (while one runs, a live table's commit to the same SQLite file waits for the file's lock);
* **steps in the review worker** (a process of its own, as the server's, the game's first seat
  reviewed at one deal a decision): each step computed there and its moves stored by this
  process (batched, :data:`~fanfold.server.reviews.BATCH`), or computed and stored there, in
  the reviews' file (:class:`~fanfold.server.review_steps.WorkerSteps` with the file, as a
  server on SQLite does now): this process's processor time per step (the step handed over,
  its answer read, its moves stored or not) and its write transactions per step (the claim
  and the end only, where the worker stores the moves).

Run (about a minute and a half)::

    python3 benchmarks/review.py --loop-cost
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import statistics
import tempfile
import time
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fanfold.core.config import JSONObject
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play.review import REVIEW_VERSION
from fanfold.play.setup import play_game
from fanfold.server.bots import Priority, ReviewWorker
from fanfold.server.review_steps import WorkerSteps
from fanfold.server.reviews import BATCH, DEALS_ENVIRONMENT, Reviews, review_step, step_end
from fanfold.server.store import Store
from fanfold.server.store.protocols import ReviewStore
from fanfold.server.store.review_file import FileReviews
from fanfold.server.store.review_memory import review_store

#: Polls timed per row.
POLLS = 60
#: Seconds between two steps handed over (the site's pace on a quiet machine: about 8 steps a
#: second while reviews of random players' games run, ``--impact``).
PACE = 0.1


def long_record() -> GameRecord:
    """A two-player Fano game of random players, its first seat a person's."""
    record = play_game(get_game("fano"), None, ["random"] * 2, seed=0, agent_seed=0).finish()
    return dataclasses.replace(record, players=("human", "random"))


def computed_steps(record: GameRecord) -> dict[int, JSONObject]:
    """Each step's result by where it starts, computed here on one deal a decision."""
    steps: dict[int, JSONObject] = {}
    start, total = 0, len(record.actions)
    while start < total:
        stop = step_end(record.game, total, start)
        steps[start] = review_step(record.to_json(), stop, 1, "1", start)
        start = stop
    return steps


@contextmanager
def timed_store(store: ReviewStore, writes: list[float]) -> Iterator[None]:
    """Time each write transaction of ``store`` (its moves and its job's changes)."""
    change = store._change

    def timed(*args: Any, **kwargs: Any) -> bool:
        began = time.perf_counter()
        try:
            return change(*args, **kwargs)
        finally:
            writes.append(time.perf_counter() - began)

    store._change = timed  # type: ignore[method-assign]
    try:
        yield
    finally:
        store._change = change  # type: ignore[method-assign]


def step_costs(
    record: GameRecord, steps: dict[int, JSONObject], folder: Path, batch: float
) -> list[str]:
    """The server's side of storing the review step by step, a step handed over every
    :data:`PACE` seconds, the moves stored at most ``batch`` seconds apart (0: each step in a
    transaction of its own): rows of the Markdown table."""

    async def compute(
        game: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        del game, stop, budget, seed
        await asyncio.sleep(PACE)
        return steps[start]

    store = Store(f"sqlite:///{folder / f'steps-{batch:g}.db'}")
    try:
        reviews = review_store(store)
        runner = Reviews(reviews, compute, owner="benchmark", batch=batch)
        writes: list[float] = []

        async def one() -> None:
            await runner.open("t1", record)
            await runner.tasks[("t1", REVIEW_VERSION)]

        with timed_store(reviews, writes):
            began = time.process_time()
            asyncio.run(one())
            cpu = time.process_time() - began
    finally:
        store.close()
    count = len(steps)
    moves = len(record.actions) / count
    name = f"a step stored ({moves:.0f} moves), batch {batch:g} s"
    return [
        f"| {name} | processor ms | {cpu / count * 1000:.2f} |",
        f"| {name} | write transactions a step | {len(writes) / count:.2f} |",
        f"| {name} | a write transaction's p50 ms | {statistics.median(writes) * 1000:.2f} |",
    ]


def worker_costs(record: GameRecord, folder: Path, in_worker: bool) -> list[str]:
    """The server's side of a review whose steps a worker process computes, its moves stored
    by this process (batched) or, ``in_worker``, by the worker itself: rows of the table."""
    os.environ[DEALS_ENVIRONMENT] = "1"  # one deal a decision: the worker's share kept short
    name = "worker" if in_worker else "here"
    store = Store(f"sqlite:///{folder / f'worker-{name}.db'}")
    worker = ReviewWorker(processes=True)
    try:
        reviews = review_store(store)
        assert isinstance(reviews, FileReviews)
        runner = Reviews(
            reviews,
            WorkerSteps(worker.run, Priority.REVIEW),
            owner="benchmark",
            writes=reviews.writes,
            step_file=reviews.path if in_worker else None,
        )
        writes: list[float] = []

        async def one() -> float:
            await worker.run(time.sleep, 0)  # the worker process started before the timing
            began = time.process_time()
            await runner.open("t1", record)
            await runner.tasks[("t1", REVIEW_VERSION)]
            return time.process_time() - began

        with timed_store(reviews, writes):
            cpu = asyncio.run(one())
        job = reviews.job("t1", REVIEW_VERSION)
        assert job is not None
        assert job.state == "done", job
        count = worker.steps - 1
    finally:
        worker.shutdown()
        store.close()
        del os.environ[DEALS_ENVIRONMENT]
    what = (
        "computed and stored by the worker" if in_worker else "computed by the worker, stored here"
    )
    label = f"a step {what}" + ("" if in_worker else f", batch {BATCH:g} s")
    return [
        f"| {label} | this process's processor ms | {cpu / count * 1000:.2f} |",
        f"| {label} | this process's write transactions a step | {len(writes) / count:.2f} |",
    ]


def stored_review(
    store: ReviewStore, table: str, record: GameRecord, steps: dict[int, JSONObject], *, half: bool
) -> tuple[int, int]:
    """The review of ``table`` stored as computed: all of it (done) or its first half of steps
    (``half``: running); the moves stored and those of the last step stored."""
    store.open(table, REVIEW_VERSION, game=record.game, moves=len(record.actions), seed="1",
               budget=1, now=time.time())  # fmt: skip
    store.claim(table, REVIEW_VERSION, "benchmark", time.time(), 3600.0)
    starts = sorted(steps)[: len(steps) // 2] if half else sorted(steps)
    entries: dict[int, Any] = {}
    for start in starts:
        moves: Any = steps[start]["moves"]
        entries = {int(entry["number"]): entry for entry in moves}
        store.add_moves(table, REVIEW_VERSION, "benchmark", entries, time.time(), 3600.0)
    if not half:
        last: Any = steps[starts[-1]]
        store.finish(table, REVIEW_VERSION, "benchmark", last["engine"], last["summary"], None,
                     time.time())  # fmt: skip
    return max(entries), len(entries)


def poll_costs(record: GameRecord, steps: dict[int, JSONObject], folder: Path) -> list[str]:
    """What a poll costs the server's process: rows of the Markdown table."""
    from fastapi.testclient import TestClient

    from fanfold.server.app import create_app

    app = create_app(f"sqlite:///{folder / 'polls.db'}", bot_seconds=0.5, bot_pause=0.0)
    rows: list[str] = []
    with TestClient(app) as client:
        tables = {}
        for name in ("done", "half"):
            loaded = client.post(
                "/api/records", json={"record": record.to_json(), "seats": ["you", "random"]}
            )
            loaded.raise_for_status()
            tables[name] = loaded.json()["table"]
        store = review_store(app.state.hub.store)
        done, _ = stored_review(store, tables["done"], record, steps, half=False)
        half, last_step = stored_review(store, tables["half"], record, steps, half=True)

        def timed(path: str) -> tuple[float, int]:
            async def get() -> tuple[float, int]:
                size = 0

                async def receive() -> dict[str, Any]:
                    return {"type": "http.request", "body": b"", "more_body": False}

                async def send(message: MutableMapping[str, Any]) -> None:
                    nonlocal size
                    if message["type"] == "http.response.body":
                        size += len(message.get("body", b""))

                target, _, query = path.partition("?")
                scope = {
                    "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                    "method": "GET", "scheme": "http", "path": target, "raw_path": target.encode(),
                    "query_string": query.encode(), "root_path": "",
                    "headers": [(b"host", b"127.0.0.1")], "client": ("127.0.0.1", 5000),
                    "server": ("127.0.0.1", 80),
                }  # fmt: skip
                began = time.process_time()
                for _ in range(POLLS):
                    size = 0
                    await app(scope, receive, send)
                return (time.process_time() - began) / POLLS, size

            assert client.portal is not None  # the app runs (lifespan started)
            return client.portal.call(get)

        base, _ = timed("/health")
        cases: list[tuple[str, str]] = [
            (f"whole review, {done} moves, done", f"/api/tables/{tables['done']}/review"),
            (
                f"seen={done}, done (nothing new)",
                f"/api/tables/{tables['done']}/review?seen={done}",
            ),
            (f"whole review, {half} moves, running", f"/api/tables/{tables['half']}/review"),
            (
                f"seen={half - last_step}, running (one step new)",
                f"/api/tables/{tables['half']}/review?seen={half - last_step}",
            ),
            (
                f"seen={half}, running (nothing new)",
                f"/api/tables/{tables['half']}/review?seen={half}",
            ),
        ]
        for name, path in cases:
            cpu, size = timed(path)
            ms = (cpu - base) * 1000
            rows.append(f"| a poll: {name} | processor ms, bytes | {ms:.2f}, {size:,} |")
    return rows


def loop_cost_main() -> None:
    """Print the processor time a review costs the server's process, per poll and per step."""
    record = long_record()
    steps = computed_steps(record)
    print(f"load {os.getloadavg()[0]:.1f}; a Fano game of {len(record.actions)} moves, "
          f"{len(steps)} steps")  # fmt: skip
    print()
    print("| what | measure | value |")
    print("|---|---|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for line in poll_costs(record, steps, Path(folder)):
            print(line, flush=True)
        for batch in (0.0, BATCH):
            for line in step_costs(record, steps, Path(folder), batch):
                print(line, flush=True)
        for in_worker in (False, True):
            for line in worker_costs(record, Path(folder), in_worker):
                print(line, flush=True)
