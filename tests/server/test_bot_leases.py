"""A client's share of the bot pool over three server processes on one PostgreSQL store: one
client's tables, one at each process, have their bots think one decision at a time over all
three (the share of a pool of one worker), the share moving from process to process; a process
killed mid-decision frees the share once its lease runs out."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from fanfold.server.store import Store
from fanfold.server.store.schema import bot_leases
from tests.server.test_cluster import fanfold_processes
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

pytestmark = pytest.mark.postgres

THINKER = "mcts(iterations=5000, seconds=0.2)"
#: The client who opens the tables: the test's address.
CLIENT = "address:127.0.0.1"


def live_leases(url: str) -> list[tuple[str, str]]:
    """The granted leases now (a decision thinking, or about to): client and holder of
    each."""
    store = Store(url)
    try:
        with store.engine.connect() as connection:
            rows = connection.execute(
                sa.select(bot_leases.c.client, bot_leases.c.holder).where(
                    bot_leases.c.until > time.time(), bot_leases.c.granted
                )
            ).all()
    finally:
        store.close()
    return [(str(row.client), str(row.holder)) for row in rows]


def lease_ends(url: str, holder: str) -> float | None:
    """When the granted lease of ``holder`` runs out (``None``: it holds none)."""
    store = Store(url)
    try:
        with store.engine.connect() as connection:
            found = connection.execute(
                sa.select(sa.func.max(bot_leases.c.until)).where(
                    bot_leases.c.holder == holder, bot_leases.c.granted
                )
            ).scalar()
    finally:
        store.close()
    return None if found is None else float(found)


def watch(url: str, seconds: float, holders: int = 0) -> list[list[tuple[str, str]]]:
    """The granted leases, looked at every 50 ms for ``seconds``, or until ``holders``
    processes have held one."""
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen.append(live_leases(url))
        if holders and len({holder for leases in seen for _, holder in leases}) >= holders:
            break
        time.sleep(0.05)
    return seen


def test_a_clients_bot_share_holds_over_three_processes_and_a_killed_one_frees_it(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    with fanfold_processes(pg_url, tmp_path, 3) as processes:
        for _, port, _ in processes:  # a table of bots at each process, by one client
            answer = httpx.post(
                f"http://127.0.0.1:{port}/api/tables",
                json={"game": "morris", "seats": [THINKER, THINKER]},
                timeout=30,
            )
            assert answer.status_code == 200, answer.text
        # (A busy machine: each process's first decision waits for its worker to start.)
        seen = watch(pg_url, 90.0, holders=3)
        clients = {client for leases in seen for client, _ in leases}
        assert clients == {CLIENT}, clients
        assert max(len(leases) for leases in seen) == 1  # one decision at once, over all three
        holders = {holder for leases in seen for _, holder in leases}
        assert len(holders) == 3, holders  # the share moves from process to process

        # The process thinking now is killed: its lease holds the share until it runs out,
        # then another process's bots think again.
        pids = {process.pid: process for process, _, _ in processes}
        while True:
            now = [lease for lease in live_leases(pg_url) if lease[0] == CLIENT]
            if not now:
                time.sleep(0.01)
                continue
            ((_, holder),) = now
            victim = pids[int(holder.rsplit(":", 1)[1])]
            victim.send_signal(signal.SIGKILL)
            victim.wait(timeout=10)
            left = lease_ends(pg_url, holder)
            if left is not None:
                break
            # It gave its lease back just before it died: the others go on; kill another.
            assert len(pids) > 2, "no process died holding its lease"
            del pids[victim.pid]
        while True:
            # (The killed process's table, taken by another process, is read back from the
            # store: its bots are a client of their own there, apart from this one's share.)
            others = [h for c, h in live_leases(pg_url) if h != holder and c == CLIENT]
            if others:
                break
            assert time.time() < left + 10, "the share stayed held after the lease ran out"
            time.sleep(0.05)
        assert time.time() > left - 0.5  # the killed process's lease held it until it ran out
        # (The killed process's lease is left out: it ran out as the next was granted, and a
        # look at the leases begun just before that instant may read both.)
        after = watch(pg_url, 2.0)
        mine = [[h for c, h in leases if h != holder and c == CLIENT] for leases in after]
        assert max(len(held) for held in mine) == 1
