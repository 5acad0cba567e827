"""Fan Tan: the strategy and the difficulty levels.

The strategy (:class:`FanTanKnowledge`) scores each playable card by what playing it opens:

* **release what frees your own**: a card whose neighbour in its row is yours opens a card
  only you can play (no tempo given away), and a card with many of your cards beyond it in
  its row's direction has to be opened some day anyway, the sooner the better;
* **hold the cards that block others**: a card with none of your cards beyond it only opens
  cards for the other players, so it is kept as long as the rules allow (you must play when
  you can); among such blockers the one that holds back the fewest of their cards goes first;
* **keep a move in hand**: a play that leaves you a playable card next turn beats one after
  which you may have to pass.

The scoring looks only at the seat's own cards and the layout (every card neither held nor
played belongs to "the others"), so the heuristic agent plays from its view alone, and a
search's playouts (which run in states the searching agent dealt itself) play every seat by
the same rule, the way such opponents play.

:func:`heuristic_rollout` plays the rest of a match with that policy on plain integers, move for
move the same as stepping :meth:`FanTanKnowledge.playout_action` through the rules engine
(tested), about ten times as fast; the search uses it through :meth:`FanTanKnowledge.rollout`.

Levels: ``easy`` is the heuristic alone, which plays sensibly but never looks ahead;
``medium`` and ``hard`` try each move on dealt states played out by it
(:mod:`fanfold.agents.pimc`), on 20 and 100 deals a decision (measured in ``docs/agents.md``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from fanfold.agents.knowledge import Knowledge
from fanfold.core.registry import AnyGame
from fanfold.games.fantan import rules
from fanfold.games.fantan.actions import PASS, PLAYS, FanTanAction, Play
from fanfold.games.fantan.cards import SUIT_MASK, rank_order
from fanfold.games.fantan.config import FanTanConfig, Scoring
from fanfold.games.fantan.state import FanTanState
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
        next_move: for a play after which the player still has a playable card.
    """

    own_opened: float = 3.0
    others_opened: float = 2.0
    own_beyond: float = 1.0
    gap: float = 0.3
    blocked: float = 0.5
    next_move: float = 2.0


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
    playable = rules.playable_mask(config, layout, start_rank)
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
        if start_rank is None:  # the first card of the hand chooses the starting rank
            before13 = table[0]
            elsewhere = rules.playable_cards(low, table) & ~(SUIT_MASK << shift)
        else:
            before13 = table[row]
            elsewhere = playable & ~(SUIT_MASK << shift)
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
        if after13 & rest13 or elsewhere & hand:
            score += weights.next_move
        scores[index] = score
    return scores


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
    scores = card_scores(config, layout, start_rank, hand, choices, weights)
    best = max(scores.values())
    top = [index for index, score in scores.items() if score == best]
    return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


def _choose(
    config: FanTanConfig,
    layout: int,
    start_rank: int | None,
    hand: int,
    legal: Sequence[FanTanAction],
    rng: random.Random,
) -> FanTanAction:
    choices = 0
    for action in legal:
        if isinstance(action, Play):
            choices |= 1 << action.index
    if not choices:
        return PASS
    return PLAYS[best_card(config, layout, start_rank, hand, choices, rng)]


class FanTanKnowledge(Knowledge[FanTanState, FanTanAction, FanTanView]):
    """The Fan Tan strategy: hold the cards that block others, release what frees your own."""

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)

    def choose(
        self, view: FanTanView, legal: Sequence[FanTanAction], rng: random.Random
    ) -> FanTanAction:
        return _choose(view.config, view.layout, view.start_rank, view.hand, legal, rng)

    def playout_action(
        self, state: FanTanState, legal: Sequence[FanTanAction], rng: random.Random
    ) -> FanTanAction:
        hand = state.hands[state.to_move]
        return _choose(state.config, state.layout, state.start_rank, hand, legal, rng)

    def rollout(self, state: FanTanState, rng: random.Random) -> tuple[float, ...] | None:
        """The returns of the match played out from ``state`` by this policy for every seat."""
        return heuristic_rollout(state, rng).returns

    def evaluate(self, state: FanTanState) -> tuple[float, ...] | None:
        return evaluate(state)


def evaluate(state: FanTanState) -> tuple[float, ...]:
    """A rough estimate of each seat's return in the middle of a match: the seat with the
    fewest cards is taken to go out first in this hand, the others to keep what they hold."""
    config = state.config
    hands = state.hands
    winner = min(range(config.players), key=lambda seat: (hands[seat].bit_count(), seat))
    scores, _ = rules.settle(config, hands, winner, state.scores, state.pool)
    if config.scoring is Scoring.PLAIN:
        best = max(scores)
        return tuple(1.0 if score == best else -1.0 for score in scores)
    if config.scoring is Scoring.CHIPS:
        return tuple(float(score) for score in scores)
    return tuple(-float(score) for score in scores)


@dataclass(frozen=True)
class Rollout:
    """A match played out by the heuristic.

    Attributes:
        actions: the card index of each play, ``-1`` for a pass, in order (every hand).
        returns: each seat's return at the end of the match.
    """

    actions: tuple[int, ...]
    returns: tuple[float, ...]


def heuristic_rollout(state: FanTanState, rng: random.Random) -> Rollout:
    """Play the match on from ``state`` with the heuristic for every seat, on plain integers
    (the same moves, and the same draws from ``rng``, as :meth:`FanTanKnowledge.playout_action`
    stepped through the rules engine)."""
    actions: list[int] = []
    while not state.finished:
        state = _play_hand(state, rng, actions)
    outcome = rules.outcome(state)
    if outcome is None:  # pragma: no cover - a finished state always has an outcome
        raise RuntimeError("a finished Fan Tan match has no outcome")
    return Rollout(tuple(actions), tuple(outcome.returns))


def _play_hand(state: FanTanState, rng: random.Random, actions: list[int]) -> FanTanState:
    """Play the current hand to its end; the next hand's state, or the finished match."""
    config = state.config
    players = config.players
    chips = config.scoring is Scoring.CHIPS
    hands = list(state.hands)
    passes = list(state.passes)
    scores = list(state.scores)
    pool = state.pool
    layout = state.layout
    start_rank = state.start_rank
    seat = state.to_move
    record = actions.append
    playable = rules.playable_mask(config, layout, start_rank)
    while True:
        hand = hands[seat]
        choices = hand & playable
        if not choices:
            record(-1)
            passes[seat] += 1
            if chips:
                scores[seat] -= config.pass_chips
                pool += config.pass_chips
            seat = (seat + 1) % players
            continue
        index = best_card(config, layout, start_rank, hand, choices, rng)
        record(index)
        bit = 1 << index
        hand ^= bit
        hands[seat] = hand
        layout |= bit
        if start_rank is None:
            start_rank = index % 13 + 1
        if not hand:
            break
        playable = rules.playable_mask(config, layout, start_rank)
        seat = (seat + 1) % players
    ended = FanTanState(
        config, state.seed, state.hand_number, state.dealer, state.leader, seat, tuple(hands),
        layout, start_rank, (), tuple(passes), tuple(scores), pool, state.last_winner, False,
    )  # fmt: skip
    return rules.finish_hand(ended, seat)


def _make(game: AnyGame) -> Knowledge[Any, Any, Any]:
    return FanTanKnowledge(game)


#: What makes the game's strategy.
KNOWLEDGE = _make

#: The agent behind each level.
LEVELS = {"easy": "heuristic", "medium": "pimc(deals=20)", "hard": "pimc(deals=100)"}

__all__ = [
    "DEFAULT_WEIGHTS",
    "KNOWLEDGE",
    "LEVELS",
    "FanTanKnowledge",
    "Rollout",
    "Weights",
    "best_card",
    "card_scores",
    "evaluate",
    "heuristic_rollout",
]
