"""Fan Tan: the strategy and the difficulty levels.

The strategy (:class:`FanTanKnowledge`) scores each playable card by what playing it opens:

* **release what frees your own**: a card whose neighbour in its row is yours opens a card
  only you can play (no tempo given away), and a card with many of your cards beyond it in
  its row's direction has to be opened some day anyway, the sooner the better;
* **hold the cards that block others**: a card with none of your cards beyond it only opens
  cards for the other players, so it is kept as long as the rules allow (you must play when
  you can); among such blockers the one that holds back the fewest of their cards goes first.

The scoring looks only at the seat's own cards and the layout (every card neither held nor
played belongs to "the others"), so the heuristic agent plays from its view alone, and a
search's playouts (which run in states the searching agent dealt itself) play every seat by
the same rule, the way such opponents play.

:func:`heuristic_rollout` plays the rest of a match with that policy on plain integers, move for
move the same as stepping :meth:`FanTanKnowledge.playout_action` through the rules engine
(tested), several times as fast; the search uses it through :meth:`FanTanKnowledge.rollout`.
Each seat may score its plays with its own :class:`Weights`.

:func:`search_values` searches the searching seat's own later decisions inside the dealt states
(the other seats keep playing the heuristic): at each of its next few choices, the deals that
show it the same view are grouped and the group plays the card with the best total over its
deals, so no card is chosen with knowledge of one deal's hidden cards.

Reading the others' hands: a player of this strategy plays its best-scored card, so the cards
each other seat chose reveal something of what it holds. :func:`infer_states` deals states in
proportion to how likely the strategy would have made the plays seen (:class:`PlayRecord`),
with a Metropolis chain over card swaps between the other seats; every state it deals keeps
every constraint of the view.

Levels: ``easy`` plays at random; ``medium`` is the heuristic, which plays sensibly but never
looks ahead (a short search, ``pimc(deals=20)``, measured no stronger than it); ``hard`` tries
each move on 2000 deals drawn by reading the others' play, played out by the heuristic except at
its own next two choices, searched per view where at least 50 deals share it, all in compiled
code (:mod:`fanfold.agents.strategy.fantan_fast`; the same search as :func:`search_values`
over :func:`infer_states`' deals, which the other variants use; measured in
``docs/agents.md``).
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import monotonic
from typing import Any

from fanfold.agents.knowledge import Knowledge
from fanfold.agents.strategy.fantan_scoring import (
    BURN_IN,
    DEFAULT_WEIGHTS,
    STRAY,
    THINNING,
    PlayRecord,
    Weights,
    _suit_scorer,
    _suit_scores,
    best_card,
    card_scores,
)
from fanfold.core.registry import AnyGame
from fanfold.games.fantan import rules, sampling
from fanfold.games.fantan.actions import PASS, PLAYS, FanTanAction, Play
from fanfold.games.fantan.cards import SUIT_MASK
from fanfold.games.fantan.config import FanTanConfig, Scoring
from fanfold.games.fantan.state import FanTanState
from fanfold.games.fantan.view import FanTanView


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

    def search_values(
        self,
        states: Sequence[FanTanState],
        legal: Sequence[FanTanAction],
        player: int,
        rng: random.Random,
        depth: int,
        group: int,
        deadline: float | None,
        stopped: Callable[[], object] | None = None,
    ) -> list[float] | None:
        return search_values(states, legal, player, rng, depth, group, deadline, stopped)

    def infer_states(
        self, view: FanTanView, count: int, rng: random.Random
    ) -> list[FanTanState] | None:
        return infer_states(view, count, rng)

    def fast_values(
        self,
        view: FanTanView,
        legal: Sequence[FanTanAction],
        deals: int,
        infer: bool,
        lookahead: int,
        group: int,
        rng: random.Random,
        deadline: float | None,
        stopped: Callable[[], object] | None = None,
    ) -> list[float] | None:
        from fanfold.agents.strategy.fantan_fast import infer_deals, search_values, supports

        if not supports(view.config) or view.revealed is not None:
            return None
        hands = infer_deals(view, deals, rng, infer)
        return search_values(view, hands, legal, rng, lookahead, group, deadline, stopped)

    def evaluate(self, state: FanTanState) -> tuple[float, ...] | None:
        return evaluate(state)


def play_likelihood(view: FanTanView, hands: Sequence[int], stray: float = STRAY) -> float:
    """How likely the other seats' plays this hand are under the strategy, had they held
    ``hands`` now: each play from a choice of cards counts the chance the strategy gives it
    (its best card, else a stray pick at rate ``stray``)."""
    record = PlayRecord(view, stray)
    likelihood = 1.0
    for seat, hand in enumerate(hands):
        if seat != view.player:
            likelihood *= record.seat_likelihood(seat, hand)
    return likelihood


def infer_states(view: FanTanView, count: int, rng: random.Random) -> list[FanTanState]:
    """``count`` states consistent with ``view``, drawn in proportion to
    :func:`play_likelihood` by a Metropolis chain: from a deal drawn uniformly
    (:func:`fanfold.games.fantan.sampling.sample_state`), swap one card between two other
    seats where the view allows both to hold the other's card, and keep the swap with
    probability ``min(1, likelihood after / likelihood before)``. A swap keeps every hand size
    and every constraint of the view, so every state drawn is consistent with it."""
    first = sampling.sample_state(view, rng)
    config = view.config
    record = PlayRecord(view)
    seats = [seat for seat in range(config.players) if seat != view.player and record.plays[seat]]
    if not seats or view.revealed is not None:
        return [first] + [sampling.sample_state(view, rng) for _ in range(count - 1)]
    others = [seat for seat in range(config.players) if seat != view.player]
    forbidden = rules.pass_constraints(config, view.leader, view.history)
    _, _, _, required = sampling.hidden_constraints(view)
    fixed = 0
    for mask in required:
        fixed |= mask
    hands = list(first.hands)
    chances = {seat: record.seat_likelihood(seat, hands[seat]) for seat in others}
    states: list[FanTanState] = []
    step = 0
    while len(states) < count:
        step += 1
        first_seat = seats[rng.randrange(len(seats))]
        second_seat = others[rng.randrange(len(others) - 1)]
        if second_seat == first_seat:
            second_seat = others[-1]
        mine, theirs = hands[first_seat] & ~fixed, hands[second_seat] & ~fixed
        if mine and theirs:
            give = _random_card(mine, rng)
            take = _random_card(theirs, rng)
            if not give & forbidden[second_seat] and not take & forbidden[first_seat]:
                new_first = hands[first_seat] ^ give ^ take
                new_second = hands[second_seat] ^ give ^ take
                after_first = record.seat_likelihood(first_seat, new_first)
                after_second = record.seat_likelihood(second_seat, new_second)
                before = chances[first_seat] * chances[second_seat]
                after = after_first * after_second
                if after >= before or rng.random() * before < after:
                    hands[first_seat], hands[second_seat] = new_first, new_second
                    chances[first_seat], chances[second_seat] = after_first, after_second
        if step >= BURN_IN and (step - BURN_IN) % THINNING == 0:
            states.append(dataclasses.replace(first, hands=tuple(hands), seed=rng.getrandbits(63)))
    return states


def _random_card(mask: int, rng: random.Random) -> int:
    """One card of ``mask`` (as a one-bit mask), uniformly."""
    choice = rng.randrange(mask.bit_count())
    while choice:
        mask &= mask - 1
        choice -= 1
    return mask & -mask


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


def heuristic_rollout(
    state: FanTanState, rng: random.Random, weights: Sequence[Weights] | None = None
) -> Rollout:
    """Play the match on from ``state`` with the heuristic for every seat, on plain integers
    (the same moves, and the same draws from ``rng``, as :meth:`FanTanKnowledge.playout_action`
    stepped through the rules engine). ``weights``, one per seat, scores each seat's plays
    with its own weights (by default every seat plays :data:`DEFAULT_WEIGHTS`)."""
    actions: list[int] = []
    seats = tuple(weights) if weights is not None else (DEFAULT_WEIGHTS,) * state.config.players
    while not state.finished:
        state, _ = _play_hand(state, rng, actions, seats)
    outcome = rules.outcome(state)
    if outcome is None:  # pragma: no cover - a finished state always has an outcome
        raise RuntimeError("a finished Fan Tan match has no outcome")
    return Rollout(tuple(actions), tuple(outcome.returns))


def _play_hand(
    state: FanTanState,
    rng: random.Random,
    actions: list[int],
    weights: tuple[Weights, ...],
    stop: int = -1,
) -> tuple[FanTanState, bool]:
    """Play the current hand to its end: the next hand's state, or the finished match, and
    False; or, when seat ``stop`` is to choose among two or more cards, that moment's state
    and True.

    The moves are :func:`best_card`'s, with its scores read from the memo of
    :func:`_suit_scores` and the playable cards updated one suit at a time."""
    started = len(actions)
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
    randrange = rng.randrange
    playable = rules.playable_mask(config, layout, start_rank)
    # Whether ``playable`` is the rows' table read for ``layout`` (not the opening card alone,
    # nor every card before a chosen starting rank), so a play changes only its suit's part.
    by_table = layout != 0 and start_rank is not None
    table: tuple[int, ...] = ()
    memos: list[dict[int, tuple[tuple[int, float], ...]]] = []
    if start_rank is not None:
        table = rules.suit_table(start_rank, config.ace_high, config.up_before_down)
        memos = [
            _suit_scorer(start_rank, config.ace_high, config.up_before_down, own) for own in weights
        ]
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
        if choices & (choices - 1) == 0:
            index = choices.bit_length() - 1
        elif seat == stop:
            history = state.history + tuple(
                PASS if code < 0 else PLAYS[code] for code in actions[started:]
            )
            paused = FanTanState(
                config, state.seed, state.hand_number, state.dealer, state.leader, seat,
                tuple(hands), layout, start_rank, history, tuple(passes), tuple(scores), pool,
                state.last_winner, False,
            )  # fmt: skip
            return paused, True
        elif start_rank is None:
            index = best_card(config, layout, start_rank, hand, choices, rng, weights[seat])
        else:
            best = -1e9
            top: list[int] = []
            memo = memos[seat]
            for shift in (0, 13, 26, 39):
                if (choices >> shift) & SUIT_MASK:
                    row = (layout >> shift) & SUIT_MASK
                    hand13 = (hand >> shift) & SUIT_MASK
                    found = memo.get(row << 13 | hand13)
                    if found is None:
                        found = _suit_scores(config, start_rank, row, hand13, weights[seat])
                    for bit, score in found:
                        if score > best:
                            best = score
                            top = [shift + bit]
                        elif score == best:
                            top.append(shift + bit)
            index = top[0] if len(top) == 1 else top[randrange(len(top))]
        record(index)
        bit = 1 << index
        hand ^= bit
        hands[seat] = hand
        layout |= bit
        if start_rank is None:
            start_rank = index % 13 + 1
            table = rules.suit_table(start_rank, config.ace_high, config.up_before_down)
            memos = [
                _suit_scorer(start_rank, config.ace_high, config.up_before_down, own)
                for own in weights
            ]
        if not hand:
            break
        if by_table:
            shift = index - index % 13
            playable = (playable & ~(SUIT_MASK << shift)) | (
                table[(layout >> shift) & SUIT_MASK] << shift
            )
        else:
            playable = rules.playable_mask(config, layout, start_rank)
            by_table = True
        seat = (seat + 1) % players
    ended = FanTanState(
        config, state.seed, state.hand_number, state.dealer, state.leader, seat, tuple(hands),
        layout, start_rank, (), tuple(passes), tuple(scores), pool, state.last_winner, False,
    )  # fmt: skip
    return rules.finish_hand(ended, seat), False


def _make(game: AnyGame) -> Knowledge[Any, Any, Any]:
    return FanTanKnowledge(game)


#: What makes the game's strategy.
KNOWLEDGE = _make


def prepare(say: Callable[[str], None]) -> None:
    """Load Fan Tan's compiled search from Numba's cache (compile it first, in a
    subprocess, on a fresh installation), telling the player through ``say``
    (:func:`fanfold.agents.strategy.compiled.prepare`)."""
    from fanfold.agents.strategy import compiled

    compiled.prepare("fantan", say)


#: The agent behind each level.
LEVELS = {
    "easy": "random",
    "medium": "heuristic",
    "hard": "pimc(deals=2000, infer=true, lookahead=2, group=50, fast=true)",
}

__all__ = [
    "BURN_IN",
    "DEFAULT_WEIGHTS",
    "KNOWLEDGE",
    "LEVELS",
    "STRAY",
    "THINNING",
    "FanTanKnowledge",
    "PlayRecord",
    "Rollout",
    "Weights",
    "best_card",
    "card_scores",
    "evaluate",
    "heuristic_rollout",
    "infer_states",
    "play_likelihood",
    "prepare",
]


def _advance(
    state: FanTanState, rng: random.Random, seats: tuple[Weights, ...], player: int
) -> tuple[FanTanState, tuple[int, ...] | None]:
    """Play on from ``state`` by the heuristic until ``player`` is to choose among two or more
    cards: that moment's state and what ``player`` has seen since ``state`` (the actions, and
    its hand, which a new hand of a match deals afresh); or the finished match and ``None``."""
    actions: list[int] = []
    while not state.finished:
        state, stopped = _play_hand(state, rng, actions, seats, player)
        if stopped:
            return state, (*actions, state.hands[player])
    return state, None


def _returns(state: FanTanState, player: int) -> float:
    outcome = rules.outcome(state)
    if outcome is None:  # pragma: no cover - a finished state always has an outcome
        raise RuntimeError("a finished Fan Tan match has no outcome")
    return outcome.returns[player]


#: Deals that have reached one of the searching seat's later decisions: each paused there,
#: with the seed of its playout's random draws from that point on.
Members = list[tuple[FanTanState, int]]


def _spread(
    members: Members, move: FanTanAction, player: int, seats: tuple[Weights, ...]
) -> tuple[float, list[Members]]:
    """Play ``move`` in every member and on to ``player``'s next choice: the total return of
    the deals whose match ended first, and the others grouped by what ``player`` saw."""
    total = 0.0
    groups: dict[tuple[int, ...], Members] = {}
    for state, seed in members:
        inner = random.Random(seed)
        after, seen = _advance(rules.apply(state, move), inner, seats, player)
        if seen is None:
            total += _returns(after, player)
        else:
            groups.setdefault(seen, []).append((after, inner.getrandbits(64)))
    return total, list(groups.values())


def _group_value(
    members: Members,
    player: int,
    seats: tuple[Weights, ...],
    depth: int,
    group: int,
    deadline: float | None,
    stopped: Callable[[], object] | None = None,
) -> float:
    """The total return over ``members`` (deals that all show ``player`` the same view at its
    choice) of its best card for them all, searched ``depth`` choices deep; with fewer than
    ``group`` members, no depth left or the ``deadline`` passed (``stopped`` is called then),
    of the heuristic's card."""
    paused = members[0][0]
    config, layout, start_rank = paused.config, paused.layout, paused.start_rank
    hand = paused.hands[player]
    choices = hand & rules.playable_mask(config, layout, start_rank)
    late = depth > 0 and len(members) >= group and _late(deadline, stopped)
    if depth <= 0 or len(members) < group or late:
        tie_break = random.Random(members[0][1])
        move = PLAYS[best_card(config, layout, start_rank, hand, choices, tie_break)]
        return sum(
            heuristic_rollout(rules.apply(state, move), random.Random(seed), seats).returns[player]
            for state, seed in members
        )
    best = -math.inf
    while choices:
        low = choices & -choices
        choices ^= low
        total, groups = _spread(members, PLAYS[low.bit_length() - 1], player, seats)
        for later in groups:
            total += _group_value(later, player, seats, depth - 1, group, deadline, stopped)
        best = max(best, total)
    return best


def _late(deadline: float | None, stopped: Callable[[], object] | None) -> bool:
    """Whether ``deadline`` (a :func:`time.monotonic` time) has passed; ``stopped`` is told
    when it has."""
    if deadline is None or monotonic() <= deadline:
        return False
    if stopped is not None:
        stopped()
    return True


def search_values(
    states: Sequence[FanTanState],
    moves: Sequence[FanTanAction],
    player: int,
    rng: random.Random,
    depth: int,
    group: int,
    deadline: float | None = None,
    stopped: Callable[[], object] | None = None,
) -> list[float]:
    """Each of ``moves``' total return for ``player`` over ``states`` (deals of one view),
    with ``player``'s next ``depth`` decisions searched inside the deals.

    Every seat plays the heuristic, except ``player`` at its next ``depth`` choices among two
    or more cards: the deals are grouped by what ``player`` has seen by then (the same view),
    and each group of at least ``group`` deals plays the card with the best total over the
    group, searched further the same way (a card chosen for one view, never for one deal,
    so the search does not credit the seat with knowing the others' hands). A smaller group,
    or any group once ``deadline`` (a :func:`time.monotonic` time) has passed, plays the
    heuristic's card (``stopped`` is called each time the deadline stops a group's search).
    Every move is played out from the same random draws (common random numbers)."""
    if not states:
        return [0.0] * len(moves)
    seats = (DEFAULT_WEIGHTS,) * states[0].config.players
    members = [(state, rng.getrandbits(64)) for state in states]
    totals = []
    for move in moves:
        total, groups = _spread(members, move, player, seats)
        for later in groups:
            total += _group_value(later, player, seats, depth, group, deadline, stopped)
        totals.append(total)
    return totals
