"""The review worker (:class:`ReviewWorker`): where a server process computes the steps of its
engines' reviews, apart from the live games' bots.

A process has one review worker, started at the first step it is given: in ``fanfold serve`` a
worker process of its own at the lowest CPU priority
(:func:`~fanfold.server.bots.worker.lowest_priority`: nice 19), never the server's event loop
process nor one of the bot pool's workers, so a review takes little processor time that the
server and the live games' bots want, and never holds a worker a live decision waits for. On
SQLite the worker also writes the review in the reviews' file itself: its claim, each step's
moves and its end (:func:`fanfold.server.review_steps.stored_step`); elsewhere it computes
only, and the server stores the steps (:mod:`fanfold.server.reviews`). Steps run one at a
time, the waiting ones by :class:`~fanfold.server.bots.pool.Priority` (a review someone asked
for before the sweep's), then in the order asked. Tests that run the bot pool in threads run
the reviews in one thread too (the same code, without the process's start-up).

The worker also yields to live play itself, while live work is under way in the process
(:class:`~fanfold.server.bots.live_work.LiveWork`: a live bot decision in flight or queued in the
pool, a player's action being handled): a step starts only once there is none (the worker is
told when the live work ends: nothing polls), and inside a step (6 moves of Fano or Fan Tan,
about 0.1 to 0.3 s) it pauses between its units of work, a sampled deal or a candidate move,
while the count it reads from memory shared with the event loop is not zero, asleep
on a semaphore the event loop releases when the count falls to zero
(:mod:`~fanfold.server.bots.step_pauses`). A step waits at most :data:`HOLD_LIMIT` seconds in
all, before it and inside it: on a server that is never quiet, a review still takes a step
every :data:`HOLD_LIMIT` seconds or so. While a step waits, before it or paused inside it, the
worker says so (:attr:`ReviewWorker.holding`: the review page's line); a pause inside a step is
read from a flag in memory shared with the worker process. While live play goes on, a step
also computes in Linux's idle class for at most the hold's limit, then at nice 19 again
(:mod:`~fanfold.server.bots.idle_class`). A wait only delays a step: its result is the same."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import heapq
import itertools
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from fanfold.server.bots.idle_class import ACTIVE_SECONDS, idle_wanted, set_idle
from fanfold.server.bots.live_work import LiveWork
from fanfold.server.bots.pool import Priority
from fanfold.server.bots.step_pauses import attach, paused_step
from fanfold.server.bots.worker import WorkerProcess

if TYPE_CHECKING:
    from multiprocessing.synchronize import Semaphore

log = logging.getLogger(__name__)

_T = TypeVar("_T")

#: The most seconds a review step waits for the live work to end, before it starts and paused
#: inside it together (:class:`ReviewWorker`); past it, the step is computed to its end anyway.
HOLD_LIMIT = 2.0

#: The environment variable that sets another :data:`HOLD_LIMIT` for the server's review worker
#: (seconds; 0 turns the hold off, as the benchmark's comparison does).
HOLD_ENVIRONMENT = "FANFOLD_REVIEW_HOLD"


def hold_limit() -> float:
    """The review worker's hold limit: :data:`HOLD_ENVIRONMENT` where it holds a number of
    seconds from 0 to 60, else :data:`HOLD_LIMIT`."""
    given = os.environ.get(HOLD_ENVIRONMENT, "").strip()
    try:
        seconds = float(given)
    except ValueError:
        return HOLD_LIMIT
    return seconds if 0.0 <= seconds <= 60.0 else HOLD_LIMIT


class ReviewWorker:
    """The process's one review worker (see the module).

    Args:
        processes: compute in a worker process at the lowest CPU priority (``fanfold serve``);
            otherwise in one thread of this process (tests).
        live: the process's live work (the bot pool's :attr:`~.BotPool.live`): a step waits
            for it to end before it starts and pauses for it inside, at most ``hold`` seconds
            in all (``None``: no wait).
        hold: the most seconds a step waits for the live work (0: no wait).
    """

    def __init__(
        self, *, processes: bool, live: LiveWork | None = None, hold: float = HOLD_LIMIT
    ) -> None:
        self.processes = processes
        self.live = live
        self.hold = hold
        #: Whether steps may compute in Linux's idle class while live play goes on
        #: (:meth:`_idle`; in a worker process only).
        self.idle = processes and live is not None and idle_wanted()
        #: Steps begun in the idle class, since the start.
        self.idle_steps = 0
        #: Told the seconds each step waited, before it and inside it (0: none; the metrics).
        self.held: Callable[[float], object] | None = None
        #: Told the seconds each step computed in the idle class (0: none; the metrics).
        self.idled: Callable[[float], object] | None = None
        #: Told the pauses inside each step that paused (the metrics).
        self.paused: Callable[[int], object] | None = None
        #: Seconds the steps waited for the live work (before and inside), since the start.
        self.held_seconds = 0.0
        #: Of those, the seconds paused inside steps, and the pause points that waited.
        self.paused_seconds = 0.0
        self.pauses = 0
        #: Steps whose waits reached the limit (the live work still under way), since the start.
        self.held_to_limit = 0
        self._holding_since: float | None = None
        self._paused: ctypes.c_int | None = None
        self._executor: Executor | None = None
        self._busy = False
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        #: Steps computed to their end (an answer or an error), since the start.
        self.steps = 0

    @property
    def pid(self) -> int | None:
        """The worker process's id (``None``: not started yet, or a thread)."""
        return self._executor.pid if isinstance(self._executor, WorkerProcess) else None

    @property
    def holding(self) -> bool:
        """Whether a step waits for the live work now, before it starts or paused inside it
        (the review page says so)."""
        paused = self._paused
        return self._holding_since is not None or (paused is not None and bool(paused.value))

    def _paused_flag(self) -> ctypes.c_int | None:
        """The flag a step raises while it pauses inside (made at the first call; ``None``
        where the worker does not wait): shared memory, written by the step's thread or
        process, read by :attr:`holding`."""
        if self.live is None:
            return None
        if self._paused is None:
            self._paused = multiprocessing.get_context("spawn").RawValue(ctypes.c_int, 0)
        return self._paused

    @property
    def waiting(self) -> int:
        """How many steps wait for the worker now."""
        return sum(not future.done() for _, _, future in self._waiting)

    def _make(self) -> Executor:
        if self.processes:  # the process reads the live count from the memory it is given
            flag = self._paused_flag()
            warm = (
                None
                if self.live is None or flag is None
                else functools.partial(attach, self.live.shared(), flag, self.live.waker(flag))
            )
            return WorkerProcess(warm, lowest=True)
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")

    def _live_count(self) -> ctypes.c_int | None:
        """The shared count a step in a thread reads (a process reads its own, :func:`attach`
        at its start)."""
        return None if self.processes or self.live is None else self.live.shared()

    def _step_flag(self) -> ctypes.c_int | None:
        """The paused flag a step in a thread raises (a process has its own, :func:`attach`)."""
        return None if self.processes else self._paused_flag()

    def _step_wake(self) -> Semaphore | None:
        """The semaphore a step in a thread sleeps on while paused (a process has its own,
        :func:`attach`)."""
        flag = self._step_flag()
        return None if flag is None or self.live is None else self.live.waker(flag)

    def _lower(self) -> None:
        """Lower the paused flag: the step that raised it is gone with its process."""
        if self._paused is not None:
            self._paused.value = 0

    def _submit(self, fn: Callable[..., _T], *args: Any) -> Future[_T]:
        if self._executor is None:
            self._executor = self._make()
        try:
            return self._executor.submit(fn, *args)
        except BrokenProcessPool:  # its process stopped while it had nothing to do
            self._replace(self._executor)
            self._executor = self._make()
            return self._executor.submit(fn, *args)

    def _replace(self, broken: Executor) -> None:
        """The worker process died (killed, out of memory): the next step starts another."""
        if self._executor is broken:
            log.error("the review worker process stopped; the next step starts another")
            self._executor = None
            self._lower()
            broken.shutdown(wait=False, cancel_futures=True)

    async def run(
        self, fn: Callable[..., _T], *args: Any, priority: Priority = Priority.REVIEW
    ) -> _T:
        """``fn(*args)`` (a module-level function, and arguments that pickle: it runs in the
        worker process) computed once the worker is free and no step of a higher ``priority``
        (or asked before at the same) waits. The worker is handed on when the step ends, not
        when its caller stops waiting for it. The step waits for the live work before it starts
        and pauses for it inside (at most :attr:`hold` seconds in all)."""
        await self._acquire(int(priority))
        loop = asyncio.get_running_loop()
        timed = self.live is not None and self.hold > 0
        waited = 0.0
        try:
            waited = await self._hold()
            allowance = max(0.0, self.hold - waited) if timed else 0.0
            future = self._submit(
                paused_step,
                fn,
                args,
                allowance,
                self._live_count(),
                self._step_flag(),
                self._step_wake(),
            )
        except BaseException:
            self._release()
            self._told(timed, waited)
            raise
        executor = self._executor

        def done(_: Future[Any]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed at the server's end
                loop.call_soon_threadsafe(self._finished)

        future.add_done_callback(done)
        # The idle class for the hold's whole limit, whatever the step waited before it: a
        # step whose wait reached the limit (live play never quiet) is the one that most needs
        # to yield the cores at once.
        back = self._idle(loop, self.hold if timed else 0.0)
        idle_from = time.monotonic()
        paused = 0.0
        try:
            stepped: tuple[_T, float, int, bool] = await asyncio.wrap_future(future)
            result, paused, pauses, to_limit = stepped
        except BrokenProcessPool:
            if executor is not None:
                self._replace(executor)
            raise
        finally:
            if back is not None:
                back.cancel()
                self._normal()
            if timed and self.idled is not None:
                idled = 0.0 if back is None else min(time.monotonic() - idle_from, self.hold)
                self.idled(idled)
            self._told(timed, waited + paused)
        self.held_seconds += paused
        self.paused_seconds += paused
        self.pauses += pauses
        self.held_to_limit += to_limit
        if pauses and self.paused is not None:
            self.paused(pauses)
        return result

    def _idle(
        self, loop: asyncio.AbstractEventLoop, allowance: float
    ) -> asyncio.TimerHandle | None:
        """While live play goes on (:meth:`LiveWork.active`), put the worker process in Linux's
        idle class for the step's first ``allowance`` seconds (the hold's limit, whatever the
        wait before the step: a step given none after a wait that reached the limit computed
        at nice 19 in the normal class, where a live bot's process at nice 10 waking on its
        core waits for the step's slice): a live table's work, waking on a core the step holds,
        takes it at once. Back in the normal class (nice 19) when the step ends or the
        allowance runs out, whichever comes first, so a step on a machine whose cores stay busy
        is delayed at most the hold's limit more (the idle class alone would never let it
        run). The handle that puts it back (``None``: not put in the idle class)."""
        pid = self.pid
        live = self.live
        if (
            pid is None
            or allowance <= 0
            or live is None
            or not self.idle
            or not live.active(ACTIVE_SECONDS)
            or not set_idle(pid, idle=True)
        ):
            return None
        self.idle_steps += 1
        return loop.call_later(allowance, self._normal)

    def _normal(self) -> None:
        """The worker process back in the normal class; where it cannot go back, the idle
        class is never used again by this worker (and said)."""
        pid = self.pid
        if pid is not None and not set_idle(pid, idle=False) and self.idle:
            self.idle = False
            log.error("the review worker could not leave the idle class; no longer used")

    def _told(self, timed: bool, seconds: float) -> None:
        """Tell :attr:`held` a step's wait (every step, 0 for none, so the metric's count is
        the steps; none where the worker does not wait)."""
        if timed and self.held is not None:
            self.held(seconds)

    async def _hold(self) -> float:
        """Wait, holding the worker, until no live work is under way, at most :attr:`hold`
        seconds (told when it ends: nothing polls); the seconds waited."""
        live = self.live
        if live is None or self.hold <= 0 or not live.count:
            return 0.0
        loop = asyncio.get_running_loop()
        started = self._holding_since = time.monotonic()
        deadline = started + self.hold
        try:
            while live.count:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.held_to_limit += 1
                    break
                quiet: asyncio.Future[None] = loop.create_future()

                def wake(quiet: asyncio.Future[None] = quiet) -> None:
                    if not quiet.done():
                        quiet.set_result(None)

                live.when_quiet(wake)
                try:
                    await asyncio.wait({quiet}, timeout=left)
                finally:
                    live.forget(wake)
        finally:
            self._holding_since = None
            held = time.monotonic() - started
            self.held_seconds += held
        return held

    async def _acquire(self, priority: int) -> None:
        if not self._busy and not self.waiting:
            self._busy = True
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # handed the worker as it was cancelled
                self._release()
            raise

    def _finished(self) -> None:
        self.steps += 1
        self._release()

    def _release(self) -> None:
        """Hand the worker to the first waiting step, if any."""
        while self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                future.set_result(None)
                return
        self._busy = False

    def shutdown(self) -> None:
        """Stop the worker now (the server is stopping): a step under way is abandoned, and
        its review is taken up again from its stored moves (after a restart, or by another
        process). A later step starts a new worker."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
            if self.processes:  # its process stops: a pause under way there ends with it
                self._lower()


__all__ = [
    "HOLD_ENVIRONMENT",
    "HOLD_LIMIT",
    "ReviewWorker",
    "hold_limit",
]
