"""Drawing a Fan patience position as plain text for the terminal."""

from __future__ import annotations

from fanfold.core.cards import SUITS
from fanfold.core.game import drawn
from fanfold.core.phrases import Phrase, phrases
from fanfold.games.fan.notation import FOUNDATION_LETTERS, format_position
from fanfold.games.fan.state import FanState

phrases(
    {
        "fan.board_foundations": "Foundations: {home}",
        "fan.board_empty": "(empty)",
        "fan.status": "Fan, {count} of 52 cards on the foundations, {legal} legal moves",
        "fan.status_deal": "Fan, deal {deal}, {count} of 52 cards on the foundations, "
        "{legal} legal moves",
    },
    terminal=True,
)


def drawing(state: FanState) -> list[tuple[str, ...]]:
    """The layout: the foundations, then each fan bottom to top, then the position, as lines
    of pieces (:meth:`fanfold.core.game.Game.drawing`)."""
    home = "  ".join(
        f"{suit.symbol} {FOUNDATION_LETTERS[rank]}"
        for suit, rank in zip(SUITS, state.foundations, strict=True)
    )
    lines: list[tuple[str, ...]] = [(Phrase("fan.board_foundations", home=home),)]
    for number, fan in enumerate(state.fans, start=1):
        cards = " ".join(str(card) for card in fan) if fan else Phrase("fan.board_empty")
        lines.append((f"{number:2d}: ", cards))
    lines.append((Phrase("game.board_position", position=format_position(state)),))
    return lines


def render_state(state: FanState) -> str:
    """:func:`drawing` as text, in English."""
    return drawn(drawing(state))
