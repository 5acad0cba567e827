"""An engine review's writes on SQLite: in its own file's writer thread
(:mod:`fanfold.server.store.review_file`), or, where the reviews share the store's database (a
SQLite database in memory), in the store's own thread after the live commits
(:meth:`fanfold.server.hub.commits.Commits.after_live`), never beside a live commit on the
file's one write lock; and no renewal of its lease while its stores of moves extend it."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from benchmarks.review_store_wait import store_wait
from fastapi.testclient import TestClient

from fanfold.core.config import JSONObject
from fanfold.core.records import GameRecord
from fanfold.play.review import REVIEW_VERSION
from fanfold.server.hub import Hub
from fanfold.server.reviews import CHUNK, Reviews, review_step
from fanfold.server.routes.reviews import reviews_of
from fanfold.server.store import AppendRow
from fanfold.server.store.review_file import FileReviews
from fanfold.server.store.review_memory import MemoryReviews
from tests.server.support import serve
from tests.server.test_reviews import load, morris_record, wait_done

#: The review store's writes.
WRITES = ("open", "claim", "add_moves", "renew", "finish", "fail")


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


class Recorded:
    """A review store whose writes say the thread they ran in, and whether a live group
    commit was being written then."""

    def __init__(self, store: Any, live: threading.Event) -> None:
        self.store = store
        self.live = live
        self.writes: list[tuple[str, str, bool]] = []

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.store, name)
        if name not in WRITES:
            return found

        def write(*args: Any, **kwargs: Any) -> Any:
            self.writes.append((name, threading.current_thread().name, self.live.is_set()))
            return found(*args, **kwargs)

        return write


class Marked:
    """A table store whose group commits raise ``live`` while they write."""

    def __init__(self, store: Any, live: threading.Event) -> None:
        self.store = store
        self.live = live

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def append_many(self, rows: list[AppendRow]) -> set[str]:
        self.live.set()
        try:
            found: set[str] = self.store.append_many(rows)
            return found
        finally:
            self.live.clear()


def test_a_served_review_is_claimed_stored_and_closed_by_its_worker_the_server_opens_it(
    tmp_path: Path,
) -> None:
    live = threading.Event()
    with serve(tmp_path) as client:
        hub = hub_of(client)
        reviews = reviews_of(client.app.state, hub)  # type: ignore[attr-defined]
        recorded = Recorded(reviews.store, live)
        reviews.store = recorded
        hub.commits.store = Marked(hub.commits.store, live)  # type: ignore[assignment]
        record = morris_record()
        table = load(client, record)
        body = wait_done(client, table)
        assert body["state"] == "done", body
        done = next(iter(hub.metrics.review_write_seconds.collect())).samples
        stored = next(iter(hub.metrics.review_worker_write_seconds.collect())).samples
        waited = next(iter(hub.metrics.review_worker_write_wait_seconds.collect())).samples
        moves = recorded.store.moves(table, REVIEW_VERSION)
    names = [name for name, _, _ in recorded.writes]
    # The review is claimed, its moves stored and it is closed by the review worker itself, in
    # the reviews' file: the server's process only opens it (the code before: its claim,
    # moves and end in its writer thread besides).
    assert names == ["open"], names
    assert [entry["number"] for entry in moves] == list(range(1, len(record.actions) + 1))
    steps = -(-len(record.actions) // CHUNK)
    assert {sample.name: sample.value for sample in stored}[
        "fanfold_review_worker_write_seconds_count"
    ] == steps + 1  # the claim, then each step
    assert {sample.name: sample.value for sample in waited}[
        "fanfold_review_worker_write_wait_seconds_count"
    ] == steps + 1
    assert isinstance(recorded.store, FileReviews)
    assert str(recorded.store.engine.url.database).endswith("fanfold-reviews.sqlite3")
    assert recorded.store.path == recorded.store.engine.url.database
    counted = {sample.name: sample.value for sample in done}
    assert counted["fanfold_review_write_seconds_count"] == 0  # none in its writer thread


def test_a_review_write_waits_for_the_live_rows_queued_before_and_while_it_waits(
    tmp_path: Path,
) -> None:
    order: list[str] = []
    held: list[float] = []  # how long the scenario surely kept the review waiting
    gate = threading.Event()

    class Slow:
        """A table store whose group commits wait for the gate."""

        def append_many(self, rows: list[AppendRow]) -> set[str]:
            order.append("live " + ",".join(row.table_id for row in rows))
            assert gate.wait(10)
            return set()

    def review_write() -> str:
        order.append("review")
        return threading.current_thread().name

    async def scenario(hub: Hub) -> tuple[str, float]:
        hub.commits.store = Slow()  # type: ignore[assignment]
        first = hub.commits.commit(AppendRow("first", 1, 0, "x", 1, None))
        waiting = asyncio.ensure_future(hub.commits.after_live(review_write))
        await asyncio.sleep(0)  # the review's wait has begun: it was asked before ``quiet``
        quiet = time.perf_counter()
        await asyncio.sleep(0.1)
        held.append(time.perf_counter() - quiet)
        assert order == ["live first"]  # the review's write waits for the live commit
        second = hub.commits.commit(AppendRow("second", 1, 0, "x", 1, None))
        third = hub.commits.commit(AppendRow("third", 1, 0, "x", 1, None))
        started = time.perf_counter()
        gate.set()
        await asyncio.gather(first, second, third)
        thread = await waiting
        return thread, time.perf_counter() - started

    with serve(tmp_path) as client:
        hub = hub_of(client)
        before = next(iter(hub.metrics.review_write_wait_seconds.collect())).samples
        assert client.portal is not None
        thread, _ = client.portal.call(scenario, hub)
        after = next(iter(hub.metrics.review_write_wait_seconds.collect())).samples
    # The rows queued while it waited went first, together (a group commit), then the review's.
    assert order == ["live first", "live second,third", "review"]
    assert thread.startswith("store")
    sums = {sample.name: sample.value for sample in before}
    waited = {sample.name: sample.value for sample in after}
    assert waited["fanfold_review_write_wait_seconds_count"] == (
        sums["fanfold_review_write_wait_seconds_count"] + 1
    )
    assert (
        waited["fanfold_review_write_wait_seconds_sum"]
        - sums["fanfold_review_write_wait_seconds_sum"]
        >= held[0]
        >= 0.099  # asyncio wakes a timer up to its clock resolution early
    )


class Renewals(MemoryReviews):
    """A review store whose lease renewals and stores of moves are counted."""

    def __init__(self) -> None:
        super().__init__()
        self.renewals = 0
        self.stores = 0

    def renew(self, *args: Any) -> bool:
        self.renewals += 1
        renewed: bool = super().renew(*args)
        return renewed

    def add_moves(self, *args: Any) -> bool:
        self.stores += 1
        added: bool = super().add_moves(*args)
        return added


def review_with_steps_of(seconds: float, lease: float) -> Renewals:
    """A Morris review whose steps each take ``seconds``, stored as each ends, under ``lease``."""
    store = Renewals()
    record = morris_record()

    async def compute(
        record: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        await asyncio.sleep(seconds)
        return review_step(record.to_json(), stop, budget, seed, start)

    async def run() -> None:
        reviews = Reviews(store, compute, owner="me", lease=lease, batch=0.0)
        await reviews.open("t1", record)
        await reviews.start("t1", record)

    asyncio.run(run())
    job = store.job("t1", REVIEW_VERSION)
    assert job is not None
    assert job.state == "done", job
    return store


def test_a_review_whose_steps_are_stored_writes_no_renewal_of_its_lease() -> None:
    # Steps of 0.3 s (three at least: 0.9 s, past the old heartbeat's first renewal), each
    # stored as it ends (extending the lease), under a lease of 2.4 s: the old heartbeat
    # renewed it every 0.8 s besides, a write of its own each time. A step may run 0.5 s late
    # (a loaded machine) before the heartbeat is due.
    started = time.perf_counter()
    store = review_with_steps_of(0.3, lease=2.4)
    assert time.perf_counter() - started > 0.8  # long enough for the old heartbeat to write
    assert store.stores >= 3
    assert store.renewals == 0


def test_a_long_step_still_has_its_lease_renewed() -> None:
    # One step of 0.7 s under a lease of 0.6 s: nothing stored meanwhile, so the heartbeat
    # renews it (a third of the lease after the claim, and again after that renewal).
    store = review_with_steps_of(0.7, lease=0.6)
    assert store.renewals >= 2


def test_the_store_wait_benchmark_sees_no_live_commit_meet_a_review_write_after_live(
    capsys: pytest.CaptureFixture[str],
) -> None:
    store_wait(tables=6, reviews=2, every=0.02, pace=0.05, seconds=0.6, rounds=1)
    rows = {
        line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:-1]]
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("| ") and not line.startswith("| mode")
    }
    assert set(rows) == {"none", "thread", "after_live", "file", "worker"}
    assert int(rows["thread"][7]) > 0  # review writes done
    assert int(rows["after_live"][7]) > 0
    assert int(rows["file"][7]) > 0  # to the reviews' own file
    assert int(rows["worker"][7]) > 0  # by a process of its own
    assert float(rows["worker"][8]) > 0  # its writes' mean ms
    assert rows["none"][8] == "-"  # none written
    assert float(rows["worker"][12]) >= 0  # this process's CPU s/s
    assert rows["after_live"][9].startswith("0 of ")  # none beside a live group commit
    assert rows["none"][9].startswith("0 of ")


def test_a_review_write_on_a_server_never_quiet_waits_at_most_the_limit(tmp_path: Path) -> None:
    order: list[str] = []

    class Busy:
        """A table store whose group commits take 50 ms each."""

        def append_many(self, rows: list[AppendRow]) -> set[str]:
            time.sleep(0.05)
            order.append("live")
            return set()

    async def scenario(hub: Hub) -> tuple[float, int]:
        hub.commits.store = Busy()  # type: ignore[assignment]
        hub.commits.after_live_limit = 0.3
        stop = time.monotonic() + 1.5
        number = 0

        async def live() -> None:  # a row queued at every moment: the commits never pause
            # Each player acts on its own clock (a row every 5 ms), not when its last row is
            # stored: a batch takes every row queued when it starts, so players that waited
            # for their rows queued none while a batch was written, and at its end, for a
            # turn of the event loop, nothing was queued or in flight (the review went at
            # once: a failure of two rehearsals).
            nonlocal number
            queued: list[asyncio.Future[None]] = []
            while time.monotonic() < stop:
                number += 1
                queued.append(
                    hub.commits.commit(AppendRow(f"t{number % 3}", number, 0, "x", 1, None))
                )
                await asyncio.sleep(0.005)
            await asyncio.gather(*queued)

        players = [asyncio.ensure_future(live()) for _ in range(3)]
        await asyncio.sleep(0.1)
        started = time.perf_counter()
        await hub.commits.after_live(lambda: order.append("review"))
        took = time.perf_counter() - started
        await asyncio.gather(*players)
        return took, order.index("review")

    with serve(tmp_path) as client:
        assert client.portal is not None
        took, place = client.portal.call(scenario, hub_of(client))
    # Its limit, then behind the one batch being written; the live rows went on after it.
    assert 0.3 <= took < 1.0, took
    assert 0 < place < len(order) - 1, order
