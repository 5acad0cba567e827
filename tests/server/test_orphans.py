"""Nobody's table is forgotten: when the process that plays a table dies, another process's
sweeper takes it from the store without waiting for a request, and play goes on (a game
between bots nobody watches), on PostgreSQL with two ``fanfold serve`` processes."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from tests.server.support import free_port
from tests.server.test_cluster import start_process, wait_ready
from tests.server.test_ownership import _stored_actions, pg_url  # noqa: F401 (fixture)
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

pytestmark = pytest.mark.postgres


def test_a_dead_processs_table_nobody_watches_is_taken_and_played_on(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    extra = ("--keep-seconds", "4", "--bot-pause", "0.3")
    ports = [(free_port(), free_port()) for _ in range(2)]
    processes = [
        start_process(pg_url, tmp_path, f"s{n + 1}", port, health, extra=extra)
        for n, (port, health) in enumerate(ports)
    ]
    try:
        for process, (port, health), name in zip(processes, ports, ("s1", "s2"), strict=True):
            wait_ready(process, port, health, tmp_path / f"{name}.log")
        first = f"http://127.0.0.1:{ports[0][0]}"
        made = httpx.post(
            f"{first}/api/tables", json={"game": "fano", "seats": ["random", "random"]}
        )
        assert made.status_code == 200, made.text
        table = made.json()["table"]
        deadline = time.monotonic() + 60
        while len(_stored_actions(pg_url, table)) < 3:
            assert time.monotonic() < deadline, "the bots did not start"
            time.sleep(0.1)
        processes[0].kill()  # its owner dies; nobody asks for the table again
        processes[0].wait(timeout=30)
        before = len(_stored_actions(pg_url, table))
        deadline = time.monotonic() + 60
        while len(_stored_actions(pg_url, table)) < before + 3:
            assert time.monotonic() < deadline, (tmp_path / "s2.log").read_text()[-3000:]
            time.sleep(0.2)
        assert "tables nobody played were taken" in (tmp_path / "s2.log").read_text()
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)
