"""Fano330-R-Morris: the difficulty levels."""

from fanfold.agents.levels import register_levels

register_levels(
    "morris",
    {"easy": "mcts(iterations=50)", "medium": "mcts(iterations=200)", "hard": "perfect"},
)
