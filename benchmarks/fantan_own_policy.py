"""A learned linear policy for the searching seat's own later moves in Fan Tan ``hard``'s
playouts: trained, measured alone, and screened inside ``hard``.

``hard`` (``pimc(deals=2000, infer=true, lookahead=2, group=50, fast=true)``) finishes each
deal with the strategy for every seat, its own later moves included. This tries a stronger
policy for those own moves only (the other seats stay the strategy, the arena's ``heuristic``):

* **the policy**: each playable card scored by a weighted sum of :data:`FEATURES` features
  (:func:`features`), all from what the seat may see: its hand, the layout, the cards the
  others hold between them (every card neither held nor played) and the others' hand sizes;
  the best-scored card is played (the first in index order among equals). The strategy's own
  five features come first, so :data:`STRATEGY` (its weights, the rest 0) scores every card
  as the strategy does.
* **training** (:func:`train`): a seeded cross-entropy search over the weights, each candidate
  scored by its win rate in ``games`` compiled games of one policy seat against three seats of
  the strategy (:func:`play_games`: standard Fan Tan, the policy seat rotating, the same deals
  and the same random draws for every candidate of a round).
* **the screen** (``arena``): ``fanfold arena fantan`` with ``hard``'s compiled playouts
  playing the searching seat's own later moves by the policy (its other seats, its reading
  of play and its search unchanged).

Run::

    python3 benchmarks/fantan_own_policy.py train --out own.npy
    python3 benchmarks/fantan_own_policy.py measure --weights own.npy --games 50000
    python3 benchmarks/fantan_own_policy.py arena --weights own.npy -- \\
        --agents hard,heuristic --games 400 --seed 1 --workers 1 --results own_s1.jsonl
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from fanfold.agents.strategy import fantan_fast as fast
from fanfold.agents.strategy import fantan_kernels as kernels
from fanfold.games.fantan.config import FanTanConfig

#: How many features a card has (:func:`features`).
FEATURES = 14
SUIT = 0x1FFF
#: The strategy's weights, the added features at 0: the strategy's scores.
STRATEGY = np.array([3.0, -2.0, 1.0, -0.3, -0.5] + [0.0] * (FEATURES - 5), np.float64)
#: Candidates a round of the cross-entropy search, and the best of them it keeps.
CANDIDATES = 24
ELITE = 6

Weights = npt.NDArray[np.float64]
#: Numba's compiler for the kernels below (compiled on first call, not cached).
_compiled: Any = njit(cache=False)


@_compiled
def features(  # type: ignore[no-untyped-def]
    row, hand13, bit, held, danger, table, pop, beyond_of, position, start, span, out
):
    """Write into ``out`` the features of playing rank ``bit`` of a suit whose played ranks
    are ``row``, the seat holding ``hand13`` of it and ``held`` cards in all; ``danger`` is 1
    when another seat holds three cards or fewer. 0-4: the strategy's (own cards opened,
    others' cards opened, own cards beyond, others' cards in the gap to them, others' cards
    blocked when none of the seat's is beyond), 5: no own card beyond, 6: others' cards
    opened in danger, 7: blocked times the hand's fullness, 8: own cards left in the suit,
    9: the starting rank, 10: the others' cards in the suit, 11: own cards beyond times the
    hand's fullness, 12: the others' cards beyond, 13: blocked in danger."""
    others13 = SUIT & ~hand13 & ~row
    rest13 = hand13 & ~(1 << bit)
    opened = table[row | (1 << bit)] & ~table[row]
    beyond = beyond_of[bit]
    own_beyond = beyond & rest13
    for k in range(FEATURES):
        out[k] = 0.0
    out[0] = pop[opened & rest13]
    out[1] = pop[opened & others13]
    fullness = held / 13.0
    if own_beyond:
        out[2] = pop[own_beyond]
        out[3] = pop[kernels.gap(own_beyond, bit, position, start, span) & others13]
    else:
        out[4] = pop[beyond & others13]
        out[5] = 1.0
    out[6] = out[1] * danger
    out[7] = out[4] * fullness
    out[8] = pop[rest13]
    out[9] = 1.0 if position[bit] == start else 0.0
    out[10] = pop[others13]
    out[11] = out[2] * fullness
    out[12] = pop[beyond & others13]
    out[13] = out[4] * danger


@_compiled
def count_bits(mask):  # type: ignore[no-untyped-def]
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@_compiled
def policy_card(  # type: ignore[no-untyped-def]
    hands, seat, choices, layout, table, pop, beyond_of, position, start, span, weights
):
    """The policy's card for ``seat`` (its hand ``hands[seat]``) among ``choices``: the best
    weighted sum of :func:`features`, the first in index order among equals."""
    hand = hands[seat]
    fewest = 99
    for other in range(hands.shape[0]):
        if other != seat:
            size = count_bits(hands[other])
            if size < fewest:
                fewest = size
    danger = 1.0 if fewest <= 3 else 0.0
    held = count_bits(hand)
    found = np.empty(FEATURES)
    best = -1e18
    pick = -1
    for suit in range(4):
        shift = 13 * suit
        mine = (choices >> shift) & SUIT
        if mine:
            row = (layout >> shift) & SUIT
            hand13 = (hand >> shift) & SUIT
            for bit in range(13):
                if mine >> bit & 1:
                    features(
                        row, hand13, bit, held, danger, table, pop, beyond_of, position, start,
                        span, found,
                    )  # fmt: skip
                    score = 0.0
                    for k in range(FEATURES):
                        score += weights[k] * found[k]
                    if score > best:
                        best = score
                        pick = shift + bit
    return pick


@_compiled
def play_games(  # type: ignore[no-untyped-def]
    count, seed, weights, use_policy, table, pop, beyond_of, position, start, span, strategy
):
    """Games of standard Fan Tan won by one seat (seat ``g % 4`` in game ``g``, the first
    player seat 0) among three seats of the strategy: the policy with ``weights`` when
    ``use_policy``, else the strategy. Game ``g`` deals and breaks the strategy's ties from
    its own generator, seeded from ``seed`` and ``g``."""
    randoms = np.zeros(1, np.uint64)
    cards = np.empty(52, np.int64)
    scores = np.empty(52, np.float64)
    deck = np.arange(52)
    hands = np.zeros(4, np.int64)
    wins = 0
    for game in range(count):
        randoms[0] = np.uint64(seed * 1000003 + game)
        for i in range(51, 0, -1):
            j = kernels.below(randoms, 0, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        for seat in range(4):
            hands[seat] = 0
        for place in range(52):
            hands[place % 4] |= np.int64(1) << deck[place]
        me = game % 4
        layout = np.int64(0)
        seat = 0
        winner = -1
        while winner < 0:
            hand = hands[seat]
            choices = hand & kernels.playable(layout, -1, table)
            if choices == 0:
                seat = (seat + 1) % 4
                continue
            if choices & (choices - 1) == 0:
                index = 0
                while not choices >> index & 1:
                    index += 1
            elif seat == me and use_policy:
                index = policy_card(
                    hands, seat, choices, layout, table, pop, beyond_of, position, start, span,
                    weights,
                )  # fmt: skip
            else:
                index = kernels.best_card(
                    hand, choices, layout, randoms, 0, cards, scores, table, pop, beyond_of,
                    position, start, span, strategy,
                )  # fmt: skip
            hands[seat] = hand ^ (np.int64(1) << index)
            layout |= np.int64(1) << index
            if hands[seat] == 0:
                winner = seat
            seat = (seat + 1) % 4
        if winner == me:
            wins += 1
    return wins


@_compiled
def advance_own(  # type: ignore[no-untyped-def]
    hands, layouts, seats, rs, winners, keys, move, player, stop, opening, table, pop,
    beyond_of, position, start, span, strategy, own,
):  # fmt: skip
    """:func:`fanfold.agents.strategy.fantan_kernels.advance`, with ``player``'s own moves
    (where it does not stop) played by the policy with weights ``own``."""
    players = hands.shape[1]
    cards = np.empty(52, np.int64)
    scores = np.empty(52, np.float64)
    for m in range(hands.shape[0]):
        layout = layouts[m]
        seat = seats[m]
        key = np.uint64(1469598103934665603)
        winner = -1
        if move >= 0:
            hands[m, seat] ^= 1 << move
            layout |= 1 << move
            key = (key ^ np.uint64(move + 2)) * kernels.HASH_MUL
            if hands[m, seat] == 0:
                winner = seat
            seat = (seat + 1) % players
        while winner < 0:
            hand = hands[m, seat]
            choices = hand & kernels.playable(layout, opening, table)
            if choices == 0:
                key = (key ^ np.uint64(1)) * kernels.HASH_MUL
                seat = (seat + 1) % players
                continue
            if choices & (choices - 1) == 0:
                index = 0
                while not choices >> index & 1:
                    index += 1
            elif stop and seat == player:
                break
            elif seat == player:
                index = policy_card(
                    hands[m], seat, choices, layout, table, pop, beyond_of, position, start,
                    span, own,
                )  # fmt: skip
            else:
                index = kernels.best_card(
                    hand, choices, layout, rs, m, cards, scores, table, pop, beyond_of,
                    position, start, span, strategy,
                )  # fmt: skip
            hands[m, seat] = hand ^ (1 << index)
            layout |= 1 << index
            key = (key ^ np.uint64(index + 2)) * kernels.HASH_MUL
            if hands[m, seat] == 0:
                winner = seat
            else:
                seat = (seat + 1) % players
        layouts[m] = layout
        seats[m] = seat
        winners[m] = winner
        keys[m] = key


def _scoring() -> tuple[Any, ...]:
    return fast.tables(FanTanConfig()).scoring()


def win_rate(weights: Weights | None, games: int, seed: int) -> float:
    """The share of ``games`` won by one seat playing the policy with ``weights`` (``None``:
    the strategy) against three seats of the strategy (:func:`play_games`)."""
    scoring = _scoring()
    use = weights is not None
    chosen = STRATEGY if weights is None else weights
    return int(play_games(games, seed, chosen, use, *scoring[:6], scoring[6])) / games


def train(seed: int, games: int, rounds: int, say: Any = print) -> tuple[Weights, list[float]]:
    """The cross-entropy search: from :data:`STRATEGY` with a spread of 0.7 on every weight,
    each round draws :data:`CANDIDATES` weights, scores each by :func:`win_rate` over
    ``games`` games of the round's own deals, and moves to the mean and spread (plus 0.05) of
    the best :data:`ELITE`. Returns the last mean and each round's best candidate's rate."""
    rng = np.random.default_rng(seed)
    mean = STRATEGY.copy()
    spread = np.full(FEATURES, 0.7)
    bests: list[float] = []
    for number in range(rounds):
        drawn = mean + spread * rng.standard_normal((CANDIDATES, FEATURES))
        rates = np.array([win_rate(weights, games, 100 + number) for weights in drawn])
        order = np.argsort(-rates)
        elite = drawn[order[:ELITE]]
        mean = elite.mean(axis=0)
        spread = elite.std(axis=0) + 0.05
        bests.append(float(rates[order[0]]))
        elite_rate = rates[order[:ELITE]].mean()
        say(f"round {number + 1}: best {rates[order[0]]:.4f}, elite {elite_rate:.4f}")
    return mean, bests


def use_in_hard(weights: Weights) -> None:
    """From now on in this process, ``hard``'s compiled playouts play the searching seat's own
    later moves by the policy with ``weights`` (its other seats stay the strategy)."""

    def advance(*arguments: Any) -> None:
        advance_own(*arguments, weights)

    kernels.advance = advance  # type: ignore[assignment]


def main(argv: Sequence[str] | None = None) -> None:
    arguments = list(sys.argv[1:] if argv is None else argv)
    rest: list[str] = []
    if "--" in arguments:
        rest = arguments[arguments.index("--") + 1 :]
        arguments = arguments[: arguments.index("--")]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("command", choices=["train", "measure", "arena"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=30000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--weights", default=None, help="a .npy file of the policy's weights")
    parser.add_argument("--out", default=None, help="where train writes the weights (.npy)")
    options = parser.parse_args(arguments)
    if options.games < 1 or options.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    if options.command == "train":
        started = time.process_time()
        weights, _ = train(options.seed, options.games, options.rounds)
        print("weights:", np.round(weights, 3).tolist())
        print(f"processor time: {time.process_time() - started:.0f} s")
        if options.out:
            np.save(options.out, weights)
        return
    if options.weights is None:
        parser.error(f"{options.command} needs --weights")
    weights = np.load(options.weights)
    if weights.shape != (FEATURES,):
        parser.error(f"--weights must hold {FEATURES} numbers, not {weights.shape}")
    if options.command == "measure":
        policy = win_rate(weights, options.games, 999)
        strategy = win_rate(None, options.games, 999)
        print(f"policy {policy:.4f}, strategy {strategy:.4f} ({options.games} games each)")
        return
    use_in_hard(weights)
    from fanfold.cli.app import main as fanfold

    sys.argv = ["fanfold", "arena", "fantan", *rest]
    fanfold()


if __name__ == "__main__":
    main()
