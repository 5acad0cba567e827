"""Drawing a Fan patience position as plain text for the terminal."""

from __future__ import annotations

from fanfold.core.cards import SUITS
from fanfold.games.fan.notation import FOUNDATION_LETTERS, format_position
from fanfold.games.fan.state import FanState


def render_state(state: FanState) -> str:
    """The layout as text: the foundations, then each fan bottom to top."""
    home = "  ".join(
        f"{suit.symbol} {FOUNDATION_LETTERS[rank]}"
        for suit, rank in zip(SUITS, state.foundations, strict=True)
    )
    lines = [f"Foundations: {home}"]
    for number, fan in enumerate(state.fans, start=1):
        cards = " ".join(str(card) for card in fan) if fan else "(empty)"
        lines.append(f"{number:2d}: {cards}")
    lines.append(f"position: {format_position(state)}")
    return "\n".join(lines)
