"""Fan Tan actions, states and views."""

from __future__ import annotations

from dataclasses import dataclass

from fanfold.core.cards import SUITS, Card, rank_text
from fanfold.core.config import JSONObject, JSONValue
from fanfold.games.fantan.config import FanTanConfig, Scoring
from fanfold.games.fantan.layout import CARDS, cards_of, row_ranks


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


@dataclass(frozen=True, slots=True)
class FanTanState:
    """A moment of a Fan Tan match: the hand in play and the match around it.

    Attributes:
        config: the variant.
        seed: the seed every hand of the match is dealt from.
        hand_number: 0 for the first hand of the match.
        dealer: the seat that dealt this hand.
        leader: the seat that played (or must play) first in this hand.
        to_move: the seat to act (when the match is over: the player who went out last).
        hands: each seat's cards as a 52-bit mask.
        layout: the cards played this hand, as a 52-bit mask.
        start_rank: the rank every row starts with; ``None`` only before the first card of a
            hand in which the first player chooses it.
        history: this hand's actions in order (the player of each follows from ``leader``).
        passes: how many times each seat has passed this hand.
        scores: running match scores: hands won (plain), net chips (chips) or penalty
            points (penalty).
        pool: chips in the pool (chip scoring).
        last_winner: who went out first in the previous hand of the match, if any.
        finished: True once the match is over.
    """

    config: FanTanConfig
    seed: int
    hand_number: int
    dealer: int
    leader: int
    to_move: int
    hands: tuple[int, ...]
    layout: int
    start_rank: int | None
    history: tuple[FanTanAction, ...]
    passes: tuple[int, ...]
    scores: tuple[int, ...]
    pool: int
    last_winner: int | None
    finished: bool


@dataclass(frozen=True)
class FanTanView:
    """What one seat sees: its own cards and everything played in public.

    Attributes:
        player: the seat.
        config: the variant.
        hand_number: 0 for the first hand.
        dealer: the seat that dealt this hand.
        leader: the seat that played (or must play) first this hand.
        to_move: the seat to act, ``None`` when the match is over.
        hand: this seat's cards (52-bit mask).
        hand_counts: how many cards each seat holds.
        layout: the cards on the table (52-bit mask).
        start_rank: the rank every row starts with (``None`` until chosen, in Domino).
        history: this hand's actions in order: every play and pass is public.
        passes: passes per seat this hand.
        scores: running match scores.
        pool: chips in the pool.
        last_winner: who won the previous hand, if any.
        revealed: every seat's cards once the match is over (they are shown for the count),
            otherwise ``None``.
    """

    player: int
    config: FanTanConfig
    hand_number: int
    dealer: int
    leader: int
    to_move: int | None
    hand: int
    hand_counts: tuple[int, ...]
    layout: int
    start_rank: int | None
    history: tuple[FanTanAction, ...]
    passes: tuple[int, ...]
    scores: tuple[int, ...]
    pool: int
    last_winner: int | None
    revealed: tuple[int, ...] | None

    @property
    def cards(self) -> list[Card]:
        """This seat's cards."""
        return cards_of(self.hand)

    def to_json(self) -> JSONObject:
        """The view as JSON: cards as text, rows lowest to highest."""
        rows: dict[str, JSONValue] = {
            suit.value: [
                str(Card(rank, suit))
                for rank in row_ranks(self.layout, number, self.config.ace_high)
            ]
            for number, suit in enumerate(SUITS)
        }
        result: JSONObject = {
            "player": self.player,
            "config": self.config.to_json(),
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "leader": self.leader,
            "to_move": self.to_move,
            "hand": [str(card) for card in cards_of(self.hand)],
            "hand_counts": list(self.hand_counts),
            "layout": rows,
            "start_rank": None if self.start_rank is None else rank_text(self.start_rank),
            "history": [str(action) for action in self.history],
            "passes": list(self.passes),
            "scores": list(self.scores),
            "score_kind": _SCORE_KIND[self.config.scoring],
            "pool": self.pool,
            "last_winner": self.last_winner,
            "revealed": None
            if self.revealed is None
            else [[str(card) for card in cards_of(mask)] for mask in self.revealed],
        }
        return result


_SCORE_KIND = {
    Scoring.PLAIN: "hands won",
    Scoring.CHIPS: "net chips",
    Scoring.PENALTY: "penalty points",
}
