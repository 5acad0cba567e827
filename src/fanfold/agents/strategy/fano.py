"""Fano: the difficulty levels."""

from fanfold.agents.levels import register_levels

register_levels(
    "fano",
    {"easy": "random", "medium": "mcts(iterations=50)", "hard": "mcts(iterations=200)"},
)
