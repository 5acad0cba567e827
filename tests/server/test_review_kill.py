"""A review's holder killed (SIGKILL) mid-review: another process takes the stored job over
once the lease has run out, keeps the moves already stored, computes again the steps that were
not (computed, but waiting for their batch to be stored) and finishes the review, which is
then the engines' review of the game, move for move (Morris), or the review one process makes
alone from the same seed and deals (Fano: each decision sampled from the seat's view)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from fanfold.core.config import JSONObject
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.games.morris import GAME as MORRIS
from fanfold.play.review import REVIEW_VERSION, review
from fanfold.play.setup import play_game
from fanfold.server.reviews import CARD_CHUNK, CHUNK, DEALS_ENVIRONMENT, Reviews, review_step
from fanfold.server.store import Store
from fanfold.server.store.protocols import ReviewStore
from fanfold.server.store.records import ReviewJob
from fanfold.server.store.review_memory import MemoryReviews, review_store
from tests.server.support import ROOT, sqlite_url, subprocess_environment

#: The holder: claims the review with a one-second lease, computes its first step, then hangs
#: in its second (its heartbeat keeps the lease) until it is killed; the first step's moves are
#: stored once the batch's time (the third argument, seconds) is up.
HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from fanfold.core.records import GameRecord
    from fanfold.server.reviews import Reviews, review_step
    from fanfold.server.store import Store
    from fanfold.server.store.review_memory import review_store

    url, path, batch = sys.argv[1], sys.argv[2], float(sys.argv[3])
    record = GameRecord.loads(open(path).read())
    store = Store(url)
    steps = []

    async def compute(game, stop, budget, seed, start):
        steps.append(stop)
        if len(steps) > 1:
            print("hanging", flush=True)
            await asyncio.Event().wait()
        return review_step(game.to_json(), stop, budget, seed, start)

    async def main():
        reviews = Reviews(
            review_store(store), compute, owner="holder", lease=1.0, batch=batch
        )
        await reviews.open("t1", record)
        await asyncio.Event().wait()

    asyncio.run(main())
    """
)


#: The holder whose review worker (a thread here) stores each step's moves itself in the
#: reviews' file, as a server on SQLite does: it claims the review with a one-second lease,
#: its worker computes and stores its first step, then it hangs before its second until it
#: is killed.
WORKER_HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from fanfold.core.records import GameRecord
    from fanfold.server.bots import Priority, ReviewWorker
    from fanfold.server.review_steps import WorkerSteps
    from fanfold.server.reviews import Reviews
    from fanfold.server.store import Store
    from fanfold.server.store.review_memory import review_store

    url, path = sys.argv[1], sys.argv[2]
    record = GameRecord.loads(open(path).read())
    reviews = review_store(Store(url))
    worker = ReviewWorker(processes=False)
    steps = []

    async def run(fn, *args, priority):
        steps.append(fn)
        if len(steps) > 1:
            print("hanging", flush=True)
            await asyncio.Event().wait()
        return await worker.run(fn, *args, priority=priority)

    async def main():
        holder = Reviews(
            reviews, WorkerSteps(run, Priority.REVIEW), owner="holder", lease=1.0,
            writes=reviews.writes, step_file=reviews.path,
        )
        await holder.open("t1", record)
        await asyncio.Event().wait()

    asyncio.run(main())
    """
)


async def compute(
    game: GameRecord, stop: int, budget: int | None, seed: str, start: int
) -> JSONObject:
    return review_step(game.to_json(), stop, budget, seed, start)


def take_over(reviews: ReviewStore, record: GameRecord) -> None:
    """A second process's side: ask for the review until the killed holder's lease has run
    out and the review is claimed here, then finish it."""

    async def asking() -> None:
        successor = Reviews(reviews, compute, owner="successor", lease=1.0)
        deadline = time.monotonic() + 30
        while ("t1", REVIEW_VERSION) not in successor.tasks:
            assert time.monotonic() < deadline, "the lease never ran out"
            await successor.open("t1", record)
            await asyncio.sleep(0.1)
        await successor.tasks[("t1", REVIEW_VERSION)]

    asyncio.run(asking())


def killed_and_taken_over(
    holder: subprocess.Popen[str], reviews: ReviewStore, record: GameRecord
) -> ReviewJob:
    """Kill the holder's process (SIGKILL) and let a successor take the review over and
    complete it: done by the successor at its second claim. Returns the job."""
    holder.send_signal(signal.SIGKILL)
    assert holder.wait(timeout=30) == -signal.SIGKILL
    take_over(reviews, record)
    done = reviews.job("t1", REVIEW_VERSION)
    assert done is not None
    assert (done.state, done.owner, done.attempts) == ("done", "successor", 2)
    return done


def killed_and_completed(
    holder: subprocess.Popen[str], reviews: ReviewStore, record: GameRecord
) -> tuple[ReviewJob, JSONObject]:
    """Kill the holder's process (SIGKILL), let a successor take the review over and complete
    it, and check it: done by the successor at its second claim, every move stored as the
    engines' review judges it. Returns the job and the engines' review."""
    done = killed_and_taken_over(holder, reviews, record)
    expected = review(record).to_json()
    stored = [
        {key: value for key, value in entry.items() if key not in ("best_words", "best_said")}
        for entry in reviews.moves("t1", REVIEW_VERSION)
    ]
    assert stored == json.loads(json.dumps(expected["moves"]))
    return done, expected


def test_a_killed_holder_s_review_is_taken_over_and_completed(tmp_path: Path) -> None:
    record: GameRecord = play_game(MORRIS, None, ["medium", "easy"], agent_seed=1).finish()
    assert len(record.actions) > 2 * CHUNK
    path = tmp_path / "record.json"
    path.write_text(record.dumps())
    url = sqlite_url(tmp_path)
    Store(url).close()  # migrated before the holder starts
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, url, str(path), "0.5"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=subprocess_environment(),
    )
    store = Store(url)
    reviews = review_store(store)  # on SQLite, the reviews' own file
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "hanging"
        job = reviews.job("t1", REVIEW_VERSION)
        assert job is not None
        assert (job.state, job.owner) == ("running", "holder")
        deadline = time.monotonic() + 30  # the first step stored when its batch's time is up
        while not reviews.moves("t1", REVIEW_VERSION):
            assert time.monotonic() < deadline, "the first step was never stored"
            time.sleep(0.05)
        assert len(reviews.moves("t1", REVIEW_VERSION)) == CHUNK
        time.sleep(1.5)  # its heartbeat renews the lease: nobody may take the review
        assert reviews.claim("t1", REVIEW_VERSION, "other", time.time(), 1.0) is None
        done, expected = killed_and_completed(holder, reviews, record)
        assert done.summary == expected["summary_said"]  # kept as codes and params
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.wait(timeout=30)
        store.close()


def test_a_killed_holder_whose_worker_stored_its_steps_is_taken_over_and_completed(
    tmp_path: Path,
) -> None:
    record: GameRecord = play_game(MORRIS, None, ["medium", "easy"], agent_seed=1).finish()
    path = tmp_path / "record.json"
    path.write_text(record.dumps())
    url = sqlite_url(tmp_path)
    Store(url).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", WORKER_HOLDER, url, str(path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=subprocess_environment(),
    )
    store = Store(url)
    reviews = review_store(store)
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "hanging"
        # Its worker stored the first step (and told nobody before): no batch to wait for.
        assert len(reviews.moves("t1", REVIEW_VERSION)) == CHUNK
        job = reviews.job("t1", REVIEW_VERSION)
        assert job is not None
        assert (job.state, job.owner) == ("running", "holder")
        killed_and_completed(holder, reviews, record)
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.wait(timeout=30)
        store.close()


def test_a_killed_holder_s_card_review_is_taken_over_and_made_as_one_process_makes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fano, two players both human, 2 deals a decision (the environment's fast budget, read
    by the holder when it opens the job): killed in its second step with its first computed
    but not stored yet (its batch's time not up), the holder's review is finished by another
    process, which computes that step again, and equals, move for move, summary and engine,
    the review that one process makes alone of the same table (the same seed, from the
    table's id)."""
    monkeypatch.setenv(DEALS_ENVIRONMENT, "2")
    fano = get_game("fano")
    short = fano.config_from_json({"turns_per_player": 12})  # 24 decisions: four steps
    played = play_game(fano, short, ["random", "random"], seed=3, agent_seed=3).finish()
    record = dataclasses.replace(played, players=("human", "human"))
    assert len(record.actions) > 2 * CARD_CHUNK
    path = tmp_path / "record.json"
    path.write_text(record.dumps())
    url = sqlite_url(tmp_path)
    Store(url).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, url, str(path), "3600"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=subprocess_environment(),
    )
    store = Store(url)
    reviews = review_store(store)  # on SQLite, the reviews' own file
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "hanging"
        job = reviews.job("t1", REVIEW_VERSION)
        assert job is not None
        assert (job.state, job.owner, job.budget) == ("running", "holder", 2)
        assert reviews.moves("t1", REVIEW_VERSION) == []  # its first step: not stored yet
        done = killed_and_taken_over(holder, reviews, record)
        stored = reviews.moves("t1", REVIEW_VERSION)
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.wait(timeout=30)
        store.close()

    async def alone() -> MemoryReviews:
        single = MemoryReviews()
        one = Reviews(single, compute, owner="alone")
        await one.open("t1", record)
        await one.tasks[("t1", REVIEW_VERSION)]
        return single

    memory = asyncio.run(alone())
    made = memory.job("t1", REVIEW_VERSION)
    assert made is not None
    assert made.state == "done"
    assert (made.seed, made.budget) == (done.seed, done.budget)
    assert stored == memory.moves("t1", REVIEW_VERSION)
    assert [entry["judged"] for entry in stored].count("yes") > CARD_CHUNK
    assert (done.summary, done.engine) == (made.summary, made.engine)
