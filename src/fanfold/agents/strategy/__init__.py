"""Each game's strategy and difficulty levels.

One module a game, holding two things: ``KNOWLEDGE``, what makes the game's
:class:`fanfold.agents.knowledge.Knowledge` (the heuristic move, the playout policy and the
evaluation that search uses; ``None`` while the game has none), and ``LEVELS``, the agent text
behind each of the levels ``easy``, ``medium`` and ``hard`` (:mod:`fanfold.agents.levels`);
a game whose strategy has compiled code adds ``prepare(say)``, which loads it
(:func:`prepare`). A new game adds its module here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType

from fanfold.agents.knowledge import AnyKnowledge, Knowledge, KnowledgeMaker
from fanfold.agents.strategy import fan, fano, fantan, morris
from fanfold.core.registry import AnyGame

_MODULES: Mapping[str, ModuleType] = {"fan": fan, "fano": fano, "fantan": fantan, "morris": morris}

#: The agent text of each level, by game name.
LEVELS: Mapping[str, Mapping[str, str]] = {name: module.LEVELS for name, module in _MODULES.items()}

#: Loads a strategy's compiled code, by game name.
_PREPARE: Mapping[str, Callable[[Callable[[str], None]], None]] = {
    name: module.prepare for name, module in _MODULES.items() if hasattr(module, "prepare")
}

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


def _quiet(message: str) -> None:
    del message


def has_compiled_code(game: AnyGame) -> bool:
    """Whether ``game``'s strategy has compiled code for :func:`prepare` to load."""
    return game.name in _PREPARE


def prepare(game: AnyGame | None = None, say: Callable[[str], None] = _quiet) -> None:
    """Load the compiled code of ``game``'s strategy from Numba's cache (compile it on a fresh
    installation), or of every game's when ``game`` is ``None``, telling a player about the
    wait through ``say``. Nothing happens for a game with no compiled code. A server calls
    this once before its bots play; an agent that searches in compiled code calls it from
    :meth:`fanfold.agents.base.Agent.prepare`."""
    for name, load in _PREPARE.items():
        if game is None or game.name == name:
            load(say)
