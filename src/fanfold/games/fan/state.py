"""Fan patience positions: 18 fans and four foundations; :func:`make_state` builds a checked one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fanfold.core.cards import SUITS, Card, full_deck
from fanfold.core.errors import NotationError, Refusal, templates
from fanfold.games.fan.config import FanConfig
from fanfold.games.fan.deals import KING, NUM_FANS

#: The notation's errors (:class:`~fanfold.core.errors.Refusal`), worded on the play
#: server's page from the same templates translated.
templates(
    {
        "fan.fan_count": "a Fan position has {fans} fans, not {count}",
        "fan.card_twice": "{card} appears twice",
        "fan.foundation_range": "foundation rank {rank} is out of range 0..13",
        "fan.card_fan_and_home": "{card} is both in a fan and on its foundation",
        "fan.cards_missing": "the position lacks {cards}",
    }
)

Fans = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class FanState:
    """A Fan position.

    Attributes:
        config: the variant.
        fans: the 18 fans, each a tuple of cards bottom to top (the last card is playable).
        foundations: the top rank on each foundation in suit order C, D, H, S (0 when empty).
        deal: the deal number the position came from (``None`` for a loaded position).
    """

    config: FanConfig
    fans: Fans
    foundations: tuple[int, int, int, int]
    deal: int | None = None

    @property
    def cards_on_foundations(self) -> int:
        """How many cards are home."""
        return sum(self.foundations)

    @property
    def is_won(self) -> bool:
        """True when every card is on its foundation."""
        return all(rank == KING for rank in self.foundations)


def make_state(
    config: FanConfig,
    fans: Sequence[Sequence[Card]],
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0),
    deal: int | None = None,
) -> FanState:
    """A checked position: every card exactly once, either in a fan or on its foundation.

    Raises:
        NotationError: when a card is missing or appears twice.
    """
    if len(fans) != NUM_FANS:
        raise NotationError(Refusal("fan.fan_count", fans=NUM_FANS, count=len(fans)))
    seen: set[Card] = set()
    for fan in fans:
        for card in fan:
            if card in seen:
                raise NotationError(Refusal("fan.card_twice", card=str(card)))
            seen.add(card)
    for suit, rank in zip(SUITS, foundations, strict=True):
        if not 0 <= rank <= KING:
            raise NotationError(Refusal("fan.foundation_range", rank=rank))
        for home in range(1, rank + 1):
            card = Card(home, suit)
            if card in seen:
                raise NotationError(Refusal("fan.card_fan_and_home", card=str(card)))
            seen.add(card)
    missing = [str(card) for card in full_deck() if card not in seen]
    if missing:
        raise NotationError(Refusal("fan.cards_missing", cards=" ".join(missing)))
    return FanState(config, tuple(tuple(fan) for fan in fans), foundations, deal)
