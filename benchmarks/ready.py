"""How soon a ``fanfold serve`` process is ready after its start: seconds from starting the
command to its ``/ready`` answering 200 (the store open, tables served, a person's action
taken), and to its log saying that the bots' workers warmed up (in the background); and the
processor time the server used until ``/ready`` (on a busy machine, the fairer comparison).

Each run starts one process on a fresh SQLite store in a temporary folder (with
``--existing``, on a copy of a store made and migrated once before the runs, as a restart
finds it), with the compiled searches in Numba's cache as an installed server has them, and
stops it (SIGTERM). It prints each run and the median, with the machine's load average before
and after.

Run: ``python3 benchmarks/ready.py`` (``--runs 3``, ``--existing``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """The processor time process ``pid`` used so far (its own, not its children's), in
    seconds: on a busy machine a fairer measure of a start's cost than the wall time."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(folder: Path, existing: Path | None = None) -> tuple[float, float, float]:
    """Seconds to ``/ready`` 200, to the warm-up's line, and the server's processor seconds
    until ``/ready`` 200, for one start (on a copy of the store ``existing``, if given)."""
    if existing is not None:
        shutil.copyfile(existing, folder / "store.db")
    port, health = free_port(), free_port()
    log = folder / "serve.log"
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    started = time.monotonic()
    with log.open("w") as output:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "fanfold", "serve", "--port", str(port)),
                *("--health-port", str(health), "--db", f"sqlite:///{folder / 'store.db'}"),
                *("--log-format", "json"),
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            env=environment,
        )
    try:
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{health}/ready", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() - started > 300:
                raise RuntimeError(log.read_text()[-2000:])
            time.sleep(0.02)
        ready = time.monotonic() - started
        cpu = cpu_seconds(process.pid)
        while "warmed up in" not in log.read_text():
            if process.poll() is not None or time.monotonic() - started > 300:
                raise RuntimeError(log.read_text()[-2000:])
            time.sleep(0.05)
        warm = time.monotonic() - started
        for line in log.read_text().splitlines():
            if "warmed up in" in line:
                print(f"#   {json.loads(line)['message']}")
        return ready, warm, cpu
    finally:
        process.terminate()
        process.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="starts, one after another")
    parser.add_argument(
        "--existing", action="store_true", help="start on a store made before (a restart)"
    )
    args = parser.parse_args()
    made = Path(tempfile.mkdtemp(prefix="fanfold-ready-store-"))
    existing = made / "store.db" if args.existing else None
    if existing is not None:  # made and migrated by fanfold itself, once
        url = f"sqlite:///{existing}"
        opening = f"from fanfold.server.store import Store; Store({url!r}).close()"
        environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        subprocess.run([sys.executable, "-c", opening], check=True, env=environment)
    before = os.getloadavg()
    readies, warms, cpus = [], [], []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="fanfold-ready-") as folder:
            ready, warm, cpu = one_run(Path(folder), existing)
        readies.append(ready)
        warms.append(warm)
        cpus.append(cpu)
        print(
            f"run {run + 1}: ready {ready:.1f} s ({cpu:.2f} s of processor time), "
            f"bots warmed up {warm:.1f} s after the start"
        )
    print(
        f"median: ready {statistics.median(readies):.1f} s "
        f"({statistics.median(cpus):.2f} s of processor time), "
        f"bots warmed up {statistics.median(warms):.1f} s"
    )
    print(f"load average (1, 5, 15 min) before: {before}, after: {os.getloadavg()}")
    shutil.rmtree(made, ignore_errors=True)


if __name__ == "__main__":
    main()
