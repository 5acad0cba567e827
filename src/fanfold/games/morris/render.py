"""Drawing a Fano330-R-Morris board as plain text for the terminal."""

from __future__ import annotations

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


def render_board(state: MorrisState) -> str:
    """The board drawn as the Fano plane; each point shows its stack bottom to top."""
    drawing = _TEMPLATE
    for point in range(1, POINTS + 1):
        drawing = drawing.replace(f"{point}[  ]", f"{point}[{state.board[point - 1]:<2}]")
    white, black = state.in_hand(WHITE), state.in_hand(BLACK)
    hands = (
        f"in hand: White {'C' * white['C']}{'T' * white['T']} "
        f"| Black {'c' * black['C']}{'t' * black['T']}"
    )
    return (
        drawing.rstrip("\n")
        + "\n\n  circle: 1-2-4   C/T white, c/t black (bottom to top)\n  "
        + hands
        + f"\n  position: {format_position(state)}"
    )
