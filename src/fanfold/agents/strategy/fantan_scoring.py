"""Fan Tan's strategy: how it scores a play, and how it reads the others' plays.

The lowest part of :mod:`fanfold.agents.strategy.fantan` (which re-exports every name here),
shared with its compiled search (:mod:`fanfold.agents.strategy.fantan_fast`): the weights of
the features of a play and :func:`card_scores` (see :mod:`fanfold.agents.strategy.fantan` for
what they mean), its memo per suit, :func:`best_card`, and :class:`PlayRecord`, the reading of
the other seats' plays with the settings of the chain that deals by it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from fanfold.games.fantan import rules
from fanfold.games.fantan.actions import Play
from fanfold.games.fantan.cards import SUIT_MASK, rank_order
from fanfold.games.fantan.config import FanTanConfig
from fanfold.games.fantan.view import FanTanView


@dataclass(frozen=True)
class Weights:
    """How much each feature of a play counts (see the module docstring).

    Attributes:
        own_opened: per own card the play makes playable at once.
        others_opened: per card of the others the play makes playable at once (subtracted).
        own_beyond: per own card further along the row in the play's direction.
        gap: per card of the others between the play and the farthest own card beyond it
            (subtracted: they must be played before that card can be).
        blocked: for a play with no own card beyond it, per card of the others it holds back
            (subtracted: the more it blocks, the longer it is kept).
    """

    own_opened: float = 3.0
    others_opened: float = 2.0
    own_beyond: float = 1.0
    gap: float = 0.3
    blocked: float = 0.5


DEFAULT_WEIGHTS = Weights()


@cache
def _beyond(start_rank: int, ace_high: bool) -> tuple[int, ...]:
    """For each rank bit (0 for the ace .. 12 for the king) of a suit, the 13-bit mask of the
    ranks that only come into play after it: those further from the starting rank in its
    direction (the whole rest of the suit for the starting rank)."""
    order = rank_order(ace_high)
    start = order.index(start_rank)
    table = []
    for bit in range(13):
        position = order.index(bit + 1)
        if position == start:
            ranks = [rank for rank in order if rank != start_rank]
        elif position > start:
            ranks = list(order[position + 1 :])
        else:
            ranks = list(order[:position])
        table.append(sum(1 << (rank - 1) for rank in ranks))
    return tuple(table)


@cache
def _span(start_rank: int, ace_high: bool, bit: int, own: int) -> int:
    """The 13-bit mask of the ranks from rank bit ``bit`` out to the farthest of ``own`` (own
    cards beyond it), on its side of the starting rank (both sides for the starting rank)."""
    order = rank_order(ace_high)
    here = order.index(bit + 1)
    start = order.index(start_rank)
    positions = [order.index(rank + 1) for rank in range(13) if own >> rank & 1]
    if here == start:
        low, high = min([*positions, here]), max([*positions, here])
    elif here > start:
        low, high = here, max(positions)
    else:
        low, high = min(positions), here
    return sum(1 << (order[position] - 1) for position in range(low, high + 1))


def card_scores(
    config: FanTanConfig,
    layout: int,
    start_rank: int | None,
    hand: int,
    choices: int,
    weights: Weights = DEFAULT_WEIGHTS,
) -> dict[int, float]:
    """The score of playing each card in ``choices`` (a mask of playable cards in ``hand``)
    to ``layout``; higher is better."""
    ace_high = config.ace_high
    scores: dict[int, float] = {}
    mask = choices
    while mask:
        low = mask & -mask
        mask ^= low
        index = low.bit_length() - 1
        shift = index - index % 13
        bit = index - shift
        rank = start_rank if start_rank is not None else bit + 1
        table = rules.suit_table(rank, ace_high, config.up_before_down)
        row = (layout >> shift) & SUIT_MASK
        hand13 = (hand >> shift) & SUIT_MASK
        others13 = SUIT_MASK & ~hand13 & ~row
        rest13 = hand13 & ~(1 << bit)
        # Before the first card of a hand that chooses its starting rank, that card's own row.
        before13 = table[row] if start_rank is not None else table[0]
        after13 = table[row | 1 << bit]
        opened = after13 & ~before13
        beyond = _beyond(rank, ace_high)[bit]
        own_beyond = beyond & rest13
        score = weights.own_opened * (opened & rest13).bit_count()
        score -= weights.others_opened * (opened & others13).bit_count()
        if own_beyond:
            score += weights.own_beyond * own_beyond.bit_count()
            span = _span(rank, ace_high, bit, own_beyond)
            score -= weights.gap * (span & others13).bit_count()
        else:
            score -= weights.blocked * (beyond & others13).bit_count()
        scores[index] = score
    return scores


#: Entries a memo of :func:`_suit_scores` keeps before it starts again.
MEMO_LIMIT = 1 << 17


@cache
def _suit_scorer(
    start_rank: int, ace_high: bool, up_before_down: bool, weights: Weights
) -> dict[int, tuple[tuple[int, float], ...]]:
    """A memo for one variant and set of weights: for ``row << 13 | hand`` (a suit's played
    ranks and the ranks a seat holds in it), each playable held rank bit with its score,
    filled by :func:`_suit_scores`."""
    del start_rank, ace_high, up_before_down, weights
    return {}


def _suit_scores(
    config: FanTanConfig, start_rank: int, row: int, hand13: int, weights: Weights
) -> tuple[tuple[int, float], ...]:
    """The held cards of one suit playable to its ``row``, as ``(rank bit, score)`` in rank-bit
    order, scored as :func:`card_scores` scores them (the score of a card depends only on its
    suit's row and the seat's cards of that suit)."""
    memo = _suit_scorer(start_rank, config.ace_high, config.up_before_down, weights)
    key = row << 13 | hand13
    found = memo.get(key)
    if found is None:
        table = rules.suit_table(start_rank, config.ace_high, config.up_before_down)
        scores = card_scores(config, row, start_rank, hand13, hand13 & table[row], weights)
        found = tuple(sorted(scores.items()))
        if len(memo) >= MEMO_LIMIT:  # a long-lived process keeps it bounded
            memo.clear()
        memo[key] = found
    return found


def best_card(
    config: FanTanConfig,
    layout: int,
    start_rank: int | None,
    hand: int,
    choices: int,
    rng: random.Random,
    weights: Weights = DEFAULT_WEIGHTS,
) -> int:
    """The index of the best-scored card among ``choices`` (ties broken by ``rng``)."""
    if choices & (choices - 1) == 0:
        return choices.bit_length() - 1
    if start_rank is not None:
        best = -1e9
        top: list[int] = []
        for shift in (0, 13, 26, 39):
            if (choices >> shift) & SUIT_MASK:
                row = (layout >> shift) & SUIT_MASK
                for bit, score in _suit_scores(
                    config, start_rank, row, (hand >> shift) & SUIT_MASK, weights
                ):
                    if not choices >> (shift + bit) & 1:
                        continue
                    if score > best:
                        best = score
                        top = [shift + bit]
                    elif score == best:
                        top.append(shift + bit)
        return top[0] if len(top) == 1 else top[rng.randrange(len(top))]
    scores = card_scores(config, layout, start_rank, hand, choices, weights)
    best = max(scores.values())
    top = [index for index, score in scores.items() if score == best]
    return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


#: The chance that a player of the strategy strays from its best card (to any playable card):
#: the reading of the others' hands does not take their play for certain.
STRAY = 0.1


class PlayRecord:
    """The other seats' plays this hand, seen from one view, ready to be scored against any
    hands dealt for them: for each seat, each play it made from a choice of cards, with the
    layout and the playable cards of that moment.

    Args:
        view: the view whose history is read.
        stray: the chance that a player of the strategy strays from its best card (to any
            playable card): the reading of the others' hands never takes their play for
            certain.
    """

    def __init__(self, view: FanTanView, stray: float = STRAY) -> None:
        config = view.config
        self.config = config
        self.stray = stray
        self.plays: list[list[tuple[int, int, int | None, int]]] = [
            [] for _ in range(config.players)
        ]
        layout = 0
        start_rank = config.start_rank
        seat = view.leader
        for action in view.history:
            if isinstance(action, Play):
                if seat != view.player:
                    playable = rules.playable_mask(config, layout, start_rank)
                    self.plays[seat].append((action.index, layout, start_rank, playable))
                layout |= 1 << action.index
                if start_rank is None:
                    start_rank = action.index % 13 + 1
            seat = (seat + 1) % config.players

    def seat_likelihood(self, seat: int, hand: int) -> float:
        """How likely ``seat``'s plays were under the strategy, had it held ``hand`` now."""
        config, stray = self.config, self.stray
        likelihood = 1.0
        for index, layout, start_rank, playable in reversed(self.plays[seat]):
            hand |= 1 << index  # the hand it held at that play
            choices = hand & playable
            if choices & (choices - 1) and start_rank is not None:
                # The scores of every card in ``choices``, from the memo of each suit's.
                count, ties, best, played = 0, 0, -1e9, 0.0
                for shift in (0, 13, 26, 39):
                    if (choices >> shift) & SUIT_MASK:
                        row = (layout >> shift) & SUIT_MASK
                        for bit, score in _suit_scores(
                            config, start_rank, row, (hand >> shift) & SUIT_MASK, DEFAULT_WEIGHTS
                        ):
                            count += 1
                            if shift + bit == index:
                                played = score
                            if score > best:
                                best, ties = score, 1
                            elif score == best:
                                ties += 1
                chance = stray / count
                if played == best:
                    chance += (1.0 - stray) / ties
                likelihood *= chance
            elif choices & (choices - 1):
                scores = card_scores(config, layout, start_rank, hand, choices)
                best = max(scores.values())
                chance = stray / len(scores)
                if scores[index] == best:
                    chance += (1.0 - stray) / sum(1 for score in scores.values() if score == best)
                likelihood *= chance
        return likelihood


#: Swaps tried before the first inferred deal, and between two deals.
BURN_IN = 60
THINNING = 3
