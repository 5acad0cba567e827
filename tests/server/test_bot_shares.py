"""The bot pool's shares: one client (whoever opened the tables) holds at most its share of the
workers however many tables it opens, clients are served fairly by the thinking time they
used, and waiting decisions start by priority (live games before reviews before background
work)."""

from __future__ import annotations

import asyncio
import statistics
import threading
import time

import pytest

from fanfold.core.registry import AnyGame, get_game
from fanfold.play.setup import make_seats, new_table
from fanfold.server.bot_shares import SharedShares
from fanfold.server.bots import BotPool, Decision, Priority, default_client_share
from fanfold.server.budget import MAXIMA
from fanfold.server.live import LiveTable
from fanfold.server.store.memory_leases import MemoryBotLeases
from fanfold.server.table_options import TableOptions

HOG = f"mcts(iterations={MAXIMA['iterations']}, seconds=0.2)"


def decision(table: str, agent: str, game: AnyGame | None = None) -> Decision:
    game = game or get_game("morris")
    played = new_table(
        game,
        game.default_config(),
        make_seats(game, [agent] * game.num_players(game.default_config()), 1),
        seed=1,
    )
    seat = played.decider
    assert seat is not None
    return Decision(
        table, seat, game.id, agent, 1, played.view(seat), tuple(played.legal_actions())
    )


def test_one_client_with_many_tables_holds_its_share_and_another_finds_a_worker() -> None:
    """Two workers; one client opens four tables whose bots think at the cap. It never holds
    more than one worker (its share), so another client's quick table never waits behind it:
    with the tables counted alone, the four would fill both workers and the quick table would
    wait for one of them (0.1 s on average, up to 0.2 s)."""

    async def play() -> tuple[list[float], int]:
        pool = BotPool(2)
        assert pool.client_share == 1
        stop = asyncio.Event()
        most = 0

        async def hogging(name: str) -> None:
            while not stop.is_set():
                await pool.decide(decision(name, HOG), client="account:1")

        async def watching() -> None:
            nonlocal most
            while not stop.is_set():
                most = max(most, pool.busy)
                await asyncio.sleep(0.01)

        hogs = [asyncio.create_task(hogging(f"hog{n}")) for n in range(4)]
        watcher = asyncio.create_task(watching())
        await asyncio.sleep(0.5)
        assert pool.waiting >= 2  # the client's other tables wait for its one worker
        waits: list[float] = []
        quick = decision("quick", "random")
        for _ in range(8):
            started = time.monotonic()
            await pool.decide(quick, client="address:203.0.113.9")
            waits.append(time.monotonic() - started)
            await asyncio.sleep(0.03)
        stop.set()
        await asyncio.gather(*hogs, watcher)
        pool.shutdown()
        return waits, most

    waits, most = asyncio.run(play())
    assert most <= 2
    assert statistics.median(waits) < 0.05, waits


def test_the_clients_share_the_pool_and_a_table_alone_counts_as_a_client() -> None:
    """The same four tables without a client are four clients: they fill both workers."""

    async def play() -> int:
        pool = BotPool(2)
        stop = asyncio.Event()
        most = 0

        async def hogging(name: str) -> None:
            while not stop.is_set():
                await pool.decide(decision(name, HOG))

        hogs = [asyncio.create_task(hogging(f"hog{n}")) for n in range(4)]
        for _ in range(40):
            await asyncio.sleep(0.01)
            most = max(most, pool.busy)
        stop.set()
        await asyncio.gather(*hogs)
        pool.shutdown()
        return most

    assert asyncio.run(play()) == 2


def test_live_decisions_start_before_reviews_and_reviews_before_background_work() -> None:
    """One worker, busy; a background decision, then a review's, then a live game's arrive
    (each from a client of its own): the live one starts first, then the review, then the
    background work, whatever the order they came in."""

    async def play() -> list[str]:
        pool = BotPool(1)
        started: list[str] = []
        # Busy a whole second: on a loaded machine the waits below may take far longer than
        # they say (the search holds the interpreter in a worker thread).
        slow = f"mcts(iterations={MAXIMA['iterations']}, seconds=1.0)"
        busy = asyncio.create_task(pool.decide(decision("busy", slow), client="busy"))
        await asyncio.sleep(0.05)

        async def one(name: str, priority: Priority) -> None:
            task = pool.decide(decision(name, "random"), client=name, priority=priority)
            await task
            started.append(name)

        tasks = []
        for name, priority in (
            ("background", Priority.BACKGROUND),
            ("review", Priority.REVIEW),
            ("live", Priority.LIVE),
        ):
            tasks.append(asyncio.create_task(one(name, priority)))
            await asyncio.sleep(0.01)
        assert pool.waiting == 3
        await asyncio.gather(busy, *tasks)
        pool.shutdown()
        return started

    assert asyncio.run(play()) == ["live", "review", "background"]


def test_a_share_is_checked() -> None:
    assert default_client_share(1) == 1
    assert default_client_share(4) == 2
    with pytest.raises(ValueError, match="1 to 2 workers"):
        BotPool(2, client_share=3)
    with pytest.raises(ValueError, match="1 to 2 workers"):
        BotPool(2, client_share=0)


def test_a_table_names_its_client() -> None:
    """Who opened a table in memory; read back from the store, its first account, else its
    creator's token; else nobody (the table counts alone)."""
    game = get_game("morris")
    table = new_table(game, game.default_config(), make_seats(game, ["human", "random"], 1))
    opened = LiveTable("t1", table, [None, None], TableOptions(), client="address:198.51.100.7")
    assert opened.bot_client() == "address:198.51.100.7"
    read = LiveTable(
        "t2", table, [None, None], TableOptions(), creator_hash="abc", accounts=[None, 12]
    )
    assert read.bot_client() == "account:12"
    guest = LiveTable(
        "t3", table, [None, None], TableOptions(), creator_hash="abc", accounts=[None, None]
    )
    assert guest.bot_client() == "creator:abc"
    assert LiveTable("t4", table, [None, None], TableOptions()).bot_client() is None


# ------------------------------------------------------------------ across processes

_thinking = 0
_most_thinking = 0
_counting = threading.Lock()


def _think(seconds: float) -> None:
    """A decision that takes ``seconds``, counting how many think at once."""
    global _thinking, _most_thinking
    with _counting:
        _thinking += 1
        _most_thinking = max(_most_thinking, _thinking)
    time.sleep(seconds)
    with _counting:
        _thinking -= 1


def test_a_clients_share_holds_over_pools_sharing_their_leases() -> None:
    """Two pools (two processes) of two workers, a share of one each; they share their leases,
    so one client's six tables think one at a time over both, while another client's table
    thinks beside them; every lease is given back at the end."""
    global _most_thinking
    _most_thinking = 0
    store = MemoryBotLeases()
    pools = [BotPool(2, client_share=1) for _ in range(2)]
    for number, pool in enumerate(pools):
        pool.shared = SharedShares(store, f"s{number + 1}:1", pool.client_share)

    async def scenario() -> float:
        jobs = [pools[n % 2].run(_think, 0.05, table=f"t{n}", client="address:1") for n in range(6)]
        started = time.monotonic()
        other = asyncio.ensure_future(
            pools[1].run(time.sleep, 0.01, table="other", client="address:2")
        )
        await asyncio.gather(*jobs)
        await other
        await asyncio.sleep(0.05)  # the leases' give-backs run
        return time.monotonic() - started

    try:
        took = asyncio.run(scenario())
    finally:
        for pool in pools:
            pool.shutdown()
    assert _most_thinking == 1  # one of the client's decisions at once, over both pools
    assert took >= 6 * 0.05
    assert store.held("address:1", time.time()) == store.held("address:2", time.time()) == 0
    assert all(pool.shared is not None and pool.shared.held == 0 for pool in pools)
