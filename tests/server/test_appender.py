"""Group commits from the event loop on PostgreSQL (:mod:`fanfold.server.store.appender`): one
statement a commit on a connection of the process's own, the conflict refused alone, a broken
connection costing one commit at most (none when it broke while idle), and a hub that stores
its moves there and its games' ends in the store's thread, the record whole."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import psycopg
import pytest

from fanfold.core.registry import get_game
from fanfold.server.hub import Hub
from fanfold.server.ownership import libpq_url
from fanfold.server.store import AppendRow, Store
from fanfold.server.store import appender as appender_module
from fanfold.server.store.appender import Appender
from tests.server.test_ownership import (
    CONFLICTING_COMMIT,
    assert_all_but_the_conflict_stored,
    pg_url,  # noqa: F401 (fixture)
    three_tables_one_taken,
)
from tests.server.test_store import create_table, postgres_cluster  # noqa: F401 (fixture)

MORRIS = get_game("morris")


async def _cut(appender: Appender, url: str) -> None:
    """End the appender's connection from the database's side (a restart, an operator)."""
    assert appender._connection is not None
    pid = appender._connection.info.backend_pid
    async with await psycopg.AsyncConnection.connect(libpq_url(url), autocommit=True) as admin:
        await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_one_statement_stores_each_tables_action_and_refuses_only_the_conflict(
    pg_url: str,  # noqa: F811
) -> None:
    store = Store(pg_url)
    three_tables_one_taken(store)

    async def run() -> set[str]:
        appender = Appender(pg_url)
        try:
            return await appender.append(CONFLICTING_COMMIT)
        finally:
            await appender.close()

    try:
        assert asyncio.run(run()) == {"t1"}
        assert_all_but_the_conflict_stored(store)
    finally:
        store.close()


@pytest.mark.parametrize("idle", [False, True], ids=["in use", "idle"])
def test_a_cut_connection_costs_one_commit_in_use_and_none_when_idle(
    pg_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    idle: bool,
) -> None:
    """A connection cut while in use fails the commit that finds it cut (nothing of it
    stored; sent again, it goes in on a new connection); one cut while idle is found by the
    check before use, and the commit goes in."""
    if idle:
        monkeypatch.setattr(appender_module, "IDLE_CHECK_SECONDS", 0.0)
    store = Store(pg_url)
    create_table(store, "t1")
    second = AppendRow("t1", 2, 1, "C2", 2, None)

    async def run() -> None:
        appender = Appender(pg_url)
        try:
            assert await appender.append([AppendRow("t1", 1, 0, "C1", 1, None)]) == set()
            await _cut(appender, pg_url)
            if not idle:
                with pytest.raises(psycopg.OperationalError):
                    await appender.append([second])
                stored = store.load("t1")
                assert stored is not None
                assert (stored.actions, stored.version) == (((0, "C1"),), 1)
            assert await appender.append([second]) == set()
        finally:
            await appender.close()

    try:
        asyncio.run(run())
        stored = store.load("t1")
        assert stored is not None
        assert (stored.actions, stored.version) == (((0, "C1"), (1, "C2")), 2)
    finally:
        store.close()


def test_a_hub_stores_its_moves_from_the_event_loop_and_a_games_end_in_its_thread(
    pg_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Several tables played to their ends at once: every move that ends no game goes to the
    appender (several tables' moves in one commit), every end to the store's thread, and the
    store holds each table's moves exactly as played."""
    quick: list[list[AppendRow]] = []
    threaded: list[list[AppendRow]] = []

    async def run() -> dict[str, list[tuple[int, str]]]:
        appender = Appender(pg_url)
        hub = Hub(Store(pg_url), appender=appender)
        append, write = appender.append, hub.commits._write

        async def seen_quick(rows: Any) -> set[str]:
            quick.append(list(rows))
            return await append(rows)

        def seen_threaded(rows: list[AppendRow], names: str) -> Any:
            threaded.append(list(rows))
            return write(rows, names)

        monkeypatch.setattr(appender, "append", seen_quick)
        monkeypatch.setattr(hub.commits, "_write", seen_threaded)
        try:
            created = [
                await hub.create(MORRIS, MORRIS.default_config(), ["hotseat", "hotseat"], seed=n)
                for n in range(6)
            ]

            async def play(table_id: str, token: str, seed: int) -> None:
                rng = random.Random(seed)
                live = await hub.get(table_id)
                while live.table.outcome is None:
                    text = str(rng.choice(live.table.legal_actions()))
                    await hub.act(table_id, token, live.table.version, text, None)

            await asyncio.gather(
                *(play(c.id, c.token, n) for n, c in enumerate(created)),
            )
            played = {}
            for c in created:
                live = await hub.get(c.id)
                played[c.id] = [(p.seat, p.text) for p in live.table.played]
            return played
        finally:
            await hub.flush()
            await appender.close()
            hub.store.close()

    played = asyncio.run(run())
    assert all(row.outcome is None for rows in quick for row in rows)
    assert any(len(rows) > 1 for rows in quick)  # a group commit of several tables
    ends = [row for rows in threaded for row in rows]
    assert sorted(row.table_id for row in ends) == sorted(played)  # each game's end, only
    assert all(row.outcome is not None for row in ends)
    store = Store(pg_url)
    try:
        for table_id, moves in played.items():
            stored = store.load(table_id)
            assert stored is not None
            assert stored.outcome is not None
            assert list(stored.actions) == moves
    finally:
        store.close()
