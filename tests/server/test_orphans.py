"""Nobody's table is forgotten: when the process that plays a table dies, another process's
sweeper takes it from the store without waiting for a request, and play goes on (a game
between bots nobody watches), on PostgreSQL with two ``fanfold serve`` processes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.server.support import bots_playing_on_two_processes, stored_actions
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

pytestmark = pytest.mark.postgres


def test_a_dead_processs_table_nobody_watches_is_taken_and_played_on(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    extra = ("--keep-seconds", "4", "--bot-pause", "0.3")
    with bots_playing_on_two_processes(pg_url, tmp_path, extra) as (processes, table):
        processes[0].kill()  # its owner dies; nobody asks for the table again
        processes[0].wait(timeout=30)
        before = len(stored_actions(pg_url, table))
        deadline = time.monotonic() + 60
        while len(stored_actions(pg_url, table)) < before + 3:
            assert time.monotonic() < deadline, (tmp_path / "s2.log").read_text()[-3000:]
            time.sleep(0.2)
        assert "tables nobody played were taken" in (tmp_path / "s2.log").read_text()
