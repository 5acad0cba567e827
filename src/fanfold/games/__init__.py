"""The built-in games, in one explicit list. Importing this package registers each one.

The root package :mod:`fanfold` imports it, so the built-in games are registered before any
lookup, also in a run from the source tree; games from other packages are found through their
``fanfold.games`` entry points (:mod:`fanfold.core.registry`).
"""

from fanfold.core.registry import AnyGame, register
from fanfold.games import fan, fano, fantan, morris

#: The built-in games in the order the registry lists them.
BUILTIN_GAMES: tuple[AnyGame, ...] = (fan.GAME, fano.GAME, fantan.GAME, morris.GAME)

for _game in BUILTIN_GAMES:
    register(_game)

__all__ = ["BUILTIN_GAMES", "fan", "fano", "fantan", "morris"]
