"""Fan Tan's legal actions described for the player who decides.

A play points at the card in the seat's hand, by its text as the view's ``hand`` lists it
(``7D``); a pass has no points (a button of its own).
"""

from __future__ import annotations

from collections.abc import Sequence

from fanfold.core.cards import Card
from fanfold.core.game import Choice
from fanfold.core.phrases import Phrase, PhraseParam, phrases
from fanfold.games.fantan.actions import FanTanAction, Play
from fanfold.games.fantan.cards import row_ranks
from fanfold.games.fantan.view import FanTanView

phrases(
    {
        "fantan.play": "Play {card}{start}",
        "fantan.starting": ", starting the {suit} row",
        "fantan.pass": "Pass (no card to play)",
    }
)


def card_name(card: Card) -> str:
    """A card in words for a player: ``7♦``, ``10♥``, ``Q♠``."""
    rank = "10" if card.rank == 10 else str(card)[:-1]
    return rank + card.suit.symbol


def choices_for(view: FanTanView, actions: Sequence[FanTanAction]) -> list[Choice]:
    """The seat's legal ``actions`` described from its ``view``, one choice each, in order."""
    found = []
    for action in actions:
        if isinstance(action, Play):
            card = action.card
            row = row_ranks(view.layout, card.suit.order, view.config.ace_high)
            where: PhraseParam = (
                "" if row else Phrase("fantan.starting", suit=card.suit.name.lower())
            )
            found.append(
                Choice(
                    str(card),
                    "play",
                    Phrase("fantan.play", card=card_name(card), start=where),
                    (str(card),),
                    {"card": str(card)},
                )
            )
        else:
            found.append(Choice(str(action), "pass", Phrase("fantan.pass")))
    return found
