"""Difficulty levels: ``easy``, ``medium`` and ``hard`` are agent names in every game.

Each game maps each level to a configured agent (registered next to the game's strategy in
:mod:`fanfold.agents.strategy`), so ``--seat hard`` is the hard bot of whatever game is played
and ``fanfold games`` shows what each level is. The levels are promises to players: ``easy`` is
beatable by a beginner, ``hard`` answers within about a second a decision on a small machine;
``docs/agents.md`` gives their measured strength.
"""

from __future__ import annotations

from collections.abc import Mapping

from fanfold.core.errors import UnknownAgentError
from fanfold.core.registry import AnyGame

#: The level names, weakest first.
LEVELS = ("easy", "medium", "hard")

_LEVELS: dict[str, dict[str, str]] = {}


def register_levels(game_name: str, levels: Mapping[str, str]) -> None:
    """Say which agent text plays each level of the game called ``game_name``.

    Raises:
        ValueError: ``levels`` does not name exactly the three levels.
    """
    if set(levels) != set(LEVELS):
        raise ValueError(f"levels of {game_name} must be {', '.join(LEVELS)}, not {sorted(levels)}")
    _LEVELS[game_name] = dict(levels)


def has_levels(game: AnyGame) -> bool:
    """Whether the levels are set for ``game``."""
    _ensure_loaded()
    return game.name in _LEVELS


def level_agent(game: AnyGame, level: str) -> str:
    """The agent text that plays ``level`` in ``game``, e.g. ``mcts(iterations=400)``.

    Raises:
        UnknownAgentError: not a level, or the game has no levels.
    """
    _ensure_loaded()
    if level not in LEVELS:
        raise UnknownAgentError(f"no level called {level!r}; levels: {', '.join(LEVELS)}")
    levels = _LEVELS.get(game.name)
    if levels is None:
        raise UnknownAgentError(f"{game.title} has no difficulty levels")
    return levels[level]


def _ensure_loaded() -> None:
    import fanfold.agents.strategy  # noqa: F401  (registers every game's levels)
