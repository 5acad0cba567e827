"""Password hashes off the event loop: a line of worker threads (:class:`HashingLine`) that
hashes a few at a time, holds a few more waiting and refuses one more at once, before it costs
anything (:class:`BusyError`); the sign-ups' threads run at a lower CPU priority
(:func:`lower_priority`). :mod:`fanfold.server.accounts` has a line for sign-ins and one for
sign-ups."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from typing import TypeVar

from fanfold.core.errors import FanfoldError

#: What a sign-in or sign-up is told when its hashing line is full.
BUSY = "the server is checking too many passwords at the moment; try again in a few seconds"
#: How often a sign-up's hash looks whether the sign-ins' line is empty (seconds).
YIELD_STEP = 0.005
#: How much lower than the server's the CPU priority of the threads hashing for sign-ups is
#: (the bots' workers' too, :data:`fanfold.server.bots.NICENESS`): a sign-in, or a table,
#: never shares a core evenly with a sign-up's hash.
SIGN_UP_NICENESS = 10


class TooManyError(FanfoldError, RuntimeError):
    """Too many wrong passwords for a name or from a client, or too many sign-ups from a
    client (HTTP 429)."""


class BusyError(TooManyError):
    """The hashing line is full: try again in a few seconds (HTTP 429)."""


T = TypeVar("T")


class HashingLine:
    """Password hashes in worker threads, at most ``at_once`` at a time, with at most
    ``waiting`` more requests in the line (being checked, or waiting for a turn); one more is
    refused at once, before it costs anything. Used on one event loop.

    Args:
        at_once: hashes computed at the same time.
        waiting: requests that may wait in the line besides those hashing.
        after: a line that goes first: a turn here starts its hash once ``after`` is empty,
            or once it waited ``patience`` seconds for that.
        patience: how long a turn waits at most for ``after`` to empty.
        threads: the worker threads that hash (asyncio's default ones when ``None``).
    """

    def __init__(
        self,
        at_once: int,
        waiting: int,
        *,
        after: HashingLine | None = None,
        patience: float = 0.0,
        threads: Executor | None = None,
    ) -> None:
        self.at_once = at_once
        self.waiting = waiting
        self.after = after
        self.patience = patience
        self.threads = threads
        #: Requests in the line: hashing, waiting for a turn, or checked before they hash.
        self.inside = 0
        self._slots = asyncio.Semaphore(at_once)

    @contextlib.asynccontextmanager
    async def place(self) -> AsyncIterator[None]:
        """A place in the line, held until the block ends.

        Raises:
            BusyError: the line is full (:data:`BUSY`).
        """
        if self.inside >= self.at_once + self.waiting:
            raise BusyError(BUSY)
        self.inside += 1
        try:
            yield
        finally:
            self.inside -= 1

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` in a worker thread once a turn comes (called in a :meth:`place`)."""
        async with self._slots:
            if self.after is not None:
                deadline = time.monotonic() + self.patience
                while self.after.inside and time.monotonic() < deadline:
                    await asyncio.sleep(YIELD_STEP)
            if self.threads is None:
                return await asyncio.to_thread(work)
            return await asyncio.get_running_loop().run_in_executor(self.threads, work)


def lower_priority() -> None:
    """Lower the calling thread's CPU priority by :data:`SIGN_UP_NICENESS` (on Linux, where a
    thread has a niceness of its own; elsewhere it is left as it is)."""
    if sys.platform == "linux":
        thread = threading.get_native_id()
        with contextlib.suppress(OSError):
            niceness = os.getpriority(os.PRIO_PROCESS, thread)
            os.setpriority(os.PRIO_PROCESS, thread, min(19, niceness + SIGN_UP_NICENESS))
