"""Fano330-R-Morris: a two-player abstract game on the Fano plane (rules: seeds/002).

Each player has two circles and two triangles of their colour (white ``C T``, black ``c t``).
Players first take turns stacking a piece from hand on one of the seven points (at most two
pieces to a point, never two of the same shape and colour), then take turns moving one of
their top pieces to an adjacent point. The player who ends their own turn with three occupied
points on a line whose top pieces are all one colour or all one shape, of either colour,
loses; so does a player with no legal move at the start of a movement turn. A repeated
position is a draw.

Variants: ``geometric`` adjacency (neighbours on the drawing, the default) and ``complete``
(any two points on a common line). See ``docs/rules/morris.md``.

Notation: a placement is the shape and the point (``C1``, ``T7``: the colour is the mover's);
a move is the two points (``3-5``). A position is the seven points bottom to top, ``/``
between them, then the side to move: ``C/-/tc/-/-/-/T b``.

Modules: ``config`` (options and presets), ``board`` (points, lines, adjacency, pieces),
``actions``, ``state``, ``rules`` (everything the rules decide; ``why_illegal`` is the one
source of legality), ``view``, ``notation``, ``render`` and ``game`` (the
:class:`~fanfold.core.game.Game` object).
"""

from fanfold.core.game import Termination
from fanfold.core.plugin import GamePlugin, WebHints
from fanfold.games.morris.actions import MorrisAction, Move, Place
from fanfold.games.morris.board import GEOMETRIC_ADJACENT, LINES
from fanfold.games.morris.config import PRESETS, Adjacency, MorrisConfig
from fanfold.games.morris.game import MorrisGame
from fanfold.games.morris.state import MorrisState
from fanfold.games.morris.view import MorrisView

GAME = MorrisGame()

#: What the layers above the rules need of Fano330-R-Morris (:mod:`fanfold.core.plugin`).
PLUGIN = GamePlugin(
    GAME,
    terminations=(Termination.LINE_OF_THREE, Termination.REPETITION, Termination.NO_MOVE),
    lessons="fanfold.games.morris.lessons:lesson_book",
    strategy="fanfold.agents.strategy.morris",
    analyses="fanfold.play.analysis:MORRIS_ANALYSES",
    clock="blitz",
    rating_families={"morris": "Fano330-R-Morris"},
    lab_player="medium",
    encoding="fanfold.envs.morris:MorrisEncoding",
    web=WebHints(
        blurb="Place and move circles and triangles on seven points; whoever completes a line "
        "of three loses. 2 players.",
        order=2,
        notation_example="C1 or 3-5",
        options_example="adjacency=complete",
        board_hint="Make the move on the board: choose a shape or one of your pieces, then a "
        "lit point.",
    ),
)

__all__ = [
    "GAME",
    "GEOMETRIC_ADJACENT",
    "LINES",
    "PLUGIN",
    "PRESETS",
    "Adjacency",
    "MorrisAction",
    "MorrisConfig",
    "MorrisGame",
    "MorrisState",
    "MorrisView",
    "Move",
    "Place",
]
