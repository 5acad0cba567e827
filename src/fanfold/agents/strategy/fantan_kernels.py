"""Fan Tan's strategy and search at compiled speed: the Numba kernels.

Everything here works on plain arrays: hands and layouts are 52-bit masks in ``int64``, a
suit's 13 ranks are ``row`` and ``hand13`` masks as in :mod:`fanfold.agents.strategy.fantan`,
and each deal carries its own random generator (a SplitMix64 state in ``uint64``). The
functions are ``@njit(cache=True)``: Numba compiles them on first call and keeps the machine
code in ``__pycache__``. :mod:`fanfold.agents.strategy.fantan_fast` builds the tables they read
and drives them; import that module, not this one, which loads Numba.

The tables (:func:`fanfold.agents.strategy.fantan_fast.Tables`):

* ``table``: the rows' table of :func:`fanfold.games.fantan.rules.suit_table`;
* ``pop``: the number of bits of every 13-bit mask;
* ``beyond``: per rank bit, the ranks that only come into play after it;
* ``position``: per rank bit, its place along the row (low end 0); ``start``: the starting
  rank's place; ``span``: for two places, the ranks from one to the other;
* ``weights``: the strategy's five weights, in :class:`~fanfold.agents.strategy.fantan.Weights`'
  order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.core import numba_cache

numba_cache.install()

SUIT = 0x1FFF
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
HASH_MUL = np.uint64(0x100000001B3)


@njit(cache=True)
def next_random(rs, m):  # type: ignore[no-untyped-def]
    """The next 64 random bits of deal ``m``'s generator (SplitMix64)."""
    x = rs[m] + GOLDEN
    rs[m] = x
    z = (x ^ (x >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def below(rs, m, n):  # type: ignore[no-untyped-def]
    """A random whole number in ``0 .. n - 1`` from deal ``m``'s generator."""
    return int(next_random(rs, m) % np.uint64(n))


@njit(cache=True)
def uniform(rs, m):  # type: ignore[no-untyped-def]
    """A random number in ``[0, 1)`` from deal ``m``'s generator."""
    return float(next_random(rs, m) >> np.uint64(11)) / 9007199254740992.0


@njit(cache=True)
def gap(own_beyond, bit, position, start, span):  # type: ignore[no-untyped-def]
    """The ranks between rank ``bit`` and the seat's own cards beyond it (``own_beyond``, not
    empty) on the side away from the suit's start: the others' cards there must be played
    before the seat's are reached."""
    here = position[bit]
    low = here
    high = here
    for other in range(13):
        if own_beyond >> other & 1:
            place = position[other]
            if place < low:
                low = place
            if place > high:
                high = place
    if here > start:
        low = here
    elif here < start:
        high = here
    return span[low, high]


@njit(cache=True)
def card_score(  # type: ignore[no-untyped-def]
    row, hand13, bit, table, pop, beyond_of, position, start, span, weights
):
    """The strategy's score of playing rank ``bit`` of a suit whose played ranks are ``row``,
    the seat holding ``hand13`` of it: the same arithmetic, in the same order, as
    :func:`fanfold.agents.strategy.fantan.card_scores`."""
    others13 = SUIT & ~hand13 & ~row
    rest13 = hand13 & ~(1 << bit)
    opened = table[row | (1 << bit)] & ~table[row]
    beyond = beyond_of[bit]
    own_beyond = beyond & rest13
    score = weights[0] * pop[opened & rest13]
    score -= weights[1] * pop[opened & others13]
    if own_beyond:
        score += weights[2] * pop[own_beyond]
        score -= weights[3] * pop[gap(own_beyond, bit, position, start, span) & others13]
    else:
        score -= weights[4] * pop[beyond & others13]
    return score


@njit(cache=True)
def playable(layout, opening, table):  # type: ignore[no-untyped-def]
    """Every card that may be played to ``layout`` (only the opening card, if the variant
    has one, before the first card)."""
    if layout == 0 and opening >= 0:
        return 1 << opening
    result = 0
    for suit in range(4):
        result |= table[(layout >> (13 * suit)) & SUIT] << (13 * suit)
    return result


@njit(cache=True)
def score_choices(  # type: ignore[no-untyped-def]
    hand, choices, layout, cards, scores, table, pop, beyond_of, position, start, span, weights
):
    """Write each card of ``choices`` (in index order) into ``cards`` and the strategy's score
    of playing it into ``scores``; returns how many."""
    count = 0
    for suit in range(4):
        shift = 13 * suit
        mine = (choices >> shift) & SUIT
        if mine:
            row = (layout >> shift) & SUIT
            hand13 = (hand >> shift) & SUIT
            for bit in range(13):
                if mine >> bit & 1:
                    cards[count] = shift + bit
                    scores[count] = card_score(
                        row, hand13, bit, table, pop, beyond_of, position, start, span, weights
                    )
                    count += 1
    return count


@njit(cache=True)
def best_card(  # type: ignore[no-untyped-def]
    hand,
    choices,
    layout,
    rs,
    m,
    cards,
    scores,
    table,
    pop,
    beyond_of,
    position,
    start,
    span,
    weights,
):
    """The index of the strategy's card among ``choices`` (two or more), ties broken by deal
    ``m``'s generator (``cards`` and ``scores``: room for 52 of each, overwritten)."""
    count = score_choices(
        hand, choices, layout, cards, scores, table, pop, beyond_of, position, start, span,
        weights,
    )  # fmt: skip
    best = -1e9
    ties = 0
    for k in range(count):
        if scores[k] > best:
            best = scores[k]
            cards[0] = cards[k]
            ties = 1
        elif scores[k] == best:
            cards[ties] = cards[k]
            ties += 1
    if ties == 1:
        return int(cards[0])
    return int(cards[below(rs, m, ties)])


@njit(cache=True)
def advance(  # type: ignore[no-untyped-def]
    hands,
    layouts,
    seats,
    rs,
    winners,
    keys,
    move,
    player,
    stop,
    opening,
    table,
    pop,
    beyond_of,
    position,
    start,
    span,
    weights,
):
    """Play every deal on (in place) with the strategy for every seat.

    Deal ``m`` is ``hands[m]`` (one mask a seat), ``layouts[m]``, and ``seats[m]`` to act. If
    ``move`` is a card index, ``player`` (the seat to act) first plays it. Play then goes on
    until a seat goes out, written to ``winners[m]``; or, when ``stop``, until ``player`` is
    to choose among two or more cards: ``winners[m]`` is then ``-1`` and ``keys[m]`` a hash of
    every action since the call (what ``player`` has seen: deals with equal keys show it the
    same view)."""
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
            key = (key ^ np.uint64(move + 2)) * HASH_MUL
            if hands[m, seat] == 0:
                winner = seat
            seat = (seat + 1) % players
        while winner < 0:
            hand = hands[m, seat]
            choices = hand & playable(layout, opening, table)
            if choices == 0:
                key = (key ^ np.uint64(1)) * HASH_MUL
                seat = (seat + 1) % players
                continue
            if choices & (choices - 1) == 0:
                index = 0
                while not choices >> index & 1:
                    index += 1
            elif stop and seat == player:
                break
            else:
                index = best_card(
                    hand, choices, layout, rs, m, cards, scores, table, pop, beyond_of,
                    position, start, span, weights,
                )  # fmt: skip
            hands[m, seat] = hand ^ (1 << index)
            layout |= 1 << index
            key = (key ^ np.uint64(index + 2)) * HASH_MUL
            if hands[m, seat] == 0:
                winner = seat
            else:
                seat = (seat + 1) % players
        layouts[m] = layout
        seats[m] = seat
        winners[m] = winner
        keys[m] = key


@njit(cache=True)
def seat_likelihood(  # type: ignore[no-untyped-def]
    hand,
    first,
    last,
    indices,
    layouts,
    playables,
    stray,
    table,
    pop,
    beyond_of,
    position,
    start,
    span,
    weights,
):
    """How likely one seat's plays ``first .. last - 1`` (in order) were under the strategy,
    had it held ``hand`` now: :meth:`fanfold.agents.strategy.fantan.PlayRecord.seat_likelihood`."""
    likelihood = 1.0
    cards = np.empty(52, np.int64)
    scores = np.empty(52, np.float64)
    for k in range(last - 1, first - 1, -1):
        index = indices[k]
        hand |= 1 << index
        choices = hand & playables[k]
        if choices & (choices - 1) == 0:
            continue
        count = score_choices(
            hand, choices, layouts[k], cards, scores, table, pop, beyond_of, position, start,
            span, weights,
        )  # fmt: skip
        ties = 0
        best = -1e9
        played = 0.0
        for n in range(count):
            score = scores[n]
            if cards[n] == index:
                played = score
            if score > best:
                best = score
                ties = 1
            elif score == best:
                ties += 1
        chance = stray / count
        if played == best:
            chance += (1.0 - stray) / ties
        likelihood *= chance
    return likelihood


@njit(cache=True)
def random_card(mask, rs):  # type: ignore[no-untyped-def]
    """One card of ``mask`` (as a one-bit mask), uniformly."""
    count = 0
    rest = mask
    while rest:
        rest &= rest - 1
        count += 1
    choice = below(rs, 0, count)
    while choice:
        mask &= mask - 1
        choice -= 1
    return mask & -mask


@njit(cache=True)
def infer_hands(  # type: ignore[no-untyped-def]
    start_hands,
    movers,
    others,
    fixed,
    forbidden,
    bounds,
    indices,
    layouts,
    playables,
    stray,
    count,
    burn_in,
    thinning,
    rs,
    table,
    pop,
    beyond_of,
    position,
    start,
    span,
    weights,
):
    """``count`` deals drawn from a Metropolis chain started at ``start_hands``: swap one
    card between a seat of ``movers`` and another seat of ``others`` where neither card is
    ``fixed`` or ``forbidden`` to its new holder, kept with probability ``min(1, likelihood
    after / before)`` (each seat's plays are ``bounds[seat] .. bounds[seat + 1]`` of the play
    arrays). The same chain as :func:`fanfold.agents.strategy.fantan.infer_states`."""
    players = start_hands.shape[0]
    hands = start_hands.copy()
    chances = np.ones(players)
    for seat in others:
        chances[seat] = seat_likelihood(
            hands[seat], bounds[seat], bounds[seat + 1], indices, layouts, playables, stray,
            table, pop, beyond_of, position, start, span, weights,
        )  # fmt: skip
    out = np.empty((count, players), np.int64)
    made = 0
    step = 0
    while made < count:
        step += 1
        first_seat = movers[below(rs, 0, movers.shape[0])]
        second_seat = others[below(rs, 0, others.shape[0] - 1)]
        if second_seat == first_seat:
            second_seat = others[others.shape[0] - 1]
        mine = hands[first_seat] & ~fixed
        theirs = hands[second_seat] & ~fixed
        if mine and theirs:
            give = random_card(mine, rs)
            take = random_card(theirs, rs)
            if not give & forbidden[second_seat] and not take & forbidden[first_seat]:
                new_first = hands[first_seat] ^ give ^ take
                new_second = hands[second_seat] ^ give ^ take
                after_first = seat_likelihood(
                    new_first, bounds[first_seat], bounds[first_seat + 1], indices, layouts,
                    playables, stray, table, pop, beyond_of, position, start, span, weights,
                )  # fmt: skip
                after_second = seat_likelihood(
                    new_second, bounds[second_seat], bounds[second_seat + 1], indices, layouts,
                    playables, stray, table, pop, beyond_of, position, start, span, weights,
                )  # fmt: skip
                before = chances[first_seat] * chances[second_seat]
                after = after_first * after_second
                if after >= before or uniform(rs, 0) * before < after:
                    hands[first_seat] = new_first
                    hands[second_seat] = new_second
                    chances[first_seat] = after_first
                    chances[second_seat] = after_second
        if step >= burn_in and (step - burn_in) % thinning == 0:
            out[made] = hands
            made += 1
    return out
