"""Drawing a Fano330-R-Morris board as plain text for the terminal."""

from __future__ import annotations

from fanfold.core.game import drawn
from fanfold.core.phrases import Phrase, phrases
from fanfold.games.morris.board import BLACK, POINTS, WHITE
from fanfold.games.morris.notation import format_position
from fanfold.games.morris.state import MorrisState

_TEMPLATE = r"""
                     3[  ]
                      /|\
                     / | \
                    /  |  \
                   /   |   \
              2[  ]    |    4[  ]
               / `.    |    .' \
              /    `.7[  ].'    \
             /     .'  |  `.     \
            /    .'    |    `.    \
        5[  ]---------1[  ]---------6[  ]
"""


phrases(
    {
        "morris.board_key": "circle: 1-2-4   C/T white, c/t black (bottom to top)",
        "morris.board_hands": "in hand: White {white} | Black {black}",
        "morris.to_move_placing": "{side} to move (placement phase)",
        "morris.to_move_moving": "{side} to move (movement phase)",
    },
    terminal=True,
)


def drawing(state: MorrisState) -> list[tuple[str, ...]]:
    """The board drawn as the Fano plane, each point showing its stack bottom to top, then
    the key, the pieces in hand and the position: lines of pieces (the labels phrases,
    :meth:`fanfold.core.game.Game.drawing`)."""
    board = _TEMPLATE
    for point in range(1, POINTS + 1):
        board = board.replace(f"{point}[  ]", f"{point}[{state.board[point - 1]:<2}]")
    white, black = state.in_hand(WHITE), state.in_hand(BLACK)
    hands = Phrase(
        "morris.board_hands",
        white=f"{'C' * white['C']}{'T' * white['T']}",
        black=f"{'c' * black['C']}{'t' * black['T']}",
    )
    lines: list[tuple[str, ...]] = [(line,) for line in board.rstrip("\n").split("\n")]
    lines += [("",), ("  ", Phrase("morris.board_key"))]
    lines += [("  ", hands), ("  ", Phrase("game.board_position", position=format_position(state)))]
    return lines


def render_board(state: MorrisState) -> str:
    """:func:`drawing` as text, in English."""
    return drawn(drawing(state))
