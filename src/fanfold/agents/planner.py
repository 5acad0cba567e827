"""Fano's turn planner as an agent (``planner``): whole turns searched on a few deals of the
view (:mod:`fanfold.agents.strategy.fano_planner`), no search across the opponents' turns."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fanfold.agents.base import Agent, AgentConfig, TurnBudget, TurnTimed
from fanfold.agents.strategy.fano_knowledge import FanoKnowledge
from fanfold.agents.strategy.fano_planner import plan
from fanfold.core.errors import ConfigError, Refusal
from fanfold.core.game import Game
from fanfold.games.fano.actions import FanoAction
from fanfold.games.fano.config import FanoConfig
from fanfold.games.fano.game import FanoGame
from fanfold.games.fano.state import FanoState
from fanfold.games.fano.view import FanoView


@dataclass(frozen=True)
class PlannerConfig(AgentConfig, TurnTimed):
    """Settings of the turn planner.

    Attributes:
        deals: states dealt from the view a decision; every first action is searched on each.
        nodes: positions of the seat's own turn searched in each deal (past it, a sequence
            ends with its best end action).
        seconds: a cap on a decision's time (``None``: the budgets alone, so a seeded game
            plays the same on any machine); at least one deal is searched.
        replies: two players: each first action's best turns in a deal (this many) judged
            again after the opponent's best answering turn in the deal (0: none).
        reply_nodes: positions of the opponent's turn searched for each such answer.
        turn_seconds: with ``seconds``, a cap on all of the seat's decisions of one turn
            together (``None``: three times ``seconds``); once spent, each further decision
            of the turn searches one deal with its turns ended at once.
    """

    deals: int = 3
    nodes: int = 150
    seconds: float | None = None
    replies: int = 0
    reply_nodes: int = 40
    turn_seconds: float | None = None

    def validate(self) -> None:
        if self.deals < 1:
            raise ConfigError(Refusal("agent.at_least_one", name="deals", value=f"{self.deals}"))
        if self.nodes < 0:
            raise ConfigError(Refusal("agent.zero_or_more", name="nodes", value=f"{self.nodes}"))
        self.check_turn_time()
        if self.replies < 0:
            raise ConfigError(
                Refusal("agent.zero_or_more", name="replies", value=f"{self.replies}")
            )
        if self.reply_nodes < 0:
            raise ConfigError(
                Refusal("agent.zero_or_more", name="reply_nodes", value=f"{self.reply_nodes}")
            )


class PlannerAgent(Agent[FanoView, FanoAction]):
    """Plays the first action of the best whole turn (see :mod:`.strategy.fano_planner`).

    Args:
        game: Fano.
        config: the budgets.
        seed: seeds the deals and the ties.
        clock: the clock a ``seconds`` cap reads (:func:`time.monotonic`).
    """

    name = "planner"

    def __init__(
        self,
        game: Game[FanoConfig, FanoState, FanoAction, FanoView],
        config: PlannerConfig,
        seed: int = 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(game, seed)
        self.config = config
        self.knowledge = FanoKnowledge(game)
        self.clock = clock
        self.turn_budget = TurnBudget(config)
        #: The table's restrictions, one tuple of forbidden kinds per seat (empty: none).
        self.forbidden: tuple[tuple[str, ...], ...] = ()

    def restrict(self, forbidden: Sequence[tuple[str, ...]]) -> None:
        """Search with the table's restrictions: the seat's own turn and the opponents'
        answers use only the kinds each seat is allowed."""
        self.forbidden = tuple(tuple(names) for names in forbidden)

    def hurried(self, view: FanoView, legal: Sequence[FanoAction]) -> FanoAction:
        """The strategy's move (:class:`FanoKnowledge`), without planning a turn."""
        return self.knowledge.choose(view, legal, self.rng)

    def choose(self, view: FanoView, legal: Sequence[FanoAction]) -> FanoAction:
        if len(legal) == 1:
            return legal[0]
        started = self.clock()
        own = self.turn_budget.allowance((view.turn, view.turn_player))
        allowance = self.within_deadline(started, own)
        deadline = None if allowance is None else started + allowance
        values = plan(
            self.game,
            self.knowledge,
            view,
            legal,
            self.rng,
            self.config.deals,
            self.config.nodes,
            deadline,
            self.clock,
            self.config.replies,
            self.config.reply_nodes,
            self.forbidden,
        )
        if own is not None:
            self.turn_budget.spend(self.clock() - started)
        top = max(values)
        best = [action for action, value in zip(legal, values, strict=True) if value >= top - 1e-9]
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]


def make_planner(game: Any, config: Any, seed: int) -> PlannerAgent:
    """The registry's maker (Fano only: see :func:`plays_fano`)."""
    return PlannerAgent(game, config, seed)


def plays_fano(game: Any) -> bool:
    """Whether ``game`` is Fano."""
    return isinstance(game, FanoGame)


del random
