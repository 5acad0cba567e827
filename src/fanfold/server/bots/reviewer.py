"""The review worker (:class:`ReviewWorker`): where a server process computes the steps of its
engines' reviews, apart from the live games' bots.

A process has one review worker, started at the first step it is given: in ``fanfold serve``
a worker process of its own at the lowest CPU priority
(:func:`~fanfold.server.bots.worker.lowest_priority`: nice 19, and Linux's idle scheduling
class where allowed), never the server's event loop process nor one of the bot pool's
workers, so a review uses only processor time that the server and the live games' bots leave
over, and never holds a worker a live decision waits for. The worker computes; it never
touches the store: the server's event loop stores each finished step
(:mod:`fanfold.server.reviews`). Steps run one at a time, the waiting ones by
:class:`~fanfold.server.bots.pool.Priority` (a review someone asked for before the sweep's),
then in the order asked. Tests that run the bot pool in threads run the reviews in one thread
too (the same code, without the process's start-up).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from fanfold.server.bots.pool import Priority
from fanfold.server.bots.worker import WorkerProcess

log = logging.getLogger(__name__)

_T = TypeVar("_T")


class ReviewWorker:
    """The process's one review worker (see the module).

    Args:
        processes: compute in a worker process at the lowest CPU priority (``fanfold serve``);
            otherwise in one thread of this process (tests).
    """

    def __init__(self, *, processes: bool) -> None:
        self.processes = processes
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
    def waiting(self) -> int:
        """How many steps wait for the worker now."""
        return sum(not future.done() for _, _, future in self._waiting)

    def _make(self) -> Executor:
        if self.processes:
            return WorkerProcess(None, lowest=True)
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")

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
            broken.shutdown(wait=False, cancel_futures=True)

    async def run(
        self, fn: Callable[..., _T], *args: Any, priority: Priority = Priority.REVIEW
    ) -> _T:
        """``fn(*args)`` (a module-level function, and arguments that pickle: it runs in the
        worker process) computed once the worker is free and no step of a higher ``priority``
        (or asked before at the same) waits. The worker is handed on when the step ends, not
        when its caller stops waiting for it."""
        await self._acquire(int(priority))
        loop = asyncio.get_running_loop()
        try:
            future = self._submit(fn, *args)
        except BaseException:
            self._release()
            raise
        executor = self._executor

        def done(_: Future[Any]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed at the server's end
                loop.call_soon_threadsafe(self._finished)

        future.add_done_callback(done)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            if executor is not None:
                self._replace(executor)
            raise

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


__all__ = ["ReviewWorker"]
