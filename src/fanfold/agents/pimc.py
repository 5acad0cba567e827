"""Determinized Monte Carlo: each move tried on the same deals, played out by the game's strategy.

For each decision the agent deals ``deals`` full states consistent with its view
(:meth:`fanfold.core.game.Game.sample_state`: in Fan Tan, every hand size, every card seen and
every pass, which shows a seat held no playable card), plays each legal move in every one of
them and finishes the game with the game's strategy for every seat (its
:class:`~fanfold.agents.knowledge.Knowledge`: the playout policy, or the strategy's own fast
playout), and plays the move with the best mean return for itself. Every move is tried on the
same deals with the same random draws (common random numbers), so the comparison between moves
is not drowned by the luck of the deal: a move that wins one deal more than another in a
hundred shows.

It is one ply of search over a strong playout: it improves on the strategy as it plays the rest
of the game, and it models the other seats as playing that strategy too. It suits games with
few moves a decision and playouts that are cheap and sensible (Fan Tan); where the strategy
has nothing to say, playouts are uniformly random.

With ``lookahead=N`` (where the game's strategy offers it:
:meth:`fanfold.agents.knowledge.Knowledge.search_values`, Fan Tan) the seat's own next N
decisions are searched too instead of played by the strategy: the deals that show the seat the
same view at such a decision are grouped, and each group of at least ``group`` deals plays the
move with the best total over the whole group. One move per view, never one per deal, so the
search cannot credit the seat with knowing the others' hidden cards.

Strength is set by ``deals`` per decision, so a seeded game plays the same moves on any machine;
``seconds`` caps a decision's time where the caller asks for it (and then gives up
reproducibility from the seed alone).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fanfold.agents.base import Agent, AgentConfig
from fanfold.agents.strategy import knowledge_for, prepare
from fanfold.core.config import GameConfig
from fanfold.core.errors import ConfigError, Refusal
from fanfold.core.game import ActionT, Game, ViewT


@dataclass(frozen=True)
class PIMCConfig(AgentConfig):
    """Settings of the determinized Monte Carlo agent.

    Attributes:
        deals: deals (determinizations) per decision; each legal move is played out once in
            each.
        rollout_limit: actions in a stepped playout before it is scored by the strategy's
            evaluation (or as a draw).
        seconds: stop dealing after this long (``None``: no cap); at least one deal is made.
        infer: read the others' hands from their play: draw the deals in proportion to how
            likely the strategy's players would have made the moves seen
            (:meth:`fanfold.agents.knowledge.Knowledge.infer_states`) instead of uniformly
            among the deals the view allows.
        lookahead: search the deciding seat's own next ``lookahead`` decisions inside the
            deals instead of playing them by the strategy, where the game's strategy offers
            that search (:meth:`fanfold.agents.knowledge.Knowledge.search_values`); 0: none.
        group: the fewest deals that must show the seat the same view at a later decision
            for the look-ahead to choose its move there (fewer: the strategy's move).
        fast: deal, read and search in compiled code where the game's strategy offers it
            (:meth:`fanfold.agents.knowledge.Knowledge.fast_values`: Fan Tan's standard
            single-hand variants, many times as many deals a second); elsewhere the same
            search by the reference route.
    """

    deals: int = 100
    rollout_limit: int = 400
    seconds: float | None = None
    infer: bool = False
    lookahead: int = 0
    group: int = 5
    fast: bool = False

    def validate(self) -> None:
        if self.deals < 1:
            raise ConfigError(Refusal("agent.at_least_one", name="deals", value=f"{self.deals}"))
        if self.rollout_limit < 0:
            raise ConfigError(
                Refusal("agent.zero_or_more", name="rollout_limit", value=f"{self.rollout_limit}")
            )
        if self.lookahead < 0:
            raise ConfigError(
                Refusal("agent.zero_or_more", name="lookahead", value=f"{self.lookahead}")
            )
        if self.group < 1:
            raise ConfigError(Refusal("agent.at_least_one", name="group", value=f"{self.group}"))
        if self.seconds is not None and self.seconds <= 0:
            raise ConfigError(
                Refusal("agent.more_than_zero", name="seconds", value=f"{self.seconds}")
            )


class PIMCAgent(Agent[ViewT, ActionT]):
    """Tries each legal move on the same dealt states, finished by the game's strategy.

    Args:
        game: the game being played.
        config: the number of deals and the limits.
        seed: seeds the agent's own generator.
    """

    name = "pimc"

    def __init__(
        self, game: Game[Any, Any, ActionT, ViewT], config: PIMCConfig, seed: int = 0
    ) -> None:
        super().__init__(game, seed)
        self.config = config
        self.knowledge = knowledge_for(game)

    def prepare(self, config: GameConfig, say: Callable[[str], None]) -> None:
        """Load the game's compiled search before play when this agent asks for it
        (``fast=true``), so that its first decision does not stall the game without a word."""
        del config
        if self.config.fast:
            prepare(self.game, say)

    def choose(self, view: ViewT, legal: Sequence[ActionT]) -> ActionT:
        self.budget_cut = False
        if len(legal) == 1:
            return legal[0]
        return legal[self.best_index(view, legal)]

    def hurried(self, view: ViewT, legal: Sequence[ActionT]) -> ActionT:
        """The game strategy's move, without dealing."""
        move: ActionT = self.knowledge.choose(view, legal, self.rng)
        return move

    def _cut(self) -> None:
        """The time cap stopped a search before its budget was spent: the server counts it
        (``fanfold_bot_budget_cut_total``)."""
        self.budget_cut = True

    def action_values(self, view: ViewT, legal: Sequence[ActionT]) -> list[float]:
        """Each legal move's total return for the deciding seat over the deals."""
        game, rng, config = self.game, self.rng, self.config
        player = view.player
        totals = [0.0] * len(legal)
        started = time.monotonic()
        allowance = self.within_deadline(started, config.seconds)
        deadline = None if allowance is None else started + allowance
        if config.fast:
            values = self.knowledge.fast_values(
                view, legal, config.deals, config.infer, config.lookahead, config.group, rng,
                deadline, self._cut,
            )  # fmt: skip
            if values is not None:
                return values
        inferred = self.knowledge.infer_states(view, config.deals, rng) if config.infer else None
        if config.lookahead:
            states = inferred
            if states is None:
                states = [game.sample_state(view, rng) for _ in range(config.deals)]
            searched = self.knowledge.search_values(
                states, legal, player, rng, config.lookahead, config.group, deadline, self._cut
            )
            if searched is not None:
                return searched
        for number in range(config.deals):
            if number and deadline is not None and time.monotonic() > deadline:
                self._cut()
                break
            state = game.sample_state(view, rng) if inferred is None else inferred[number]
            seed = rng.getrandbits(64)
            for position, action in enumerate(legal):
                returns = self._playout(game.apply_legal(state, action), random.Random(seed))
                if returns is not None:
                    totals[position] += returns[player]
        return totals

    def best_index(self, view: ViewT, legal: Sequence[ActionT]) -> int:
        """The position in ``legal`` of the move with the best total; among equals, the
        strategy's own choice if it is one of them, else the first."""
        totals = self.action_values(view, legal)
        best = max(totals)
        tied = [position for position, total in enumerate(totals) if total == best]
        if len(tied) > 1:
            preferred = self.knowledge.choose(view, [legal[p] for p in tied], self.rng)
            return tied[[legal[p] for p in tied].index(preferred)]
        return tied[0]

    def _playout(self, state: Any, rng: random.Random) -> tuple[float, ...] | None:
        game, knowledge = self.game, self.knowledge
        returns = knowledge.rollout(state, rng)
        if returns is not None:
            return returns
        for _ in range(self.config.rollout_limit):
            outcome = game.outcome(state)
            if outcome is not None:
                return tuple(outcome.returns)
            actions = game.legal_actions(state)
            state = game.apply_legal(state, knowledge.playout_action(state, actions, rng))
        outcome = game.outcome(state)
        if outcome is not None:
            return tuple(outcome.returns)
        return knowledge.evaluate(state)


def uses_compiled_search(agent: object) -> bool:
    """Whether ``agent`` asks for its game's compiled search (``fast=true``: in Fan Tan its
    first decision in a process loads the compiled code, or compiles it on a fresh
    installation)."""
    return isinstance(agent, PIMCAgent) and agent.config.fast
