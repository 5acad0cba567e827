"""What the site shows of each game besides its rules engine, read from the games' plugins
(:mod:`fanfold.core.plugin`): the browser's hints (``GET /api/games/web``, which the lobby,
the table and the lesson pages read instead of lists of games of their own), the board
modules and the rating families' names. (The How-to-play and exact rules files:
:mod:`fanfold.server.howto`, :mod:`fanfold.server.rules`.)

A built-in game's board is fanfold's own ``static/games/NAME.js``, found by its name; a game
from another package names its own in its plugin (``WebHints.renderer``), served at
``/static/plugins/NAME.js``: beside ``static/games``, so that it imports ``../common.js`` as
the built-in boards do.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

from fanfold.core.config import JSONValue
from fanfold.core.errors import UnknownGameError
from fanfold.core.plugin import GamePlugin
from fanfold.core.registry import all_plugins, plugin_of
from fanfold.server.daily import DAILY_GAME
from fanfold.server.lessons import has_lessons

#: The site's static folder.
STATIC = Path(__file__).parent / "static"
#: The board a game without one of its own is drawn with: its text and a button a move.
GENERIC_BOARD = "/static/games/generic.js"


class GameWeb(BaseModel):
    """What the browser shows of a game (``GET /api/games/web``), in the lobby's order.

    Attributes:
        name: the game's short name (as in ``GET /api/games``).
        blurb: the game in a player's words.
        dealt: the seed changes the game (it deals or draws at random), so the lobby offers a
            seed box.
        seed_label: that box's label.
        daily: the game has the daily deal (``GET /api/daily``).
        lessons: the game has lessons (``/learn/NAME``).
        howto: the How-to-play page.
        renderer: the board's JavaScript module.
        notation_example: an example move for the lesson page's typed move.
        board_hint: the lesson page's sentence on how to move on the board.
        options_example: an option every variant of the game takes, as the lobby's Options
            box is typed (``name=value``; empty: none), the box's example.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    blurb: str
    dealt: bool
    seed_label: str
    daily: bool
    lessons: bool
    howto: str
    renderer: str
    notation_example: str
    board_hint: str
    options_example: str


def lobby_plugins() -> list[GamePlugin]:
    """Every registered game's plugin in the lobby's order (``WebHints.order``, then the
    registry's)."""
    return sorted(all_plugins(), key=lambda plugin: plugin.web.order)


def renderer_file(plugin: GamePlugin) -> Path | None:
    """The file of the game's board module (``None``: it is drawn with the generic board)."""
    own = plugin.web.renderer or STATIC / "games" / f"{plugin.name}.js"
    return own if own.is_file() else None


def renderer_url(plugin: GamePlugin) -> str:
    """Where the browser imports the game's board module from."""
    if plugin.web.renderer is not None and plugin.web.renderer.is_file():
        return f"/static/plugins/{plugin.name}.js"
    if renderer_file(plugin) is not None:
        return f"/static/games/{plugin.name}.js"
    return GENERIC_BOARD


def plugin_renderer(name: str) -> Path | None:
    """The board module a game from another package ships, for ``/static/plugins/NAME.js``
    (``None``: no game of that name ships one)."""
    try:
        plugin = plugin_of(name)
    except UnknownGameError:
        return None
    found = plugin.web.renderer
    return found if plugin.name == name and found is not None and found.is_file() else None


def web_catalogue() -> list[JSONValue]:
    """Every game as the browser shows it (:class:`GameWeb`), in the lobby's order."""
    return [
        {
            "name": plugin.name,
            "blurb": plugin.web.blurb or plugin.game.summary,
            "dealt": plugin.game.traits.chance,
            "seed_label": plugin.web.seed_label,
            "daily": plugin.game is DAILY_GAME,
            "lessons": has_lessons(plugin.name),
            "howto": f"/how-to-play/{plugin.name}",
            "renderer": renderer_url(plugin),
            "notation_example": plugin.web.notation_example,
            "board_hint": plugin.web.board_hint,
            "options_example": plugin.web.options_example,
        }
        for plugin in lobby_plugins()
    ]


def rating_family_titles() -> dict[str, str]:
    """Every rating family of the registered games with its name for players, from their
    plugins (``GamePlugin.rating_families``), in the registry's order."""
    return {
        family: title
        for plugin in all_plugins()
        for family, title in plugin.rating_families.items()
    }
