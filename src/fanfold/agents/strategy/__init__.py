"""Each game's strategy and difficulty levels.

One module a game, holding two things: ``KNOWLEDGE``, what makes the game's
:class:`fanfold.agents.knowledge.Knowledge` (the heuristic move, the playout policy and the
evaluation that search uses; ``None`` while the game has none), and ``LEVELS``, the agent text
behind each of the levels ``easy``, ``medium`` and ``hard`` (:mod:`fanfold.agents.levels`).
A new game adds its module here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType

from fanfold.agents.knowledge import AnyKnowledge, Knowledge, KnowledgeMaker
from fanfold.agents.strategy import fan, fano, fantan, morris
from fanfold.core.registry import AnyGame

_MODULES: Mapping[str, ModuleType] = {"fan": fan, "fano": fano, "fantan": fantan, "morris": morris}

#: The agent text of each level, by game name.
LEVELS: Mapping[str, Mapping[str, str]] = {name: module.LEVELS for name, module in _MODULES.items()}

_KNOWLEDGE: Mapping[str, KnowledgeMaker] = {
    name: module.KNOWLEDGE for name, module in _MODULES.items() if module.KNOWLEDGE is not None
}


def has_knowledge(game: AnyGame) -> bool:
    """Whether ``game`` has a strategy."""
    return game.name in _KNOWLEDGE


def knowledge_for(game: AnyGame) -> AnyKnowledge:
    """The strategy of ``game`` (the knowledge-free base class when it has none)."""
    make = _KNOWLEDGE.get(game.name)
    return make(game) if make is not None else Knowledge(game)
