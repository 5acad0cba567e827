"""The registry of games, by versioned id, short name and alias.

Games register themselves when :mod:`fanfold.games` is imported; lookups import it on first
use, so ``get_game("morris")`` works from anywhere::

    >>> get_game("morris").id
    'morris.v1'
    >>> get_game("morris.v1") is get_game("Morris")
    True
"""

from __future__ import annotations

import importlib
from typing import Any

from fanfold.core.errors import UnknownGameError
from fanfold.core.game import Game

AnyGame = Game[Any, Any, Any, Any]

_GAMES: dict[str, AnyGame] = {}
_ALIASES: dict[str, str] = {}
_loaded = False


def register(game: AnyGame, *aliases: str) -> AnyGame:
    """Add a game under its id, its short name and the aliases. Returns the game."""
    if game.id in _GAMES:
        raise ValueError(f"game {game.id} is already registered")
    _GAMES[game.id] = game
    for name in (game.name, *aliases):
        _ALIASES[name.lower()] = game.id
    return game


def _ensure_loaded() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        importlib.import_module("fanfold.games")


def all_games() -> list[AnyGame]:
    """Every registered game, in registration order."""
    _ensure_loaded()
    return list(_GAMES.values())


def get_game(name: str) -> AnyGame:
    """A game by versioned id (``morris.v1``), short name (``morris``) or alias."""
    _ensure_loaded()
    key = name.strip().lower()
    if key in _GAMES:
        return _GAMES[key]
    if key in _ALIASES:
        return _GAMES[_ALIASES[key]]
    known = ", ".join(sorted({game.name for game in _GAMES.values()}))
    raise UnknownGameError(f"no game called {name!r}; games: {known}")


def resolve_variant(game_name: str, variant: str | None = None) -> tuple[AnyGame, Any]:
    """The game and the config of one of its presets (the default when ``variant`` is None)."""
    game = get_game(game_name)
    if variant is None:
        return game, game.default_config()
    return game, game.preset(variant).config
