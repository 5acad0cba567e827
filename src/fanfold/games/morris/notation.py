"""Fano330-R-Morris position notation: the seven points bottom to top, then the side to move.

A position is the seven stacks, points 1 to 7, separated by ``/`` (each bottom to top with
``C``/``T`` white and ``c``/``t`` black, ``-`` for an empty point), then ``w`` or ``b``:
``C/-/tc/-/-/-/T b``. Reading one checks every rule of a legal position.
"""

from __future__ import annotations

import re

from fanfold.core.errors import NotationError, Refusal, templates
from fanfold.games.morris.board import (
    BLACK,
    MAX_STACK,
    PIECES,
    PIECES_PER_SHAPE,
    SHAPES,
    SIDE_LETTERS,
    SIDE_NAMES,
    WHITE,
)
from fanfold.games.morris.config import MorrisConfig
from fanfold.games.morris.state import MorrisState

#: The notation's errors (:class:`~fanfold.core.errors.Refusal`), worded on the play
#: server's page from the same templates translated.
templates(
    {
        "morris.not_a_position": "'{text}' is not a Morris position: write the points 1..7 "
        "separated by '/', each bottom to top with C/T (white) and c/t (black) or '-' for "
        "empty, then w or b, e.g. 'C/-/tc/-/-/-/T b'",
        "morris.dash_alone": "point {point}: '-' stands alone for an empty point",
        "morris.stacked_twins": "point {point}: two {piece} pieces cannot be stacked",
        "morris.too_many": "there are {count} {piece} pieces; each side has only two",
        "morris.counts_apart": "{white} white and {black} black pieces placed: the players "
        "alternate, so the counts differ by at most one",
        "morris.whose_turn": "with {white} white and {black} black pieces placed it is "
        "{side}'s turn",
    }
)


def format_key(key: tuple[tuple[str, ...], int]) -> str:
    """Position notation of a board and side to move."""
    board, side = key
    return "/".join(stack or "-" for stack in board) + " " + SIDE_LETTERS[side]


def format_position(state: MorrisState) -> str:
    """The position notation, e.g. ``C/-/tc/-/-/-/T b``."""
    return format_key(state.key)


_POSITION = re.compile(r"^\s*([CTct\-]{1,2}(?:/[CTct\-]{1,2}){6})\s+([wbWB])\s*$")


def parse_board(text: str) -> tuple[tuple[str, ...], int]:
    """Read position notation into a board and side, checking every rule of a legal position."""
    match = _POSITION.match(text)
    if not match:
        raise NotationError(Refusal("morris.not_a_position", text=text))
    stacks = match.group(1).split("/")
    board: list[str] = []
    for point, stack in enumerate(stacks, start=1):
        if "-" in stack and stack != "-":
            raise NotationError(Refusal("morris.dash_alone", point=point))
        stack = "" if stack == "-" else stack
        if len(stack) == MAX_STACK and stack[0] == stack[1]:
            raise NotationError(Refusal("morris.stacked_twins", point=point, piece=stack[0]))
        board.append(stack)
    for piece in PIECES:
        count = sum(stack.count(piece) for stack in board)
        if count > PIECES_PER_SHAPE:
            raise NotationError(Refusal("morris.too_many", count=count, piece=piece))
    side = SIDE_LETTERS.index(match.group(2).lower())
    white = sum(1 for stack in board for piece in stack if piece.isupper())
    black = sum(1 for stack in board for piece in stack if piece.islower())
    full = len(SHAPES) * PIECES_PER_SHAPE
    if (white < full or black < full) and abs(white - black) > 1:
        raise NotationError(Refusal("morris.counts_apart", white=white, black=black))
    if white != black and (white < full or black < full):
        fewer = WHITE if white < black else BLACK
        if side != fewer:
            raise NotationError(
                Refusal("morris.whose_turn", white=white, black=black, side=SIDE_NAMES[fewer])
            )
    return tuple(board), side


def parse_position(text: str, config: MorrisConfig) -> MorrisState:
    """A state from position notation (see :func:`parse_board`)."""
    board, side = parse_board(text)
    return MorrisState(config, board, side)
