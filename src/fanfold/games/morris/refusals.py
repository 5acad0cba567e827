"""Fano330-R-Morris's refusals: each illegal action's code and English template
(:class:`~fanfold.core.errors.Refusal`), worded on the play server's page from the same template
translated."""

from __future__ import annotations

from fanfold.core.errors import refusal_words, templates
from fanfold.games.morris.board import SHAPE_NAMES, SIDE_NAMES

templates(
    {
        "morris.over": "the game is over ({reason})",
        "morris.not_a_placement": "{action} is not a placement: write a shape, C or T, and a "
        "point from 1 to 7",
        "morris.all_placed": "all pieces are placed: move a piece, e.g. 3-5",
        "morris.none_left": "{side} has no {shape} left to place",
        "morris.point_full": "point {point} already holds two pieces",
        "morris.same_shape": "a {shape} cannot go on a {shape} of its own colour",
        "morris.not_a_move": "{action} is not a move: write two points from 1 to 7, e.g. 3-5",
        "morris.still_placing": "{side} still has pieces to place: place one, e.g. C1",
        "morris.point_empty": "point {point} is empty",
        "morris.not_yours": "the top piece at point {point} is not {side}'s",
        "morris.not_adjacent": "point {target} is not adjacent to point {source}",
        "morris.same_piece": "{piece} cannot be stacked on another {piece}",
    }
)
refusal_words(*SIDE_NAMES, *SHAPE_NAMES.values())
