"""Fano330-R-Morris: the strategy and the difficulty levels."""

from __future__ import annotations

from fanfold.agents.knowledge import KnowledgeMaker

#: What makes the game's strategy (none yet: the heuristic agent does not play Fano330-R-Morris).
KNOWLEDGE: KnowledgeMaker | None = None

#: The agent behind each level.
LEVELS = {"easy": "mcts(iterations=50)", "medium": "mcts(iterations=200)", "hard": "perfect"}
