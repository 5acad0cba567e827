"""The review worker (:class:`fanfold.server.bots.ReviewWorker`): in a server whose bots think in
processes, a review's steps run in one worker process of their own at the lowest CPU priority
(nice 19 in the normal scheduling class: it yields to live play itself, and Linux's idle class
would starve it on a machine whose cores are busy), read from ``/proc``, and a review made
through it is the review one process makes alone; the steps run one at a time, a review someone
asked for before the sweep's; a worker process killed fails its step, and the next step starts
another."""

from __future__ import annotations

import asyncio
import operator
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from fanfold.core.config import JSONObject
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play.review import REVIEW_VERSION
from fanfold.play.setup import play_game
from fanfold.server.bots import Priority, ReviewWorker
from fanfold.server.bots.idle_class import IDLE_ENVIRONMENT, idle_wanted
from fanfold.server.bots.live_work import LiveWork
from fanfold.server.bots.worker import LOWEST_NICENESS, REVIEW_PROCESS_NAME
from fanfold.server.reviews import FAN_BUDGET, Compute, Reviews, review_step
from fanfold.server.routes.reviews import review_compute
from fanfold.server.store.review_memory import MemoryReviews

#: Linux's normal and idle scheduling classes, as ``/proc/PID/stat`` shows them.
SCHED_OTHER = 0
SCHED_IDLE = 5


def priority_of(pid: int) -> tuple[int, int]:
    """A process's nice value and scheduling policy, from ``/proc/PID/stat`` (fields 19 and
    41; the fields after the name, which may hold spaces, counted from the last ``)``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[16]), int(fields[38])


def fan_record() -> GameRecord:
    """A Fan deal played by a weak player (its review: one step, milliseconds of the exact
    solver, so that a worker at the lowest priority finishes it soon on a busy machine)."""
    return play_game(get_game("fan"), None, ["random"], seed=4, agent_seed=0).finish()


async def alone(
    game: GameRecord, stop: int, budget: int | None, seed: str, start: int
) -> JSONObject:
    return review_step(game.to_json(), stop, budget, seed, start)


def test_a_review_completes_in_a_worker_process_at_the_lowest_priority() -> None:
    record = fan_record()
    worker = ReviewWorker(processes=True)

    async def review(compute: Compute) -> MemoryReviews:
        store = MemoryReviews()
        reviews = Reviews(store, compute, owner="one")
        await reviews.open("t1", record)
        await reviews.tasks[("t1", REVIEW_VERSION)]
        return store

    try:
        through = asyncio.run(review(review_compute(worker)))
        pid = worker.pid
        assert pid is not None
        assert pid != os.getpid()
        nice, policy = priority_of(pid)
        name = Path(f"/proc/{pid}/comm").read_text().strip()
    finally:
        worker.shutdown()
    assert nice == LOWEST_NICENESS
    assert policy == SCHED_OTHER
    assert name == REVIEW_PROCESS_NAME  # told from the bot workers in ps, and by the benchmark
    assert worker.steps == 1  # Fan: one step, the whole deal
    made = asyncio.run(review(alone))
    done, expected = through.job("t1", REVIEW_VERSION), made.job("t1", REVIEW_VERSION)
    assert done is not None
    assert expected is not None
    assert (done.state, done.seed, done.budget) == ("done", expected.seed, FAN_BUDGET)
    assert through.moves("t1", REVIEW_VERSION) == made.moves("t1", REVIEW_VERSION)
    assert (done.summary, done.engine) == (expected.summary, expected.engine)


#: The steps run so far, in order, and the gate that holds the first one.
RAN: list[str] = []
GATE = threading.Event()


def step(name: str) -> str:
    if name == "first":
        assert GATE.wait(10)
    RAN.append(name)
    return name


def test_steps_run_one_at_a_time_a_review_asked_for_before_the_sweeps() -> None:
    RAN.clear()
    GATE.clear()
    worker = ReviewWorker(processes=False)

    async def main() -> list[str]:
        first = asyncio.create_task(worker.run(step, "first"))
        await asyncio.sleep(0.05)  # the first holds the worker
        swept = asyncio.create_task(worker.run(step, "swept", priority=Priority.BACKGROUND))
        gone = asyncio.create_task(worker.run(step, "gone"))
        asked = asyncio.create_task(worker.run(step, "asked", priority=Priority.REVIEW))
        await asyncio.sleep(0.05)
        assert worker.waiting == 3
        assert RAN == []
        gone.cancel()  # its review stopped waiting: never run
        GATE.set()
        return list(await asyncio.gather(first, asked, swept))

    try:
        assert asyncio.run(main()) == ["first", "asked", "swept"]
    finally:
        worker.shutdown()
    assert RAN == ["first", "asked", "swept"]
    assert worker.steps == 3
    assert worker.waiting == 0


def test_a_review_worker_process_killed_fails_its_step_and_the_next_starts_another() -> None:
    worker = ReviewWorker(processes=True)

    async def main() -> tuple[int, int | None, int, int | None]:
        step = asyncio.create_task(worker.run(time.sleep, 60))
        while worker.pid is None:
            await asyncio.sleep(0.01)
        killed = worker.pid
        os.kill(killed, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            await step
        gone = worker.pid  # the dead worker let go of
        return killed, gone, await worker.run(operator.add, 2, 3), worker.pid

    try:
        killed, gone, answer, another = asyncio.run(main())
    finally:
        worker.shutdown()
    assert gone is None
    assert answer == 5
    assert another is not None
    assert another != killed
    assert worker.steps == 2


def test_opening_a_card_review_never_loads_the_compiler_in_the_servers_process() -> None:
    # The server's process decides whether a Fano or Fan Tan game has a review at every poll;
    # it computes no step itself (its review worker does), so it must not import the compiled
    # search: loading the compiler there held the interpreter lock for a second or so at the
    # first Fan Tan review, while the live tables waited.
    code = (
        "import sys\n"
        "import fanfold.server.app, fanfold.server.reviews\n"
        "from fanfold.core.registry import get_game\n"
        "from fanfold.play.review_cards import reviews_cards\n"
        "for name in ('fano', 'fantan'):\n"
        "    game = get_game(name)\n"
        "    assert reviews_cards(game, game.default_config())\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]"


def policy_now(pid: int) -> int:
    return priority_of(pid)[1]


def test_a_step_computes_in_the_idle_class_while_live_play_goes_on_bounded_by_the_hold() -> None:
    wanted = idle_wanted()  # where a process may not leave the class, it is never entered
    live = LiveWork()
    worker = ReviewWorker(processes=True, live=live, hold=0.8)
    seen: list[tuple[float, int]] = []

    async def main() -> None:
        await worker.run(time.sleep, 0.0)  # the process started, warm
        live.begin()
        live.end()  # live play just went on: the next step computes in the idle class
        step = asyncio.ensure_future(worker.run(time.sleep, 1.6))
        began = time.monotonic()
        await asyncio.sleep(0.1)  # the step handed to the process
        while not step.done():
            pid = worker.pid
            assert pid is not None
            seen.append((time.monotonic() - began, policy_now(pid)))
            await asyncio.sleep(0.05)
        await step
        pid = worker.pid
        assert pid is not None
        seen.append((time.monotonic() - began, policy_now(pid)))

    try:
        asyncio.run(main())
    finally:
        worker.shutdown()
    assert worker.idle_steps == int(wanted)
    early = [policy for at, policy in seen if at < 0.6]
    assert early
    assert early == [SCHED_IDLE if wanted else SCHED_OTHER] * len(early)
    assert all(policy == SCHED_OTHER for at, policy in seen if at > 1.0)  # past the hold
    assert seen[-1][1] == SCHED_OTHER


def test_no_idle_class_without_live_play_nor_where_turned_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    live = LiveWork()
    worker = ReviewWorker(processes=True, live=live, hold=0.8)

    async def policy_during_step() -> int:
        step = asyncio.ensure_future(worker.run(time.sleep, 0.5))
        await asyncio.sleep(0.2)
        pid = worker.pid
        assert pid is not None
        policy = policy_now(pid)
        await step
        return policy

    try:
        assert asyncio.run(policy_during_step()) == SCHED_OTHER  # no live play at all
    finally:
        worker.shutdown()
    assert worker.idle_steps == 0
    monkeypatch.setenv(IDLE_ENVIRONMENT, "0")
    assert not idle_wanted()
    assert not ReviewWorker(processes=True, live=live).idle
    assert not ReviewWorker(processes=False, live=live).idle  # a thread: never
