"""A person's clock across the death of the process that holds its table (SIGKILL), with
nobody watching: the time no live process held the table is not charged (a restart on SQLite
gives it back), and the process that takes the table ends the game by time once the clock
runs out (the restarted one on SQLite, the surviving one's sweeper on PostgreSQL).

The servers run in processes of their own, their blitz speed made short (:data:`SHORT`)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from fanfold.server.hub.beats import BEAT_SECONDS, SILENT_SECONDS
from tests.server.support import (
    JSON,
    ROOT,
    free_port,
    sqlite_url,
    subprocess_environment,
    wait_ready,
)
from tests.server.test_ownership import pg_url  # noqa: F401 (a fixture, by name)
from tests.server.test_restart import open_table
from tests.server.test_store import postgres_cluster  # noqa: F401 (a fixture, by name)

#: ``fanfold serve`` with the blitz speed ``{base}`` seconds, no increment.
SHORT = (
    "import sys; from fanfold.server import clocks; "
    "clocks.SPEEDS['blitz'] = ({base}, 0.0); "
    "from fanfold.cli.app import main; sys.argv[0] = 'fanfold'; main()"
)


def short_clock_server(base: float, log: Path, *options: str) -> subprocess.Popen[str]:
    """``fanfold serve`` (with ``options``) whose blitz clock is ``base`` seconds."""
    with log.open("a") as output:
        return subprocess.Popen(
            [sys.executable, "-c", SHORT.format(base=base), "serve", *options],
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
            env=subprocess_environment(),
        )


def wait_answers(process: subprocess.Popen[str], address: str, log: Path) -> None:
    deadline = time.monotonic() + 120
    while True:
        assert process.poll() is None, f"the server stopped: {log.read_text()}"
        try:
            if httpx.get(f"{address}/api/games", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, f"the server did not answer: {log.read_text()}"
        time.sleep(0.1)


def stored(url: str, table: str) -> tuple[dict[str, Any], JSON | None]:
    """The table's stored options and outcome, read straight from the store (nobody asks the
    server for the table)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            row = connection.execute(
                sa.text("SELECT options, outcome FROM tables WHERE id = :t"), {"t": table}
            ).one()
    finally:
        engine.dispose()
    outcome = json.loads(row[1]) if isinstance(row[1], str) else row[1]
    options = json.loads(row[0]) if isinstance(row[0], str) else row[0]
    return options, outcome


def two_moves(address: str) -> str:
    """A casual blitz Morris between two people: each moves once, so White's clock runs;
    returns the table's id."""
    with httpx.Client(base_url=address, timeout=10) as client:
        created = open_table(client, game="morris", seats=["you", "friend"], speed="blitz")
        table = created["table"]
        for version, (token, action) in enumerate(
            ((created["token"], "C1"), (created["friends"]["1"], "T2"))
        ):
            answer = client.post(
                f"/api/tables/{table}/act",
                json={"token": token, "action": action, "version": version},
            )
            assert answer.status_code == 200, answer.text
    return str(table)


def wait_time_out(url: str, table: str, timeout: float, log: Path) -> JSON:
    deadline = time.monotonic() + timeout
    while True:
        _, outcome = stored(url, table)
        if outcome is not None:
            return outcome
        assert time.monotonic() < deadline, f"the clock did not run out: {log.read_text()[-3000:]}"
        time.sleep(0.2)


@pytest.mark.slow
def test_the_time_a_killed_server_was_down_is_not_charged_and_the_clock_runs_out(
    tmp_path: Path,
) -> None:
    database = sqlite_url(tmp_path, "x.db")
    log = tmp_path / "server.log"
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    options = ("--port", str(port), "--db", database)
    process = short_clock_server(12.0, log, *options)
    try:
        wait_answers(process, address, log)
        table = two_moves(address)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        killed = time.time()
        before, _ = stored(database, table)
        clock = before["clock_state"]
        assert clock["running"] == 0
        left_at_kill = clock["left"][0] - (killed - clock["since"])
        assert left_at_kill > 10.0
        time.sleep(SILENT_SECONDS + 3.0)  # down, and its last beat long silent
        restarted = time.time()
        process = short_clock_server(12.0, log, *options)
        wait_answers(process, address, log)  # the table was loaded at start-up
        after, outcome = stored(database, table)
        read = time.time()
        assert outcome is None, "the time the server was down was charged"
        moved = after["clock_state"]
        credited = moved["since"] - clock["since"]
        # Given back: the time from the last beat before the kill to the take at start-up.
        assert restarted - killed <= credited <= read - killed + BEAT_SECONDS + 0.5
        left_now = moved["left"][0] - (read - moved["since"])
        # Charged since the kill: at most a beat before it, and the restart's own time.
        assert left_now >= left_at_kill - BEAT_SECONDS - (read - restarted) - 0.5
        assert after["clock_holder"] != before["clock_holder"]
        # Nobody watches: the restarted server ends the game by time.
        ended = wait_time_out(database, table, 30.0, log)
        assert ended["termination"] == "time_forfeit"
        assert ended["winners"] == [1]
        final, _ = stored(database, table)
        assert final["clock_state"]["left"][0] == 0.0
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


@pytest.mark.postgres
def test_a_persons_clock_runs_out_after_its_owner_is_killed_with_nobody_watching(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    ports = [(free_port(), free_port()) for _ in range(2)]
    processes = [
        short_clock_server(
            8.0,
            tmp_path / f"{name}.log",
            *("--port", str(port), "--db", pg_url, "--health-port", str(health)),
            *("--server-name", name, "--log-format", "json", "--keep-seconds", "4"),
            *("--bot-workers", "1"),
        )
        for name, (port, health) in zip(("s1", "s2"), ports, strict=True)
    ]
    try:
        for process, (port, health), name in zip(processes, ports, ("s1", "s2"), strict=True):
            wait_ready(process, port, health, tmp_path / f"{name}.log")
        table = two_moves(f"http://127.0.0.1:{ports[0][0]}")
        processes[0].kill()  # its owner dies; nobody asks for the table again
        processes[0].wait(timeout=30)
        log = tmp_path / "s2.log"
        ended = wait_time_out(pg_url, table, 40.0, log)
        assert ended["termination"] == "time_forfeit"
        assert ended["winners"] == [1]
        assert "tables nobody played were taken" in log.read_text()
        final, _ = stored(pg_url, table)
        assert final["clock_holder"].startswith("s2.")
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)
