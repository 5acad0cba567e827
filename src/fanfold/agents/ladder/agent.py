"""The ladder as agents: ``ladder`` (with ``style=``), deciding in compiled code where it can."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fanfold.agents.base import Agent, AgentConfig
from fanfold.agents.ladder.search import decide
from fanfold.agents.ladder.styles import Style, params
from fanfold.agents.strategy import prepare
from fanfold.core.config import GameConfig, ranged
from fanfold.games.fano import fast
from fanfold.games.fano.actions import FanoAction
from fanfold.games.fano.config import FanoConfig
from fanfold.games.fano.view import FanoView


@dataclass(frozen=True)
class LadderConfig(AgentConfig):
    """A ladder member's settings.

    Attributes:
        style: how it plays (:mod:`fanfold.agents.ladder.styles`).
        nodes: positions of its own turn searched a decision.
        compiled: decide in compiled code (Numba) where the fast path covers the variant;
            ``false``: always the Python twin (the same decisions, slower).
    """

    style: Style = Style.BALANCED
    nodes: int = ranged(300, 1, 100_000)
    compiled: bool = True


class LadderAgent(Agent[FanoView, FanoAction]):
    """A ladder member: its own turn searched, judged by the learned evaluation; reads only
    its view (a state dealt from it fills what the seat cannot see, and the decision never
    reads that part)."""

    name = "ladder"

    def __init__(self, game: Any, config: LadderConfig, seed: int = 0) -> None:
        super().__init__(game, seed)
        self.config = config

    def prepare(self, config: GameConfig, say: Callable[[str], None]) -> None:
        """Load the compiled decision with the rest of Fano's compiled code (compiled ahead in
        a subprocess on a fresh installation: :func:`fanfold.agents.strategy.prepare`)."""
        if self.config.compiled and isinstance(config, FanoConfig) and fast.supports(config):
            prepare(self.game, say)

    def choose(self, view: FanoView, legal: Sequence[FanoAction]) -> FanoAction:
        if len(legal) == 1:
            return legal[0]
        # The hidden cards are dealt at random; the decision never reads them.
        state = self.game.sample_state(view, random.Random(0))
        chosen = params(self.config.style, view.config, self.config.nodes)
        if self.config.compiled and fast.supports(view.config):
            from fanfold.agents.ladder import compiled

            return legal[compiled.decide(state, view.player, legal, chosen)]
        return legal[decide(state, view.player, legal, chosen)]


def make_ladder(game: Any, config: Any, seed: int) -> LadderAgent:
    """The registry's maker."""
    return LadderAgent(game, config, seed)
