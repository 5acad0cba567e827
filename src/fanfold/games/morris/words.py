"""Fano330-R-Morris's moves told in words, and the points they mark on the board.

Nothing is hidden in Morris: every watcher hears the same sentence, "You" for their own side.
A placement names its shape, its point and the piece it covers; a move the point it leaves and
the point it goes to; a move that ends the game says how.
"""

from __future__ import annotations

import fanfold.games.morris.choices  # noqa: F401  (registers the pieces' phrases)
from fanfold.core.phrases import Phrase, PhraseParam, phrases
from fanfold.games.morris import rules
from fanfold.games.morris.actions import MorrisAction, Place
from fanfold.games.morris.board import SHAPE_NAMES, SIDE_NAMES, colour_of
from fanfold.games.morris.state import MorrisState
from fanfold.games.morris.view import point_ref

phrases(
    {
        "morris.you_placed": "You placed a {shape} on point {point}{onto}",
        "morris.placed": "{side} placed a {shape} on point {point}{onto}",
        "morris.you_moved": (
            "You moved a {shape} from point {source}{uncovering} to point {target}{onto}"
        ),
        "morris.moved": (
            "{side} moved a {shape} from point {source}{uncovering} to point {target}{onto}"
        ),
        "morris.onto": ", onto {piece}",
        "morris.uncovering": " (uncovering {piece})",
        "morris.your_piece": "your {shape}",
        "morris.white": "White",
        "morris.black": "Black",
    }
)


def _piece(letter: str, observer: int | None) -> Phrase:
    colour = colour_of(letter)
    shape = SHAPE_NAMES[letter.upper()]
    if observer == colour:
        return Phrase("morris.your_piece", shape=shape)
    return Phrase("morris.sides_piece", side=SIDE_NAMES[colour], shape=shape)


def _onto(below: str, observer: int | None) -> PhraseParam:
    return Phrase("morris.onto", piece=_piece(below[-1], observer)) if below else ""


def describe(
    state: MorrisState, after: MorrisState, action: MorrisAction, observer: int | None
) -> str:
    """``action``, taken in ``state`` (leading to ``after``), in a sentence for ``observer``."""
    side = state.to_move
    mine = observer == side
    words: Phrase
    if isinstance(action, Place):
        below = state.board[action.point - 1]
        shape = SHAPE_NAMES[action.shape]
        onto = _onto(below, observer)
        if mine:
            words = Phrase("morris.you_placed", shape=shape, point=action.point, onto=onto)
        else:
            words = Phrase(
                "morris.placed", side=SIDE_NAMES[side], shape=shape, point=action.point, onto=onto
            )
    else:
        letter = state.board[action.source - 1][-1]
        onto = _onto(state.board[action.target - 1], observer)
        uncovered = state.board[action.source - 1][:-1]
        left: PhraseParam = ""
        if uncovered:
            left = Phrase("morris.uncovering", piece=_piece(uncovered[-1], observer))
        where = {"source": action.source, "uncovering": left, "target": action.target}
        shape = SHAPE_NAMES[letter.upper()]
        if mine:
            words = Phrase("morris.you_moved", shape=shape, onto=onto, **where)
        else:
            words = Phrase("morris.moved", side=SIDE_NAMES[side], shape=shape, onto=onto, **where)
    ended = rules.ending_words(after)
    if ended is not None:
        return Phrase("words.sentence_end", words=words, ending=ended)
    return Phrase("words.sentence", words=words)


def highlight(action: MorrisAction) -> tuple[str, ...]:
    """The point a placement lands on; the points a move leaves and reaches."""
    if isinstance(action, Place):
        return (point_ref(action.point),)
    return (point_ref(action.source), point_ref(action.target))
