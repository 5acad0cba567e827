"""A review's moves stored by the review worker itself, in the reviews' SQLite file
(:func:`fanfold.server.review_steps.stored_step`,
:func:`fanfold.server.store.review_step_writes.store_step`): only under its owner's claim
(nothing stored once the review is taken over), the lease extended with them, a move stored
already kept, the watching pages told a step's moves only once they are stored, and the whole
review, computed and stored in a worker process, the engines' review of the game."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import operator
import pickle
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from fanfold.core.config import JSONObject
from fanfold.core.pauses import pausing
from fanfold.play.review import REVIEW_VERSION, review
from fanfold.server import review_steps
from fanfold.server.bots import Priority, ReviewWorker
from fanfold.server.review_feed import ReviewFeed
from fanfold.server.review_jobs import keep_leased
from fanfold.server.review_steps import (
    StepClaim,
    WorkerSteps,
    packed_stored_step,
    review_step,
    stored_step,
)
from fanfold.server.reviews import CHUNK, Reviews
from fanfold.server.store import Store
from fanfold.server.store.review_file import FileReviews
from fanfold.server.store.review_memory import review_store
from fanfold.server.store.review_step_writes import claim_review, entry_rows, store_step
from tests.server.support import sqlite_url
from tests.server.test_reviews import morris_record, without_words


def file_reviews(tmp_path: Path) -> tuple[Store, FileReviews]:
    store = Store(sqlite_url(tmp_path))
    found = review_store(store)
    assert isinstance(found, FileReviews)
    return store, found


def opened(reviews: FileReviews, owner: str | None, now: float = 1000.0) -> None:
    reviews.open("t1", REVIEW_VERSION, game="morris", moves=40, seed="1", budget=None, now=now)
    if owner is not None:
        assert reviews.claim("t1", REVIEW_VERSION, owner, now, 30.0) is not None


def entries(*numbers: int, said: str = "a") -> list[JSONObject]:
    return [{"number": number, "said": said} for number in numbers]


def test_a_worker_s_store_needs_its_owner_s_claim_and_extends_its_lease(tmp_path: Path) -> None:
    store, reviews = file_reviews(tmp_path)
    try:
        opened(reviews, "holder")
        rows = entry_rows(entries(2, 1))
        assert [number for number, _ in rows] == [1, 2]  # by number
        other = store_step(reviews.path, "t1", REVIEW_VERSION, "other", rows, 2000.0, 30.0)
        assert not other.stored
        assert reviews.moves("t1", REVIEW_VERSION) == []  # nothing stored by a non-holder
        job = reviews.job("t1", REVIEW_VERSION)
        assert job is not None
        assert job.lease_until == 1030.0
        mine = store_step(reviews.path, "t1", REVIEW_VERSION, "holder", rows, 2000.0, 30.0)
        assert mine.stored
        assert mine.waited >= 0
        assert mine.took >= 0
        assert reviews.moves("t1", REVIEW_VERSION) == entries(1, 2)
        job = reviews.job("t1", REVIEW_VERSION)
        assert job is not None
        assert (job.owner, job.lease_until, job.updated) == ("holder", 2030.0, 2000.0)
        # A move stored already is kept (a step stored twice after a takeover, alike).
        again = entry_rows(entries(2, 3, said="b"))
        assert store_step(reviews.path, "t1", REVIEW_VERSION, "holder", again, 2001.0, 30.0).stored
        assert reviews.moves("t1", REVIEW_VERSION) == [*entries(1, 2), *entries(3, said="b")]
        # Taken over (the lease ran out, claimed by another): the old holder stores nothing.
        assert reviews.claim("t1", REVIEW_VERSION, "other", 5000.0, 30.0) is not None
        late = entry_rows(entries(4))
        assert not store_step(
            reviews.path, "t1", REVIEW_VERSION, "holder", late, 5001.0, 30.0
        ).stored
        assert len(reviews.moves("t1", REVIEW_VERSION)) == 3
        # A review done is never written to again.
        assert reviews.finish("t1", REVIEW_VERSION, "other", {}, [], None, 5002.0)
        assert not store_step(
            reviews.path, "t1", REVIEW_VERSION, "other", late, 5003.0, 30.0
        ).stored
        assert len(reviews.moves("t1", REVIEW_VERSION)) == 3
    finally:
        store.close()


def test_a_worker_never_makes_a_reviews_file(tmp_path: Path) -> None:
    missing = tmp_path / "gone-reviews.sqlite3"
    with pytest.raises(FileNotFoundError, match="does not exist"):
        store_step(str(missing), "t1", REVIEW_VERSION, "holder", [], 1.0, 30.0)
    assert not missing.exists()


def test_a_worker_s_first_step_claims_the_review_and_goes_on_from_the_moves_stored(
    tmp_path: Path,
) -> None:
    store, reviews = file_reviews(tmp_path)
    record = morris_record()
    game = record.to_json()
    try:
        opened(reviews, None, now=time.time())
        first = StepClaim(reviews.path, "t1", REVIEW_VERSION, "morris", "one", 30.0, True)
        one = stored_step(first, game, 0, None, "0", 0)
        assert (one["claimed"], one["attempts"], one["start"], one["stop"]) == (True, 1, 0, CHUNK)
        assert len(one["writes"]) == 2  # type: ignore[arg-type]
        # Held by "one": another's first step claims nothing and computes nothing.
        other = dataclasses.replace(first, owner="two")
        refused = stored_step(other, game, 0, None, "0", 0)
        assert (refused["claimed"], refused["stored"], refused["moves"]) == (False, False, [])
        # Its lease run out: "two" claims it (a second attempt) and goes on after move 16.
        assert reviews.claim("t1", REVIEW_VERSION, "three", time.time() + 60, 1.0) is not None
        assert claim_review(reviews.path, "t1", REVIEW_VERSION, "two", time.time(), 30.0) is None
        later = claim_review(reviews.path, "t1", REVIEW_VERSION, "two", time.time() + 120, 30.0)
        assert later is not None
        assert (later.attempts, later.stored) == (3, CHUNK)
        again = claim_review(reviews.path, "t1", REVIEW_VERSION, "two", time.time() + 121, 30.0)
        assert again is not None
        assert again.attempts == 3  # its holder claiming again: not a new attempt
    finally:
        store.close()


def test_a_stored_step_answers_its_stored_moves_and_the_last_step_closes_the_review(
    tmp_path: Path,
) -> None:
    store, reviews = file_reviews(tmp_path)
    record = morris_record()
    game = record.to_json()
    total = len(record.actions)
    try:
        opened(reviews, "holder", now=time.time())
        claim = StepClaim(reviews.path, "t1", REVIEW_VERSION, "morris", "holder", 30.0)
        first = stored_step(claim, game, CHUNK, None, "0", 0)
        assert set(first) == {"moves", "stored", "writes", "claimed", "start", "stop", "done"}
        assert (first["stored"], first["done"], first["start"], first["stop"]) == (
            True,
            False,
            0,
            CHUNK,
        )
        assert len(first["writes"]) == 1  # type: ignore[arg-type]
        assert first["moves"] == review_step(game, CHUNK, None, "0", 0)["moves"][:CHUNK]  # type: ignore[index]
        assert reviews.moves("t1", REVIEW_VERSION) == first["moves"]
        last = stored_step(claim, game, total, None, "0", CHUNK)
        assert (last["stored"], last["done"]) == (True, True)
        listed: Any = last["moves"]
        numbers = [entry["number"] for entry in listed]
        assert numbers == list(range(CHUNK + 1, total + 1))
        # The last step closed the review in its transaction, as the server's end did.
        job = reviews.job("t1", REVIEW_VERSION)
        assert job is not None
        assert (job.state, job.owner) == ("done", "holder")
        expected = review(record).to_json()
        assert job.summary == expected["summary_said"]
        assert job.engine == json.loads(json.dumps(expected["engine"]))
        assert len(reviews.moves("t1", REVIEW_VERSION)) == total
    finally:
        store.close()


class Checked(ReviewFeed):
    """A feed that checks, as each step's moves are told, that they are in the store."""

    def __init__(self, reviews: FileReviews) -> None:
        super().__init__()
        self.reviews = reviews
        self.told: list[list[int]] = []

    def stored(self, table_id: str, entries: list[JSONObject]) -> None:
        numbers = [int(str(entry["number"])) for entry in entries]
        kept = [int(str(entry["number"])) for entry in self.reviews.moves(table_id, REVIEW_VERSION)]
        assert set(numbers) <= set(kept), (numbers, kept)
        self.told.append(numbers)
        super().stored(table_id, entries)


def test_a_review_s_moves_are_stored_by_its_worker_before_its_watchers_are_told(
    tmp_path: Path,
) -> None:
    store, reviews = file_reviews(tmp_path)
    record = morris_record()
    worker = ReviewWorker(processes=False)
    writes: list[str] = []

    async def server_write(write: Any) -> Any:
        writes.append(write.func.__name__)
        return await reviews.writes(write)

    async def run() -> Checked:
        steps = WorkerSteps(worker.run, Priority.REVIEW)
        job = Reviews(reviews, steps, owner="me", writes=server_write, step_file=reviews.path)
        job.feed = feed = Checked(reviews)
        wrote: list[tuple[float, float]] = []
        job.worker_wrote = lambda waited, took: wrote.append((waited, took))
        await job.open("t1", record)
        await job.tasks[("t1", REVIEW_VERSION)]
        assert len(wrote) == len(feed.told) + 1  # the claim, then each step
        return feed

    try:
        feed = asyncio.run(run())
        done = reviews.job("t1", REVIEW_VERSION)
        assert done is not None
        assert done.state == "done", done
        stored = reviews.moves("t1", REVIEW_VERSION)
    finally:
        worker.shutdown()
        store.close()
    assert writes == []  # claimed, stored and closed by the worker: none by the server
    steps = -(-len(record.actions) // CHUNK)
    assert [len(numbers) for numbers in feed.told][:-1] == [CHUNK] * (steps - 1)
    assert functools.reduce(operator.iadd, feed.told, []) == list(range(1, len(record.actions) + 1))
    expected = review(record).to_json()
    assert [without_words(entry) for entry in stored] == json.loads(json.dumps(expected["moves"]))
    assert done.summary == expected["summary_said"]


def test_a_review_taken_over_stops_at_its_worker_s_next_store(tmp_path: Path) -> None:
    store, reviews = file_reviews(tmp_path)
    record = morris_record()
    worker = ReviewWorker(processes=False)
    calls = 0

    async def run(fn: Any, *args: Any, priority: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:  # the second step: another process took the review meanwhile
            taken = reviews.claim("t1", REVIEW_VERSION, "other", time.time() + 3600, 30.0)
            assert taken is not None
        return await worker.run(fn, *args, priority=priority)

    async def scenario() -> Reviews:
        job = Reviews(
            reviews,
            WorkerSteps(run, Priority.REVIEW),
            owner="me",
            writes=reviews.writes,
            step_file=reviews.path,
        )
        await job.open("t1", record)
        await job.tasks[("t1", REVIEW_VERSION)]
        return job

    try:
        asyncio.run(scenario())
        job = reviews.job("t1", REVIEW_VERSION)
        assert job is not None
        assert (job.state, job.owner) == ("running", "other")
        assert calls == 2  # it stopped: no third step
        assert len(reviews.moves("t1", REVIEW_VERSION)) == CHUNK  # the first step's only
    finally:
        worker.shutdown()
        store.close()


def test_a_review_computed_and_stored_in_a_worker_process_is_the_engines_review(
    tmp_path: Path,
) -> None:
    store, reviews = file_reviews(tmp_path)
    record = morris_record(agent_seed=2)
    worker = ReviewWorker(processes=True)

    async def run() -> None:
        steps = WorkerSteps(worker.run, Priority.REVIEW)
        job = Reviews(reviews, steps, owner="me", writes=reviews.writes, step_file=reviews.path)
        await job.open("t1", record)
        await job.tasks[("t1", REVIEW_VERSION)]

    try:
        asyncio.run(run())
        assert worker.pid is not None  # a process of its own stored the moves
        done = reviews.job("t1", REVIEW_VERSION)
        stored = reviews.moves("t1", REVIEW_VERSION)
    finally:
        worker.shutdown()
        store.close()
    assert done is not None
    assert done.state == "done", done
    expected = review(record).to_json()
    assert [without_words(entry) for entry in stored] == json.loads(json.dumps(expected["moves"]))


def test_a_renewal_that_fails_is_tried_again_and_the_heartbeat_goes_on() -> None:
    # A renewal meets the reviews' file's write lock held past SQLite's wait (a worker stopped
    # in its store): the heartbeat tries again soon rather than stop, then renews, and ends
    # when the review is no longer held.
    calls: list[float] = []

    async def renew() -> bool:
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise sqlite3.OperationalError("database is locked")
        return len(calls) < 3

    renewed: dict[str, float] = {}
    asyncio.run(asyncio.wait_for(keep_leased(renewed, "t1", 0.3, renew), 10))
    assert len(calls) == 3  # failed, tried again (renewed), then found taken over
    assert calls[1] - calls[0] < 0.09  # again after a thirtieth of the lease, not a third
    assert "t1" not in renewed


def test_a_review_s_record_crosses_to_its_worker_pickled_once_for_all_its_steps(
    tmp_path: Path,
) -> None:
    """Every step of a review hands the worker the same bytes (the record pickled at the first
    step), which unpickle to the record's JSON; another record gets bytes of its own."""
    store, reviews = file_reviews(tmp_path)
    record, other = morris_record(), dataclasses.replace(morris_record(), seed=99)
    worker = ReviewWorker(processes=False)
    handed: list[tuple[Any, bytes]] = []

    async def run(fn: Any, *args: Any, priority: Any) -> Any:
        handed.append((fn, args[1]))  # after the claim: the packed record
        return await worker.run(fn, *args, priority=priority)

    steps = WorkerSteps(run, Priority.REVIEW)

    async def scenario() -> None:
        job = Reviews(reviews, steps, owner="me", writes=reviews.writes, step_file=reviews.path)
        await job.open("t1", record)
        await job.tasks[("t1", REVIEW_VERSION)]

    try:
        asyncio.run(scenario())
        assert reviews.job("t1", REVIEW_VERSION).state == "done"  # type: ignore[union-attr]
    finally:
        worker.shutdown()
        store.close()
    assert len(handed) == -(-len(record.actions) // CHUNK)
    assert {fn for fn, _ in handed} == {packed_stored_step}
    assert all(data is handed[0][1] for _, data in handed)  # pickled once
    assert pickle.loads(handed[0][1]) == record.to_json()
    assert steps.packed(record) is handed[0][1]
    assert pickle.loads(steps.packed(other)) == other.to_json()
    assert steps.packed(other) is not handed[0][1]


def test_a_step_s_write_waits_at_a_pause_point_after_its_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker's write of a step's moves is a pause point: a pause comes after the step's
    work and before its moves are stored."""
    store, reviews = file_reviews(tmp_path)
    record = morris_record()
    claim = StepClaim(reviews.path, "t1", REVIEW_VERSION, "morris", "me", 30.0, True)
    computed = False
    after_work: list[int] = []  # the moves stored at each pause after the step's work
    work = review_steps.review_step

    def review_step(*args: Any) -> JSONObject:
        nonlocal computed
        found = work(*args)
        computed = True
        return found

    def pause() -> None:
        if computed:
            after_work.append(len(reviews.moves("t1", REVIEW_VERSION)))

    monkeypatch.setattr(review_steps, "review_step", review_step)
    try:
        opened(reviews, None, now=time.time())
        with pausing(pause):
            answer = stored_step(claim, record.to_json(), 0, None, "0", 0)
        assert answer["stored"] is True
        assert after_work == [0]  # one pause after the work, nothing stored yet
        assert len(reviews.moves("t1", REVIEW_VERSION)) == CHUNK
    finally:
        store.close()
