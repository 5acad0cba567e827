"""Information-set Monte Carlo tree search, for every game through the game API alone.

Each iteration deals a full state consistent with the agent's view
(:meth:`fanfold.core.game.Game.sample_state`), walks down one tree shared by every deal, choosing
among the actions legal in that deal by UCB1 with availability counts (single-observer
IS-MCTS), adds one node, finishes the game with random moves (up to a depth limit, scored as a
draw beyond it) and backs the returns up to the players who decided at each node. For a game
with no hidden information the deal is the observed state and this is plain UCT.

Strength is set by the number of iterations per decision: ``mcts`` runs 200 and ``mcts-strong``
1000, each with a time cap per decision (1 and 3 seconds) so that play stays responsive in games
whose playouts are long; a search that meets its cap stops early and is then no longer
reproducible from the seed alone (records still replay exactly: they store the actions).
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Sequence
from typing import Any

from fanfold.agents.base import Agent
from fanfold.core.registry import AnyGame


class _Node:
    __slots__ = ("available", "children", "player", "reward", "visits")

    def __init__(self, player: int | None) -> None:
        self.player = player
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


class MCTSAgent(Agent):
    """IS-MCTS with random rollouts.

    Args:
        game: the game being played.
        seed: seeds the agent's own generator.
        iterations: playouts per decision.
        exploration: the UCB1 constant.
        rollout_limit: actions in a rollout before it is scored as a draw.
        move_seconds: stop searching a decision after this long (``None``: no cap).
    """

    name = "mcts"

    def __init__(
        self,
        game: AnyGame,
        seed: int = 0,
        *,
        iterations: int = 200,
        exploration: float = 0.7,
        rollout_limit: int = 400,
        move_seconds: float | None = None,
    ) -> None:
        super().__init__(game, seed)
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.move_seconds = move_seconds

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        game, rng = self.game, self.rng
        root = _Node(view.player)
        deadline = None if self.move_seconds is None else time.monotonic() + self.move_seconds
        for _ in range(self.iterations):
            if deadline is not None and time.monotonic() > deadline:
                break
            state = game.sample_state(view, rng)
            node, path = root, [root]
            # Selection: descend while every action legal in this deal has a child.
            while True:
                player = game.current_player(state)
                if player is None:
                    break
                actions = game.legal_actions(state)
                untried = [a for a in actions if a not in node.children]
                for action in actions:
                    child = node.children.get(action)
                    if child is not None:
                        child.available += 1
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    state = game.apply_legal(state, action)
                    child = _Node(player)
                    node.children[action] = child
                    path.append(child)
                    break
                action = self._select(node, actions)
                state = game.apply_legal(state, action)
                node = node.children[action]
                path.append(node)
            returns = self._rollout(state)
            for visited in path:
                visited.visits += 1
                if visited.player is not None and returns is not None:
                    visited.reward += returns[visited.player]
        return max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)

    def _select(self, node: _Node, actions: Sequence[Any]) -> Any:
        best_action, best_score = None, -math.inf
        for action in actions:
            child = node.children[action]
            mean = child.reward / child.visits if child.visits else 0.0
            score = mean + self.exploration * math.sqrt(
                math.log(max(child.available, 1)) / (child.visits or 1)
            )
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    def _rollout(self, state: Any) -> tuple[float, ...] | None:
        game, rng = self.game, self.rng
        for _ in range(self.rollout_limit):
            outcome = game.outcome(state)
            if outcome is not None:
                return tuple(outcome.returns)
            actions = game.legal_actions(state)
            state = game.apply_legal(state, actions[rng.randrange(len(actions))])
        outcome = game.outcome(state)
        return tuple(outcome.returns) if outcome is not None else None


def mcts_agent(game: AnyGame, seed: int) -> Agent:
    """The ``mcts`` agent: 200 iterations a decision, at most a second."""
    return MCTSAgent(game, seed, iterations=200, move_seconds=1.0)


def strong_mcts_agent(game: AnyGame, seed: int) -> Agent:
    """The ``mcts-strong`` agent: 1000 iterations a decision, at most three seconds."""
    agent = MCTSAgent(game, seed, iterations=1000, move_seconds=3.0)
    agent.name = "mcts-strong"
    return agent
