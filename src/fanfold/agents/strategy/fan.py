"""Fan patience: the difficulty levels."""

from fanfold.agents.levels import register_levels

register_levels(
    "fan",
    {"easy": "random", "medium": "mcts(iterations=50)", "hard": "mcts(iterations=200)"},
)
