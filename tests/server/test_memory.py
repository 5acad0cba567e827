"""What the tables that ended held is given back: once they left memory and the sweeper gave
memory back (``memory.give_back``), the bytes the process allocated while it played them
are freed, the games' bounded caches included (measured with ``tracemalloc``: bytes, not
time)."""

from __future__ import annotations

import asyncio
import random
import time
import tracemalloc
from pathlib import Path

from fanfold.core.registry import get_game
from fanfold.server.hub import Hub, Watcher
from fanfold.server.runtime import memory
from fanfold.server.store import Store
from tests.server.support import JSON, sqlite_url

#: The games played, each a person against ``random`` bots.
GAMES = [("fano", ["you", "random"]), ("morris", ["you", "random"]), ("fantan", ["you"])]


async def _heard(message: JSON) -> None:
    del message


async def _play(hub: Hub, tables: int, seed: int) -> None:
    """Play ``tables`` tables to their end (each watched by its player's connection)."""
    rng = random.Random(seed)
    for number in range(tables):
        name, seats = GAMES[number % len(GAMES)]
        game = get_game(name)
        config = game.default_config()
        players = [*seats, *["random"] * (game.num_players(config) - len(seats))]
        created = await hub.create(game, config, players, seed=seed * 1000 + number)
        live = await hub.get(created.id)
        watcher = Watcher(0, frozenset({0}), _heard, created.token)
        await hub.watch(live, watcher)
        while True:
            await hub.idle(created.id)
            table = live.table
            if table.outcome is not None or len(table.played) > 400:
                break
            text = rng.choice(table.legal_texts())
            await hub.act(created.id, created.token, None, text, None)
        hub.unwatch(live, watcher)


def _leave_and_give_back(hub: Hub) -> None:
    """Every table leaves memory (as the sweeper lets them go), then memory is given back."""
    hub.evict_idle(now=time.monotonic() + 3600)
    assert not hub.live
    memory.give_back()


def test_the_tables_that_ended_leave_nothing_of_what_they_held(tmp_path: Path) -> None:
    async def run() -> tuple[int, int, int]:
        hub = Hub(Store(sqlite_url(tmp_path)), bot_seconds=None)
        try:
            # A first table of each game loads for good what every later one uses (its
            # modules, the store's statements): that is the idle process.
            await _play(hub, len(GAMES), seed=1)
            _leave_and_give_back(hub)
            tracemalloc.start()
            try:
                before = tracemalloc.get_traced_memory()[0]
                await _play(hub, 4 * len(GAMES), seed=2)
                playing = tracemalloc.get_traced_memory()[0]
                assert any(cache.cache_info().currsize for cache in memory.bounded_caches())
                _leave_and_give_back(hub)
                after = tracemalloc.get_traced_memory()[0]
            finally:
                tracemalloc.stop()
            return before, playing, after
        finally:
            hub.executor.shutdown()
            hub.writer.shutdown()
            hub.store.close()

    before, playing, after = asyncio.run(run())
    held = playing - before
    kept = after - before
    assert held > 200_000, held  # the tables and what they filled held that much
    # Given back: all but a small part (a few counters, the store's cached statements).
    assert kept < 0.1 * held, (kept, held)
    assert all(cache.cache_info().currsize == 0 for cache in memory.bounded_caches())
