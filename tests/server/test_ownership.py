"""Several server processes on one PostgreSQL store: each table owned by one process at a time
(:mod:`fanfold.server.ownership`). Two owners racing for one table, a table handed over on
request, a process that lost its lock without noticing refused by the store, and a killed
``fanfold serve`` process whose table another process takes from the store with nothing lost
or applied twice."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import sqlalchemy as sa

from fanfold.core.registry import get_game
from fanfold.server.hub import Hub
from fanfold.server.ownership import (
    ElsewhereError,
    Ownership,
    check_server_name,
    libpq_url,
    lock_key,
    opened_by,
    table_id_for,
)
from fanfold.server.settings import Settings
from fanfold.server.store import AppendRow, Store
from tests.server.support import stored_actions as _stored_actions
from tests.server.test_restart import server, state
from tests.server.test_store import _postgres_url as postgres_url
from tests.server.test_store import (  # noqa: F401 (fixtures)
    create_table,
    postgres_cluster,
    store,
    store_url,
)

MORRIS = get_game("morris")


@pytest.fixture
def pg_url(postgres_cluster: str) -> str:  # noqa: F811
    """A new, empty database in the throw-away cluster."""
    import uuid

    name = f"o_{uuid.uuid4().hex[:16]}"
    engine = sa.create_engine(
        postgres_url(postgres_cluster, "postgres"), isolation_level="AUTOCOMMIT"
    )
    with engine.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {name}"))
    engine.dispose()
    url = postgres_url(postgres_cluster, name)
    Store(url).close()  # the schema
    return url


async def _play_first(hub: Hub, table_id: str, token: str) -> str:
    live = await hub.get(table_id)
    text = str(live.table.legal_actions()[0])
    await hub.act(table_id, token, live.table.version, text, None)
    return text


# ------------------------------------------------------------------ the locks


def test_lock_keys_are_stable_and_distinct() -> None:
    assert lock_key("abc") == lock_key("abc")
    assert lock_key("abc") != lock_key("abd")
    assert -(2**63) <= lock_key("abc") < 2**63
    assert libpq_url("postgresql+psycopg://u@/d?host=/tmp/x&port=5432").startswith("postgresql://")


# ------------------------------------------------- the process that opened a table


def test_a_table_id_ends_with_the_server_name_of_the_process_that_opened_it() -> None:
    named = table_id_for("s2")
    own, name = named.split(".")
    assert name == "s2"
    assert len(own) == 12
    assert "." not in own
    assert opened_by(named) == "s2"
    assert opened_by(table_id_for(None)) is None  # a lone process's ids name no process
    assert "." not in table_id_for(None)
    assert opened_by("abc.s/1") is None  # not a server name: the router hashes the id
    assert table_id_for("s2") != table_id_for("s2")
    assert len(table_id_for("x" * 20)) <= 40  # the store's id column


def test_a_server_name_must_fit_an_id_and_the_router() -> None:
    assert check_server_name("web-3_a") == "web-3_a"
    for wrong in ("", "s.1", "s/1", "x" * 21, "s 1"):
        with pytest.raises(ValueError, match="must be 1 to 20 letters"):
            check_server_name(wrong)
    with pytest.raises(ValueError, match="server_name"):
        Settings(store_url="sqlite://", server_name="s.1")


def test_a_hub_with_a_server_name_opens_tables_named_for_it(tmp_path: Path) -> None:
    async def run() -> None:
        named = Hub(Store(f"sqlite:///{tmp_path / 'a.db'}"), server_name="s3")
        plain = Hub(Store(f"sqlite:///{tmp_path / 'b.db'}"))
        try:
            config = MORRIS.preset("complete").config
            created = await named.create(MORRIS, config, ["you", "you"])
            assert opened_by(created.id) == "s3"
            assert named.store.load(created.id) is not None  # stored under that id
            other = await plain.create(MORRIS, config, ["you", "you"])
            assert opened_by(other.id) is None
        finally:
            for hub in (named, plain):
                hub.store.close()

    asyncio.run(run())


def test_two_owners_race_for_one_table_and_one_wins(pg_url: str) -> None:
    async def race() -> None:
        first, second = Ownership(pg_url, name="first"), Ownership(pg_url, name="second")
        await first.start()
        await second.start()
        try:
            for round_ in range(5):
                table = f"race-{round_}"
                won = await asyncio.gather(first.take(table, wait=0), second.take(table, wait=0))
                assert sorted(won) == [False, True]  # exactly one owner
                winner, loser = (first, second) if won[0] else (second, first)
                assert table in winner.held
                assert table not in loser.held
                assert await winner.take(table, wait=0)  # taking again: held already
                assert not await loser.take(table, wait=0)
                await winner.release(table)
                assert await loser.take(table, wait=0)  # let go: the other may take it
        finally:
            await first.close()
            await second.close()

    asyncio.run(race())


def _statements_of(owner: Ownership, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements ``owner`` sends on its lock connection from now on (until undone)."""
    statements: list[str] = []
    connection = owner._connection()
    execute = connection.execute

    async def counted(query: Any, params: Any = None) -> Any:
        statements.append(str(query))
        return await execute(query, params)

    monkeypatch.setattr(connection, "execute", counted)
    return statements


def test_many_tables_taken_at_once_are_tried_together(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stand-in asked for a killed process's tables all at once tries their locks
    together (one statement for those asked meanwhile), each answered for itself; a take
    whose asker left before its answer lets the lock go again."""

    async def run() -> None:
        first, second = Ownership(pg_url, name="first"), Ownership(pg_url, name="second")
        await first.start()
        await second.start()
        try:
            tables = [f"crowd-{n}" for n in range(40)]
            assert all(await asyncio.gather(*(first.take(t, wait=0) for t in tables[:20])))
            statements = _statements_of(second, monkeypatch)
            took = await asyncio.gather(*(second.take(t, wait=0) for t in tables))
            assert took == [False] * 20 + [True] * 20  # held by the first, then free ones
            assert second.held == set(tables[20:])
            assert len([s for s in statements if "pg_try_advisory_lock" in s]) == 1
            monkeypatch.undo()

            # An asker that leaves before its answer: the lock is let go, not kept unused.
            asker = asyncio.get_running_loop().create_task(second.take("left", wait=0))
            await asyncio.sleep(0)  # it asked
            asker.cancel()
            with pytest.raises(asyncio.CancelledError):
                await asker
            assert second._trying is not None
            await second._trying
            assert "left" not in second.held
            assert await first.take("left", wait=0)
        finally:
            await first.close()
            await second.close()

    asyncio.run(run())


def test_a_dead_connection_loses_its_locks(pg_url: str) -> None:
    async def run() -> None:
        first, second = Ownership(pg_url, name="first"), Ownership(pg_url, name="second")
        await first.start()
        await second.start()
        try:
            assert await first.take("t", wait=0)
            assert not await second.take("t", wait=0)
            # The first process's connection ends (as when the process is killed).
            async with await psycopg.AsyncConnection.connect(
                libpq_url(pg_url), autocommit=True
            ) as admin:
                assert first._locks is not None
                await admin.execute(
                    "SELECT pg_terminate_backend(%s)", (first._locks.info.backend_pid,)
                )
            for _ in range(100):
                if await second.take("t", wait=0):
                    break
                await asyncio.sleep(0.05)
            assert "t" in second.held
            await asyncio.sleep(1.5)  # the first notices within its check
            assert "t" not in first.held
        finally:
            await first.close()
            await second.close()

    asyncio.run(run())


# ------------------------------------------------------------ the group commit


def test_one_tables_conflict_refuses_none_of_the_others(store: Store) -> None:  # noqa: F811
    create_table(store, "t1")
    create_table(store, "t2")
    store.append("t1", 1, 0, "C1", 1, None)  # stored by another process
    refused = store.append_many(
        [
            AppendRow("t1", 1, 0, "C5", 1, None),
            AppendRow("t2", 1, 0, "C1", 1, None),
            AppendRow("t1", 2, 1, "T2", 2, None),
        ]
    )
    assert refused == {"t1"}
    one, two = store.load("t1"), store.load("t2")
    assert one is not None
    assert two is not None
    assert (one.actions, one.version) == (((0, "C1"),), 1)  # neither of its rows stayed
    assert (two.actions, two.version) == (((0, "C1"),), 1)


#: A group commit of three tables whose first has its action 1 stored already (by another
#: process, :func:`three_tables_one_taken`).
CONFLICTING_COMMIT = (
    AppendRow("t1", 1, 0, "C5", 1, None),
    AppendRow("t2", 1, 0, "C1", 1, None, options={"resume": True}),
    AppendRow("t3", 1, 0, "C2", 1, None),
)


def three_tables_one_taken(store: Store) -> None:  # noqa: F811
    """Three tables, the first with action 1 stored (as another process stored it)."""
    for table_id in ("t1", "t2", "t3"):
        create_table(store, table_id)
    store.append("t1", 1, 0, "C1", 1, None)


def assert_all_but_the_conflict_stored(store: Store) -> None:  # noqa: F811
    """After :data:`CONFLICTING_COMMIT`: the others' actions, versions and options stored,
    nothing of the first table's."""
    one, two, three = store.load("t1"), store.load("t2"), store.load("t3")
    assert one is not None
    assert two is not None
    assert three is not None
    assert (one.actions, one.version) == (((0, "C1"),), 1)  # as the other process stored it
    assert (two.actions, two.version, two.options) == (((0, "C1"),), 1, {"resume": True})
    assert (three.actions, three.version) == (((0, "C2"),), 1)
    assert three.options == one.options  # kept where the row carries none


def test_a_group_commit_of_one_action_a_table_is_one_statement_refusing_only_the_conflict(
    store: Store,  # noqa: F811
) -> None:
    """The hub's group commits hold one action a table: on PostgreSQL they are stored by one
    statement (one round trip), which stores the others' actions and versions and nothing of
    the table whose action number is stored already."""
    three_tables_one_taken(store)
    statements: list[str] = []

    def seen(*args: Any) -> None:
        statements.append(args[2])

    sa.event.listen(store.engine, "before_cursor_execute", seen)
    try:
        refused = store.append_many(list(CONFLICTING_COMMIT))
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", seen)
    assert refused == {"t1"}
    if store.engine.dialect.name == "postgresql":
        assert len(statements) == 1
    assert_all_but_the_conflict_stored(store)


# ------------------------------------------------------------------ two hubs


def _hub(url: str, name: str) -> tuple[Hub, Ownership]:
    owner = Ownership(url, name=name)
    return Hub(Store(url), owner=owner), owner


@contextlib.asynccontextmanager
async def _two_hubs(url: str) -> AsyncIterator[tuple[Hub, Ownership, Hub, Ownership]]:
    """Two processes' hubs on one store, their owners started; closed again on the way out."""
    (first, first_owner), (second, second_owner) = _hub(url, "a"), _hub(url, "b")
    await first_owner.start()
    await second_owner.start()
    try:
        yield first, first_owner, second, second_owner
    finally:
        for hub, owner in ((first, first_owner), (second, second_owner)):
            await owner.close()
            hub.store.close()


def test_a_table_is_handed_over_to_the_process_that_asks(pg_url: str) -> None:
    async def run() -> None:
        async with _two_hubs(pg_url) as (first, first_owner, second, second_owner):
            created = await first.create(MORRIS, MORRIS.preset("complete").config, ["you", "you"])
            table = created.id
            played = [await _play_first(first, table, created.token) for _ in range(3)]
            assert table in first_owner.held
            # The second process is asked for the table: the first hands it over.
            live = await second.get(table)
            assert live.table.version == 3
            assert table in second_owner.held
            assert table not in first_owner.held
            assert table not in first.live
            played.append(await _play_first(second, table, created.token))
            # The first process, asked again, takes it back the same way.
            played.append(await _play_first(first, table, created.token))
            assert table not in second.live
            stored = _stored_actions(pg_url, table)
            assert [number for number, _, _ in stored] == [1, 2, 3, 4, 5]
            assert [text for _, _, text in stored] == played

    asyncio.run(run())


def test_tables_leaving_memory_together_are_let_go_in_one_statement(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crowd's idle tables leave memory in one sweep: their locks go in one statement,
    and another process may then take every one of them."""

    async def run() -> None:
        async with _two_hubs(pg_url) as (first, first_owner, second, second_owner):
            tables = [
                (await first.create(MORRIS, MORRIS.preset("complete").config, ["you", "you"])).id
                for _ in range(5)
            ]
            assert first_owner.held == set(tables)
            statements = _statements_of(first_owner, monkeypatch)
            assert first.evict_idle(now=time.monotonic() + 10 * first.keep_seconds) == 5
            for _ in range(100):
                if statements:
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)
            assert len(statements) == 1
            assert "pg_advisory_unlock" in statements[0]
            assert first_owner.held == set()
            assert all(await asyncio.gather(*(second_owner.take(t, wait=0) for t in tables)))
            live = await second.get(tables[0])  # and play them there
            assert live.table.version == 0

    asyncio.run(run())


def test_a_table_let_go_while_it_is_read_is_not_rebuilt(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def run() -> None:
        async with _two_hubs(pg_url) as (first, _first_owner, second, second_owner):
            created = await first.create(MORRIS, MORRIS.preset("complete").config, ["you", "you"])
            table = created.id
            await _play_first(first, table, created.token)
            first.let_go(first.live[table])
            await asyncio.sleep(0.1)  # its lock goes
            loop = asyncio.get_running_loop()
            load_many = second.store.load_many

            def handed_over_meanwhile(table_ids: list[str]) -> dict[str, Any]:
                found = load_many(table_ids)
                # While the read is in flight the table is let go (another process asked).
                asyncio.run_coroutine_threadsafe(second_owner.release(table), loop).result()
                return found

            monkeypatch.setattr(second.store, "load_many", handed_over_meanwhile)
            with pytest.raises(ElsewhereError, match="another server process"):
                await second.get(table)
            assert table not in second.live
            assert table not in second_owner.held
            monkeypatch.setattr(second.store, "load_many", load_many)
            assert (await second.get(table)).table.version == 1  # asked again: taken

    asyncio.run(run())


def test_an_owner_that_lost_its_lock_unnoticed_is_refused_by_the_store(pg_url: str) -> None:
    async def run() -> None:
        async with _two_hubs(pg_url) as (first, first_owner, second, _second_owner):
            created = await first.create(MORRIS, MORRIS.preset("complete").config, ["you", "you"])
            table = created.id
            await _play_first(first, table, created.token)
            stale = first.live[table]
            # The first process's lock is gone, and it has not noticed yet.
            await first_owner.release(table)
            first_owner.held.add(table)
            first.live[table] = stale
            await _play_first(second, table, created.token)  # the second takes it and plays
            with pytest.raises(ElsewhereError):
                await first.act(table, created.token, 1, str(stale.table.legal_actions()[0]), None)
            assert table not in first.live  # let go: asked again, it is loaded afresh
            assert stale.table.version == 1  # the refused action was taken back
            assert [n for n, _, _ in _stored_actions(pg_url, table)] == [1, 2]

    asyncio.run(run())


# ---------------------------------------------------------- a killed process


def test_a_killed_owners_table_is_taken_from_the_store(pg_url: str, tmp_path: Path) -> None:
    with server(pg_url, tmp_path / "first.log", 0.0) as (process, address):
        with httpx.Client(base_url=address, timeout=10) as client:
            answer = client.post("/api/tables", json={"game": "morris", "seats": ["you", "you"]})
            assert answer.status_code == 200, answer.text
            table, token = answer.json()["table"], answer.json()["token"]
            acknowledged = []
            for _ in range(4):
                message = state(client, table, token)
                body = {
                    "token": token,
                    "version": message["version"],
                    "action": message["legal"][0],
                }
                reply = client.post(f"/api/tables/{table}/act", json=body)
                assert reply.status_code == 200, reply.text
                acknowledged.append(message["legal"][0])
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    with (
        server(pg_url, tmp_path / "second.log", 0.0) as (_, address),
        httpx.Client(base_url=address, timeout=10) as client,
    ):
        message = state(client, table, token)  # taken at once: the lock died with it
        assert message["version"] == 4
        body = {"token": token, "version": 4, "action": message["legal"][0]}
        reply = client.post(f"/api/tables/{table}/act", json=body)
        assert reply.status_code == 200, reply.text
        acknowledged.append(message["legal"][0])
    stored = _stored_actions(pg_url, table)
    assert [n for n, _, _ in stored] == [1, 2, 3, 4, 5]  # nothing lost, nothing twice
    assert [text for _, _, text in stored] == acknowledged
