"""fanfold: rules engines, AI players, solvers and play for the Fan family of games.

The public entry points are re-exported here::

    >>> import fanfold
    >>> game = fanfold.get_game("morris")
    >>> state = game.new_state(game.default_config(), seed=0)
    >>> game.current_player(state)
    0
"""

from fanfold.core.errors import (
    ConfigError,
    FanfoldError,
    IllegalActionError,
    NotationError,
    RecordError,
    UnknownGameError,
)
from fanfold.core.game import Game, Outcome, Preset, Termination
from fanfold.core.plugin import GamePlugin, WebHints
from fanfold.core.records import GameRecord
from fanfold.core.registry import all_games, get_game, plugin_of, resolve_variant, set_up
from fanfold.games import BUILTIN_GAMES  # importing it registers the built-in games

__version__ = "0.1.0"

__all__ = [
    "BUILTIN_GAMES",
    "ConfigError",
    "FanfoldError",
    "Game",
    "GamePlugin",
    "GameRecord",
    "IllegalActionError",
    "NotationError",
    "Outcome",
    "Preset",
    "RecordError",
    "Termination",
    "UnknownGameError",
    "WebHints",
    "__version__",
    "all_games",
    "get_game",
    "plugin_of",
    "resolve_variant",
    "set_up",
]
