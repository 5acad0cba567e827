"""Fan patience moves. ``str()`` is the canonical notation.

=========  ===============================================================
``3-7``    the top card of fan 3 onto fan 7
``3-F``    the top card of fan 3 to its foundation
``3-7:2``  the top two cards of fan 3 together (where sequences may move)
=========  ===============================================================

>>> parse_move("12 f"), str(parse_move("3>7:2"))
(FanMove(source=12, target=None, count=1), '3-7:2')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fanfold.core.errors import NotationError, Refusal, templates
from fanfold.core.phrases import Phrase, phrases
from fanfold.games.fan.deals import NUM_FANS


@dataclass(frozen=True, slots=True)
class FanMove:
    """Move the top ``count`` cards of fan ``source`` to fan ``target`` or the foundations.

    Fans are numbered 1..18; ``target`` is ``None`` for the foundations (one card at a time).
    """

    source: int
    target: int | None
    count: int = 1

    def __str__(self) -> str:
        target = "F" if self.target is None else str(self.target)
        suffix = f":{self.count}" if self.count != 1 else ""
        return f"{self.source}-{target}{suffix}"


_MOVE = re.compile(r"^\s*(\d{1,2})\s*(?:-|>|->|\s)\s*(\d{1,2}|[fF])\s*(?::\s*(\d{1,2}))?\s*$")

phrases(
    {
        "fan.notation_help": (
            "Fans are numbered 1 to 18; only the top (rightmost) card of a fan moves.\n"
            "Move the top card of fan 3 onto fan 7: 3-7. To its foundation: 3-F.\n"
            "Fans build down by suit (7S on 8S); only a king fills an empty fan unless the "
            "variant says any card.\nWhere sequences may move, 3-7:2 moves the top two cards "
            "of fan 3 together."
        )
    },
    terminal=True,
)
NOTATION_HELP = Phrase("fan.notation_help")

templates(
    {
        "fan.not_a_move": "'{text}' is not a Fan move: write source fan, '-', and a target fan "
        "or F for the foundations, e.g. 3-7 or 12-F (3-7:2 moves two cards where sequences "
        "may move)",
        "fan.move_to_another": "a move goes from one fan to another",
    }
)


def parse_move(text: str) -> FanMove:
    """Read ``3-7`` (fan 3 onto fan 7), ``3-F`` (to the foundations) or ``3-7:2`` (two cards)."""
    match = _MOVE.match(text)
    if not match:
        raise NotationError(Refusal("fan.not_a_move", text=text))
    source = int(match.group(1))
    target = None if match.group(2) in "fF" else int(match.group(2))
    count = int(match.group(3)) if match.group(3) else 1
    for number in (source, target):
        if number is not None and not 1 <= number <= NUM_FANS:
            raise NotationError(Refusal("fan.no_such_fan", fan=number, fans=NUM_FANS))
    if source == target:
        raise NotationError(Refusal("fan.move_to_another"))
    if count < 1:
        raise NotationError(Refusal("fan.no_cards"))
    if target is None and count != 1:
        raise NotationError(Refusal("fan.home_one_at_a_time"))
    return FanMove(source, target, count)
