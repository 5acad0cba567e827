"""Fan Tan actions: play a card, or pass. ``str()`` is the canonical notation.

==========  =========================================================
``7D``      play the seven of diamonds (rank then suit; ``TH`` or ``10H``)
``pass``    pass (also ``p`` or ``knock``): only when no card is playable
==========  =========================================================

>>> parse_action("10h"), parse_action("knock")
(Play('TH'), Pass())
"""

from __future__ import annotations

from dataclasses import dataclass

from fanfold.core.cards import Card
from fanfold.core.errors import NotationError, Refusal, templates
from fanfold.core.phrases import Phrase, phrases
from fanfold.games.fantan.cards import CARDS


@dataclass(frozen=True, slots=True)
class Play:
    """Play one card to the layout. ``str()`` is the card, e.g. ``7D``."""

    index: int

    @property
    def card(self) -> Card:
        """The card played."""
        return CARDS[self.index]

    def __str__(self) -> str:
        return str(CARDS[self.index])

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"

    @staticmethod
    def of(card: Card) -> Play:
        """The action that plays ``card``."""
        return PLAYS[card.index]


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass (knock): only legal when the player holds no playable card."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


FanTanAction = Play | Pass
#: The one pass action.
PASS = Pass()
#: The play of each card, by card index.
PLAYS: tuple[Play, ...] = tuple(Play(index) for index in range(52))

phrases(
    {
        "fantan.notation_help": (
            "Play a card by writing it rank then suit: 7D (seven of diamonds), TH or 10H, QS, "
            "AC. Ranks A 2-9 T J Q K, suits C D H S.\n"
            "Write 'pass' (or 'knock') when you cannot play; you may not pass while you hold a "
            "playable card.\n"
            "Playable: a card of the starting rank (7 unless the variant says otherwise) starts "
            "its suit's row; any other card must be next in rank to an end of its suit's row."
        )
    },
    terminal=True,
)
NOTATION_HELP = Phrase("fantan.notation_help")

templates(
    {
        "fantan.not_a_move": "'{text}' is not a Fan Tan move: write a card, rank then suit "
        "(7D, TH or 10H, AS), or 'pass'",
    }
)


def parse_action(text: str) -> FanTanAction:
    """Read a card (``7D``, ``TH``, ``10H``) or ``pass``. Raises :class:`NotationError`."""
    key = text.strip().lower()
    if key in ("pass", "p", "knock"):
        return PASS
    try:
        return PLAYS[Card.parse(text).index]
    except NotationError:
        raise NotationError(Refusal("fantan.not_a_move", text=text)) from None


__all__ = ["NOTATION_HELP", "PASS", "PLAYS", "FanTanAction", "Pass", "Play", "parse_action"]
