"""The balance lab on a real Ray cluster: ``ray start --head`` on its own ports, home and temp
folder, with token authentication, reached by every documented address form; stopped by its
process id (never ``ray stop``, which would stop every Ray process on the machine)."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cluster_ports() -> tuple[list[int], range]:
    """Eight free ports for the head's components and a range of 40 for its workers, none
    of the eight inside the range (Ray refuses a port that two components would use)."""
    start = free_port() + 1
    while start + 40 > 65536:
        start = free_port() + 1
    workers = range(start, start + 40)
    ports: list[int] = []
    while len(ports) < 8:
        port = free_port()
        if port not in workers and port not in ports:
            ports.append(port)
    return ports, workers


pytest.importorskip("ray.util.client", reason="the ray extra is installed by scripts/test.sh")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    home = tmp_path_factory.mktemp("ray-home")
    # Ray's sockets live under its temp folder, and a socket's path has at most 107 bytes:
    # pytest's folders are too deep for it, so the temp folder is a short one of its own.
    temp = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    token = secrets.token_hex(32)
    ports, workers = cluster_ports()
    env = {**os.environ, "HOME": str(home), "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}
    command = [
        sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block",
        f"--port={ports[0]}", f"--ray-client-server-port={ports[1]}",
        f"--node-manager-port={ports[2]}", f"--object-manager-port={ports[3]}",
        f"--dashboard-agent-listen-port={ports[4]}", f"--metrics-export-port={ports[5]}",
        f"--runtime-env-agent-port={ports[6]}", f"--dashboard-agent-grpc-port={ports[7]}",
        f"--min-worker-port={workers[0]}", f"--max-worker-port={workers[-1]}",
        f"--temp-dir={temp}", "--num-cpus=1", "--include-dashboard=false",
    ]  # fmt: skip
    log = (temp / "head.log").open("w")
    head = subprocess.Popen(command, env=env, cwd=home, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while "block forever" not in (temp / "head.log").read_text():
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail("ray start --head did not start:\n" + (temp / "head.log").read_text())
            time.sleep(0.5)
        yield {
            "gcs": f"127.0.0.1:{ports[0]}",
            "client": f"ray://127.0.0.1:{ports[1]}",
            "token": token,
            "temp": str(temp),
        }
    finally:
        head.send_signal(signal.SIGTERM)  # ray start --block stops the processes it started
        head.wait(timeout=60)
        log.close()
        shutil.rmtree(temp, ignore_errors=True)


CODE = """
import json, sys
from fanfold.balance import build_experiment, run_experiment
experiment = build_experiment("fantan", [{"options": {"players": 3}}], ["random"], games=3, seed=2)
rows = run_experiment(experiment, ray=sys.argv[1] or None)
print(json.dumps([{k: v for k, v in r.items() if k not in ("seconds", "slowest")} for r in rows]))
"""


def _cluster_logs(temp: str | None) -> str:
    """The tails of the cluster's client-server logs (where a client connection that failed
    says why), for a failure's message."""
    if temp is None:
        return ""
    found = []
    for path in sorted(Path(temp).glob("session_*/logs/ray_client_server*")):
        if path.is_file() and path.stat().st_size:
            found.append(f"--- {path.name}:\n{path.read_text(errors='replace')[-1500:]}")
    return "\n".join(found)


def _rows(address: str, env: dict[str, str], temp: str | None = None) -> str:
    # The head's client server may still be starting when the first driver connects (it
    # answers "connection refused" for a moment on a busy machine): one more try, then fail
    # with what the driver said and the cluster's client-server logs.
    for attempt in range(2):
        done = subprocess.run(
            [sys.executable, "-c", CODE, address],
            env=env, capture_output=True, text=True, timeout=240, check=False,
        )  # fmt: skip
        if done.returncode == 0:
            return done.stdout.strip().splitlines()[-1]
        if attempt == 0:
            time.sleep(5)
    logs = _cluster_logs(temp)
    pytest.fail(f"the experiment failed on {address}:\n{done.stderr[-3000:]}\n{logs}")


@pytest.mark.parametrize("form", ["gcs", "client"])
def test_every_address_form_reaches_a_token_cluster(cluster: dict[str, str], form: str) -> None:
    """A fresh process, as a user's: only the token set (no RAY_AUTH_MODE)."""
    source = str(Path(__file__).parents[2] / "src")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env |= {"PYTHONPATH": source, "RAY_AUTH_TOKEN": cluster["token"]}
    assert _rows(cluster[form], env, cluster["temp"]) == _rows("", env)
