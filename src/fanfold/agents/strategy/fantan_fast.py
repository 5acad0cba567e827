"""Fan Tan's determinized search at compiled speed: ``pimc(fast=true)``.

The same search as :mod:`fanfold.agents.pimc` with the Fan Tan strategy
(:mod:`fanfold.agents.strategy.fantan`), with the deals, the reading of the others' hands and
the playouts run by Numba kernels (:mod:`fanfold.agents.strategy.fantan_kernels`) on arrays of
deals instead of state objects:

* :func:`infer_deals` draws deals from the same Metropolis chain as
  :func:`~fanfold.agents.strategy.fantan.infer_states` (swaps between the other seats weighted
  by how likely the strategy made the plays seen; every deal keeps every constraint of the
  view), or uniformly among the deals the view allows when ``infer`` is off (the same chain
  with every deal equally likely);
* :func:`search_values` tries every legal move on every deal, plays on with the strategy for
  every seat, and searches the seat's own next ``lookahead`` choices one card per view, as
  :func:`~fanfold.agents.strategy.fantan.search_values` does: the deals that show the seat the
  same actions since the decision are grouped, and each group of at least ``group`` deals
  plays the card with the best total over the group.

The kernels score every card with the strategy's arithmetic (tested equal to
:func:`~fanfold.agents.strategy.fantan.card_scores` and its reading of play equal to
:meth:`~fanfold.agents.strategy.fantan.PlayRecord.seat_likelihood`); their random draws come
from each deal's own generator, seeded from the agent's, so a seeded decision is the same on
every run, though not the same draws as the reference search. :func:`supports` says which
variants the kernels cover: a hand with a fixed starting rank that ends the match, scored plain
(the first out wins), which includes the standard game; the agent uses the reference search
for the others.

Importing this module loads Numba; :func:`warm_up` compiles (or loads from the cache) every
kernel, which the server and the tests do before the first decision.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from time import monotonic
from typing import Any

import numpy as np
import numpy.typing as npt

from fanfold.agents.strategy import fantan_kernels as kernels
from fanfold.agents.strategy.fantan_scope import supports as supports  # its home is light
from fanfold.agents.strategy.fantan_scoring import (
    BURN_IN,
    DEFAULT_WEIGHTS,
    STRAY,
    THINNING,
    PlayRecord,
    Weights,
    _beyond,
)
from fanfold.core.pauses import pause_point
from fanfold.games.fantan import rules, sampling
from fanfold.games.fantan.actions import FanTanAction, Play
from fanfold.games.fantan.cards import rank_order
from fanfold.games.fantan.config import FanTanConfig
from fanfold.games.fantan.view import FanTanView

Masks = npt.NDArray[np.int64]
Keys = npt.NDArray[np.uint64]

#: The deals a decision plays (every candidate move on them) between looks at its deadline.
BATCH = 250


@dataclass(frozen=True)
class Tables:
    """What the kernels read to score cards and find playable ones (see
    :mod:`fanfold.agents.strategy.fantan_kernels`)."""

    table: Masks
    pop: Masks
    beyond: Masks
    position: Masks
    start: int
    span: Masks
    weights: npt.NDArray[np.float64]
    opening: int

    def scoring(self) -> tuple[Any, ...]:
        """The arguments every scoring kernel takes, in their order."""
        return (
            self.table, self.pop, self.beyond, self.position, self.start, self.span, self.weights
        )  # fmt: skip


@cache
def tables(config: FanTanConfig, weights: Weights = DEFAULT_WEIGHTS) -> Tables:
    """The kernels' tables for a variant the compiled search :func:`supports`."""
    start_rank = config.start_rank
    if start_rank is None:
        raise ValueError("the compiled Fan Tan search needs a fixed starting rank")
    order = rank_order(config.ace_high)
    position = np.array([order.index(bit + 1) for bit in range(13)], np.int64)
    span = np.zeros((13, 13), np.int64)
    for low in range(13):
        for high in range(low, 13):
            span[low, high] = sum(1 << (order[place] - 1) for place in range(low, high + 1))
    opening = config.opening
    return Tables(
        table=np.array(
            rules.suit_table(start_rank, config.ace_high, config.up_before_down), np.int64
        ),
        pop=np.array([mask.bit_count() for mask in range(1 << 13)], np.int64),
        beyond=np.array(_beyond(start_rank, config.ace_high), np.int64),
        position=position,
        start=order.index(start_rank),
        span=span,
        weights=np.array(
            [
                weights.own_opened,
                weights.others_opened,
                weights.own_beyond,
                weights.gap,
                weights.blocked,
            ],
            np.float64,
        ),
        opening=-1 if opening is None else opening.index,
    )


def _seeds(rng: random.Random, count: int) -> npt.NDArray[np.uint64]:
    return np.array([rng.getrandbits(64) for _ in range(count)], np.uint64)


def infer_deals(
    view: FanTanView,
    count: int,
    rng: random.Random,
    infer: bool = True,
    stray: float = STRAY,
    burn_in: int = BURN_IN,
    thinning: int = THINNING,
) -> Masks:
    """``count`` deals (one row of hands each) consistent with ``view``: drawn in proportion
    to how likely the strategy made the others' plays seen (``infer``), or uniformly among the
    deals the view allows."""
    config = view.config
    players = config.players
    found = tables(config)
    start = np.array(sampling.sample_hands(view, rng), np.int64)
    record = PlayRecord(view, stray)
    others = [seat for seat in range(players) if seat != view.player]
    movers = [seat for seat in others if record.plays[seat]] if infer else []
    bounds = [0]
    indices: list[int] = []
    layouts: list[int] = []
    playables: list[int] = []
    for seat in range(players):
        if infer and seat != view.player:
            for index, layout, _, playable in record.plays[seat]:
                indices.append(index)
                layouts.append(layout)
                playables.append(playable)
        bounds.append(len(indices))
    forbidden = rules.pass_constraints(config, view.leader, view.history)
    _, _, _, required = sampling.hidden_constraints(view)
    fixed = 0
    for mask in required:
        fixed |= mask
    deals: Masks = kernels.infer_hands(
        start,
        np.array(movers or others, np.int64),
        np.array(others, np.int64),
        fixed,
        np.array(forbidden, np.int64),
        np.array(bounds, np.int64),
        np.array(indices, np.int64),
        np.array(layouts, np.int64),
        np.array(playables, np.int64),
        stray,
        count,
        burn_in,
        thinning,
        _seeds(rng, 1),
        *found.scoring(),
    )
    return deals


@dataclass
class _Deals:
    """Deals paused at the same moment of play, with each deal's generator."""

    hands: Masks
    layouts: Masks
    seats: Masks
    randoms: npt.NDArray[np.uint64]

    def take(self, chosen: npt.NDArray[np.intp]) -> _Deals:
        return _Deals(
            self.hands[chosen], self.layouts[chosen], self.seats[chosen], self.randoms[chosen]
        )


class _Search:
    """One decision's search over arrays of deals."""

    def __init__(
        self,
        config: FanTanConfig,
        player: int,
        group: int,
        deadline: float | None,
        stopped: Callable[[], object] | None = None,
    ) -> None:
        self.found = tables(config)
        self.player = player
        self.group = group
        self.deadline = deadline
        self.stopped = stopped

    def play(self, deals: _Deals, move: int, stop: bool) -> tuple[float, _Deals, Keys]:
        """Play ``move`` (``-1``: the strategy's card) in every deal and on, stopping at the
        seat's next choice if ``stop``: the total return of the deals that ended, and the
        others with the keys of what the seat saw."""
        count = len(deals.layouts)
        winners = np.empty(count, np.int64)
        keys = np.empty(count, np.uint64)
        found = self.found
        kernels.advance(
            deals.hands, deals.layouts, deals.seats, deals.randoms, winners, keys, move,
            self.player, stop, found.opening, *found.scoring(),
        )  # fmt: skip
        ended = winners >= 0
        won = int(np.count_nonzero(winners == self.player))
        total = float(2 * won - int(np.count_nonzero(ended)))
        paused = np.flatnonzero(~ended)
        return total, deals.take(paused), keys[paused]

    def value(self, deals: _Deals, keys: Keys, depth: int) -> float:
        """The total return over paused ``deals`` of the seat's best card per view (``keys``),
        searched ``depth`` choices deep; the strategy's card where a view has fewer than
        ``group`` deals, no depth is left or the deadline has passed."""
        if not len(keys):
            return 0.0
        order = np.argsort(keys, kind="stable")
        _, firsts, counts = np.unique(keys[order], return_index=True, return_counts=True)
        total = 0.0
        rest: list[npt.NDArray[np.intp]] = []
        for first, size in zip(firsts.tolist(), counts.tolist(), strict=True):
            members = order[first : first + size]
            if depth <= 0 or size < self.group or self.late():
                rest.append(members)
                continue
            at = int(members[0])
            hand = int(deals.hands[at, self.player])
            choices = hand & int(kernels.playable(int(deals.layouts[at]), self.found.opening,
                                                  self.found.table))  # fmt: skip
            group = deals.take(members)
            best = -math.inf
            while choices:
                pause_point()
                low = choices & -choices
                choices ^= low
                trial = group.take(np.arange(size))
                ended, later, later_keys = self.play(trial, low.bit_length() - 1, depth > 1)
                best = max(best, ended + self.value(later, later_keys, depth - 1))
            total += best
        if rest:
            ended, _, _ = self.play(deals.take(np.concatenate(rest)), -1, False)
            total += ended
        return total

    def late(self) -> bool:
        """Whether the deadline has passed (``stopped`` is told when it has)."""
        if self.deadline is None or monotonic() <= self.deadline:
            return False
        if self.stopped is not None:
            self.stopped()
        return True


def search_values(
    view: FanTanView,
    hands: Masks,
    legal: Sequence[FanTanAction],
    rng: random.Random,
    lookahead: int,
    group: int,
    deadline: float | None = None,
    stopped: Callable[[], object] | None = None,
) -> list[float]:
    """Each of ``legal``'s total return for the viewing seat over the deals ``hands`` (one row
    of hands a deal), with its next ``lookahead`` choices searched per view (see the module
    docstring). Every move is played out from the same random draws (common random numbers).

    The deals are played in batches of :data:`BATCH`, every move on a batch before the next;
    once ``deadline`` (a :func:`time.monotonic` time) has passed, no further batch is played
    (at least one is: every move is valued on the same deals, fewer of them) and every view
    plays the strategy's card; ``stopped`` is called each time the deadline stops a batch or
    a view's search. Without a deadline the values are those of all the deals at once (a
    deal's play does not depend on the others'). A :func:`~fanfold.core.pauses.pause_point`
    comes before each candidate move and each choice searched (a review may wait there; the
    draws are unchanged)."""
    player = view.player
    count = len(hands)
    search = _Search(view.config, player, group, deadline, stopped)
    randoms = _seeds(rng, count)
    parts: list[list[tuple[float, _Deals, Keys]]] = [[] for _ in legal]
    done = 0
    while done < count:
        if done and search.late():
            break
        batch = slice(done, min(count, done + BATCH))
        size = batch.stop - batch.start
        for position, action in enumerate(legal):
            if not done:
                pause_point()  # between candidate moves: a caller may wait here (a review)
            deals = _Deals(
                hands[batch].copy(),
                np.full(size, view.layout, np.int64),
                np.full(size, player, np.int64),
                randoms[batch].copy(),
            )
            move = action.index if isinstance(action, Play) else -1
            parts[position].append(search.play(deals, move, lookahead > 0))
        done = batch.stop
    totals = []
    for batches in parts:
        ended = sum(part[0] for part in batches)
        later = _Deals(
            np.concatenate([part[1].hands for part in batches]),
            np.concatenate([part[1].layouts for part in batches]),
            np.concatenate([part[1].seats for part in batches]),
            np.concatenate([part[1].randoms for part in batches]),
        )
        keys = np.concatenate([part[2] for part in batches])
        totals.append(ended + search.value(later, keys, lookahead))
    return totals


def warm_up() -> None:
    """Compile (or load from Numba's cache) every kernel, on a small decision."""
    from fanfold.games.fantan.game import FanTanGame

    config = FanTanConfig()
    game = FanTanGame()
    state = rules.new_state(config, 1)
    playout = random.Random(1)
    while len(rules.legal_actions(state)) < 2 or state.layout == 0:
        legal = rules.legal_actions(state)
        state = rules.apply(state, legal[playout.randrange(len(legal))])
    view = game.observe(state, state.to_move)
    deals = infer_deals(view, 8, random.Random(1))
    search_values(view, deals, rules.legal_actions(state), random.Random(1), 1, 2)
