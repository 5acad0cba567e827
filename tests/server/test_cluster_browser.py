"""A person's game in the browser through HAProxy in front of two ``fanfold serve`` processes
on one PostgreSQL: the process that owns the table is killed (SIGKILL) mid-game, the page
reconnects by itself, and the game goes on at the same point, nothing lost."""

from __future__ import annotations

import signal
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.server.support import stored_actions as _stored_actions
from tests.server.test_browser import (  # noqa: F401 (fixtures)
    browser,
    log_length,
    morris_move,
    open_table,
    page,
    wait_turn_or_end,
)
from tests.server.test_cluster import fanfold_processes, haproxy, owners
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)


def _two_moves_each(tab: Page, site: str) -> bool:
    """Open a Morris table against ``random`` and play two moves each: True when the game
    goes on and it is the person's turn, False when it ended on the way."""
    open_table(tab, site, "morris", {1: "random"})
    tab.wait_for_selector(".morris svg")
    for _ in range(2):
        if not wait_turn_or_end(tab):
            return False
        morris_move(tab)
    return wait_turn_or_end(tab)


@pytest.mark.slow
def test_a_browser_game_goes_on_when_its_process_is_killed(
    page: Page,  # noqa: F811
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    with ExitStack() as stack:
        processes = stack.enter_context(fanfold_processes(pg_url, tmp_path, 2))
        served = [(port, health) for _, port, health in processes]
        port = stack.enter_context(haproxy(served, tmp_path / "haproxy.log"))
        pids = {process.pid: process for process, _, _ in processes}
        site = f"http://127.0.0.1:{port}"
        # Two moves each; either side may lose that early (a line of one shape or one colour),
        # so a game that has ended by then is set aside for a new table.
        for _ in range(5):
            if _two_moves_each(page, site):
                break
        else:
            pytest.fail("five Morris games in a row ended within two moves each")
        table = page.url.split("/table/")[1].split("#")[0]
        (owner,) = owners(pg_url, [table])[table]
        log = page.locator("#log li").all_inner_texts()
        before = httpx.get(f"{site}/api/tables/{table}", timeout=10).json()
        assert len(log) == len(before["log"]) == len(_stored_actions(pg_url, table)) >= 4

        pids[owner].send_signal(signal.SIGKILL)
        pids[owner].wait(timeout=10)
        expect(page.locator("#status")).to_contain_text("Connection lost", timeout=10_000)
        # The page reconnects by itself (through HAProxy, to the other process).
        expect(page.locator("#status")).not_to_contain_text("Connection lost", timeout=15_000)
        assert wait_turn_or_end(page)
        assert page.locator("#log li").all_inner_texts() == log
        after = httpx.get(f"{site}/api/tables/{table}", timeout=10).json()
        assert (after["version"], after["log"], after["view"]) == (
            before["version"],
            before["log"],
            before["view"],
        )
        # The game goes on, on the other process.
        morris_move(page)
        # The move may end the game (the first lit point can complete one's own line of three).
        going_on = wait_turn_or_end(page)
        stored = _stored_actions(pg_url, table)
        assert [number for number, _, _ in stored] == list(range(1, len(stored) + 1))
        # The move, and the bot's answer unless the game ended.
        assert len(stored) == log_length(page) >= len(log) + (2 if going_on else 1)
        (new_owner,) = owners(pg_url, [table])[table]
        assert new_owner != owner
        assert new_owner in pids
