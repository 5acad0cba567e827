"""The guard counts the player's wait: a decision's deadline is fixed when the bot pool queues
it, and the worker's agent stops its search there, or answers at once with its cheapest legal
choice when the deadline passed in the queue; both are counted as cut."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
import time

import pytest

from fanfold.agents.base import create_agent
from fanfold.agents.levels import LEVELS
from fanfold.core.registry import AnyGame, get_game
from fanfold.server.bots import BotPool, Decision, decide_counted, decision_for
from fanfold.server.bots.decisions import time_cap
from fanfold.server.budget import GUARD_SECONDS
from tests.server.test_bot_shares import decision

FANO = get_game("fano")
#: A budget far beyond any cap: only the time stops its search.
ENDLESS = "mcts(iterations=100000000, seconds={seconds})"


def _held(release: threading.Event) -> None:
    """Holds a worker until ``release`` (the long decision ahead in the queue)."""
    release.wait(30)


def _guarded(table: str, agent: str, guard: float) -> Decision:
    return dataclasses.replace(decision(table, agent, FANO), guard=guard)


def test_a_decision_queued_behind_a_long_one_is_cut_by_its_own_queue_deadline() -> None:
    """One worker, held 0.6 s by a long decision; one queued meanwhile, guard 1.0 s, with a
    budget no cap reaches. Counted from its start its cap would end it 1.6 s after it was
    queued; counted from the queue it ends at 1.0 s, cut (and counted), with a legal move."""
    cuts: list[Decision] = []

    async def play() -> tuple[object, float]:
        pool = BotPool(1)
        pool.cut = cuts.append
        release = threading.Event()
        ahead = asyncio.create_task(pool.run(_held, release, table="ahead"))
        await asyncio.sleep(0.05)  # the long decision holds the worker
        queued = time.monotonic()
        asked = asyncio.create_task(pool.decide(_guarded("t1", ENDLESS.format(seconds=1), 1.0)))
        await asyncio.sleep(0.6)
        release.set()
        action = await asked
        took = time.monotonic() - queued
        await ahead
        pool.shutdown()
        return action, took

    action, took = asyncio.run(play())
    assert action in decision("t1", "random", FANO).legal
    assert [cut.table for cut in cuts] == ["t1"]
    assert 0.95 <= took < 1.35, took  # its own cap would have run to 1.6 s


def test_a_decision_whose_deadline_passed_in_the_queue_still_plays_a_legal_move_at_once() -> None:
    """A decision queued with a 0.1 s guard behind one that holds the worker 0.4 s: its
    deadline has passed when it starts, so the agent answers at once with its cheapest legal
    choice (no search: well under its 5 s cap), counted as cut."""
    cuts: list[Decision] = []

    async def play() -> tuple[object, float]:
        pool = BotPool(1)
        pool.cut = cuts.append
        release = threading.Event()
        ahead = asyncio.create_task(pool.run(_held, release, table="ahead"))
        await asyncio.sleep(0.05)
        asked = asyncio.create_task(pool.decide(_guarded("t1", ENDLESS.format(seconds=5), 0.1)))
        await asyncio.sleep(0.4)
        released = time.monotonic()
        release.set()
        action = await asked
        took = time.monotonic() - released
        await ahead
        pool.shutdown()
        return action, took

    action, took = asyncio.run(play())
    assert action in decision("t1", "random", FANO).legal
    assert [cut.table for cut in cuts] == ["t1"]
    assert took < 0.5, took


def _noted(name: str, seconds: float, order: list[str]) -> None:
    order.append(f"{name} began")
    time.sleep(seconds)
    order.append(f"{name} ended")


def test_a_decision_past_its_deadline_takes_the_next_free_worker_before_the_queue() -> None:
    """One worker, held; another client's decision (0.3 s, no deadline) is queued first, then
    one whose 0.05 s guard passes while it waits. When the worker frees, the late one goes
    first (answered at once, its player has waited the whole guard), not after the other's
    0.3 s as the queue's order alone would have it."""
    order: list[str] = []

    async def play() -> None:
        pool = BotPool(1)
        release = threading.Event()
        ahead = asyncio.create_task(pool.run(_held, release, table="ahead", client="x"))
        await asyncio.sleep(0.05)
        first = asyncio.create_task(pool.run(_noted, "first", 0.3, order, table="t1", client="a"))
        await asyncio.sleep(0.01)
        late = _guarded("t2", ENDLESS.format(seconds=5), 0.05)
        asked = asyncio.create_task(pool.decide(late, client="b"))
        await asyncio.sleep(0.2)  # its deadline passes in the queue
        release.set()
        await asked
        order.append("late answered")
        await asyncio.gather(ahead, first)
        pool.shutdown()

    asyncio.run(play())
    # The first may begin as the late one's answer comes back (the worker is free by then),
    # but not before: in the queue's order alone it would have ended before the late began.
    assert order.index("late answered") < order.index("first ended"), order


def test_a_decision_without_a_guard_keeps_its_own_cap_from_its_start() -> None:
    """No guard (an agent that takes no time cap): no deadline is fixed in the queue."""
    plain = decision("t1", "random", FANO)
    assert plain.queued(100.0) is plain
    guarded = _guarded("t1", "random", 2.0).queued(100.0)
    assert guarded.deadline == 102.0
    assert guarded.queued(200.0).deadline == 102.0  # fixed once, when first queued


def test_a_decision_s_guard_is_its_agent_s_time_cap() -> None:
    """The table's agent's cap (a level's: that of the agent behind it) is the guard; an
    agent without a cap has none."""
    assert time_cap(create_agent("hard(seconds=5)", FANO)) == 5.0
    assert time_cap(create_agent("mcts(seconds=0.5)", FANO)) == 0.5
    assert time_cap(create_agent("mcts", FANO)) is None
    assert time_cap(create_agent("random", FANO)) is None
    table = decision("t1", "random", FANO)
    agent = create_agent("hard(seconds=5)", FANO, 1)
    made = decision_for("t1", table.seat, FANO.id, agent, table.view, table.legal)
    assert made.guard == 5.0
    # A short cap is a thinking budget, counted from the worker's start: the player's wait
    # is bounded by the guard, so a decision waiting its turn is not hurried.
    quick = create_agent("mcts(seconds=0.2)", FANO, 1)
    made = decision_for("t1", table.seat, FANO.id, quick, table.view, table.legal)
    assert made.guard == GUARD_SECONDS
    slow = create_agent("mcts(seconds=8)", FANO, 1)
    assert decision_for("t1", table.seat, FANO.id, slow, table.view, table.legal).guard == 8.0
    assert made.deadline is None  # fixed by the pool as it queues the decision


def _games_with_levels() -> list[AnyGame]:
    return [get_game(name) for name in ("fano", "fantan", "fan", "morris")]


@pytest.mark.parametrize("game", _games_with_levels(), ids=lambda game: game.id)
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("left", [-1.0, 0.001])
def test_every_level_plays_a_legal_move_with_almost_no_time_or_none_left(
    game: AnyGame, level: str, left: float
) -> None:
    """A level's decision in a worker with its deadline passed (counted as cut) or a
    millisecond away: a legal move either way."""
    asked = _a_choice(game, f"{level}(seconds=5)", f"{game.id}-{level}-{left}")
    action, cut = decide_counted(dataclasses.replace(asked, deadline=time.monotonic() + left))
    assert action in asked.legal
    if left < 0:
        assert cut


def _a_choice(game: AnyGame, agent: str, table: str) -> Decision:
    """The first decision of a game among two or more legal moves (random moves before)."""
    config = game.default_config()
    state = game.new_state(config, 1)
    moves = random.Random(1)
    while True:
        seat = game.current_player(state)
        assert seat is not None  # a game offers a choice before it ends
        legal = game.legal_actions(state)
        if len(legal) > 1:
            view = game.observe(state, seat)
            return Decision(table, seat, game.id, agent, 1, view, tuple(legal), guard=5.0)
        state = game.apply(state, legal[moves.randrange(len(legal))])
