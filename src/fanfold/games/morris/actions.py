"""Fano330-R-Morris actions: place a piece, or move one. ``str()`` is the canonical notation.

=========  ======================================================================
``C1``     placement: a circle (``T``: a triangle) of the mover's colour on point 1
``3-5``    movement: the mover's top piece at point 3 to the adjacent point 5
=========  ======================================================================

>>> parse_action("t7"), parse_action("3 5")
(Place(shape='T', point=7), Move(source=3, target=5))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fanfold.core.errors import NotationError, Refusal, templates
from fanfold.core.phrases import Phrase, phrases


@dataclass(frozen=True, slots=True)
class Place:
    """Placement phase: put a piece of ``shape`` (``C`` or ``T``) from hand on ``point``."""

    shape: str
    point: int

    def __str__(self) -> str:
        return f"{self.shape}{self.point}"


@dataclass(frozen=True, slots=True)
class Move:
    """Movement phase: move the top piece at ``source`` to the adjacent ``target``."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"{self.source}-{self.target}"


MorrisAction = Place | Move

_PLACE = re.compile(r"^\s*([CTct])\s*@?\s*([1-7])\s*$")
_MOVE = re.compile(r"^\s*([1-7])\s*(?:-|>|->|\s|)\s*([1-7])\s*$")

phrases(
    {
        "morris.notation_help": (
            "Placement: the shape and a point, e.g. C1 (circle on 1) or T7 (triangle on 7); "
            "your colour is implied.\nMovement: from-to, e.g. 3-5 moves your top piece at 3 "
            "to the adjacent point 5.\nPoints: 1 2 4 on the circle; sides 5-2-3, 3-4-6, 6-1-5; "
            "centre 7 on 2-7-6, 4-7-5, 1-7-3."
        )
    },
    terminal=True,
)
NOTATION_HELP = Phrase("morris.notation_help")

templates(
    {
        "morris.move_to_another": "a move goes to another point",
        "morris.not_a_move_text": "'{text}' is not a Morris move: place with shape and point "
        "(C1, T7) or move with two points (3-5)",
    }
)


def parse_action(text: str) -> MorrisAction:
    """Read ``C1`` (place a circle on point 1) or ``3-5`` (move from 3 to 5). Raises
    :class:`NotationError`."""
    place = _PLACE.match(text)
    if place:
        return Place(place.group(1).upper(), int(place.group(2)))
    move = _MOVE.match(text)
    if move:
        source, target = int(move.group(1)), int(move.group(2))
        if source == target:
            raise NotationError(Refusal("morris.move_to_another"))
        return Move(source, target)
    raise NotationError(Refusal("morris.not_a_move_text", text=text))
