"""What one Fan Tan seat sees: its own cards and everything played in public.

A view shows the seat's own cards, how many cards every seat holds, the layout, every play and
pass of this hand in order, pass counts, the dealer and leader, scores, the pool and the
previous hand's winner. When the match is over every hand is shown. The seed is never shown:
it would reveal the deal. States dealt consistently with a view are in
:mod:`fanfold.games.fantan.sampling`.
"""

from __future__ import annotations

from dataclasses import dataclass

from fanfold.core.cards import SUITS, Card, rank_text
from fanfold.core.config import JSONObject, JSONValue
from fanfold.games.fantan.actions import FanTanAction
from fanfold.games.fantan.cards import cards_of, row_ranks
from fanfold.games.fantan.config import FanTanConfig, Scoring
from fanfold.games.fantan.state import FanTanState


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


def observe(state: FanTanState, player: int) -> FanTanView:
    """What ``player`` sees of ``state``, built fresh."""
    return FanTanView(
        player=player,
        config=state.config,
        hand_number=state.hand_number,
        dealer=state.dealer,
        leader=state.leader,
        to_move=None if state.finished else state.to_move,
        hand=state.hands[player],
        hand_counts=tuple(hand.bit_count() for hand in state.hands),
        layout=state.layout,
        start_rank=state.start_rank,
        history=state.history,
        passes=state.passes,
        scores=state.scores,
        pool=state.pool,
        last_winner=state.last_winner,
        revealed=state.hands if state.finished else None,
    )


def public_json(state: FanTanState) -> JSONObject:
    """What a spectator sees, as JSON: every seat's view without a hand (``"hand": []``,
    ``"player": None``); at the end of the match every hand is shown, as to the players."""
    data = dict(observe(state, 0).to_json())
    data["player"] = None
    data["hand"] = []
    return data
