"""Fan patience's legal moves described for the player.

References: ``fan:N`` is the N-th fan of the view's ``fans`` (1 to 18, as the notation numbers
them; the view lists them in ``fan_refs``) and ``F`` the foundations (``foundation_ref``). A
move points at the fan it takes cards from, then where they go; ``details`` says how many
cards (``count``: the top ``count`` cards of the fan move together) and which.
"""

from __future__ import annotations

from collections.abc import Sequence

from fanfold.core.cards import Card
from fanfold.core.config import JSONValue
from fanfold.core.game import Choice
from fanfold.core.phrases import Phrase, joined, phrases
from fanfold.games.fan.actions import FanMove
from fanfold.games.fan.view import FOUNDATIONS, FanView, fan_ref

phrases(
    {
        "fan.choice": "{cards} from fan {source} {where}",
        "fan.to_foundation": "to its foundation",
        "fan.onto": "onto {card} on fan {target}",
        "fan.to_empty": "to the empty fan {target}",
    }
)


def card_name(card: Card) -> str:
    """A card in words for a player: ``7♠``, ``10♥``, ``K♣``."""
    rank = "10" if card.rank == 10 else str(card)[:-1]
    return rank + card.suit.symbol


def choices_for(view: FanView, moves: Sequence[FanMove]) -> list[Choice]:
    """The legal ``moves`` described from the ``view``, one choice each, in order."""
    fans = view.state.fans
    found = []
    for move in moves:
        taken = fans[move.source - 1][-move.count :]
        cards: list[JSONValue] = [str(card) for card in taken]
        what = joined([card_name(card) for card in taken], "words.and_also")
        where: Phrase
        if move.target is None:
            kind, where, target = "foundation", Phrase("fan.to_foundation"), FOUNDATIONS
        else:
            kind, target = "move", fan_ref(move.target)
            onto = fans[move.target - 1]
            where = (
                Phrase("fan.onto", card=card_name(onto[-1]), target=move.target)
                if onto
                else Phrase("fan.to_empty", target=move.target)
            )
        found.append(
            Choice(
                str(move),
                kind,
                Phrase("fan.choice", cards=what, source=move.source, where=where),
                (fan_ref(move.source), target),
                {"from": move.source, "to": move.target, "count": move.count, "cards": cards},
            )
        )
    return found
