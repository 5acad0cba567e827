"""Standard cards and their text."""

from __future__ import annotations

import pytest

from fanfold.core.cards import SUITS, Card, Suit, full_deck, parse_rank, rank_text
from fanfold.core.errors import NotationError


def test_every_card_round_trips_through_text_and_index() -> None:
    deck = full_deck()
    assert len(set(deck)) == 52
    for card in deck:
        assert Card.parse(str(card)) == card
        assert Card.from_index(card.index) == card


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("10h", 10, Suit.HEARTS), ("TH", 10, Suit.HEARTS), ("as", 1, Suit.SPADES),
     ("1S", 1, Suit.SPADES), ("K♦", 13, Suit.DIAMONDS), ("7c", 7, Suit.CLUBS)],
)  # fmt: skip
def test_card_spellings(text: str, rank: int, suit: Suit) -> None:
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize("text", ["", "7", "7X", "ZD", "11H", "0S"])
def test_bad_cards_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        Card.parse(text)


def test_suits_and_ranks() -> None:
    assert [suit.value for suit in SUITS] == ["C", "D", "H", "S"]
    assert [suit.is_red for suit in SUITS] == [False, True, True, False]
    assert Suit.parse("spades") is Suit.SPADES
    assert Suit.parse("♥") is Suit.HEARTS
    assert rank_text(10) == "T"
    assert parse_rank("q") == 12
    with pytest.raises(NotationError):
        rank_text(14)
    with pytest.raises(NotationError):
        Card(0, Suit.CLUBS)
