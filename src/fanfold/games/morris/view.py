"""What a Fano330-R-Morris seat sees: everything (the game has no hidden information)."""

from __future__ import annotations

from dataclasses import dataclass

from fanfold.core.config import JSONObject, JSONValue
from fanfold.games.morris.board import BLACK, SIDE_LETTERS, WHITE
from fanfold.games.morris.notation import format_key, format_position
from fanfold.games.morris.state import MorrisState


@dataclass(frozen=True)
class MorrisView:
    """Fano330-R-Morris has no hidden information: every seat sees the whole state."""

    player: int
    state: MorrisState

    def to_json(self) -> JSONObject:
        board: list[JSONValue] = list(self.state.board)
        return {
            "player": self.player,
            "position": format_position(self.state),
            "board": board,
            "to_move": SIDE_LETTERS[self.state.to_move],
            "placement": self.state.is_placement,
            "in_hand": {
                SIDE_LETTERS[side]: dict(self.state.in_hand(side)) for side in (WHITE, BLACK)
            },
            "adjacency": self.state.config.adjacency.value,
            "history": [format_key(key) for key in sorted(self.state.history)],
            "points": [point_ref(point) for point in range(1, len(self.state.board) + 1)],
        }


def point_ref(point: int) -> str:
    """The reference of point ``point`` of the plane (1 to 7): ``point:N``."""
    return f"point:{point}"
