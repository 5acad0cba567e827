"""Pebbles, a toy game from another package: the shape a third party's fanfold game takes.

Two players take turns to take one to three pebbles (``most``) from a pile of ten
(``pebbles``); whoever takes the last pebble wins. Variants: ``classic`` and ``short`` (five
pebbles, take one or two). Notation: a move is the number of pebbles taken (``2``); a
position is the pebbles left and the seat to move (``7 1``).

The package registers through entry points, as any package would (its ``pyproject.toml``):
the game's plugin in ``fanfold.games`` and its bot, ``onestep``, in ``fanfold.agents``. The
plugin names the rest: its ending, bot levels (``strategy.py``), a lesson (``lessons.py``),
its rules and How-to-play pages and its board (``board.js``).
"""

from pathlib import Path

from fanfold.core.plugin import GamePlugin, WebHints

from .game import PebblesGame, PebblesView
from .rules import PRESETS, PebblesConfig, PebblesEnding, PebblesState, Take

HERE = Path(__file__).resolve().parent

GAME = PebblesGame()

#: What fanfold's layers need of Pebbles (:mod:`fanfold.core.plugin`); the entry point names it.
PLUGIN = GamePlugin(
    GAME,
    terminations=(PebblesEnding.LAST_PEBBLE,),
    rules_doc=HERE / "rules.md",
    lessons="fanfold_pebbles.lessons:lesson_book",
    strategy="fanfold_pebbles.strategy",
    clock="blitz",
    lab_player="onestep",
    web=WebHints(
        blurb="Take one to three pebbles in turn; whoever takes the last one wins. 2 players.",
        order=50,
        notation_example="2",
        board_hint="Make the move on the board: press the button of the pebbles you take.",
        renderer=HERE / "board.js",
        howto=HERE / "howto.html",
    ),
)

__all__ = [
    "GAME",
    "PLUGIN",
    "PRESETS",
    "PebblesConfig",
    "PebblesEnding",
    "PebblesGame",
    "PebblesState",
    "PebblesView",
    "Take",
]
