"""Information-set Monte Carlo tree search, for every game through the game API alone.

Each iteration deals a full state consistent with the agent's view
(:meth:`fanfold.core.game.Game.sample_state`), walks down one tree shared by every deal, choosing
among the actions legal in that deal by UCB1 with availability counts (single-observer
IS-MCTS), adds one node, finishes the game with random moves or, with ``playout=heuristic``,
the game's strategy (up to a depth limit, scored beyond it by the strategy's evaluation, or
as a draw) and backs the returns up to the players who decided at each node. For a game
with no hidden information the deal is the observed state and this is plain UCT.

Strength is set by the number of iterations per decision (:class:`MCTSConfig`): ``mcts`` runs
200 and ``mcts-strong`` 1000, so a seeded game plays the same moves on any machine. A caller
that needs answers in bounded time (a browser table, the terminal) adds a cap,
``mcts(seconds=1)``; a search that meets its cap stops early and is then no longer reproducible
from the seed alone (records still replay exactly: they store the actions). With a cap, the
agent's decisions within one turn of a game whose views name the turn (``turn`` and
``turn_player``, as Fano's do) also share a cap on the whole turn (``turn_seconds``, three
times ``seconds`` by default): once it is spent, each further decision of the turn searches a
single chunk of iterations (:data:`fanfold.agents.fast_search.LEAST_ITERATIONS`) on one deal
in the compiled search (``tree=fast``), none in the Python tree (its move is then the first
legal one).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from fanfold.agents.base import Agent, AgentConfig, TurnBudget, TurnTimed
from fanfold.agents.strategy import knowledge_for, prepare
from fanfold.core.config import GameConfig
from fanfold.core.errors import ConfigError, Refusal
from fanfold.core.game import ActionT, Game, ViewT

#: The playout policies.
PLAYOUTS = ("random", "heuristic", "fast", "fast-greedy", "fast-heuristic")
#: Where the search tree lives.
TREES = ("python", "fast")


@dataclass(frozen=True)
class MCTSConfig(AgentConfig, TurnTimed):
    """Settings of the IS-MCTS agent.

    Attributes:
        iterations: playouts per decision (the budget).
        exploration: the UCB1 constant.
        rollout_limit: actions in a rollout before it is scored as a draw.
        seconds: stop searching a decision after this long (``None``: no cap).
        playout: how playouts choose moves: ``random`` (uniformly), or ``heuristic`` (the
            game's strategy, :mod:`fanfold.agents.knowledge`), whose evaluation then also
            scores a playout cut off at ``rollout_limit`` actions; or ``fast``: uniformly
            random actions in the game's compiled fast path where it has one
            (:meth:`fanfold.agents.knowledge.Knowledge.fast_rollout`; otherwise stepped like
            ``random``), cut off and scored by the strategy's evaluation like ``heuristic``,
            with the strategy's priors for widening; ``fast-greedy``: the same with a rough
            compiled move preference instead of uniform choices; ``fast-heuristic``: the
            compiled part of the strategy's own playout policy.
        widening: progressive widening by the strategy's priors (``playout=heuristic``, a game
            whose strategy has them): a node visited ``n`` times considers only the
            ``ceil(widening * sqrt(n + 1))`` best actions by prior, tried best first; 0 (the
            default) considers every action, tried in random order.
        tree: ``python`` (the default): the search loop above, in Python; ``fast``: the whole
            loop compiled (:mod:`fanfold.agents.strategy.fano_search`, Fano only, with
            ``playout=fast-heuristic``): ``deals`` states dealt consistent with the view,
            reused in turn by the iterations, the compiled move scores as priors, the
            compiled evaluation; a game or config it does not cover uses the Python tree.
        deals: determinizations dealt per decision by ``tree=fast``; under a time cap it
            deals for at most a third of the decision's time (at least one deal).
        turn_seconds: with ``seconds``, a cap on all of the agent's decisions of one turn
            together (``None``: three times ``seconds``), for games whose views name the
            turn (``turn`` and ``turn_player``).
    """

    iterations: int = 200
    exploration: float = 0.7
    rollout_limit: int = 400
    seconds: float | None = None
    playout: str = "random"
    widening: float = 0.0
    tree: str = "python"
    deals: int = 64
    turn_seconds: float | None = None

    def validate(self) -> None:
        if self.iterations < 1:
            raise ConfigError(
                Refusal("agent.at_least_one", name="iterations", value=f"{self.iterations}")
            )
        if self.exploration < 0:
            raise ConfigError(
                Refusal("agent.zero_or_more", name="exploration", value=f"{self.exploration}")
            )
        if self.rollout_limit < 0:
            raise ConfigError(
                Refusal("agent.zero_or_more", name="rollout_limit", value=f"{self.rollout_limit}")
            )
        self.check_turn_time()
        if self.widening < 0:
            raise ConfigError(
                Refusal("agent.zero_or_more", name="widening", value=f"{self.widening}")
            )
        if self.playout not in PLAYOUTS:
            choices, value = ", ".join(PLAYOUTS), repr(self.playout)
            raise ConfigError(Refusal("agent.one_of", name="playout", choices=choices, value=value))
        if self.tree not in TREES:
            choices, value = ", ".join(TREES), repr(self.tree)
            raise ConfigError(Refusal("agent.one_of", name="tree", choices=choices, value=value))
        if self.tree == "fast" and self.playout != "fast-heuristic":
            raise ConfigError(
                Refusal(
                    "agent.needs",
                    option="tree=fast",
                    needed="playout=fast-heuristic",
                    value=repr(self.playout),
                )
            )
        if self.deals < 1:
            raise ConfigError(Refusal("agent.at_least_one", name="deals", value=f"{self.deals}"))


class _Node:
    __slots__ = ("available", "children", "player", "reward", "visits")

    def __init__(self, player: int | None) -> None:
        self.player = player
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


class MCTSAgent(Agent[ViewT, ActionT]):
    """IS-MCTS with random rollouts.

    Args:
        game: the game being played.
        config: the budget and search constants.
        seed: seeds the agent's own generator.
        clock: the clock a ``seconds`` cap reads (:func:`time.monotonic`).
    """

    name = "mcts"

    def __init__(
        self,
        game: Game[Any, Any, ActionT, ViewT],
        config: MCTSConfig,
        seed: int = 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(game, seed)
        self.config = config
        self.clock = clock
        self.turn_budget = TurnBudget(config)
        self.exploration = config.exploration
        self.knowledge = knowledge_for(game) if config.playout != "random" else None
        self.fast = config.playout.startswith("fast")
        self.policy = config.playout.removeprefix("fast").removeprefix("-") or "random"
        #: The last compiled search (``tree=fast``), for inspection.
        self.last_search: object = None

    def prepare(self, config: GameConfig, say: Callable[[str], None]) -> None:
        """Load the compiled Fano search before play when this agent searches with it
        (``tree=fast``), so that its first decision does not stall the game without a word."""
        del config
        if self.config.tree == "fast":
            prepare(self.game, say)

    def allowance(self, view: ViewT) -> float | None:
        """The seconds a decision in ``view`` may take: ``seconds``, less where the turn's cap
        (:meth:`MCTSConfig.turn_cap`) has less left (never below 0); ``None`` without a cap.
        Starts the turn's count when the view shows a new turn."""
        turn = (getattr(view, "turn", None), getattr(view, "turn_player", None))
        if turn == (None, None):  # a game whose views do not name the turn: no turn cap
            return self.config.seconds
        return self.turn_budget.allowance(turn)

    def choose(self, view: ViewT, legal: Sequence[ActionT]) -> ActionT:
        self.budget_cut = False
        if len(legal) == 1:
            return legal[0]
        started = self.clock()
        own = self.allowance(view)
        try:
            return self._choose(view, legal, started, self.within_deadline(started, own))
        finally:
            if own is not None:
                self.turn_budget.spend(self.clock() - started)

    def hurried(self, view: ViewT, legal: Sequence[ActionT]) -> ActionT:
        """The game strategy's move (a random one where the playouts are random)."""
        if self.knowledge is None:
            return super().hurried(view, legal)
        move: ActionT = self.knowledge.choose(view, legal, self.rng)
        return move

    def _choose(
        self, view: ViewT, legal: Sequence[ActionT], started: float, allowance: float | None
    ) -> ActionT:
        knowledge = self.knowledge
        if knowledge is not None:
            sure: ActionT | None = knowledge.obvious(view, legal)
            if sure is not None:
                return sure
        if self.config.tree == "fast":
            from fanfold.agents.fast_search import choose_fast

            found: ActionT | None = choose_fast(self, view, legal, started, allowance)
            if found is not None:
                return found
        game, rng = self.game, self.rng
        root = _Node(view.player)
        deadline = None if allowance is None else started + allowance
        widen = self.config.widening if knowledge is not None else 0.0
        for _ in range(self.config.iterations):
            if deadline is not None and self.clock() > deadline:
                self.budget_cut = True  # the server counts it (fanfold_bot_budget_cut_total)
                break
            state = game.sample_state(view, rng)
            node, path = root, [root]
            # Selection: descend while every action considered in this deal has a child.
            while True:
                player = game.current_player(state)
                if player is None:
                    break
                actions = game.legal_actions(state)
                if widen and len(actions) > 1:
                    actions = self._widened(node, state, actions, widen)
                    untried = [a for a in actions if a not in node.children][:1]
                else:
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

    def _widened(
        self, node: _Node, state: object, actions: Sequence[ActionT], widen: float
    ) -> Sequence[ActionT]:
        """The actions a node considers: the best ``ceil(widen * sqrt(visits + 1))`` by the
        strategy's priors, best first (all of them, in order, when it has none)."""
        assert self.knowledge is not None  # widening only with the strategy
        priors = self.knowledge.priors(state, actions)
        if priors is None:
            return actions
        order = sorted(range(len(actions)), key=priors.__getitem__, reverse=True)
        keep = math.ceil(widen * math.sqrt(node.visits + 1))
        return [actions[index] for index in order[:keep]]

    def _select(self, node: _Node, actions: Sequence[ActionT]) -> ActionT:
        best_action, best_score = actions[0], -math.inf
        for action in actions:
            child = node.children[action]
            mean = child.reward / child.visits if child.visits else 0.0
            score = mean + self.exploration * math.sqrt(
                math.log(max(child.available, 1)) / (child.visits or 1)
            )
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    def _rollout(self, state: object) -> tuple[float, ...] | None:
        game, rng, knowledge = self.game, self.rng, self.knowledge
        if knowledge is not None and self.fast:
            returns = knowledge.fast_rollout(state, self.config.rollout_limit, rng, self.policy)
            if returns is not None:
                return returns
        elif knowledge is not None:
            returns = knowledge.rollout(state, rng)
            if returns is not None:
                return returns
        for _ in range(self.config.rollout_limit):
            outcome = game.outcome(state)
            if outcome is not None:
                return tuple(outcome.returns)
            actions = game.legal_actions(state)
            if knowledge is None or self.fast:
                action = actions[rng.randrange(len(actions))]
            else:
                action = knowledge.playout_action(state, actions, rng)
            state = game.apply_legal(state, action)
        outcome = game.outcome(state)
        if outcome is not None:
            return tuple(outcome.returns)
        return knowledge.evaluate(state) if knowledge is not None else None


def uses_compiled_search(agent: object) -> bool:
    """Whether ``agent`` searches with the compiled Fano search (``tree=fast``: its first
    decision in a process loads the compiled code, or compiles it on a fresh installation)."""
    return isinstance(agent, MCTSAgent) and agent.config.tree == "fast"
