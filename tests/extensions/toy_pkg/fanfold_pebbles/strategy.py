"""Pebbles' difficulty levels (what ``--seat easy``, ``medium`` and ``hard`` play), read by
fanfold's agents through the plugin's ``strategy``. Pebbles has no strategy of its own for
search to use (``KNOWLEDGE = None``): the levels are agents that need none."""

from __future__ import annotations

from fanfold.agents.knowledge import KnowledgeMaker

KNOWLEDGE: KnowledgeMaker | None = None

#: The agent behind each level: ``easy`` random, ``medium`` this package's own ``onestep``
#: bot, ``hard`` a tree search.
LEVELS = {"easy": "random", "medium": "onestep", "hard": "mcts(iterations=300)"}
