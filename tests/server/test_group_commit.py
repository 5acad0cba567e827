"""The hub's group commit (:meth:`fanfold.server.hub.Hub._commit`), on SQLite and on a real
PostgreSQL: the store's writes run in a thread of their own, so the event loop goes on while a
commit is in flight; an action is acknowledged only once committed; the rows of other tables
that arrive meanwhile are committed together by the next write; a failed shared commit refuses
each of its actions and advances none of their tables; a player stopped while its action is
written keeps the table as the store has it."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from fanfold.core.registry import get_game
from fanfold.server.hub import Hub, StorageError, Watcher
from fanfold.server.store import Store
from tests.server.support import JSON
from tests.server.test_store import (  # noqa: F401 (fixtures)
    postgres_cluster,
    store_url,
)

MORRIS = get_game("morris")
#: Generous: the machine running the tests may be busy.
WAIT = 30.0


class GatedStore(Store):
    """A store whose writes of actions wait at a gate the test opens, and fail while
    ``fail`` is set; it keeps the tables of each write."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()
        self.fail = False
        self.writes: list[list[str]] = []
        #: Tables' creations wait at a gate of their own; each names its table and thread.
        self.create_gate = threading.Event()
        self.create_gate.set()
        self.creating = threading.Event()
        self.created: list[tuple[str, str]] = []

    def append_many(self, rows: Any, *args: Any, **kwargs: Any) -> set[str]:
        self.entered.set()
        if not self.gate.wait(WAIT):
            raise RuntimeError("the test never opened the gate")
        self.writes.append([row.table_id for row in rows])
        if self.fail:
            raise RuntimeError("the disk is full")
        result: set[str] = super().append_many(rows, *args, **kwargs)
        return result

    def create(self, table_id: str, *args: Any, **kwargs: Any) -> None:
        self.creating.set()
        if not self.create_gate.wait(WAIT):
            raise RuntimeError("the test never opened the gate")
        self.created.append((table_id, threading.current_thread().name))
        super().create(table_id, *args, **kwargs)


async def _entered(store: GatedStore) -> None:
    """Wait (off the loop) until a write is at the gate."""
    assert await asyncio.to_thread(store.entered.wait, WAIT), "no write reached the store"


async def _table(hub: Hub, seed: int) -> tuple[str, str]:
    created = await hub.create(MORRIS, MORRIS.default_config(), ["you", "hotseat"], seed=seed)
    return created.id, created.token


async def _first(hub: Hub, table_id: str, token: str) -> asyncio.Task[Any]:
    text = hub.live[table_id].table.legal_texts()[0]
    return asyncio.create_task(hub.act(table_id, token, 0, text, None))


def _run(url: str, scenario: Any) -> None:
    async def main() -> None:
        store = GatedStore(url)
        hub = Hub(store, bot_seconds=None)
        try:
            await scenario(store, hub)
        finally:
            store.gate.set()
            hub.executor.shutdown()
            await asyncio.to_thread(hub.writer.shutdown)
            store.close()

    asyncio.run(main())


def test_the_loop_goes_on_while_a_commit_is_in_flight(store_url: str) -> None:  # noqa: F811
    async def scenario(store: GatedStore, hub: Hub) -> None:
        one, two, three = [await _table(hub, seed) for seed in (1, 2, 3)]
        store.gate.clear()
        first = await _first(hub, *one)
        await _entered(store)
        # The write waits at the gate, in the store's thread: the loop runs, and other
        # tables' actions are taken and queue behind it.
        later = [await _first(hub, *two), await _first(hub, *three)]
        await asyncio.sleep(0.05)
        assert not first.done()  # not acknowledged before its commit
        assert not any(task.done() for task in later)
        assert hub.live[one[0]].table.version == 1
        stored = store.load(one[0])
        assert stored is not None
        assert stored.version == 0
        store.gate.set()
        acted = await asyncio.wait_for(asyncio.gather(first, *later), WAIT)
        assert [a.version for a in acted] == [1, 1, 1]
        # The two that queued were committed together, after the first.
        assert store.writes == [[one[0]], [two[0], three[0]]]
        for table_id, _ in (one, two, three):
            stored = store.load(table_id)
            assert stored is not None
            assert (stored.version, len(stored.actions)) == (1, 1)

    _run(store_url, scenario)


def test_a_failed_shared_commit_advances_none_of_its_tables(store_url: str) -> None:  # noqa: F811
    async def scenario(store: GatedStore, hub: Hub) -> None:
        one, two, three = [await _table(hub, seed) for seed in (4, 5, 6)]
        heard: list[JSON] = []

        async def send(message: JSON) -> None:
            heard.append(message)

        await hub.watch(hub.live[two[0]], Watcher(None, frozenset(), send))
        store.gate.clear()
        first = await _first(hub, *one)
        await _entered(store)
        shared = [await _first(hub, *two), await _first(hub, *three)]
        await asyncio.sleep(0.05)
        store.fail = True  # the first write and the shared one fail
        store.gate.set()
        for task in (first, *shared):
            with pytest.raises(StorageError):
                await asyncio.wait_for(task, WAIT)
        assert store.writes == [[one[0]], [two[0], three[0]]]
        for table_id, _ in (one, two, three):
            assert hub.live[table_id].table.version == 0
            stored = store.load(table_id)
            assert stored is not None
            assert (stored.version, stored.actions) == (0, ())
        assert [len(message["log"]) for message in heard] == [0]  # never told
        store.fail = False
        for table_id, token in (one, two, three):  # the same actions are taken again
            assert (await asyncio.wait_for(await _first(hub, table_id, token), WAIT)).version == 1

    _run(store_url, scenario)


@pytest.mark.parametrize("stored", [True, False])
def test_a_player_stopped_while_its_action_is_written_keeps_the_stores_table(
    store_url: str,  # noqa: F811
    stored: bool,
) -> None:
    async def scenario(store: GatedStore, hub: Hub) -> None:
        table_id, token = await _table(hub, 7)
        live = hub.live[table_id]
        store.gate.clear()
        acting = await _first(hub, table_id, token)
        await _entered(store)
        acting.cancel()
        await asyncio.sleep(0.05)
        # The table stays locked while its action is in flight: nothing else acts on it.
        assert live.lock.locked()
        assert not acting.done()
        store.fail = not stored
        store.gate.set()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(acting, WAIT)
        assert not live.lock.locked()
        version = 1 if stored else 0
        assert live.table.version == version
        record = store.load(table_id)
        assert record is not None
        assert record.version == version

    _run(store_url, scenario)


def test_a_table_is_stored_off_the_loop(store_url: str) -> None:  # noqa: F811
    async def scenario(store: GatedStore, hub: Hub) -> None:
        store.create_gate.clear()
        opening = asyncio.create_task(_table(hub, 8))
        assert await asyncio.to_thread(store.creating.wait, WAIT), "no creation reached the store"
        # The table's rows wait at the gate, in the store's thread: the loop runs meanwhile,
        # and the table is not played before it is stored.
        await asyncio.sleep(0.05)
        assert not opening.done()
        assert not hub.live
        store.create_gate.set()
        table_id, token = await asyncio.wait_for(opening, WAIT)
        assert store.created == [(table_id, store.created[0][1])]
        assert store.created[0][1] != threading.current_thread().name  # not the loop's
        assert (await asyncio.wait_for(await _first(hub, table_id, token), WAIT)).version == 1

    _run(store_url, scenario)


def test_an_opening_stopped_while_its_table_is_stored_waits_for_the_write(
    store_url: str,  # noqa: F811
) -> None:
    async def scenario(store: GatedStore, hub: Hub) -> None:
        store.create_gate.clear()
        opening = asyncio.create_task(_table(hub, 9))
        assert await asyncio.to_thread(store.creating.wait, WAIT), "no creation reached the store"
        opening.cancel()
        await asyncio.sleep(0.05)
        assert not opening.done()  # the write is in flight: the request waits for its end
        store.create_gate.set()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(opening, WAIT)
        [(table_id, _)] = store.created
        assert table_id not in hub.live
        # Stored whole: asked for, the table comes from the store and plays.
        live = await hub.get(table_id)
        assert (live.table.version, live.table.played) == (0, [])

    _run(store_url, scenario)
