"""What a bot decision is, and how a worker makes it (:func:`decide`).

A :class:`Decision` carries the table, the seat, the game, the agent text (already within the
server's budget, :mod:`fanfold.server.budget`), a seed drawn from the table's own bot stream,
the seat's view and the legal actions; nothing more of the game. A worker keeps the agents it
made (by table, seat and text, :data:`CACHE`) so that an agent that is costly to make or that
follows a plan (the Fan solver) is made once, and reseeds it for each decision.

A bot's time cap (its ``seconds``: a level's wall-clock guard, else the server's
``--bot-seconds``; at least :data:`~fanfold.server.budget.GUARD_SECONDS`) is the most a player
waits for its move, counted from the moment the pool queued the decision, not from when a
worker took it: the pool fixes the decision's :attr:`Decision.deadline` as it queues it, and
the worker's agent stops its search there (the agent's
:attr:`~fanfold.agents.base.Agent.deadline`), playing the best move found so far. A decision
whose deadline has passed before a worker starts it is answered at once with the agent's
cheapest legal choice (:meth:`~fanfold.agents.base.Agent.hurried`). Both count as cut
(``fanfold_bot_budget_cut_total``).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fanfold.agents.base import AnyAgent, parse_agent
from fanfold.agents.levels import fallback_agent
from fanfold.agents.strategy import compiled, has_compiled_code
from fanfold.core.registry import get_game
from fanfold.server.budget import GUARD_SECONDS
from fanfold.server.logs import about

log = logging.getLogger(__name__)

#: Agents a worker keeps (the most recently used).
CACHE = 64


@dataclass(frozen=True)
class Decision:
    """One bot decision: what a worker needs and nothing more.

    Attributes:
        table: the table's id (with ``seat``, which agent of the worker's cache decides).
        seat: the deciding seat.
        game: the game's id.
        agent: the agent text the seat plays with.
        seed: seeds the agent's generator for this decision (from the table's bot stream).
        view: the seat's view.
        legal: the legal actions.
        guard: the most the player waits for the decision from its queueing: the agent's time
            cap, at least :data:`~fanfold.server.budget.GUARD_SECONDS` (:func:`wait_guard`;
            ``None``: the agent takes no time cap).
        deadline: when the decision must end (a :func:`time.monotonic` time, the same in
            every process of the machine), fixed by the pool as it queues it (``guard`` from
            then); ``None``: the agent's own cap only, counted from its start.
    """

    table: str
    seat: int
    game: str
    agent: str
    seed: int
    view: Any
    legal: tuple[Any, ...]
    guard: float | None = None
    deadline: float | None = None

    def queued(self, now: float) -> Decision:
        """This decision queued at ``now`` (a :func:`time.monotonic` time): its deadline
        ``guard`` seconds later (none without a guard; a deadline fixed already is kept)."""
        if self.guard is None or self.deadline is not None:
            return self
        return dataclasses.replace(self, deadline=now + self.guard)


_local = threading.local()


def _agent(decision: Decision, text: str) -> AnyAgent:
    """The worker's agent of ``text`` for the decision's table and seat (made once)."""
    cache: OrderedDict[tuple[str, int, str, str], AnyAgent] | None = getattr(_local, "agents", None)
    if cache is None:
        cache = _local.agents = OrderedDict()
    key = (decision.table, decision.seat, decision.game, text)
    agent = cache.pop(key, None)
    if agent is None:
        agent = parse_agent(text).create(get_game(decision.game), decision.seed)
    cache[key] = agent
    while len(cache) > CACHE:
        cache.popitem(last=False)
    agent.rng.seed(decision.seed)
    return agent


def _ready(agent: AnyAgent, decision: Decision) -> bool:
    """Whether ``agent`` can decide now: it needs no compiled code, or its game's compiled
    code is loaded in this worker, or in Numba's cache to be loaded now (a second or two).
    False while the server still compiles it
    (:func:`fanfold.server.runtime.warm_up.compile_ahead`)."""
    game = agent.game
    if not has_compiled_code(game) or compiled.is_loaded(game.name):
        return True
    config = getattr(decision.view, "config", None) or game.default_config()
    try:
        with compiled.without_compiling():
            agent.prepare(config, _quiet)
    except compiled.NotCompiledError:
        return False
    return True


def _quiet(message: str) -> None:
    del message


def decide(decision: Decision) -> Any:
    """The action the seat's agent chooses (run in a worker). A bot whose compiled code is
    not compiled yet plays its game's fallback level meanwhile
    (:func:`fanfold.agents.levels.fallback_agent`: never compiled code), well within any time
    cap."""
    return decide_counted(decision)[0]


def decide_counted(decision: Decision) -> tuple[Any, bool]:
    """:func:`decide`'s action, and whether the agent's time cap cut its budget
    (``Agent.budget_cut``: the pool counts it, :attr:`BotPool.cut`). The agent stops its
    search at the decision's deadline; past it already, the agent's cheapest legal choice
    (:meth:`~fanfold.agents.base.Agent.hurried`), counted as cut."""
    with about(decision.table):
        agent = _agent(decision, decision.agent)
        if not _ready(agent, decision):
            fallback = fallback_agent(agent.game)
            log.info("seat %d's bot plays %s until it is compiled", decision.seat, fallback)
            agent = _agent(decision, fallback)
        agent.budget_cut = False
        legal = list(decision.legal)
        deadline = decision.deadline
        if deadline is not None and len(legal) > 1 and time.monotonic() >= deadline:
            log.info("seat %d's bot answers at once: its deadline passed", decision.seat)
            return agent.hurried(decision.view, legal), True
        agent.deadline = deadline
        try:
            action = agent.choose(decision.view, legal)
        finally:
            agent.deadline = None
        return action, agent.budget_cut


def decision_for(
    table: str, seat: int, game: str, agent: AnyAgent, view: Any, legal: Sequence[Any]
) -> Decision:
    """The decision of ``seat``'s ``agent`` (the table's own agent object, whose generator is
    the table's bot stream and gives the decision's seed; its time cap, where it takes one,
    is the decision's guard)."""
    seed = agent.rng.getrandbits(64)
    return Decision(table, seat, game, agent.name, seed, view, tuple(legal), wait_guard(agent))


def wait_guard(agent: AnyAgent) -> float | None:
    """The most a player waits for ``agent``'s decision, counted from its queueing: its time
    cap, but never less than :data:`~fanfold.server.budget.GUARD_SECONDS` (an agent thinking
    0.2 s a move may wait its turn for a worker or for its client's share without being
    hurried), ``None`` for an agent that takes no time cap.

        >>> from fanfold.agents.base import create_agent
        >>> from fanfold.core.registry import get_game
        >>> [wait_guard(create_agent(text, get_game("fano"))) for text in
        ...  ("mcts(seconds=0.2)", "mcts(seconds=8)", "random")]
        [5.0, 8.0, None]
    """
    cap = time_cap(agent)
    return None if cap is None else max(cap, GUARD_SECONDS)


def time_cap(agent: AnyAgent) -> float | None:
    """The seconds ``agent`` may think a decision (its config's ``seconds``; for a level, that
    of the agent behind it), ``None`` for an agent that takes no time cap."""
    seconds = getattr(getattr(agent, "config", None), "seconds", None)
    return float(seconds) if isinstance(seconds, int | float) and seconds > 0 else None


__all__ = [
    "CACHE",
    "Decision",
    "decide",
    "decide_counted",
    "decision_for",
    "time_cap",
    "wait_guard",
]
