"""Linux's idle scheduling class for the review worker, bounded
(:meth:`fanfold.server.bots.ReviewWorker.run`): while live play goes on, a review step computes
in ``SCHED_IDLE`` (a live table's work that wakes on a core the step holds takes it at once,
where nice 19 in the normal class only gives it a larger share) for at most the hold's limit
(whatever the step waited before it), then goes back to the normal class at nice 19. The idle
class alone would never let a step run on a machine whose cores stay busy; bounded, a step is
delayed at most the hold's limit more. Every thread of the worker is switched, not only its
main one (:func:`set_idle`)."""

from __future__ import annotations

import os
import threading

from fanfold.server.bots.worker import LOWEST_NICENESS

#: The environment variable that keeps the review worker out of Linux's idle class (``0``).
IDLE_ENVIRONMENT = "FANFOLD_REVIEW_IDLE"

#: Live play counts as going on for this many seconds after its last piece of work.
ACTIVE_SECONDS = 10.0


def idle_wanted() -> bool:
    """Whether the review worker may compute in Linux's idle class while live play goes on
    (:class:`ReviewWorker`): not where :data:`IDLE_ENVIRONMENT` is ``0``, nor where the system
    has no such class, nor where a thread cannot leave it again (an unprivileged process needs
    room in its ``RLIMIT_NICE`` to go back from ``SCHED_IDLE``; probed once, in a thread of
    its own that ends after)."""
    global _IDLE_PROBED
    if os.environ.get(IDLE_ENVIRONMENT, "").strip() == "0" or not hasattr(os, "SCHED_IDLE"):
        return False
    if _IDLE_PROBED is None:
        found: list[bool] = []

        def probe() -> None:  # at the worker's nice value (this thread's only, on Linux)
            try:
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWEST_NICENESS)
                os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
                os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
            except OSError:
                found.append(False)
            else:
                found.append(True)

        thread = threading.Thread(target=probe, name="idle-probe")
        thread.start()
        thread.join()
        _IDLE_PROBED = bool(found and found[0])
    return _IDLE_PROBED


#: Whether a thread of this process may enter the idle class and leave it (``None``: not
#: probed yet).
_IDLE_PROBED: bool | None = None


def threads_of(pid: int) -> list[int]:
    """The thread ids of process ``pid`` (its own id first; only it where they cannot be
    listed)."""
    try:
        found = sorted(int(name) for name in os.listdir(f"/proc/{pid}/task") if name.isdigit())
    except OSError:
        return [pid]
    return [pid, *(thread for thread in found if thread != pid)]


def set_idle(pid: int, idle: bool) -> bool:
    """Put every thread of process ``pid`` in the idle class or back in the normal one (their
    nice values are kept): on Linux a class is a thread's, and the review worker's compiled
    searches and its pool's threads compute beside its main thread; whether its main thread
    could (a thread that ended meanwhile is passed over)."""
    policy = os.SCHED_IDLE if idle else os.SCHED_OTHER
    for thread in threads_of(pid):
        try:
            os.sched_setscheduler(thread, policy, os.sched_param(0))
        except OSError:
            if thread == pid:
                return False
    return True


__all__ = ["ACTIVE_SECONDS", "IDLE_ENVIRONMENT", "idle_wanted", "set_idle", "threads_of"]
