"""Fan Tan states: the hand in play and the match around it, as immutable values.

Hands and the layout are 52-bit masks (see :mod:`fanfold.games.fantan.cards`).
"""

from __future__ import annotations

from dataclasses import dataclass

from fanfold.games.fantan.actions import FanTanAction
from fanfold.games.fantan.config import FanTanConfig


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
