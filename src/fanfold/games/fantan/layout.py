"""The layout: one row per suit, built outwards from its starting card.

Cards are bits: card index ``suit * 13 + rank - 1`` (clubs, diamonds, hearts, spades), so a
hand or a layout is a 52-bit integer and a suit's part of it a 13-bit integer with bit
``rank - 1`` for each rank. A row is a run of consecutive ranks in the suit order (``2..K A``
with the ace high, ``A 2..K`` with the ace low) that contains the starting rank; it grows by
one card at either end. A row whose starting rank is at an end of the order grows one way only.
"""

from __future__ import annotations

from functools import cache

from fanfold.core.cards import SUITS, Card

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


@cache
def suit_table(start_rank: int, ace_high: bool, up_before_down: bool) -> tuple[int, ...]:
    """For every 13-bit mask of a suit's played ranks, the mask of the ranks playable next.

    Masks that no row can have map to ``-1``.

    >>> table = suit_table(7, True, False)
    >>> bin(table[0]), bin(table[1 << 6])  # empty row: the 7; then the 6 or the 8
    ('0b1000000', '0b10100000')
    >>> bin(suit_table(7, True, True)[1 << 6])  # the 8 before the 6
    '0b10000000'
    """
    order = rank_order(ace_high)
    start = order.index(start_rank)
    table = [-1] * (1 << SUIT_BITS)
    table[0] = 1 << (start_rank - 1)
    for low in range(start + 1):
        for high in range(start, len(order)):
            mask = 0
            for position in range(low, high + 1):
                mask |= 1 << (order[position] - 1)
            playable = 0
            if high + 1 < len(order):
                playable |= 1 << (order[high + 1] - 1)
            may_go_down = not up_before_down or high > start or start == len(order) - 1
            if low > 0 and may_go_down:
                playable |= 1 << (order[low - 1] - 1)
            table[mask] = playable
    return tuple(table)


def playable_cards(layout: int, table: tuple[int, ...]) -> int:
    """The 52-bit mask of cards that may be played to ``layout``."""
    return (
        table[layout & SUIT_MASK]
        | table[(layout >> 13) & SUIT_MASK] << 13
        | table[(layout >> 26) & SUIT_MASK] << 26
        | table[(layout >> 39) & SUIT_MASK] << 39
    )


def is_valid_layout(layout: int, table: tuple[int, ...]) -> bool:
    """True when every suit's played cards form a row the rules can build."""
    return all(table[(layout >> (13 * suit)) & SUIT_MASK] != -1 for suit in range(4))


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
    """The ranks of one suit's row, lowest to highest."""
    bits = (layout >> (13 * suit_number)) & SUIT_MASK
    return [rank for rank in rank_order(ace_high) if bits >> (rank - 1) & 1]


def face_points(mask: int) -> int:
    """Penalty points of the cards in ``mask`` (aces 1, pictures 10, others face value)."""
    return sum(FACE_POINTS[index] for index in indices_of(mask))


def card_bit(card: Card) -> int:
    """The bit of one card."""
    return 1 << card.index


__all__ = [
    "ALL_CARDS",
    "CARDS",
    "FACE_POINTS",
    "SUITS",
    "card_bit",
    "cards_of",
    "face_points",
    "indices_of",
    "is_valid_layout",
    "playable_cards",
    "rank_order",
    "row_ranks",
    "suit_table",
]
