"""Idle tables leave the server's memory and come back from the store, nothing lost."""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from limits import RateLimitItemPerMinute
from limits.strategies import MovingWindowRateLimiter

from fanfold.core.registry import get_game
from fanfold.server.app import NO_AUTOMATIC_FULL_COLLECTION, create_app
from fanfold.server.hub import Hub, Watcher
from fanfold.server.runtime import memory, sweeper
from fanfold.server.store import Store
from fanfold.server.throttle import QuietMemoryStorage
from tests.server.support import JSON, act, look, open_table, sqlite_url

MORRIS = get_game("morris")


async def _nothing(message: JSON) -> None:
    del message


def test_an_idle_table_leaves_memory_and_comes_back_as_it_was(tmp_path: Path) -> None:
    async def run() -> None:
        hub = Hub(Store(sqlite_url(tmp_path)), bot_seconds=None, keep_seconds=60)
        created = await hub.create(MORRIS, MORRIS.default_config(), ["you", "random"], seed=3)
        live = await hub.get(created.id)
        await hub.act(created.id, created.token, None, live.table.legal_texts()[0], None)
        await hub.idle(created.id)
        version, state = live.table.version, live.table.state
        assert hub.evict_idle(now=time.monotonic() + 30) == 0  # asked for too recently
        assert hub.evict_idle(now=time.monotonic() + 61) == 1
        assert created.id not in hub.live
        assert live.evicted
        back = await hub.get(created.id)
        assert back is not live
        assert (back.table.version, back.table.state) == (version, state)
        # The player acts on; the table in memory now takes the action.
        await hub.act(created.id, created.token, version, back.table.legal_texts()[0], None)
        await hub.idle(created.id)
        assert back.table.version > version
        assert live.table.version == version  # the object let go is never written to again
        hub.executor.shutdown()
        hub.store.close()

    asyncio.run(run())


def test_a_finished_game_leaves_memory_sooner_than_one_in_play(tmp_path: Path) -> None:
    async def run() -> None:
        hub = Hub(
            Store(sqlite_url(tmp_path)),
            bot_seconds=None,
            keep_seconds=600,
            keep_finished_seconds=30,
        )
        done = await hub.create(MORRIS, MORRIS.default_config(), ["random", "random"], seed=5)
        await hub.idle(done.id)
        playing = await hub.create(MORRIS, MORRIS.default_config(), ["you", "random"], seed=3)
        await hub.idle(playing.id)
        finished = hub.live[done.id]
        assert finished.table.outcome is not None
        assert hub.live[playing.id].table.outcome is None
        assert hub.evict_idle(now=time.monotonic() + 20) == 0
        assert hub.evict_idle(now=time.monotonic() + 31) == 1
        assert done.id not in hub.live
        assert playing.id in hub.live
        back = await hub.get(done.id)  # a replay or a late look: rebuilt, the same game
        assert back.table.outcome == finished.table.outcome
        assert back.table.version == finished.table.version
        assert hub.evict_idle(now=time.monotonic() + 601) == 2
        hub.executor.shutdown()
        hub.store.close()

    asyncio.run(run())


def test_the_sweeper_s_eviction_lets_the_event_loop_turn_between_tables(tmp_path: Path) -> None:
    """Freeing a table holds the event loop: the sweeper's eviction lets one table go a turn,
    so another coroutine runs between any two, and a table asked for again before its turn
    stays."""

    async def run() -> None:
        hub = Hub(
            Store(sqlite_url(tmp_path)), bot_seconds=None, keep_seconds=60, keep_finished_seconds=60
        )
        ids = []
        for seed in range(5):
            config = MORRIS.default_config()
            created = await hub.create(MORRIS, config, ["you", "random"], seed=seed)
            await hub.idle(created.id)
            ids.append(created.id)
        later = time.monotonic() + 61
        turns: list[int] = []  # the tables in memory at each turn of the other coroutine

        async def other() -> None:
            for _ in range(20):
                turns.append(len(hub.live))
                if len(hub.live) == 3:
                    hub.live[ids[4]].touched = later  # asked for again: it stays
                await asyncio.sleep(0)

        watching = asyncio.create_task(other())
        gone = await hub.evict_idle_in_turns(now=later)
        await watching
        assert gone == 4
        assert list(hub.live) == [ids[4]]
        assert turns[:4] == [4, 3, 2, 1]  # one table a turn (the first before it ran)
        hub.executor.shutdown()
        hub.store.close()

    asyncio.run(run())


def test_a_watched_or_busy_table_stays_in_memory(tmp_path: Path) -> None:
    async def run() -> None:
        hub = Hub(Store(sqlite_url(tmp_path)), bot_seconds=None, keep_seconds=0)
        watched = await hub.create(MORRIS, MORRIS.default_config(), ["you", "random"], seed=3)
        live = await hub.watch(await hub.get(watched.id), Watcher(0, frozenset({0}), _nothing))
        bots = await hub.create(MORRIS, MORRIS.default_config(), ["random", "random"], seed=4)
        busy = await hub.get(bots.id)
        assert busy.bots is not None
        assert not busy.bots.done()  # the bots play on
        assert hub.evict_idle() == 0
        live.watchers.clear()  # the watcher went away
        assert hub.evict_idle() == 1
        assert watched.id not in hub.live
        assert bots.id in hub.live
        busy.bots.cancel()
        hub.executor.shutdown()
        hub.store.close()

    asyncio.run(run())


def test_an_action_waiting_on_a_table_let_go_lands_on_the_table_in_memory(tmp_path: Path) -> None:
    async def run() -> None:
        hub = Hub(Store(sqlite_url(tmp_path)), bot_seconds=None, keep_seconds=0)
        created = await hub.create(MORRIS, MORRIS.default_config(), ["you", "you"], seed=3)
        first = await hub.get(created.id)
        move = first.table.legal_texts()[0]
        async with first.lock:  # someone else acts: the action below waits for the lock
            waiting = asyncio.create_task(hub.act(created.id, created.token, None, move, None))
            await asyncio.sleep(0.05)
            # Let the table go while the action waits (as if the lock had been free a moment).
            hub.live.pop(created.id).evicted = True
        played = await waiting
        now = hub.live[created.id]
        assert now is not first
        assert played.text == move
        assert [p.text for p in now.table.played] == [move]
        assert first.table.played == []
        watcher = Watcher(None, frozenset(), _nothing)
        assert await hub.watch(first, watcher) is now  # a late hello joins the table in memory
        assert watcher in now.watchers
        hub.executor.shutdown()
        hub.store.close()

    asyncio.run(run())


def test_the_server_lets_idle_tables_go_and_serves_them_again(tmp_path: Path) -> None:
    app = create_app(sqlite_url(tmp_path), bot_seconds=None, keep_seconds=0.5)
    with TestClient(app) as client:
        created = open_table(client, game="morris", seats=["you", "you"], seed=2)
        table, token = created["table"], created["token"]
        before = look(client, table, token)
        move = before["legal"][0]
        assert act(client, table, token, move).status_code == 200
        hub: Hub = app.state.hub
        deadline = time.monotonic() + 10
        while table in hub.live and time.monotonic() < deadline:
            time.sleep(0.2)
        assert table not in hub.live
        after = look(client, table, token)
        assert after["version"] == before["version"] + 1
        assert act(client, table, token, after["legal"][0]).status_code == 200
        assert look(client, table, token)["version"] == before["version"] + 2


def test_bots_stop_a_game_that_goes_round_in_circles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fan patience with any card allowed into an empty fan can go on for ever: the bots stop
    after the play layer's limit of actions, so such a table stops storing moves."""
    from fanfold.server.hub import basics, turns

    monkeypatch.setattr(basics, "ENDLESS", 8)
    monkeypatch.setattr(turns, "ENDLESS", 8)

    async def run() -> None:
        hub = Hub(Store(sqlite_url(tmp_path)), bot_seconds=None)
        fano = get_game("fano")
        created = await hub.create(fano, fano.default_config(), ["random", "random"], seed=5)
        await hub.idle(created.id)
        live = hub.live[created.id]
        assert len(live.table.played) == 8
        assert not live.table.is_over
        stored = hub.store.load(created.id)
        assert stored is not None
        assert len(stored.actions) == 8
        hub.executor.shutdown()
        hub.store.close()

    asyncio.run(run())


def test_the_server_runs_full_collections_itself_and_leaves_python_as_it_was(
    tmp_path: Path,
) -> None:
    before = gc.get_threshold()
    with TestClient(create_app(sqlite_url(tmp_path), bot_seconds=None)) as client:
        assert client.get("/api/games").status_code == 200
        # Young objects are collected as before; full collections only by the sweeper.
        assert gc.get_threshold()[:2] == before[:2]
        assert gc.get_threshold()[2] == NO_AUTOMATIC_FULL_COLLECTION
        assert gc.get_freeze_count() > 0  # what start-up loaded is set aside
    assert gc.get_threshold() == before


def _cycles(count: int) -> None:
    for _ in range(count):
        node: list[object] = []
        node.append(node)  # unreachable once this returns: only a full collection frees it


def test_giving_memory_back_collects_and_trims_the_heap() -> None:
    gc.disable()  # no young collection frees them first
    try:
        _cycles(1000)
        found, trimmed = memory.give_back()
    finally:
        gc.enable()
    assert found >= 1000
    assert trimmed is True  # glibc's malloc_trim (Debian); elsewhere the collection alone


def _give_backs(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """When the sweeper gives the memory back from now on (``memory.give_back``)."""
    calls: list[float] = []
    give_back = memory.give_back

    def counted() -> tuple[int, bool]:
        calls.append(time.monotonic())
        return give_back()

    monkeypatch.setattr(sweeper, "give_back", counted)
    return calls


@pytest.mark.parametrize(("opened", "given_back"), [(4, True), (2, False)])
def test_the_sweeper_gives_memory_back_once_half_the_tables_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opened: int, given_back: bool
) -> None:
    """The full collection runs as soon as the tables in memory fall to half their peak and
    at least GIVE_BACK_TABLES left (here 3), not at the sweeper's ten minutes."""
    calls = _give_backs(monkeypatch)
    monkeypatch.setattr(sweeper, "GIVE_BACK_TABLES", 3)
    app = create_app(sqlite_url(tmp_path), bot_seconds=None, keep_seconds=1.0)
    with TestClient(app) as client:
        hub: Hub = app.state.hub
        for seed in range(opened):
            open_table(client, game="morris", seats=["you", "you"], seed=seed)
        assert len(hub.live) == opened
        deadline = time.monotonic() + 15
        while hub.live and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not hub.live
        time.sleep(1.5)  # a sweep after the one that let them go
    assert bool(calls) is given_back


@pytest.mark.parametrize(
    ("clients", "tables", "given_back"), [(4, 0, True), (2, 0, False), (4, 2, False)]
)
def test_the_sweeper_forgets_passed_rate_windows_and_gives_memory_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clients: int, tables: int, given_back: bool
) -> None:
    """The clients' rate-limit counters go once their minute passed, without a request to
    sweep them, and the memory goes back once half of them went and at least
    GIVE_BACK_COUNTERS (here 3) did, if the tables left too (at most GIVE_BACK_TABLES, here
    1, in memory): never a full collection among tables in play."""
    calls = _give_backs(monkeypatch)
    monkeypatch.setattr(sweeper, "GIVE_BACK_COUNTERS", 3)
    monkeypatch.setattr(sweeper, "GIVE_BACK_TABLES", 1)
    # A sweep a second; an unfinished table stays.
    app = create_app(
        sqlite_url(tmp_path), bot_seconds=None, keep_seconds=600.0, keep_finished_seconds=2.0
    )
    with TestClient(app) as client:
        for seed in range(tables):
            open_table(client, game="morris", seats=["you", "you"], seed=seed)
        counters: QuietMemoryStorage = app.state.rate_counters
        opener = counters.clients  # the test's own, for the tables it opened
        limiter = MovingWindowRateLimiter(counters)
        for number in range(clients):
            assert limiter.hit(RateLimitItemPerMinute(5), "requests", f"192.0.2.{number}")
        metrics = client.get("/metrics").text  # a scrape is not counted
        assert f"fanfold_rate_counters {float(opener + clients)}" in metrics
        time.sleep(1.5)  # a sweep sees them all, in their minute
        assert counters.clients == opener + clients
        for entries in list(counters.events.values()):  # their minute has passed
            for entry in entries:
                entry.expiry = time.time() - 1
        deadline = time.monotonic() + 10
        while counters.clients and time.monotonic() < deadline:
            time.sleep(0.1)
        assert counters.clients == 0
        assert "fanfold_rate_counters 0.0" in client.get("/metrics").text
        time.sleep(0.3)
        assert len(app.state.hub.live) == tables
    assert bool(calls) is given_back
