"""Fano330-R-Morris: the strategy and the difficulty levels.

The game is solved (:mod:`fanfold.solvers.morris`), so every level is the table player
(:mod:`fanfold.agents.perfect`) at a chosen rate of second-best moves: ``hard`` is perfect play
(it never loses: the start is a draw), ``medium`` plays a second-best move at one decision in
ten where the moves differ, ``easy`` at one in three, which in a drawn position is usually a
move that loses against perfect play. No knowledge is set: the table is the strategy, and a
search has nothing to add to it.
"""

from __future__ import annotations

from fanfold.agents.knowledge import KnowledgeMaker

#: What makes the game's strategy (none: the levels read the solved table directly).
KNOWLEDGE: KnowledgeMaker | None = None

#: The agent behind each level.
LEVELS = {
    "easy": "perfect(mistakes=0.35)",
    "medium": "perfect(mistakes=0.1)",
    "hard": "perfect",
}
