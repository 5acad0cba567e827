"""Fan patience: the strategy and the difficulty levels."""

from __future__ import annotations

from fanfold.agents.knowledge import KnowledgeMaker

#: What makes the game's strategy (none yet: the heuristic agent does not play Fan patience).
KNOWLEDGE: KnowledgeMaker | None = None

#: The agent behind each level.
LEVELS = {"easy": "random", "medium": "mcts(iterations=50)", "hard": "mcts(iterations=200)"}
