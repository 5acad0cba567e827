"""The uniformly random agent: the baseline every other agent must beat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fanfold.agents.base import Agent


class RandomAgent(Agent):
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        return legal[self.rng.randrange(len(legal))]
