"""What the Fan patience player sees: everything (the deal is open)."""

from __future__ import annotations

from dataclasses import dataclass

from fanfold.core.cards import SUITS
from fanfold.core.config import JSONObject, JSONValue
from fanfold.games.fan.notation import format_position
from fanfold.games.fan.state import FanState


@dataclass(frozen=True)
class FanView:
    """Fan has no hidden information: the one seat sees the whole state."""

    player: int
    state: FanState

    def to_json(self) -> JSONObject:
        fans: list[JSONValue] = [[str(card) for card in fan] for fan in self.state.fans]
        foundations: dict[str, JSONValue] = {
            suit.value: rank for suit, rank in zip(SUITS, self.state.foundations, strict=True)
        }
        return {
            "player": self.player,
            "position": format_position(self.state),
            "fans": fans,
            "foundations": foundations,
            "deal": self.state.deal,
            "any_card_to_empty": self.state.config.any_card_to_empty,
            "sequence_moves": self.state.config.sequence_moves,
            "fan_refs": [fan_ref(number) for number in range(1, len(self.state.fans) + 1)],
            "foundation_ref": FOUNDATIONS,
        }


#: The reference of the foundations, where a move may send a card.
FOUNDATIONS = "F"


def fan_ref(number: int) -> str:
    """The reference of fan ``number`` (1 to 18): ``fan:N``."""
    return f"fan:{number}"
