"""The review worker pauses inside a step (:mod:`fanfold.server.bots.step_pauses`): between a
step's units of work (a sampled deal, a candidate move, a stretch of the record's replay) it
waits while live work is under way, read from memory shared with the event loop
(:meth:`fanfold.server.bots.LiveWork.shared`), in a review thread and in the worker process;
a pause that starts mid-step holds the step until the live work ends, at most the hold's limit
over the step (the wait before it included); and a review computed with pauses is exactly the
review computed without them (same seed, same budget)."""

from __future__ import annotations

import asyncio
import ctypes
import dataclasses
import random
import threading
import time
from typing import Any

import numpy as np
import pytest

from fanfold.core.config import JSONObject
from fanfold.core.pauses import pause_point, pausing
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play import review_cards
from fanfold.play.setup import play_game
from fanfold.server.bots import LiveWork, ReviewWorker, step_pauses
from fanfold.server.bots.step_pauses import StepPauses
from fanfold.server.reviews import review_step

#: Set by the step below once it is under way; the test sets ``GO`` to let it reach its pause.
STARTED = threading.Event()
GO = threading.Event()
#: When the step below passed its pause point.
PASSED: list[float] = []


def step_with_a_pause(name: str) -> str:
    """A step of two units of work with a pause point between them."""
    STARTED.set()
    assert GO.wait(10)
    pause_point()
    PASSED.append(time.monotonic())
    return name


def card_record(name: str, players: int, seed: int) -> JSONObject:
    """A finished game of random players, its first seat a person's (the seat reviewed)."""
    record = play_game(get_game(name), None, ["random"] * players, seed=seed, agent_seed=seed)
    finished = dataclasses.replace(
        record.finish(), players=("human",) + ("random",) * (players - 1)
    )
    return finished.to_json()


def test_the_shared_count_follows_the_live_work() -> None:
    live = LiveWork()
    live.begin()
    shared = live.shared()  # made now: the count so far
    assert shared.value == 1
    live.begin()
    assert shared.value == 2
    with live.doing():
        assert shared.value == 3
    live.end()
    live.end()
    assert (live.count, shared.value) == (0, 0)
    assert live.shared() is shared


def test_a_step_pauses_inside_when_live_work_starts_mid_step() -> None:
    STARTED.clear()
    GO.clear()
    PASSED.clear()
    live = LiveWork()
    worker = ReviewWorker(processes=False, live=live, hold=60.0)
    holds: list[float] = []
    worker.held = holds.append

    async def main() -> tuple[str, float]:
        task = asyncio.create_task(worker.run(step_with_a_pause, "paused"))
        while not STARTED.is_set():  # the step is under way: no live work when it started
            await asyncio.sleep(0.005)
        assert not worker.holding  # under way, not waiting
        live.begin()  # a player's action arrives mid-step
        GO.set()
        while not worker.holding and not task.done():  # the step reaches its pause point
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.3)  # so the pause lasts at least this long
        assert PASSED == []  # the step waits at its pause point
        assert not task.done()
        assert worker.holding  # the review page says it waits for the tables in play
        ended = time.monotonic()
        live.end()
        answer = await task
        assert not worker.holding
        return answer, ended

    try:
        answer, ended = asyncio.run(main())
    finally:
        worker.shutdown()
    assert answer == "paused"
    assert PASSED[0] >= ended  # it went on once the live work ended
    assert worker.pauses == 1
    assert 0.3 <= worker.paused_seconds < 30
    assert worker.held_seconds == worker.paused_seconds  # no wait before the step
    assert holds == [worker.paused_seconds]  # the metric: the step's whole wait
    assert worker.held_to_limit == 0


def test_a_never_quiet_server_pauses_a_step_at_most_the_hold_limit_in_all() -> None:
    live = LiveWork()
    live.begin()  # never ends
    pauses = StepPauses(live.shared(), 0.2)
    started = time.monotonic()
    for _ in range(5):
        pause_point_of(pauses)
    took = time.monotonic() - started
    assert 0.2 <= pauses.seconds < 0.2 + 5
    assert took < 0.2 + 5
    assert pauses.pauses == 1  # the allowance spent at the first: the others go on at once
    assert pauses.to_limit

    worker = ReviewWorker(processes=False, live=live, hold=0.2)

    async def main() -> str:
        return await worker.run(step_with_a_pause, "late")

    STARTED.clear()
    GO.set()
    try:
        assert asyncio.run(main()) == "late"
    finally:
        worker.shutdown()
    # The hold before the step spent the limit: the step did not pause inside.
    assert worker.pauses == 0
    assert worker.held_to_limit == 1
    assert 0.2 <= worker.held_seconds < 10


def test_a_paused_step_sleeps_until_the_event_loop_wakes_it_not_looking_every_moment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While paused, a step sleeps on the semaphore the event loop releases when the live work
    ends (:meth:`LiveWork.waker`): it goes on at once at the release, not at the backstop (here
    30 s), and looks at the count only when woken (the count looked at every 2 ms would be
    about 150 looks in this pause)."""
    monkeypatch.setattr(step_pauses, "BACKSTOP_SECONDS", 30.0)
    live = LiveWork()
    flag = ctypes.c_int(0)
    wake = live.waker(flag)
    assert live.waker(flag) is wake  # one a process
    live.begin()
    live.begin()
    live.end()  # not yet zero: nothing released
    assert not wake.acquire(False)
    pauses = StepPauses(live.shared(), 60.0, flag, wake)
    ended: list[float] = []

    def pause() -> None:
        pause_point_of(pauses)
        ended.append(time.monotonic())

    paused = threading.Thread(target=pause)
    paused.start()
    deadline = time.monotonic() + 10
    while not flag.value and time.monotonic() < deadline:
        time.sleep(0.005)
    assert flag.value == 1  # the step waits, and says so
    time.sleep(0.3)
    assert not ended
    released = time.monotonic()
    live.end()  # the live work ends: the event loop releases the sleeping step
    paused.join(10)
    assert ended
    assert ended[0] - released < 5.0
    assert flag.value == 0
    assert pauses.pauses == 1
    assert not pauses.to_limit
    assert 1 <= pauses.looks <= 3
    live.end()  # the count stays at zero, no step paused: nothing released
    assert not wake.acquire(False)


def test_a_release_left_from_before_a_pause_does_not_end_it() -> None:
    live = LiveWork()
    flag = ctypes.c_int(1)
    wake = live.waker(flag)
    live.begin()
    live.end()  # released with the flag up and nobody asleep
    flag.value = 0
    live.begin()
    pauses = StepPauses(live.shared(), 0.2, flag, wake)
    pause_point_of(pauses)
    assert pauses.to_limit  # the old release was drained: the pause ran to its allowance
    assert 0.2 <= pauses.seconds < 5


def pause_point_of(pauses: StepPauses) -> None:
    with pausing(pauses):
        pause_point()


def noisy_pause() -> None:
    """A pause that draws from the process's shared generators meanwhile, as other code
    running during a pause might: a review must not depend on them."""
    random.random()
    np.random.random()
    time.sleep(0.0005)


@pytest.mark.parametrize(
    ("name", "players", "budget", "points"),
    [("fano", 2, 6, 6), ("fantan", 4, 60, 2)],  # a point a deal (Fano), a candidate move (Fan Tan)
)
def test_a_review_with_pauses_is_the_review_without(
    name: str, players: int, budget: int, points: int
) -> None:
    record = card_record(name, players, seed=5)
    moves = len(GameRecord.from_json(record).actions)
    stops = [(0, 6), (6, 12), (moves - 6, moves)]
    plain = [review_step(record, stop, budget, "r1", start) for start, stop in stops]
    calls: list[int] = []

    def counted() -> None:
        calls.append(1)
        noisy_pause()

    with pausing(counted):
        paused = [review_step(record, stop, budget, "r1", start) for start, stop in stops]
    assert paused == plain
    listed: list[Any] = [move for step in plain for move in step["moves"]]  # type: ignore[union-attr]
    judged = sum(move["judged"] == "yes" for move in listed)
    assert judged >= 2
    assert len(calls) >= points * judged  # pause points between deals or candidate moves


def test_a_review_paused_by_live_work_in_the_worker_process_is_the_same() -> None:
    record = card_record("fano", 2, seed=7)
    plain = review_step(record, 6, 120, "r2", 0)
    live = LiveWork()
    worker = ReviewWorker(processes=True, live=live, hold=60.0)

    async def main() -> tuple[JSONObject, JSONObject]:
        # The process started and warm: the next step is under way within milliseconds.
        first = await worker.run(review_step, record, 6, 120, "r2", 0)
        task = asyncio.create_task(worker.run(review_step, record, 6, 120, "r2", 0))
        for _ in range(4):  # live work comes and goes during the step
            await asyncio.sleep(0.05)
            live.begin()
            await asyncio.sleep(0.2)
            live.end()
        return first, await task

    try:
        first, second = asyncio.run(main())
    finally:
        worker.shutdown()
    assert first == plain
    assert second == plain
    assert worker.pauses >= 1  # the worker process read the count and paused
    assert 0.1 <= worker.paused_seconds < 60


def test_a_step_paused_in_the_worker_process_is_said_while_it_waits() -> None:
    record = card_record("fano", 2, seed=7)
    plain = review_step(record, 6, 12, "r2", 0)
    live = LiveWork()
    shared = live.shared()
    worker = ReviewWorker(processes=True, live=live, hold=60.0)

    async def main() -> tuple[JSONObject, bool, bool]:
        await worker.run(review_step, record, 6, 12, "r2", 0)  # the process started
        # The count as the process reads it, not the event loop's: the step starts at once
        # and pauses at its first pause point, inside.
        shared.value = 1
        task = asyncio.create_task(worker.run(review_step, record, 6, 12, "r2", 0))
        deadline = time.monotonic() + 30
        while not worker.holding:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.01)
        inside = worker._holding_since is None  # not the wait before the step
        await asyncio.sleep(0.1)
        waiting = worker.holding and not task.done()
        shared.value = 0
        answer = await task
        return answer, inside, waiting

    try:
        answer, inside, waiting = asyncio.run(main())
        assert not worker.holding  # lowered when the step went on
    finally:
        worker.shutdown()
    assert answer == plain
    assert inside
    assert waiting
    assert worker.pauses >= 1


@pytest.mark.parametrize(("name", "players"), [("fano", 2), ("fantan", 4)])
def test_a_card_step_replays_its_record_once(
    name: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = card_record(name, players, seed=3)
    game = GameRecord.from_json(record)
    moves = len(game.actions)
    seats = review_cards.reviewed_seats(game, players)
    # What the step judges, from the review's functions each replaying the record itself.
    judged = review_cards.review_moves(game, seed="r3", deals=4, seats=seats, start=6, stop=12)
    ending = review_cards.ending_of(game)
    replays: list[int] = []
    replay = GameRecord.states

    def counted(self: GameRecord) -> list[Any]:
        replays.append(len(self.actions))
        return replay(self)

    monkeypatch.setattr(GameRecord, "states", counted)
    step = review_step(record, 12, 4, "r3", 6)
    assert replays == [moves]  # one replay of the whole record, not one for the moves and one
    assert step["moves"] == [move.to_json() for move in judged]
    assert step["summary"] == [ending]
    replays.clear()
    whole = review_cards.review_cards(game, seed="r3", deals=2)
    assert replays == [moves]  # the whole review too
    assert whole["summary"][-1] == ending  # type: ignore[index]
