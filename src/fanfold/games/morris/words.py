"""Fano330-R-Morris's moves told in words, and the points they mark on the board.

Nothing is hidden in Morris: every watcher hears the same sentence, "You" for their own side.
A placement names its shape, its point and the piece it covers; a move the point it leaves and
the point it goes to; a move that ends the game says how.
"""

from __future__ import annotations

from fanfold.games.morris import rules
from fanfold.games.morris.actions import MorrisAction, Place
from fanfold.games.morris.board import SHAPE_NAMES, SIDE_NAMES, colour_of
from fanfold.games.morris.state import MorrisState
from fanfold.games.morris.view import point_ref


def _piece(letter: str, observer: int | None) -> str:
    colour = colour_of(letter)
    owner = "your" if observer == colour else f"{SIDE_NAMES[colour]}'s"
    return f"{owner} {SHAPE_NAMES[letter.upper()]}"


def describe(
    state: MorrisState, after: MorrisState, action: MorrisAction, observer: int | None
) -> str:
    """``action``, taken in ``state`` (leading to ``after``), in a sentence for ``observer``."""
    side = state.to_move
    who = "You" if observer == side else SIDE_NAMES[side]
    if isinstance(action, Place):
        below = state.board[action.point - 1]
        onto = f", onto {_piece(below[-1], observer)}" if below else ""
        words = f"{who} placed a {SHAPE_NAMES[action.shape]} on point {action.point}{onto}"
    else:
        letter = state.board[action.source - 1][-1]
        below = state.board[action.target - 1]
        onto = f", onto {_piece(below[-1], observer)}" if below else ""
        uncovered = state.board[action.source - 1][:-1]
        left = f" (uncovering {_piece(uncovered[-1], observer)})" if uncovered else ""
        words = (
            f"{who} moved a {SHAPE_NAMES[letter.upper()]} from point {action.source}{left} "
            f"to point {action.target}{onto}"
        )
    ended = rules.outcome(after)
    if ended is not None:
        reason = ended.reason
        return f"{words}. {reason[:1].upper()}{reason[1:]}."
    return words + "."


def highlight(action: MorrisAction) -> tuple[str, ...]:
    """The point a placement lands on; the points a move leaves and reaches."""
    if isinstance(action, Place):
        return (point_ref(action.point),)
    return (point_ref(action.source), point_ref(action.target))
