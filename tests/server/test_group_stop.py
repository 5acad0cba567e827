"""How ``fanfold serve --processes N`` stops and restarts its processes, on PostgreSQL.

* A full stop (SIGTERM to the supervisor) stops every process at once: each lets its tables go
  into the store without announcing them, none is taken by a process that is stopping too
  (no hand-over in any process's lines), and every table is in the store with each action
  played.
* A rolling restart (SIGHUP, ``fanfold restart``) still lets each process's tables go to the
  others (a table waiting for a person who is not connected is left in the store, nobody takes
  it at once, and it is loaded when asked for); and a process killed (``kill -9``) while
  another is being restarted is started again at once, not only when the restart reaches it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx

from fanfold.server.store import Store
from tests.server.support import JSON, ROOT, TOKEN, subprocess_environment
from tests.server.test_haproxy_config import free_ports
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

#: What a process says as it lets its tables go (fanfold.server.hub.draining), and what one
#: says when it takes the tables another let go.
HANDED = "let go to the other processes"
STORED = "let go into the store (a full stop)"
TAKEN = "tables taken from a process that stopped"


@contextmanager
def group(url: str, folder: Path) -> Iterator[tuple[subprocess.Popen[bytes], list[int], Path]]:
    """``fanfold serve --processes 2`` (JSON lines from INFO in ``folder/serve.log``), once
    both processes are ready: the supervisor, the two game ports and the log. Killed at the
    end if still running."""
    first, checks = free_ports(2), free_ports(2)
    log = folder / "serve.log"
    with log.open("ab") as output:
        supervisor = subprocess.Popen(
            [
                *(sys.executable, "-m", "fanfold", "serve", "--processes", "2"),
                *("--port", str(first), "--health-port", str(checks), "--db", url),
                *("--bot-workers", "1", "--bot-pause", "0", "--log-format", "json"),
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=subprocess_environment(),
        )
    try:
        wait_ready(supervisor, [checks, checks + 1], log)
        yield supervisor, [first, first + 1], log
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
            supervisor.wait(timeout=30)
        for pid in started_pids(log).values():  # its processes, if it was killed
            with suppress(OSError):
                if b"--server-name" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.kill(pid, signal.SIGKILL)


def wait_ready(supervisor: subprocess.Popen[bytes], health: list[int], log: Path) -> None:
    deadline = time.monotonic() + 300  # a busy machine: the bots' workers start first
    waiting = set(health)
    while waiting:
        assert supervisor.poll() is None, log.read_text()[-3000:]
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        for port in list(waiting):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=2).status_code == 200:
                    waiting.discard(port)
            except httpx.TransportError:
                pass
        time.sleep(0.2)


def started_pids(log: Path) -> dict[str, int]:
    """Each process's pid, as the supervisor said it last started it."""
    return {
        name: int(pid)
        for name, pid in re.findall(r"(s\d) started on port \d+ \(pid (\d+)\)", log.read_text())
    }


def wait_for(log: Path, text: str, count: int = 1, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while log.read_text().count(text) < count:
        assert time.monotonic() < deadline, f"{text!r} x{count}: " + log.read_text()[-4000:]
        time.sleep(0.1)


def open_and_play(port: int, count: int) -> dict[str, int]:
    """``count`` tables opened on the process of ``port``, one action played at each (the
    bot then answers): each table's id and the version seen."""
    seen: dict[str, int] = {}
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        for _ in range(count):
            opened = client.post("/api/tables", json={"game": "morris", "seats": ["you", "random"]})
            assert opened.status_code == 200, opened.text
            table, token = opened.json()["table"], opened.json()["token"]
            state: JSON = client.get(f"/api/tables/{table}", headers={TOKEN: token}).json()
            body = {"token": token, "version": state["version"], "action": state["legal"][0]}
            acted = client.post(f"/api/tables/{table}/act", json=body)
            assert acted.status_code == 200, acted.text
            seen[table] = int(state["version"]) + 1
    return seen


def test_a_full_stop_stores_every_table_and_hands_none_over(pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    with group(pg_url, tmp_path) as (supervisor, ports, log):
        seen = {**open_and_play(ports[0], 3), **open_and_play(ports[1], 3)}
        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=120) == 0, log.read_text()[-3000:]
        said = log.read_text()
    assert "stopping every process at once" in said
    # each process let its tables go into the store; none was handed over or taken
    assert len(re.findall(r"stopping: 3 tables let go into the store \(a full stop\)", said)) == 2
    assert HANDED not in said
    assert TAKEN not in said
    assert "handed over" not in said
    store = Store(pg_url)
    try:
        for table, version in seen.items():
            stored = store.load(table)
            assert stored is not None, table
            assert stored.version >= max(version, 1), (table, stored.version)
            assert len(stored.actions) == stored.version
    finally:
        store.close()


def test_a_rolling_restart_hands_over_and_a_crashed_process_comes_back(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    with group(pg_url, tmp_path) as (supervisor, ports, log):
        seen = open_and_play(ports[0], 2)
        before = started_pids(log)
        supervisor.send_signal(signal.SIGHUP)
        # s1 stops first and hands its tables to s2; once s1 is started again, s2 is killed
        # while s1 is not yet ready: the supervisor starts it again without waiting.
        wait_for(log, "s1 started on port", 2)
        os.kill(before["s2"], signal.SIGKILL)
        wait_for(log, "s2 restarted: ready", 1, seconds=300)
        said = log.read_text()
        assert re.search(r"stopping: 2 tables let go to the other processes", said), said[-3000:]
        # A person's turn with nobody connected: left in the store, loaded when asked for.
        assert TAKEN not in said, said[-3000:]
        crashed = said.index(f"the process on port {ports[1]}, stopped (status -9)")
        assert crashed < said.index("s1 restarted: ready"), said[-3000:]
        assert said.count("s2 started on port") == 3  # at start, after its crash, by the roll
        for port in ports:
            assert httpx.get(f"http://127.0.0.1:{port}/ready", timeout=10).status_code == 200
        for table, version in seen.items():
            state = httpx.get(f"http://127.0.0.1:{ports[1]}/api/tables/{table}", timeout=30)
            assert state.status_code == 200, state.text
            assert state.json()["version"] >= version  # (and the bot's answer, if stored)
        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=120) == 0
