"""A fast random playout of one Fan Tan hand, for benchmarks and rollouts.

:func:`random_hand` plays a hand with uniformly random legal moves on plain mutable integers
(no state objects). It makes exactly the choices the rules engine makes when each move is
``legal[rng.randrange(len(legal))]`` over :func:`fanfold.games.fantan.rules.legal_actions` (a
pass, the only legal move when nothing is playable, also draws ``rng.randrange(1)``), so the
two are property-tested equal move for move (``tests/games/fantan/test_fast.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from fanfold.games.fantan.cards import ALL_CARDS, SUIT_MASK
from fanfold.games.fantan.config import FanTanConfig
from fanfold.games.fantan.rules import deal, dealer_of, leader_of, playable_cards, suit_table

#: The code of a pass in :attr:`HandPlayout.actions` (plays are card indices 0..51).
PASS_CODE = -1


@dataclass(frozen=True)
class HandPlayout:
    """What a random hand did.

    Attributes:
        actions: card indices played, :data:`PASS_CODE` for a pass, in order.
        winner: the seat that went out first.
        hands: each seat's cards left at the end (52-bit masks).
    """

    actions: tuple[int, ...]
    winner: int
    hands: tuple[int, ...]


def random_hand(
    config: FanTanConfig, seed: int, rng: random.Random, hand_number: int = 0
) -> HandPlayout:
    """Deal hand ``hand_number`` of the match with ``seed`` and play it out at random."""
    players = config.players
    hands = list(deal(config, seed, hand_number))
    seat = leader_of(config, dealer_of(players, hand_number), hands)
    randrange = rng.randrange
    actions: list[int] = []
    record = actions.append
    start_rank = config.start_rank
    layout = 0
    opening = config.opening
    table: tuple[int, ...] = ()
    if opening is not None:
        playable = 1 << opening.index
    elif start_rank is None:
        playable = ALL_CARDS
    else:
        table = suit_table(start_rank, config.ace_high, config.up_before_down)
        playable = playable_cards(0, table)
    while True:
        hand = hands[seat]
        legal = hand & playable
        if not legal:
            randrange(1)
            record(PASS_CODE)
            seat += 1
            if seat == players:
                seat = 0
            continue
        choice = randrange(legal.bit_count())
        while choice:
            legal &= legal - 1
            choice -= 1
        bit = legal & -legal
        index = bit.bit_length() - 1
        record(index)
        hand ^= bit
        hands[seat] = hand
        layout |= bit
        if not hand:
            return HandPlayout(tuple(actions), seat, tuple(hands))
        if start_rank is None:
            start_rank = index % 13 + 1
            table = suit_table(start_rank, config.ace_high, config.up_before_down)
            playable = playable_cards(layout, table)
        elif not table:
            table = suit_table(start_rank, config.ace_high, config.up_before_down)
            playable = playable_cards(layout, table)
        else:
            shift = index - index % 13
            playable = (playable & ~(SUIT_MASK << shift)) | (
                table[(layout >> shift) & SUIT_MASK] << shift
            )
        seat += 1
        if seat == players:
            seat = 0
