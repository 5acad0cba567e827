"""``benchmarks/ready.py``'s processor time of a process (what a start costs on a busy
machine, where its wall time is mostly the other processes')."""

from __future__ import annotations

import os
import resource
import time

from benchmarks import ready


def test_processor_time_is_the_process_own_and_grows_with_its_work() -> None:
    before = ready.cpu_seconds(os.getpid())
    mine = resource.getrusage(resource.RUSAGE_SELF)
    assert abs(before - (mine.ru_utime + mine.ru_stime)) < 0.1
    spin = time.process_time() + 0.2
    while time.process_time() < spin:
        pass
    assert ready.cpu_seconds(os.getpid()) - before >= 0.15
