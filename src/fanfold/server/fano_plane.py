"""The Fano plane as the site draws it: where its seven points lie, which are the six straight
lines, and the How-to-play page's picture of it (``[[figure:fano-plane]]`` in a fragment).

The table's board (``static/games/fano.js``: ``POINTS``, ``STRAIGHT``, ``CENTRE``, ``RADIUS``)
draws the plane from the same numbers, so that a player finds each value at the same place on
both pages; ``tests/server/test_fano_plane.py`` fails when the two differ. The numbering is the
rules text's (``docs/rules/fano.md``, seeds/000): the cycle "at the heart of the plane",
3 -> 5 -> 2, is the circle, and every other cycle of :data:`fanfold.games.fano.cards.CYCLES` is
a straight line: 1 on top, 4 and 6 at the bottom corners, 2, 5 and 3 the middles of the sides,
7 the centre.
"""

from __future__ import annotations

from markupsafe import Markup

from fanfold.server.templating import render

#: Each point's place, in the drawing's units (x to the right, y down).
POINTS: dict[int, tuple[float, float]] = {
    1: (100, 24),
    2: (55, 102),
    3: (100, 180),
    4: (10, 180),
    5: (145, 102),
    6: (190, 180),
    7: (100, 128),
}
#: The six straight lines, each as its points lie along it (an end, the middle, the other end).
STRAIGHT: tuple[tuple[int, int, int], ...] = (
    (1, 2, 4),
    (1, 5, 6),
    (4, 3, 6),
    (1, 7, 3),
    (2, 7, 6),
    (5, 7, 4),
)
#: The circle through the middles of the sides (2, 3 and 5): its centre and radius.
CENTRE: tuple[float, float] = (100, 128)
RADIUS = 51


def plane_svg() -> Markup:
    """The plane for a How-to-play page: the lines, the circle and the numbered points (the
    table draws the cycles' directions and the attacks on it too)."""
    return render(
        "fano_plane.html",
        lines=[(POINTS[a], POINTS[c]) for a, _, c in STRAIGHT],
        centre=CENTRE,
        radius=RADIUS,
        points=sorted(POINTS.items()),
    )
