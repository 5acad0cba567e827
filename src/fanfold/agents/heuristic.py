"""The heuristic agent: plays the game's strategy (:mod:`fanfold.agents.knowledge`) directly,
one quick move a decision with no search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fanfold.agents.base import Agent, AgentConfig
from fanfold.agents.strategy import knowledge_for
from fanfold.core.game import ActionT, Game, ViewT


@dataclass(frozen=True)
class HeuristicConfig(AgentConfig):
    """The heuristic agent has no settings."""


class HeuristicAgent(Agent[ViewT, ActionT]):
    """Plays :meth:`fanfold.agents.knowledge.Knowledge.choose` of the game's strategy."""

    name = "heuristic"

    def __init__(self, game: Game[Any, Any, ActionT, ViewT], seed: int = 0) -> None:
        super().__init__(game, seed)
        self.knowledge = knowledge_for(game)

    def choose(self, view: ViewT, legal: Sequence[ActionT]) -> ActionT:
        if len(legal) == 1:
            return legal[0]
        action: ActionT = self.knowledge.choose(view, legal, self.rng)
        return action
