"""The built-in games, in one explicit list. Importing this package registers each one.

The root package :mod:`fanfold` imports it, so the built-in games are registered before any
lookup, also in a run from the source tree; games from other packages are found through their
``fanfold.games`` entry points (:mod:`fanfold.core.registry`). Each game is registered with
its plugin (``PLUGIN`` in its package, :mod:`fanfold.core.plugin`): what the layers above the
rules need of it.
"""

from fanfold.core.plugin import GamePlugin
from fanfold.core.registry import AnyGame, register
from fanfold.games import fan, fano, fantan, morris

#: The built-in games' plugins in the order the registry lists them.
BUILTIN_PLUGINS: tuple[GamePlugin, ...] = (fan.PLUGIN, fano.PLUGIN, fantan.PLUGIN, morris.PLUGIN)
#: The built-in games in the order the registry lists them.
BUILTIN_GAMES: tuple[AnyGame, ...] = tuple(plugin.game for plugin in BUILTIN_PLUGINS)

for _plugin in BUILTIN_PLUGINS:
    register(_plugin)

__all__ = ["BUILTIN_GAMES", "BUILTIN_PLUGINS", "fan", "fano", "fantan", "morris"]
