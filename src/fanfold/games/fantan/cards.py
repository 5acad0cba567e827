"""Fan Tan cards as bits, and the order of ranks within a suit.

A card is its index ``suit * 13 + rank - 1`` (clubs, diamonds, hearts, spades; ranks 1 for the
ace to 13 for the king), so a hand or the layout is a 52-bit integer and one suit's part of it
a 13-bit integer with bit ``rank - 1`` for each rank.

>>> [str(card) for card in cards_of(1 << 6 | 1 << 19)]
['7C', '7D']
>>> rank_order(False)[:3], rank_order(True)[-2:]
((1, 2, 3), (13, 1))
"""

from __future__ import annotations

from fanfold.core.cards import Card

SUIT_BITS = 13
SUIT_MASK = (1 << SUIT_BITS) - 1
ALL_CARDS = (1 << 52) - 1
#: The 52 cards by index.
CARDS: tuple[Card, ...] = tuple(Card.from_index(index) for index in range(52))
#: Penalty points of each card by index: face value, aces 1, pictures 10.
FACE_POINTS: tuple[int, ...] = tuple(min(card.rank, 10) for card in CARDS)


def rank_order(ace_high: bool) -> tuple[int, ...]:
    """Ranks from the lowest to the highest."""
    return (*range(2, 14), 1) if ace_high else tuple(range(1, 14))


def cards_of(mask: int) -> list[Card]:
    """The cards in a mask, in index order (suit by suit, ace to king)."""
    result = []
    while mask:
        low = mask & -mask
        result.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return result


def indices_of(mask: int) -> list[int]:
    """The card indices in a mask, ascending."""
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length() - 1)
        mask ^= low
    return result


def row_ranks(layout: int, suit_number: int, ace_high: bool) -> list[int]:
    """The ranks of one suit's cards in ``layout`` (its row), lowest to highest."""
    bits = (layout >> (13 * suit_number)) & SUIT_MASK
    return [rank for rank in rank_order(ace_high) if bits >> (rank - 1) & 1]


def face_points(mask: int) -> int:
    """Penalty points of the cards in ``mask`` (aces 1, pictures 10, others face value)."""
    return sum(FACE_POINTS[index] for index in indices_of(mask))


__all__ = [
    "ALL_CARDS",
    "CARDS",
    "FACE_POINTS",
    "SUIT_BITS",
    "SUIT_MASK",
    "cards_of",
    "face_points",
    "indices_of",
    "rank_order",
    "row_ranks",
]
