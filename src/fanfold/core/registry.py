"""The registry of games, by versioned id, short name and alias, each with its plugin.

The built-in games are registered by :mod:`fanfold.games` (one explicit list), which the root
package :mod:`fanfold` imports, so they are here before any lookup. Games from other packages
are found through entry points in the ``fanfold.games`` group, loaded on the first lookup;
each names a :class:`~fanfold.core.plugin.GamePlugin` (or a bare
:class:`~fanfold.core.game.Game` object, which then has a plugin with nothing but the game;
``docs/adding-a-game.md``). Every layer asks :func:`plugin_of` for what it needs of a game::

    >>> get_game("morris").id
    'morris.v1'
    >>> get_game("morris.v1") is get_game("Morris")
    True
    >>> plugin_of("morris").clock
    'blitz'
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Generic, TypeVar

from fanfold.core.errors import Refusal, UnknownGameError, templates
from fanfold.core.game import Game
from fanfold.core.plugin import GamePlugin

AnyGame = Game[Any, Any, Any, Any]

#: The entry-point group of games from other packages.
ENTRY_POINT_GROUP = "fanfold.games"

_GAMES: dict[str, AnyGame] = {}
_PLUGINS: dict[str, GamePlugin] = {}
_ALIASES: dict[str, str] = {}
_loaded = False


def register(game: AnyGame | GamePlugin, *aliases: str) -> AnyGame:
    """Add a game (or a plugin and its game) under the game's id, its short name, its
    declared aliases (``Game.aliases``) and ``aliases``. Returns the game.

    Raises:
        ValueError: a game with that id is registered already.
    """
    plugin = game if isinstance(game, GamePlugin) else GamePlugin(game)
    found = plugin.game
    if found.id in _GAMES:
        raise ValueError(f"game {found.id} is already registered")
    _GAMES[found.id] = found
    _PLUGINS[found.id] = plugin
    for name in (found.name, *found.aliases, *aliases):
        _ALIASES[name.lower()] = found.id
    return found


def register_entry_point(entry: EntryPoint) -> AnyGame | None:
    """Register the plugin (or the bare game) an entry point names; ``None`` when that game
    is registered already (a built-in game is listed both here and in :mod:`fanfold.games`).

    Raises:
        TypeError: the entry point names something that is neither a plugin nor a game.
        ValueError: another game with the same id is registered already.
    """
    named = entry.load()
    if not isinstance(named, GamePlugin | Game):
        raise TypeError(
            f"the {ENTRY_POINT_GROUP} entry point {entry.name} = {entry.value!r} names "
            f"{type(named).__name__}, not a fanfold GamePlugin or Game object"
        )
    game = named.game if isinstance(named, GamePlugin) else named
    if _GAMES.get(game.id) is game:
        return None
    return register(named)


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


def all_plugins() -> list[GamePlugin]:
    """The plugin of every registered game, in registration order."""
    return [plugin_of(game) for game in all_games()]


def plugin_of(game: AnyGame | str) -> GamePlugin:
    """What the layers above the rules need of ``game`` (a game, or a name for
    :func:`get_game`): the plugin it was registered with, or for a game registered bare (or
    not at all) a plugin with nothing but the game."""
    found = get_game(game) if isinstance(game, str) else game
    plugin = _PLUGINS.get(found.id)
    if plugin is None or plugin.game is not found:
        return GamePlugin(found)
    return plugin


T = TypeVar("T")


class ByGame(Mapping[str, T], Generic[T]):
    """A read-only table, by game name, of what ``read`` takes from each registered game's
    plugin (games for which it gives ``None`` left out), in registration order or by
    ``order``, read from the registry at each look, so that a game registered later is in
    it. For code that looked a game up by name before the plugins; new code asks
    :func:`plugin_of`."""

    def __init__(
        self,
        read: Callable[[GamePlugin], T | None],
        *,
        order: Callable[[GamePlugin], int] | None = None,
    ) -> None:
        self._read = read
        self._order = order

    def _table(self) -> dict[str, T]:
        plugins = all_plugins()
        if self._order is not None:
            plugins.sort(key=self._order)  # stable: registration order among equals
        found = ((plugin.name, self._read(plugin)) for plugin in plugins)
        return {name: value for name, value in found if value is not None}

    def __getitem__(self, name: str) -> T:
        return self._table()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


#: The refusal of a name that is no game (``docs/i18n.md``).
templates({"game.unknown": "no game called '{name}'; games: {games}"})


def get_game(name: str) -> AnyGame:
    """A game by versioned id (``morris.v1``), short name (``morris``) or alias."""
    _ensure_loaded()
    key = name.strip().lower()
    if key in _GAMES:
        return _GAMES[key]
    if key in _ALIASES:
        return _GAMES[_ALIASES[key]]
    known = ", ".join(sorted({game.name for game in _GAMES.values()}))
    raise UnknownGameError(Refusal("game.unknown", name=name, games=known))


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
