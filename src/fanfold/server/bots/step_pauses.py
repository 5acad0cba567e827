"""The review worker's pauses inside a step (:func:`paused_step`): between its units of work
(a sampled deal, a candidate move, a stretch of a record's replay: the
:func:`~fanfold.core.pauses.pause_point` calls of the review's code) a step waits while live
work is under way in the server's process.

The worker reads the live work's count from memory it shares with the server's event loop
(:meth:`fanfold.server.bots.LiveWork.shared`): the worker process is given it at its start
(:func:`attach`), a review thread (tests) with each step. While the count is not zero the step
sleeps on a semaphore that the event loop releases when the count falls to zero
(:meth:`~fanfold.server.bots.LiveWork.waker`), looking at the count again at least every
:data:`BACKSTOP_SECONDS` (a release the count's fall and the flag's rise could cross), for
at most the step's allowance in all (the hold's limit less the step's wait before it started),
so on a server never quiet a step still ends. Without a semaphore (a caller that gives none)
it looks every :data:`LOOK_SECONDS`. While a pause waits it raises a flag in memory shared
with the event loop (the worker's :attr:`~fanfold.server.bots.ReviewWorker.holding`: the
review page says its review waits for the tables in play), lowered when the step goes on. A
pause only waits: the step's result is the same with pauses as without."""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from fanfold.core.pauses import pausing

if TYPE_CHECKING:
    from multiprocessing.synchronize import Semaphore

_T = TypeVar("_T")

#: Seconds between a paused step's looks at the live work's count, where it has no semaphore
#: to sleep on.
LOOK_SECONDS = 0.002

#: The longest a paused step sleeps on its semaphore before it looks at the count again: the
#: event loop's release is missed only where the count falls to zero as the pause begins.
BACKSTOP_SECONDS = 0.02

#: The live work's count in the review worker process (set at its start by :func:`attach`).
_LIVE: ctypes.c_int | None = None
#: The flag the review worker process raises while a step pauses (set by :func:`attach`).
_PAUSED: ctypes.c_int | None = None
#: The semaphore a paused step sleeps on in the review worker process (set by :func:`attach`).
_WAKE: Semaphore | None = None


def attach(
    live: ctypes.c_int, paused: ctypes.c_int | None = None, wake: Semaphore | None = None
) -> None:
    """The review worker process starts: the steps it computes pause on ``live`` (the server's
    :meth:`~fanfold.server.bots.LiveWork.shared`), raising ``paused`` (1) while they wait and
    sleeping on ``wake`` (:meth:`~fanfold.server.bots.LiveWork.waker`), if given."""
    global _LIVE, _PAUSED, _WAKE
    _LIVE = live
    _PAUSED = paused
    _WAKE = wake


class StepPauses:
    """One step's pauses: called at each pause point, it waits while ``live`` is not zero, at
    most ``allowance`` seconds over the step, with ``paused`` (if given) at 1 while it waits,
    asleep on ``wake`` (if given; else looking every :data:`LOOK_SECONDS`).

    Attributes:
        seconds: the seconds waited so far.
        pauses: the pause points that waited.
        looks: the times a pause looked at the count while it waited (its wake-ups).
        to_limit: whether the allowance ran out while the live work was under way.
    """

    def __init__(
        self,
        live: ctypes.c_int | None,
        allowance: float,
        paused: ctypes.c_int | None = None,
        wake: Semaphore | None = None,
    ) -> None:
        self.live = live
        self.allowance = allowance
        self.paused = paused
        self.wake = wake
        self.seconds = 0.0
        self.pauses = 0
        self.looks = 0
        self.to_limit = False

    def __call__(self) -> None:
        live = self.live
        if live is None or not live.value:
            return
        left = self.allowance - self.seconds
        if left <= 0:
            return
        started = time.monotonic()
        deadline = started + left
        flag = self.paused
        wake = self.wake
        if flag is not None:
            flag.value = 1
        if wake is not None:  # releases made before this pause are not for it
            while wake.acquire(False):
                pass
        try:
            while live.value:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.to_limit = True
                    break
                self.looks += 1
                if wake is None:
                    time.sleep(LOOK_SECONDS)
                else:
                    wake.acquire(timeout=min(left, BACKSTOP_SECONDS))
        finally:
            if flag is not None:
                flag.value = 0
        self.seconds += time.monotonic() - started
        self.pauses += 1


def paused_step(
    fn: Callable[..., _T],
    args: Sequence[Any],
    allowance: float,
    live: ctypes.c_int | None = None,
    paused: ctypes.c_int | None = None,
    wake: Semaphore | None = None,
) -> tuple[_T, float, int, bool]:
    """``fn(*args)`` with its pause points waiting for the live work (``live``; ``None``: the
    count :func:`attach` gave this process, if any), at most ``allowance`` seconds in all,
    ``paused`` (``None``: the flag :func:`attach` gave, if any) at 1 while a pause waits,
    asleep on ``wake`` (``None``: the semaphore :func:`attach` gave, if any): its result, the
    seconds it waited, the pause points that waited, and whether the waits reached the
    allowance."""
    pauses = StepPauses(
        _LIVE if live is None else live,
        allowance,
        _PAUSED if paused is None else paused,
        _WAKE if wake is None else wake,
    )
    with pausing(pauses):
        result = fn(*args)
    return result, pauses.seconds, pauses.pauses, pauses.to_limit


__all__ = ["BACKSTOP_SECONDS", "LOOK_SECONDS", "StepPauses", "attach", "paused_step"]
