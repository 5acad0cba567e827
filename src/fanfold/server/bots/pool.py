"""The pool of workers where bots think, shared fairly by the clients (:class:`BotPool`; the
fairness is told in :mod:`fanfold.server.bots`)."""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import heapq
import itertools
import logging
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from fanfold.server.bot_shares import SharedShares
from fanfold.server.bots.decisions import Decision, decide_counted
from fanfold.server.bots.live_work import LiveWork
from fanfold.server.bots.worker import WorkerProcess, nothing

log = logging.getLogger(__name__)

_T = TypeVar("_T")


class Priority(enum.IntEnum):
    """Which waiting decisions start first: lower first, whatever their clients' tags."""

    #: A bot's move in a game being played.
    LIVE = 0
    #: An engine review of a finished game someone asked for (its steps run in the review
    #: worker, :mod:`fanfold.server.bots.reviewer`, ordered by this priority there).
    REVIEW = 1
    #: Work nobody waits for (measurements, warming a cache).
    BACKGROUND = 2


#: The most seconds one decision counts against its client's fair share (:class:`BotPool`): a
#: client whose bots think long still waits behind clients whose bots answer at once, but one
#: long decision (Fano's ``hard`` at its slowest, a second and more, up to its guard on a busy
#: machine) does not hold its table's next decision behind many decisions of every other table.
#: With ten tables on two workers (the pool in threads, each decision a sleep drawn like
#: ``hard``'s), the longest wait fell from 5.1 to 3.4 s, the 99th percentile from 3.8 to 2.4 s,
#: the mean unchanged (0.65 to 0.69 s): ``docs/notes/2026-11-29-hard-at-ten-tables.md``.
CHARGE_SECONDS = 0.5


def default_client_share(workers: int) -> int:
    """The most workers one client holds at once by default: half the pool (at least one),
    so that with two or more workers another client's table always finds one soon."""
    return max(1, workers // 2)


@dataclass(order=True)
class _Waiter:
    """A decision waiting for a worker, ordered by priority, then tag, then arrival (one past
    its deadline first: :meth:`BotPool._next_waiter`)."""

    priority: int
    tag: float
    order: int
    table: str = dataclasses.field(compare=False)
    client: str = dataclasses.field(compare=False)
    future: asyncio.Future[tuple[int, float]] = dataclasses.field(compare=False)
    deadline: float | None = dataclasses.field(compare=False, default=None)


class BotPool:
    """``workers`` workers where bots think, shared fairly by the clients (see the module).

    Args:
        workers: how many decisions may run at once.
        processes: think in worker processes (``fanfold serve``); otherwise in threads.
        warm: run where the bots think before the first decision: in every worker process,
            or once in a worker thread (e.g. loading the compiled kernels).
        client_share: the most workers one client's decisions hold at once (default
            :func:`default_client_share`).
        charge: the most seconds one decision counts against its client's share
            (:data:`CHARGE_SECONDS`).
    """

    def __init__(
        self,
        workers: int = 4,
        *,
        processes: bool = False,
        warm: Callable[[], object] | None = None,
        client_share: int | None = None,
        charge: float = CHARGE_SECONDS,
    ) -> None:
        if workers < 1:
            raise ValueError(f"the bot pool needs at least one worker, not {workers}")
        share = default_client_share(workers) if client_share is None else client_share
        if not 1 <= share <= workers:
            raise ValueError(
                f"one client's share of the bot pool is 1 to {workers} workers, not {share}"
            )
        if not charge > 0:
            raise ValueError(f"a decision's charge is more than 0 seconds, not {charge}")
        self.processes = processes
        self.warm = warm
        self.charge = charge
        self.client_share = share
        self.executors: list[Executor] = [self._executor(n) for n in range(workers)]
        self._free: list[int] = list(range(workers))
        self._waiting: list[_Waiter] = []
        self._finish: dict[str, float] = {}
        self._running: dict[str, int] = {}
        self._clock = 0.0
        self._order = itertools.count()
        self._last: dict[str, int] = {}
        #: Told how long each decision waited for a worker, in seconds (the metrics).
        self.waited: Callable[[float], object] | None = None
        #: The clients' shares across processes (``None``: this process's share only).
        self.shared: SharedShares | None = None
        #: Told each decision whose time cap cut its agent's budget (the metrics).
        self.cut: Callable[[Decision], object] | None = None
        #: The live work under way: each :attr:`Priority.LIVE` decision counts from its
        #: asking to its worker's hand-back (the review worker waits for none).
        self.live = LiveWork()

    def _executor(self, number: int) -> Executor:
        if self.processes:
            # Only the first worker warms up: the others play at once the bots that need no
            # compiled kernels (a fresh installation compiles for minutes), and load the
            # kernels from the cache when a bot first needs them.
            return WorkerProcess(self.warm if number == 0 else None)
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"bot-{number}")

    def start(self) -> list[Future[Any]]:
        """Start every worker now rather than at the first decision, the first warming up
        (:attr:`warm`) as it starts. Returns a future per worker (or for the warm-up) that
        ends when it is ready."""
        if self.processes:
            # The processes start now, ignoring a terminal's Ctrl-C from their first moment
            # (they inherit that): the server stops them itself.
            main = threading.current_thread() is threading.main_thread()
            before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
            try:
                return [executor.submit(nothing) for executor in self.executors]
            finally:
                if main:
                    signal.signal(signal.SIGINT, before)
        if self.warm is not None:
            return [self.executors[0].submit(self.warm)]
        return []

    def shutdown(self) -> None:
        """Stop the workers now: a decision under way is abandoned (the server is stopping,
        and an unfinished decision is asked again after a restart)."""
        for executor in self.executors:
            # A worker busy warming up is stopped too: it would hold the server's exit until
            # it finished.
            executor.shutdown(wait=False, cancel_futures=True)

    @property
    def busy(self) -> int:
        """How many workers are deciding now."""
        return len(self.executors) - len(self._free)

    @property
    def waiting(self) -> int:
        """How many decisions wait for a worker now."""
        return sum(not waiter.future.done() for waiter in self._waiting)

    async def decide(
        self, decision: Decision, *, client: str | None = None, priority: Priority = Priority.LIVE
    ) -> Any:
        """The agent's choice, computed in a worker once the turn of ``client`` (who opened
        the table; ``None``: the table counts as a client of its own) comes in the pool, at
        ``priority``. The decision's deadline is fixed now, as it is queued
        (:meth:`Decision.queued`): the player waits at most its guard, however long the
        queue (:mod:`fanfold.server.bots.decisions`)."""
        decision = decision.queued(time.monotonic())  # the guard counts the player's wait
        action, cut = await self.run(
            decide_counted,
            decision,
            table=decision.table,
            client=client,
            priority=priority,
            deadline=decision.deadline,
        )
        if cut and self.cut is not None:
            self.cut(decision)
        return action

    async def run(
        self,
        fn: Callable[..., _T],
        *args: Any,
        table: str,
        client: str | None = None,
        priority: Priority = Priority.LIVE,
        deadline: float | None = None,
    ) -> _T:
        """``fn(*args)`` (a module-level function, and arguments that pickle: it may run in a
        worker process) computed in a worker once the turn of ``client`` comes, for ``table``,
        at ``priority``: how a decision runs (:meth:`decide`; its ``deadline``, a
        :func:`time.monotonic` time, once passed, puts it first in the queue: it answers at
        once). (An engine review's steps run in the review worker instead,
        :mod:`fanfold.server.bots.reviewer`.)"""
        who = client if client is not None else f"table:{table}"
        counted = priority == Priority.LIVE  # live work, from its asking to its hand-back
        if counted:
            self.live.begin()
        handed = False  # to the done callback below, which ends the count
        try:
            asked = time.monotonic()
            shared = self.shared if client is not None else None
            lease = None if shared is None else await shared.hold(who)
            try:
                slot, tag = await self._acquire(table, who, int(priority), deadline)
            except BaseException:
                if shared is not None and lease is not None:
                    shared.release(lease)
                raise
            loop = asyncio.get_running_loop()
            began = time.monotonic()
            if self.waited is not None:
                self.waited(began - asked)
            executor = self.executors[slot]
            try:
                try:
                    future = executor.submit(fn, *args)
                except BrokenProcessPool:  # its process stopped while it had nothing to do
                    self._replace(slot, executor)
                    executor = self.executors[slot]
                    future = executor.submit(fn, *args)
            except BaseException:
                self._release(slot, who, tag, 0.0)
                if shared is not None and lease is not None:
                    shared.release(lease)
                raise

            def done(_: Future[Any]) -> None:
                used = time.monotonic() - began
                loop.call_soon_threadsafe(self._release, slot, who, tag, used)
                if shared is not None and lease is not None:
                    loop.call_soon_threadsafe(shared.release, lease)
                if counted:
                    loop.call_soon_threadsafe(self.live.end)

            # The worker is handed back when the work ends, not when the table stops waiting
            # for it (an undo, a shutdown): a table cannot hold more than one worker by
            # cancelling.
            future.add_done_callback(done)
            handed = True
        finally:
            if counted and not handed:
                self.live.end()
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            self._replace(slot, executor)
            raise

    def _replace(self, slot: int, broken: Executor) -> None:
        """A worker process died (killed, out of memory): the slot gets a new one (once:
        nothing changes when the slot has a new one already)."""
        if self.executors[slot] is not broken:
            return
        log.error("a bot worker process stopped; starting another")
        if isinstance(broken, WorkerProcess):
            self.executors[slot] = self._executor(slot)
            broken.shutdown(wait=False, cancel_futures=True)

    async def _acquire(
        self, table: str, client: str, priority: int, deadline: float | None = None
    ) -> tuple[int, float]:
        tag = max(self._clock, self._finish.get(client, 0.0))
        if self._free and not self._waiting and self._running.get(client, 0) < self.client_share:
            self._clock = tag
            return self._take(table, client), tag
        future: asyncio.Future[tuple[int, float]] = asyncio.get_running_loop().create_future()
        heapq.heappush(
            self._waiting,
            _Waiter(priority, tag, next(self._order), table, client, future, deadline),
        )
        self._start_waiting()  # a free worker another client may use at once
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # given a worker as it was cancelled
                slot, given = future.result()
                self._release(slot, client, given, 0.0)
            raise

    def _take(self, table: str, client: str) -> int:
        last = self._last.get(table)
        slot = last if last in self._free else self._free[0]
        self._free.remove(slot)
        self._last[table] = slot
        self._running[client] = self._running.get(client, 0) + 1
        return slot

    def _start_waiting(self) -> None:
        """Give free workers to the waiting decisions, first by priority, then by their
        clients' tags, skipping a client that holds its whole share already; a decision past
        its deadline goes first (:meth:`_next_waiter`)."""
        held: list[_Waiter] = []
        while self._free and self._waiting:
            waiter = self._next_waiter()
            if waiter.future.done():
                continue  # its table stopped waiting
            if self._running.get(waiter.client, 0) >= self.client_share:
                held.append(waiter)
                continue
            self._clock = max(self._clock, waiter.tag)
            waiter.future.set_result((self._take(waiter.table, waiter.client), waiter.tag))
        for waiter in held:
            heapq.heappush(self._waiting, waiter)

    def _next_waiter(self) -> _Waiter:
        """The next waiting decision, taken from the queue: the first in the queue's order
        whose deadline has passed while it waited (it plays its agent's cheapest move at once,
        so it holds its worker for moments, and its player has waited the whole guard
        already), else the first in the queue's order."""
        now = time.monotonic()
        overdue = [
            waiter
            for waiter in self._waiting
            if waiter.deadline is not None and waiter.deadline <= now and not waiter.future.done()
        ]
        if not overdue:
            return heapq.heappop(self._waiting)
        first = min(overdue)
        self._waiting.remove(first)
        heapq.heapify(self._waiting)
        return first

    def _release(self, slot: int, client: str, tag: float, used: float) -> None:
        charged = min(used, self.charge)
        self._finish[client] = max(self._finish.get(client, 0.0), tag + charged)
        self._running[client] -= 1
        if not self._running[client]:
            del self._running[client]
        self._free.append(slot)
        self._start_waiting()
        if len(self._finish) > 4 * len(self.executors):  # forget clients with no credit left
            for name in [name for name, end in self._finish.items() if end <= self._clock]:
                del self._finish[name]
        if len(self._last) > 64 * len(self.executors):
            self._last.clear()  # only a preference: which worker had a table's last decision


__all__ = ["CHARGE_SECONDS", "BotPool", "Priority", "default_client_share"]
