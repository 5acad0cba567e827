"""What a low-priority worker costs a thread hand-over on a machine whose cores are busy:
``python3 benchmarks/spare_core.py``.

The server's latency is made of hand-overs between threads (a commit's answer from the store's
thread to the event loop) that wake a sleeping thread. This benchmark times such a round trip
(two threads of one process, a byte through a socket pair each way, 2 ms apart, at nice -5
where allowed, as the benchmarks run the server) beside a program that is busy about half of
the time in bursts of 0.2 to 3 ms (another table's bot, the load generator: a normal task), and
beside it one of:

* ``none``: nothing else;
* ``idle class``: a worker that computes all along in Linux's idle class (``SCHED_IDLE``), as
  a review step did while live play went on;
* ``idle class, a core spare``: the same worker, pausing at its pause points (every 0.5 ms of
  work) while the kernel's count of running tasks (``/proc/loadavg``'s fourth field, the
  worker among them) says the machine's other running tasks fill every core but its own,
  looking again every 2 ms while paused: the rule tried for review steps on 2026-12-01 and
  not kept (docs/notes/2026-12-01-review-spare-core.md).

Each row prints the round trips' p50, p99, p99.9 and the share over 1 ms, and the worker's
share of a core. Rows are run in turn, ``--rounds`` times (default 2), ``--seconds`` each
(default 20). A figure means something only on a machine with nothing else running.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

#: Seconds between two round trips (a player's pace is far slower; the server's many tables
#: make hand-overs about this frequent).
GAP = 0.002
#: The worker's unit of work between two pause points, seconds.
UNIT = 0.0005

HALF_BUSY = """
import random, time
rng = random.Random(2)
clock = time.perf_counter
while True:
    burst = rng.uniform(0.0002, 0.003)
    end = clock() + burst
    while clock() < end:
        pass
    time.sleep(burst * rng.uniform(0.5, 1.5))
"""

WORKER = """
import os, sys, time
os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
cores = len(os.sched_getaffinity(0))
loadavg = os.open("/proc/loadavg", os.O_RDONLY)


def taken():
    running = int(os.pread(loadavg, 128, 0).split()[3].split(b"/")[0])
    return running - 1 >= cores - 1


polite = sys.argv[1] == "spare"
unit, clock = float(sys.argv[2]), time.perf_counter
print("ready", flush=True)
while True:
    if polite and taken():
        time.sleep(0.002)
        continue
    end = clock() + unit
    while clock() < end:
        pass
"""


def round_trips(seconds: float) -> list[float]:
    """Round trips of a byte between two threads, ``GAP`` apart, for ``seconds``."""
    there, echo_in = socket.socketpair()
    echo_out, back = socket.socketpair()

    def echo() -> None:
        while data := echo_in.recv(1):
            echo_out.send(data)

    thread = threading.Thread(target=echo, daemon=True)
    thread.start()
    found: list[float] = []
    end = time.perf_counter() + seconds
    try:
        while time.perf_counter() < end:
            started = time.perf_counter()
            there.send(b"x")
            back.recv(1)
            found.append(time.perf_counter() - started)
            time.sleep(GAP)
    finally:
        there.close()
        thread.join(1)
        for end_ in (echo_in, echo_out, back):
            end_.close()
    return found


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def running(code: str, *args: str) -> Iterator[subprocess.Popen[bytes]]:
    """A program of ``code`` running, once it said it is ready (if it says so)."""
    process = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE)
    try:
        if "ready" in code and process.stdout is not None:
            process.stdout.readline()
        time.sleep(0.5)
        yield process
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()


def row(kind: str, seconds: float) -> str:
    with contextlib.ExitStack() as stack:
        stack.enter_context(running(HALF_BUSY))
        worker = None
        if kind != "none":
            mode = "spare" if "spare" in kind else "all"
            worker = stack.enter_context(running(WORKER, mode, str(UNIT)))
            before, started = cpu_seconds(worker.pid), time.perf_counter()
        found = sorted(round_trips(seconds))
        share = (
            (cpu_seconds(worker.pid) - before) / (time.perf_counter() - started)
            if worker is not None
            else 0.0
        )
    count = len(found)

    def quantile(q: float) -> float:
        return found[min(count - 1, int(q * count))] * 1e3

    over = sum(value > 0.001 for value in found) / count
    return (
        f"| {kind} | {count} | {quantile(0.5):.3f} | {quantile(0.99):.3f} "
        f"| {quantile(0.999):.3f} | {over:.2%} | {share:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="each row's seconds")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the three rows")
    options = parser.parse_args()
    if not hasattr(os, "SCHED_IDLE") or not os.path.exists("/proc/loadavg"):
        raise SystemExit("this benchmark needs Linux (its idle class and /proc/loadavg)")
    with contextlib.suppress(PermissionError):
        os.nice(-5)
    print("command: python3 benchmarks/spare_core.py" + "".join(f" {a}" for a in sys.argv[1:]))
    print(f"load {os.getloadavg()[0]:.2f}, {len(os.sched_getaffinity(0))} cores")
    print()
    print(
        "| beside a half-busy program | round trips | p50 ms | p99 ms | p99.9 ms | over 1 ms "
        "| worker's core share |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for _ in range(options.rounds):
        for kind in ("none", "idle class", "idle class, a core spare"):
            print(row(kind, options.seconds), flush=True)


if __name__ == "__main__":
    main()
