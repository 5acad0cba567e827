"""Fano330-R-Morris encoding.

Actions: the 14 placements (shape ``C``/``T`` of the mover's colour on point 1..7, index
``shape * 7 + point - 1``), then every ordered pair of adjacent points as a move, in source then
target order (30 moves with geometric adjacency, 42 with complete): 44 or 56 actions.

Observation (seen from the observing seat: "mine" is the observer's colour): the two levels
of each point's stack, the pieces each side still has in hand, whose turn it is and the phase.
The positions already seen (the repetition rule) are not in the tensor: they are in the view.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from fanfold.envs.encoding import Encoding
from fanfold.envs.layout import Block, FloatArray, Layout
from fanfold.games.morris import MorrisView, Move, Place
from fanfold.games.morris.board import MAX_STACK, PIECES_PER_SHAPE, POINTS, SHAPES, neighbours

#: Piece planes from the observer's side: my circle, my triangle, their circle, their triangle.
PIECE_PLANES = ("my circle", "my triangle", "their circle", "their triangle")


class MorrisEncoding(Encoding):
    """Actions and observations of Fano330-R-Morris (one variant's adjacency)."""

    def make_layout(self) -> Layout:
        return Layout(
            (
                Block(
                    "board",
                    (POINTS, MAX_STACK, len(PIECE_PLANES)),
                    "point 1..7 x level (0 bottom, 1 top) x piece (my circle, my triangle, "
                    "their circle, their triangle): 1 where that piece is",
                ),
                Block(
                    "in_hand",
                    (2, len(SHAPES)),
                    "side (me, them) x shape (circle, triangle): pieces still to place",
                    high=float(PIECES_PER_SHAPE),
                ),
                Block("to_move", (2,), "1 at me or them: whose turn it is"),
                Block("phase", (2,), "1 at placement or movement"),
            )
        )

    def relative_actions(self) -> Iterable[Hashable]:
        for shape in SHAPES:
            for point in range(1, POINTS + 1):
                yield Place(shape, point)
        adjacent = neighbours(self.config.adjacency)
        for source in range(1, POINTS + 1):
            for target in adjacent[source]:
                yield Move(source, target)

    def fill(self, view: MorrisView, blocks: dict[str, FloatArray]) -> None:
        state = view.state
        me = view.player
        board = blocks["board"]
        for point, stack in enumerate(state.board):
            for level, piece in enumerate(stack):
                mine = (piece.isupper()) == (me == 0)
                plane = (0 if mine else 2) + SHAPES.index(piece.upper())
                board[point, level, plane] = 1.0
        in_hand = blocks["in_hand"]
        for row, side in enumerate((me, 1 - me)):
            counts = state.in_hand(side)
            for column, shape in enumerate(SHAPES):
                in_hand[row, column] = counts[shape]
        blocks["to_move"][0 if state.to_move == me else 1] = 1.0
        blocks["phase"][0 if state.is_placement else 1] = 1.0
