"""Fano330-R-Morris's legal actions described for the player to move.

References: ``point:N`` is point N of the plane (1 to 7; the view lists them in ``points``,
beside ``board``, whose N-th stack lies on point N). A placement points at its point
(``details``: the shape, ``C`` or ``T``, and the point); a move at the point it leaves, then
the point it goes to.
"""

from __future__ import annotations

from collections.abc import Sequence

from fanfold.core.game import Choice
from fanfold.games.morris.actions import MorrisAction, Place
from fanfold.games.morris.board import SIDE_NAMES, colour_of
from fanfold.games.morris.view import MorrisView, point_ref

_SHAPE = {"C": "circle", "T": "triangle"}


def _piece(letter: str) -> str:
    return f"{SIDE_NAMES[colour_of(letter)]}'s {_SHAPE[letter.upper()]}"


def _onto(stack: str) -> str:
    return f" onto {_piece(stack[-1])}" if stack else ""


def choices_for(view: MorrisView, actions: Sequence[MorrisAction]) -> list[Choice]:
    """The legal ``actions`` described from the ``view``, one choice each, in order."""
    board = view.state.board
    found = []
    for action in actions:
        if isinstance(action, Place):
            stack = board[action.point - 1]
            found.append(
                Choice(
                    str(action),
                    "place",
                    f"Place a {_SHAPE[action.shape]} on point {action.point}{_onto(stack)}",
                    (point_ref(action.point),),
                    {"shape": action.shape, "point": action.point},
                )
            )
            continue
        stack = board[action.source - 1]
        letter = stack[-1]
        found.append(
            Choice(
                str(action),
                "move",
                f"Move your {_SHAPE[letter.upper()]} from point {action.source} to point "
                f"{action.target}{_onto(board[action.target - 1])}",
                (point_ref(action.source), point_ref(action.target)),
                {
                    "from": action.source,
                    "to": action.target,
                    "shape": letter.upper(),
                },
            )
        )
    return found
