"""The live work under way in a server process (:class:`LiveWork`): the live games' bot
decisions in flight or queued in the pool and the players' actions being handled, counted on
the event loop, so that the review worker (:mod:`fanfold.server.bots.reviewer`) computes its
steps only while none is under way: it is told when the count falls to zero before a step
(nothing polls), and inside a step its process reads the count from memory shared with it
(:meth:`LiveWork.shared`), kept equal to the count by the event loop, and while it pauses it
sleeps on a semaphore the event loop releases when the count falls to zero
(:meth:`LiveWork.waker`): nothing polls there either."""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from multiprocessing.synchronize import Semaphore


class LiveWork:
    """A count of the live work under way, and who waits for it to fall to zero.

    Every call comes from the event loop's thread (the pool hands a decision's end to the loop
    before it counts it), so the count needs no lock.
    """

    def __init__(self) -> None:
        #: Live decisions in flight or queued, and players' actions being handled, now.
        self.count = 0
        #: When live work last began or ended (``time.monotonic()``; 0: never).
        self.last = 0.0
        self._quiet: list[Callable[[], object]] = []
        self._shared: ctypes.c_int | None = None
        self._wake: Semaphore | None = None
        self._wake_flag: ctypes.c_int | None = None

    def shared(self) -> ctypes.c_int:
        """The count in shared memory (made at the first call): a worker process started after
        this call (``spawn``, given it as an argument) reads ``.value`` while the event loop
        keeps it equal to :attr:`count`. Only the event loop writes it: no lock."""
        if self._shared is None:
            self._shared = multiprocessing.get_context("spawn").RawValue(ctypes.c_int, self.count)
        return self._shared

    def waker(self, paused: ctypes.c_int) -> Semaphore:
        """A semaphore (``spawn``'s, made at the first call; the same ``paused`` flag each
        call) that the event loop releases each time the count falls to zero while ``paused``
        is raised: a review step paused inside (:mod:`~fanfold.server.bots.step_pauses`), in
        the worker process or a thread, sleeps on it instead of looking at the count again
        and again."""
        if self._wake is None:
            self._wake = multiprocessing.get_context("spawn").Semaphore(0)
            self._wake_flag = paused
        return self._wake

    def begin(self) -> None:
        """A piece of live work starts (a decision asked of the pool, an action arrived)."""
        self.count += 1
        self.last = time.monotonic()
        if self._shared is not None:
            self._shared.value = self.count

    def end(self) -> None:
        """A piece of live work ended: at zero, everyone waiting is told (once each)."""
        self.count = max(0, self.count - 1)
        self.last = time.monotonic()
        if self._shared is not None:
            self._shared.value = self.count
        wake = self._wake
        if (
            not self.count
            and wake is not None
            and self._wake_flag is not None
            and self._wake_flag.value
        ):
            wake.release()  # a step paused inside goes on now
        if not self.count and self._quiet:
            told, self._quiet = self._quiet, []
            for callback in told:
                callback()

    @contextlib.contextmanager
    def doing(self) -> Iterator[None]:
        """Count the work of the ``with`` block (a player's action, to its ok)."""
        self.begin()
        try:
            yield
        finally:
            self.end()

    def active(self, within: float) -> bool:
        """Whether live play is going on: work under way now, or begun or ended in the last
        ``within`` seconds."""
        return bool(self.count) or (self.last > 0 and time.monotonic() - self.last < within)

    def when_quiet(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once the count next falls to zero (at once if it is zero)."""
        if not self.count:
            callback()
        else:
            self._quiet.append(callback)

    def forget(self, callback: Callable[[], object]) -> None:
        """Stop waiting with ``callback`` (a hold that ended at its bound)."""
        with contextlib.suppress(ValueError):
            self._quiet.remove(callback)


__all__ = ["LiveWork"]
