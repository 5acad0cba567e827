"""The registry of games, by versioned id, short name and alias.

The built-in games are registered by :mod:`fanfold.games` (one explicit list), which the root
package :mod:`fanfold` imports, so they are here before any lookup. Games from other packages
are found through entry points in the ``fanfold.games`` group, loaded on the first lookup;
each names a :class:`~fanfold.core.game.Game` object (``docs/api.md``, "Adding a game")::

    >>> get_game("morris").id
    'morris.v1'
    >>> get_game("morris.v1") is get_game("Morris")
    True
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from fanfold.core.errors import UnknownGameError
from fanfold.core.game import Game

AnyGame = Game[Any, Any, Any, Any]

#: The entry-point group of games from other packages.
ENTRY_POINT_GROUP = "fanfold.games"

_GAMES: dict[str, AnyGame] = {}
_ALIASES: dict[str, str] = {}
_loaded = False


def register(game: AnyGame, *aliases: str) -> AnyGame:
    """Add a game under its id, its short name, its declared aliases (``Game.aliases``) and
    ``aliases``. Returns the game.

    Raises:
        ValueError: a game with that id is registered already.
    """
    if game.id in _GAMES:
        raise ValueError(f"game {game.id} is already registered")
    _GAMES[game.id] = game
    for name in (game.name, *game.aliases, *aliases):
        _ALIASES[name.lower()] = game.id
    return game


def register_entry_point(entry: EntryPoint) -> AnyGame | None:
    """Register the game an entry point names; ``None`` when that game is registered already
    (a built-in game is listed both here and in :mod:`fanfold.games`).

    Raises:
        TypeError: the entry point names something that is not a game.
        ValueError: another game with the same id is registered already.
    """
    game = entry.load()
    if not isinstance(game, Game):
        raise TypeError(
            f"the {ENTRY_POINT_GROUP} entry point {entry.name} = {entry.value!r} names "
            f"{type(game).__name__}, not a fanfold Game object"
        )
    if _GAMES.get(game.id) is game:
        return None
    return register(game)


def load_entry_points(
    found: Iterable[EntryPoint], register: Callable[[EntryPoint], object], what: str
) -> None:
    """Register every entry point ``found`` (one group's) with ``register``; one that fails is
    left out with a warning naming it (``what``: "game", "agent"), and the others stay
    available."""
    for entry in found:
        try:
            register(entry)
        except Exception as error:
            warnings.warn(
                f"the {what} {entry.name!r} ({entry.value}) was not loaded: {error}",
                RuntimeWarning,
                stacklevel=4,
            )


def _ensure_loaded() -> None:
    """Register the games of other packages' entry points, once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    load_entry_points(entry_points(group=ENTRY_POINT_GROUP), register_entry_point, "game")


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
    return set_up(game_name, variant)


def set_up(
    game: AnyGame | str,
    variant: str | None = None,
    options: Mapping[str, object] | None = None,
    players: int | None = None,
) -> tuple[AnyGame, Any]:
    """A game's set-up: the game (by name or as it is) and the config of one of its presets
    (the default when ``variant`` is None), with config ``options`` changed (values as text,
    ``players=4``, or Python values, ``True``, ``None``) and then seated for ``players``.
    Every front end resolves a new game's set-up here::

        >>> game, config = set_up("fantan", options={"hands": 3}, players=5)
        >>> game.id, config.hands, config.players
        ('fantan.v1', 3, 5)

    Raises:
        UnknownGameError: an unknown game or variant.
        ConfigError: an unknown option, a value out of range, a player count the game (or
            the variant) does not seat.
    """
    found = get_game(game) if isinstance(game, str) else game
    config = found.default_config() if variant is None else found.preset(variant).config
    if options:
        config = config.with_options({name: _option_text(v) for name, v in options.items()})
    if players is not None:
        config = found.with_players(config, players)
    return found, config


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)
