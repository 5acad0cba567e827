"""Fano330-R-Morris states: the board, the side to move, and what the rules need of the past."""

from __future__ import annotations

from dataclasses import dataclass

from fanfold.games.morris.board import PIECES_PER_SHAPE, SHAPES, colour_of
from fanfold.games.morris.config import MorrisConfig


@dataclass(frozen=True, slots=True)
class MorrisState:
    """A position and what the rules need of its past.

    Attributes:
        config: the variant.
        board: seven stacks (points 1..7), each a string of piece letters bottom to top.
        to_move: ``WHITE`` or ``BLACK``.
        history: every earlier position of the movement phase (board and side to move), for
            the repetition rule.
        drawn: True when this position repeats an earlier one, which ends the game drawn.
    """

    config: MorrisConfig
    board: tuple[str, ...]
    to_move: int
    history: frozenset[tuple[tuple[str, ...], int]] = frozenset()
    drawn: bool = False

    @property
    def key(self) -> tuple[tuple[str, ...], int]:
        """The board and the side to move: what the repetition rule compares."""
        return self.board, self.to_move

    def in_hand(self, side: int) -> dict[str, int]:
        """Pieces of each shape ``side`` still has to place."""
        counts = dict.fromkeys(SHAPES, PIECES_PER_SHAPE)
        for stack in self.board:
            for piece in stack:
                if colour_of(piece) == side:
                    counts[piece.upper()] -= 1
        return counts

    @property
    def is_placement(self) -> bool:
        """True while the side to move still has pieces in hand."""
        return sum(len(stack) for stack in self.board) < 2 * len(SHAPES) * PIECES_PER_SHAPE
