"""Fano: the strategy and the difficulty levels."""

from __future__ import annotations

from fanfold.agents.knowledge import AnyKnowledge
from fanfold.agents.strategy.fano_knowledge import FanoKnowledge
from fanfold.core.registry import AnyGame
from fanfold.games.fano.game import FanoGame


def _knowledge(game: AnyGame) -> AnyKnowledge:
    if not isinstance(game, FanoGame):
        raise TypeError(f"Fano's strategy plays Fano, not {game.title}")
    return FanoKnowledge(game)


#: What makes the game's strategy (:mod:`fanfold.agents.strategy.fano_knowledge`).
KNOWLEDGE = _knowledge

#: The agent behind each level.
LEVELS = {"easy": "random", "medium": "mcts(iterations=50)", "hard": "mcts(iterations=200)"}
