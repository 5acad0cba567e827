"""The Fano plane as a Morris board: its points, lines and adjacency, and the pieces.

Points are numbered 1 to 7 as in the rules text; a board is seven stacks, each a string of
piece letters bottom to top: ``C``/``T`` a white circle/triangle, ``c``/``t`` a black one.

>>> neighbours(Adjacency.GEOMETRIC)[7], len(neighbours(Adjacency.COMPLETE)[7])
((1, 2, 3, 4, 5, 6), 6)
>>> colour_of("t") == BLACK, piece_for(BLACK, "C")
(True, 'c')
"""

from __future__ import annotations

from functools import cache

from fanfold.games.morris.config import Adjacency

#: The seven lines as the rules text lists them (the circle is 1-2-4).
LINES: tuple[tuple[int, int, int], ...] = (
    (1, 2, 4),
    (5, 2, 3),
    (3, 4, 6),
    (6, 1, 5),
    (2, 7, 6),
    (4, 7, 5),
    (1, 7, 3),
)

#: Neighbours on the drawing: consecutive points on a side or median, any two on the circle.
GEOMETRIC_ADJACENT: frozenset[frozenset[int]] = frozenset(
    frozenset(pair)
    for pair in (
        (5, 2), (2, 3), (3, 4), (4, 6), (6, 1), (1, 5),  # the triangle's sides
        (2, 7), (7, 6), (4, 7), (7, 5), (1, 7), (7, 3),  # the medians through the centre 7
        (1, 2), (2, 4), (4, 1),  # the inscribed circle
    )
)  # fmt: skip

WHITE, BLACK = 0, 1
SIDE_NAMES = ("White", "Black")
SIDE_LETTERS = ("w", "b")
#: Piece letters: upper case white, lower case black; C/c circle, T/t triangle.
PIECES = "CTct"
SHAPES = "CT"
SHAPE_NAMES = {"C": "circle", "T": "triangle"}
PIECES_PER_SHAPE = 2
POINTS = 7
MAX_STACK = 2


@cache
def neighbours(adjacency: Adjacency) -> tuple[tuple[int, ...], ...]:
    """``neighbours(adjacency)[p]`` lists the points adjacent to point ``p`` (index 0 unused)."""
    result: list[tuple[int, ...]] = [()]
    for point in range(1, POINTS + 1):
        if adjacency is Adjacency.COMPLETE:
            result.append(tuple(q for q in range(1, POINTS + 1) if q != point))
        else:
            result.append(
                tuple(
                    q for q in range(1, POINTS + 1) if frozenset((point, q)) in GEOMETRIC_ADJACENT
                )
            )
    return tuple(result)


def colour_of(piece: str) -> int:
    """``WHITE`` for an upper-case piece letter, ``BLACK`` for lower case."""
    return WHITE if piece.isupper() else BLACK


def piece_for(side: int, shape: str) -> str:
    """The piece letter of ``shape`` (``C``/``T``) for ``side``."""
    return shape if side == WHITE else shape.lower()
