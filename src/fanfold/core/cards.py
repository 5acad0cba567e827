"""Standard playing cards: ranks, suits and their text.

Text is rank then suit: ``A 2..9 T J Q K`` (``10`` is read as ``T``) and ``C D H S`` (the
symbols ``♣ ♦ ♥ ♠`` are read too)::

    >>> card = Card.parse("10h")
    >>> card, card.rank, card.suit
    (Card('TH'), 10, <Suit.HEARTS: 'H'>)
    >>> str(Card(1, Suit.SPADES))
    'AS'
    >>> Card.from_index(Card.parse("KD").index) == Card.parse("KD")
    True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache

from fanfold.core.errors import NotationError, Refusal, templates

#: The cards' notation errors (:class:`~fanfold.core.errors.Refusal`), worded on the play
#: server's page from the same templates translated.
templates(
    {
        "cards.not_a_suit": "'{text}' is not a suit (use C, D, H or S)",
        "cards.rank_out_of_range": "rank {rank} is out of range 1..13",
        "cards.not_a_rank": "'{text}' is not a rank (use A, 2-9, T or 10, J, Q, K)",
        "cards.not_a_card": "'{text}' is not a card (write rank then suit, e.g. 7D or TH)",
        "cards.index_out_of_range": "card index {index} is out of range 0..51",
    }
)


class Suit(enum.Enum):
    """The four suits, in bridge order."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """The suit's symbol."""
        return _SYMBOLS[self.value]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def order(self) -> int:
        """0..3 in bridge order."""
        return _SUIT_ORDER[self.value]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter, name or symbol."""
        key = text.strip()
        if key in _FROM_SYMBOL:
            return cls(_FROM_SYMBOL[key])
        upper = key.upper()
        for suit in cls:
            if upper in (suit.value, suit.name, suit.name.rstrip("S")):
                return suit
        raise NotationError(Refusal("cards.not_a_suit", text=text))


_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_FROM_SYMBOL = {symbol: letter for letter, symbol in _SYMBOLS.items()}
_SUIT_ORDER = {"C": 0, "D": 1, "H": 2, "S": 3}
SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

RANK_LETTERS = "A23456789TJQK"


def rank_text(rank: int) -> str:
    """``1 -> 'A'``, ``10 -> 'T'``, ``13 -> 'K'``."""
    if not 1 <= rank <= 13:
        raise NotationError(Refusal("cards.rank_out_of_range", rank=rank))
    return RANK_LETTERS[rank - 1]


def parse_rank(text: str) -> int:
    """A rank from ``A 2..10 T J Q K`` (any case; ``1`` is the ace)."""
    key = text.strip().upper()
    if key in ("10", "T"):
        return 10
    if key == "1":
        return 1
    if len(key) == 1 and key in RANK_LETTERS:
        return RANK_LETTERS.index(key) + 1
    raise NotationError(Refusal("cards.not_a_rank", text=text))


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A card of a standard 52-card pack."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise NotationError(Refusal("cards.rank_out_of_range", rank=self.rank))

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 1] + self.suit.value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def index(self) -> int:
        """0..51: suit order times 13 plus rank minus 1."""
        return self.suit.order * 13 + self.rank - 1

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with :attr:`index` ``index``."""
        return _card_from_index(index)

    @staticmethod
    def parse(text: str) -> Card:
        """A card from text such as ``7D``, ``10h``, ``T♥`` or ``as``."""
        key = text.strip()
        if len(key) < 2:
            raise NotationError(Refusal("cards.not_a_card", text=text))
        return Card(parse_rank(key[:-1]), Suit.parse(key[-1]))


@cache
def _card_from_index(index: int) -> Card:
    if not 0 <= index < 52:
        raise NotationError(Refusal("cards.index_out_of_range", index=index))
    return Card(index % 13 + 1, SUITS[index // 13])


def full_deck() -> tuple[Card, ...]:
    """The 52 cards in index order."""
    return tuple(Card.from_index(index) for index in range(52))
