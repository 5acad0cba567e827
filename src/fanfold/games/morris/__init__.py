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

from fanfold.games.morris.actions import MorrisAction, Move, Place
from fanfold.games.morris.board import GEOMETRIC_ADJACENT, LINES
from fanfold.games.morris.config import PRESETS, Adjacency, MorrisConfig
from fanfold.games.morris.game import MorrisGame
from fanfold.games.morris.state import MorrisState
from fanfold.games.morris.view import MorrisView

GAME = MorrisGame()

__all__ = [
    "GAME",
    "GEOMETRIC_ADJACENT",
    "LINES",
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
