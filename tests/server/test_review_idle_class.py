"""The review worker's idle class where live play never goes quiet
(:mod:`fanfold.server.bots.idle_class`, :meth:`fanfold.server.bots.ReviewWorker.run`): a step
whose wait for the live work reached the hold's limit still computes in Linux's idle class (for
the hold's limit, then at nice 19 in the normal class), and every thread of the worker process
is switched, not only its main one."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

from fanfold.server.bots import ReviewWorker
from fanfold.server.bots.idle_class import idle_wanted, set_idle, threads_of
from fanfold.server.bots.live_work import LiveWork
from tests.server.test_review_worker import SCHED_IDLE, SCHED_OTHER, policy_now


def test_a_step_whose_wait_reached_the_hold_still_computes_in_the_idle_class() -> None:
    wanted = idle_wanted()  # where a process may not leave the class, it is never entered
    live = LiveWork()
    worker = ReviewWorker(processes=True, live=live, hold=0.5)
    idled: list[float] = []
    worker.idled = idled.append
    seen: list[tuple[float, int]] = []

    async def main() -> None:
        await worker.run(time.sleep, 0.0)  # the process started, warm
        live.begin()  # live work under way all along: the step waits the whole hold first
        try:
            began = time.monotonic()
            step = asyncio.ensure_future(worker.run(time.sleep, 1.2))
            while not step.done():
                pid = worker.pid
                assert pid is not None
                seen.append((time.monotonic() - began, policy_now(pid)))
                await asyncio.sleep(0.05)
            await step
        finally:
            live.end()

    try:
        asyncio.run(main())
    finally:
        worker.shutdown()
    assert worker.held_to_limit >= 1  # its wait before it reached the hold's limit
    computing = [policy for at, policy in seen if 0.65 < at < 0.9]  # after the wait
    assert computing
    assert computing == [SCHED_IDLE if wanted else SCHED_OTHER] * len(computing)
    assert all(policy == SCHED_OTHER for at, policy in seen if at > 1.15)  # past the hold
    assert worker.idle_steps == int(wanted)
    assert len(idled) == 2  # each step said how long it computed in the idle class
    assert idled[0] == 0.0  # the first: no live play yet
    assert (0.4 < idled[1] <= 0.5) if wanted else idled[1] == 0.0


def test_every_thread_of_the_worker_goes_to_the_idle_class_and_back() -> None:
    code = (
        "import threading, time\n"
        "for _ in range(3): threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
        "print('ready', flush=True)\n"
        "time.sleep(30)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "ready"
        threads = threads_of(process.pid)
        assert threads[0] == process.pid
        assert len(threads) == 4
        if not idle_wanted():  # this system lets no thread leave the class: never entered
            assert all(os.sched_getscheduler(thread) == os.SCHED_OTHER for thread in threads)
            return
        assert set_idle(process.pid, idle=True)
        assert [os.sched_getscheduler(thread) for thread in threads] == [os.SCHED_IDLE] * 4
        assert set_idle(process.pid, idle=False)
        assert [os.sched_getscheduler(thread) for thread in threads] == [os.SCHED_OTHER] * 4
    finally:
        process.kill()
        process.wait()
    assert set_idle(process.pid, idle=True) is False  # gone: said, nothing raised
