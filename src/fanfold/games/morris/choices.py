"""Fano330-R-Morris's legal actions described for the player to move.

References: ``point:N`` is point N of the plane (1 to 7; the view lists them in ``points``,
beside ``board``, whose N-th stack lies on point N). A placement points at its point
(``details``: the shape, ``C`` or ``T``, and the point); a move at the point it leaves, then
the point it goes to.
"""

from __future__ import annotations

from collections.abc import Sequence

from fanfold.core.game import Choice
from fanfold.core.phrases import Phrase, PhraseParam, phrases
from fanfold.games.morris.actions import MorrisAction, Place
from fanfold.games.morris.board import SIDE_NAMES, colour_of
from fanfold.games.morris.view import MorrisView, point_ref

_SHAPE = {"C": "circle", "T": "triangle"}


phrases(
    {
        "morris.place": "Place a {shape} on point {point}{onto}",
        "morris.move": "Move your {shape} from point {source} to point {target}{onto}",
        "morris.choice_onto": " onto {piece}",
        "morris.sides_piece": "{side}'s {shape}",
    }
)


def _piece(letter: str) -> Phrase:
    return Phrase(
        "morris.sides_piece", side=SIDE_NAMES[colour_of(letter)], shape=_SHAPE[letter.upper()]
    )


def _onto(stack: str) -> PhraseParam:
    return Phrase("morris.choice_onto", piece=_piece(stack[-1])) if stack else ""


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
                    Phrase(
                        "morris.place",
                        shape=_SHAPE[action.shape],
                        point=action.point,
                        onto=_onto(stack),
                    ),
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
                Phrase(
                    "morris.move",
                    shape=_SHAPE[letter.upper()],
                    source=action.source,
                    target=action.target,
                    onto=_onto(board[action.target - 1]),
                ),
                (point_ref(action.source), point_ref(action.target)),
                {
                    "from": action.source,
                    "to": action.target,
                    "shape": letter.upper(),
                },
            )
        )
    return found
