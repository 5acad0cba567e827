"""The uniformly random agent: the baseline every other agent must beat."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fanfold.agents.base import Agent, AgentConfig
from fanfold.core.game import ActionT, ViewT


@dataclass(frozen=True)
class RandomConfig(AgentConfig):
    """The random agent has no settings."""


class RandomAgent(Agent[ViewT, ActionT]):
    """Chooses uniformly among the legal actions."""

    name = "random"
    instant = True

    def choose(self, view: ViewT, legal: Sequence[ActionT]) -> ActionT:
        return legal[self.rng.randrange(len(legal))]
