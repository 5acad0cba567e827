"""The driver of the compiled Fano search (``mcts(playout=fast-heuristic, tree=fast)``).

Deals ``deals`` determinizations of the view with the game's ``sample_state`` (the agent's
generator), encodes them, and runs :class:`fanfold.agents.strategy.fano_search.Search` for the
agent's iterations, in chunks when a time cap is set; the move is the legal action whose
root child has the most visits (the first in legal order on a tie). Under a time cap (the
decision's allowance, :meth:`fanfold.agents.mcts.MCTSAgent.allowance`) dealing stops once a
third of it is spent (at least one deal), and the search stops at the first look at the clock
past it, after at least one chunk of :data:`LEAST_ITERATIONS` iterations;
near the deadline the chunks shrink to the iterations that fit in the time left at the pace
measured so far, so that a slow (busy) machine overruns the cap by about one iteration.
``None`` for a game or a config the compiled search does not cover: the agent then searches
with its Python tree.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from fanfold.core.game import Game
from fanfold.games.fano import fast
from fanfold.games.fano.view import FanoView

#: The largest tree a decision grows (nodes; each iteration adds at most one).
MAX_NODES = 1 << 18
#: Iterations between two looks at the clock when a time cap is set.
CHUNK = 32
#: The iterations a capped decision searches even when its time is spent.
LEAST_ITERATIONS = 32
#: The share of a capped decision's time that dealing may take.
DEALING_SHARE = 1 / 3


class FastSettings(Protocol):
    """What the compiled search reads of its agent's settings (an ``MCTSConfig``)."""

    @property
    def deals(self) -> int: ...

    @property
    def iterations(self) -> int: ...

    @property
    def exploration(self) -> float: ...

    @property
    def widening(self) -> float: ...

    @property
    def rollout_limit(self) -> int: ...


class FastSearcher(Protocol):
    """The agent the compiled search decides for (a :class:`fanfold.agents.mcts.MCTSAgent`):
    its settings, clock, random generator and game, and where it keeps its last search."""

    last_search: object
    #: Set when the time cap stopped the search before its iterations were spent.
    budget_cut: bool

    @property
    def config(self) -> FastSettings: ...

    @property
    def clock(self) -> Callable[[], float]: ...

    @property
    def rng(self) -> random.Random: ...

    @property
    def game(self) -> Game[Any, Any, Any, Any]: ...


def choose_fast(
    agent: FastSearcher,
    view: object,
    legal: Sequence[Any],
    started: float | None = None,
    allowance: float | None = None,
) -> Any | None:
    """The compiled search's move for ``view`` (``None``: not a position it covers), within
    ``allowance`` seconds from ``started`` (times of ``agent.clock``; ``None``: no cap)."""
    if not isinstance(view, FanoView) or not fast.supports(view.config):
        return None
    from fanfold.agents.strategy.fano_knowledge import policy_weights
    from fanfold.agents.strategy.fano_search import Search
    from fanfold.games.fano.fast import codec, engine

    config = agent.config
    clock = agent.clock
    if started is None:
        started = clock()
    deadline = None if allowance is None else started + allowance
    rng = agent.rng
    count = min(config.deals, config.iterations)
    dealing_ends = None if allowance is None else started + allowance * DEALING_SHARE
    dealt: list[engine.FastState] = []
    while len(dealt) < count and (not dealt or dealing_ends is None or clock() <= dealing_ends):
        dealt.append(engine.encode(agent.game.sample_state(view, rng)))
    search = Search(
        np.stack([state.array for state in dealt]),
        dealt[0].options,
        policy_weights(),
        view.player,
        exploration=config.exploration,
        widening=config.widening,
        rollout_limit=config.rollout_limit,
        max_nodes=min(config.iterations + 1, MAX_NODES),
        seed=rng.getrandbits(31),
    )
    if deadline is None:
        search.run(config.iterations)
    else:
        least = min(LEAST_ITERATIONS, config.iterations)
        searching = clock()
        while search.iterations < config.iterations:
            size = CHUNK
            if search.iterations >= least:
                now = clock()
                if now > deadline:
                    agent.budget_cut = True  # the server counts it
                    break
                # Chunks shrink near the deadline: no more than the time left at the pace so far.
                pace = (now - searching) / search.iterations
                if pace > 0:
                    size = max(1, min(CHUNK, int((deadline - now) / pace)))
            search.run(min(size, config.iterations - search.iterations))
    agent.last_search = search
    visits = {action: count for action, count, _ in search.root_children()}
    return max(legal, key=lambda action: visits.get(codec.action_id(action), -1))
