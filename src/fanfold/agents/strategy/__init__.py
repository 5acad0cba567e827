"""Each game's strategy and difficulty levels, found through the game's plugin.

A game names its strategy module in its plugin (``GamePlugin.strategy``,
:mod:`fanfold.core.plugin`); the built-in games' modules live here, one a game. A strategy
module holds two things: ``KNOWLEDGE``, what makes the game's
:class:`fanfold.agents.knowledge.Knowledge` (the heuristic move, the playout policy and the
evaluation that search uses; ``None`` while the game has none), and ``LEVELS``, the agent text
behind each of the levels ``easy``, ``medium`` and ``hard`` (:mod:`fanfold.agents.levels`); a
game whose strategy has compiled code adds ``prepare(say)``, which loads it (:func:`prepare`).
The module is imported when it is first asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from types import ModuleType
from typing import cast

from fanfold.agents.knowledge import AnyKnowledge, Knowledge, KnowledgeMaker
from fanfold.core.plugin import Reference, load_reference
from fanfold.core.registry import AnyGame, ByGame, all_games, plugin_of


@cache
def _load(reference: Reference) -> ModuleType:
    module = load_reference(reference)
    if not isinstance(module, ModuleType):
        raise TypeError(f"a game's strategy is a module, not {reference!r}")
    return module


def strategy_of(game: AnyGame) -> ModuleType | None:
    """The strategy module of ``game`` (``None``: its plugin names none)."""
    reference = plugin_of(game).strategy
    return None if reference is None else _load(reference)


def levels_of(game: AnyGame) -> Mapping[str, str] | None:
    """The agent text of each level in ``game`` (``None``: the game has no levels)."""
    module = strategy_of(game)
    levels = getattr(module, "LEVELS", None)
    return None if levels is None else cast(Mapping[str, str], levels)


#: The agent text of each level, by game name, for every registered game with levels.
LEVELS: Mapping[str, Mapping[str, str]] = ByGame(lambda plugin: levels_of(plugin.game))


def _knowledge_maker(game: AnyGame) -> KnowledgeMaker | None:
    return cast(KnowledgeMaker | None, getattr(strategy_of(game), "KNOWLEDGE", None))


def _preparer(game: AnyGame) -> Callable[[Callable[[str], None]], None] | None:
    found = getattr(strategy_of(game), "prepare", None)
    return cast(Callable[[Callable[[str], None]], None] | None, found)


def has_knowledge(game: AnyGame) -> bool:
    """Whether ``game`` has a strategy."""
    return _knowledge_maker(game) is not None


def knowledge_for(game: AnyGame) -> AnyKnowledge:
    """The strategy of ``game`` (the knowledge-free base class when it has none)."""
    make = _knowledge_maker(game)
    return make(game) if make is not None else Knowledge(game)


def _quiet(message: str) -> None:
    del message


def has_compiled_code(game: AnyGame) -> bool:
    """Whether ``game``'s strategy has compiled code for :func:`prepare` to load."""
    return _preparer(game) is not None


def prepare(game: AnyGame | None = None, say: Callable[[str], None] = _quiet) -> None:
    """Load the compiled code of ``game``'s strategy from Numba's cache (compile it on a fresh
    installation), or of every game's when ``game`` is ``None``, telling a player about the
    wait through ``say``. Nothing happens for a game with no compiled code. A server calls
    this once before its bots play; an agent that searches in compiled code calls it from
    :meth:`fanfold.agents.base.Agent.prepare`."""
    for each in all_games() if game is None else [game]:
        load = _preparer(each)
        if load is not None:
            load(say)
