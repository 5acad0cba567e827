"""The review worker leaves a machine's last free core to live play (:class:`SpareCore`).

A review step in Linux's idle class (:mod:`~fanfold.server.bots.idle_class`) yields the core it
holds to any live work that wakes *on that core*, but it does not keep the scheduler from
queueing live work behind another busy task: where the machine's other cores are taken (a
bot's decision, the server's other thread, another program), a player's action that wakes
finds no idle core, only the step's, and is often put behind a busy one, for as long as that
task's slice. A process computing in the idle class beside a program busy half of the time
made a thread hand-over's round trips over 1 ms about two hundred times as frequent on two
cores; computing only while a core stayed free, about a third as frequent as that (`the note
<../../../../docs/notes/2026-12-01-review-spare-core.md>`_).

So, while live play goes on, a step also pauses (at the same pause points as for the live work,
within the same allowance: :mod:`~fanfold.server.bots.step_pauses`) while the machine's other
running tasks fill every core but the one the step holds: it computes only while a core stays
free for the live work that wakes next. The count is the kernel's (``/proc/loadavg``'s running
tasks, read in about a microsecond at each pause point); on a machine of one core, without
that file, or with :data:`SPARE_ENVIRONMENT` at ``0``, there is no such pause."""

from __future__ import annotations

import os

#: The environment variable that lets review steps take a machine's last free core (``0``).
SPARE_ENVIRONMENT = "FANFOLD_REVIEW_SPARE_CORE"

#: Where Linux tells the tasks running now: the fourth field, ``running/all``.
LOADAVG = "/proc/loadavg"


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def spare_wanted() -> bool:
    """Whether review steps leave the last free core to live play: not where
    :data:`SPARE_ENVIRONMENT` is ``0``, nor on one core, nor where the running tasks cannot be
    read."""
    if os.environ.get(SPARE_ENVIRONMENT, "").strip() == "0" or cores() < 2:
        return False
    try:
        return running_now(LOADAVG) >= 0
    except OSError:
        return False


def running_now(path: str = LOADAVG) -> int:
    """The tasks running or ready to run on the machine now (the caller among them)."""
    with open(path, "rb") as loadavg:
        return _running(loadavg.read(128))


def _running(text: bytes) -> int:
    fields = text.split()
    if len(fields) < 4 or b"/" not in fields[3]:
        raise OSError(f"no running tasks in {text[:64]!r}")
    return int(fields[3].split(b"/")[0])


class SpareCore:
    """Called at a step's pause points: whether the step should pause because the machine's
    other running tasks fill every core but the one it holds (``cores - 1`` others or more).

    Args:
        path: the kernel's file of the running tasks (:data:`LOADAVG`).
        count: the cores (``None``: :func:`cores`).
    """

    def __init__(self, path: str = LOADAVG, count: int | None = None) -> None:
        self.path = path
        self.cores = cores() if count is None else count
        self._fd: int | None = None

    def __call__(self) -> bool:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDONLY)
        try:
            others = _running(os.pread(self._fd, 128, 0)) - 1
        except OSError:
            return False  # an unreadable count never holds a step
        return others >= self.cores - 1

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


__all__ = ["LOADAVG", "SPARE_ENVIRONMENT", "SpareCore", "cores", "running_now", "spare_wanted"]
