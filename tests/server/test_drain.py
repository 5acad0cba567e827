"""A process that stops on SIGTERM hands its tables to the others at once: a game between bots
that nobody watches, owned by the stopping process, goes on in another within a couple of
seconds, without any request for it (on PostgreSQL, two ``fanfold serve`` processes). And
``fanfold restart`` tells every table, then restarts a group's processes one at a time: a
player's socket hears the notice, is closed with 1012, and finds the game on another process."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from fanfold.cli.serve import SETTLE_SECONDS
from tests.server.support import (
    ROOT,
    bots_playing_on_two_processes,
    free_port,
    stored_actions,
    subprocess_environment,
)
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

pytestmark = pytest.mark.postgres

#: How soon the other process must play on: well under its sweeper's round (a minute here).
TAKEN_SECONDS = 5.0


def test_a_stopping_processs_bot_table_goes_on_at_once_in_another(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    extra = ("--keep-seconds", "600", "--bot-pause", "0.3")
    with bots_playing_on_two_processes(pg_url, tmp_path, extra) as (processes, table):
        processes[0].send_signal(signal.SIGTERM)  # its owner stops; nobody asks for it
        stopped = time.monotonic()
        # uvicorn ends by raising the signal it caught again: status -15, as before draining
        code = processes[0].wait(timeout=30)
        assert code in (0, -signal.SIGTERM), (tmp_path / "s1.log").read_text()[-3000:]
        before = len(stored_actions(pg_url, table))
        while len(stored_actions(pg_url, table)) < before + 2:
            late = time.monotonic() - stopped
            assert late < TAKEN_SECONDS, (tmp_path / "s2.log").read_text()[-3000:]
            time.sleep(0.05)
        assert "tables let go to the other processes" in (tmp_path / "s1.log").read_text()
        assert "tables taken from a process that stopped" in (tmp_path / "s2.log").read_text()


def _closed_with(socket: ClientConnection) -> int | None:
    """The code ``socket`` is closed with by the server (messages before it are skipped)."""
    try:
        while True:
            socket.recv(timeout=60)
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code


def _said(log: Path) -> dict[str, float]:
    """When (seconds since the epoch) the group's JSON log first said each thing a rolling
    restart of s1 and s2 is checked by."""
    marks = {
        "s1 stopping": ("s1", "stopping: "),
        "s1 warmed up": ("s1", "the bots' workers warmed up"),
        "s2 stopping": ("s2", "stopping: "),
        "s2 restarted": ("supervisor", "s2 restarted: ready in"),
    }
    said: dict[str, float] = {}
    starts = 0
    for line in log.read_text(errors="replace").splitlines():
        if not line.startswith("{"):
            continue
        entry = json.loads(line)
        when = datetime.fromisoformat(entry["time"]).timestamp()
        who, message = entry.get("process_name"), entry["message"]
        if who == "supervisor" and message.startswith("s1 started on port"):
            starts += 1
            if starts == 2:
                said["s1 started again"] = when
        for mark, (name, words) in marks.items():
            # (the warm-up of s1 is the new process's, after its start again)
            later = mark != "s1 warmed up" or "s1 started again" in said
            if mark not in said and who == name and words in message and later:
                said[mark] = when
    assert len(said) == len(marks) + 1, said
    return said


def test_fanfold_restart_tells_the_tables_then_restarts_a_group_one_at_a_time(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    first, checks = free_port(), free_port()
    log = tmp_path / "serve.log"
    with log.open("a") as output:
        parent = subprocess.Popen(
            [
                *(sys.executable, "-m", "fanfold", "serve", "--processes", "2"),
                *("--port", str(first), "--db", pg_url, "--bot-workers", "1"),
                *("--health-port", str(checks), "--keep-seconds", "600"),
                *("--log-format", "json"),  # the supervisor's lines from INFO
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=subprocess_environment(),
        )
    try:
        for port in (checks, checks + 1):
            deadline = time.monotonic() + 180
            while True:
                assert parent.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=2).is_success:
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.2)
        made = httpx.post(
            f"http://127.0.0.1:{first}/api/tables",
            json={"game": "morris", "seats": ["you", "random"]},
            timeout=30,
        ).json()
        table, token = made["table"], made["token"]
        with connect(f"ws://127.0.0.1:{first}/ws/tables/{table}") as socket:
            socket.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(socket.recv(timeout=30))["type"] == "state"
            told = subprocess.run(
                [
                    *(sys.executable, "-m", "fanfold", "restart", "--pid", str(parent.pid)),
                    *("--in", "0", "--db", pg_url),
                ],
                capture_output=True,
                text=True,
                cwd=ROOT,
                env=subprocess_environment(),
                timeout=120,
            )
            assert told.returncode == 0, told.stdout + told.stderr
            notice = json.loads(socket.recv(timeout=30))
            assert notice["type"] == "restarting", notice
            assert notice["seconds"] == 0
            assert "restarts now" in notice["message"]
            assert _closed_with(socket) == 1012  # s1 stops
        with connect(f"ws://127.0.0.1:{first + 1}/ws/tables/{table}") as socket:  # s2 has it
            socket.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(socket.recv(timeout=30))["type"] == "state"
        deadline = time.monotonic() + 300
        while "s2 restarted: ready in" not in log.read_text():
            assert parent.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.5)
        assert "s1 restarted: ready in" in log.read_text()
        said = _said(log)
        # s1 starts again only once its players had SETTLE_SECONDS to reconnect to s2 ...
        assert said["s2 restarted"] > said["s1 started again"] > said["s1 stopping"]
        assert said["s1 started again"] - said["s1 stopping"] >= SETTLE_SECONDS - 0.05
        # ... and s2 stops only once s1's bots' workers warmed up (its players go to s1).
        assert said["s1 warmed up"] < said["s2 stopping"], said
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(timeout=120) == 0
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(timeout=30)
