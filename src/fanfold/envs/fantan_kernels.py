"""Fan Tan's environment stepping at compiled speed: the Numba kernels.

Many tables of one Fan Tan variant live in plain arrays (:mod:`fanfold.envs.fantan_stepping`
makes them and drives these kernels; import that module, not this one, which loads Numba):

* ``scal[table, column]``: the table's numbers (the ``S_*`` columns below);
* ``hands[table, seat]``: each seat's cards as a 52-bit mask; ``passes``, ``scores``: per seat;
* ``played_by[table, card]``: the seat that played each card this hand, -1 for none;
* ``history[table, n]``: this hand's actions in order (a card index, or 52 for a pass);
* ``rng[table, seat]``: each random bot's generator, Python's own Mersenne Twister (624 words
  and the position), seeded as :class:`random.Random` seeds it, so that a bot here draws
  exactly the numbers :class:`~fanfold.agents.random_agent.RandomAgent` draws;
* ``cfg``: the variant's numbers (the ``C_*`` entries), ``tables[start rank]``: the rows'
  table of :func:`fanfold.games.fantan.rules.suit_table` for each starting rank, and
  ``offsets``: where each observation block starts (the ``O_*`` entries).

The rules are :mod:`fanfold.games.fantan.rules`' (step, hand end, settling, match end), and
the observation :class:`~fanfold.envs.fantan.FanTanEncoding`'s; both are tested equal to the
Python path over many seeded episodes (``tests/envs/test_fantan_stepping.py``). Dealing a hand
needs its seed's SHA-256 (:func:`fanfold.core.rng.derive_seed`), which stays in Python: a
table whose hand ends with the match going on stops with :data:`NEEDS_DEAL`, and the driver
deals it with :func:`deal_hand` and lets it go on.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from fanfold.agents.strategy.fantan_kernels import card_score
from fanfold.core import numba_cache

numba_cache.install()

SUIT = 0x1FFF
ALL_CARDS = (1 << 52) - 1
PASS = 52
MASK32 = 0xFFFFFFFF
MT_N = 624
MT_M = 397

# ``scal`` columns
S_SEED = 0
S_HAND_NUMBER = 1
S_DEALER = 2
S_LEADER = 3
S_TO_MOVE = 4
S_LAYOUT = 5
S_START_RANK = 6  # 0: not chosen yet
S_POOL = 7
S_LAST_WINNER = 8  # -1: none
S_FINISHED = 9
S_HISTORY = 10  # actions in this hand's history
S_STATUS = 11
S_STEPS = 12
S_COLUMNS = 13

# statuses
LEARNER = 0  # the learner decides
OVER = 1  # the match is over
NEEDS_DEAL = 2  # a hand ended and the match goes on: deal hand S_HAND_NUMBER + 1
CUT = 3  # the step limit cut the match before its end
#: ``cfg[C_LEARNER]`` in self-play: every seat decides through the caller, none is a bot.
EVERY_SEAT = -1

# a bot seat's kind (``kinds[seat]`` of ``bots``)
RANDOM = 0  # draws ``legal[randrange(len(legal))]`` from its generator
HEURISTIC = 1  # the strategy's best-scored card, ties drawn from its generator

# ``cfg`` entries
C_PLAYERS = 0
C_LEARNER = 1
C_OPENING = 2  # the opening card's index, -1 for none
C_START_RANK = 3  # 0: the first player chooses
C_SCORING = 4  # 0 plain, 1 chips, 2 penalty
C_ANTE = 5
C_PASS_CHIPS = 6
C_CARD_CHIPS = 7
C_HANDS = 8
C_TARGET = 9  # -1: none
C_MAX_STEPS = 10  # actions (every seat's) after which a match is cut; -1: none
C_SIZE = 11

# ``offsets`` entries (observation blocks)
O_HAND = 0
O_LAYOUT = 1
O_PLAYED_BY = 2
O_HAND_COUNTS = 3
O_PASSES = 4
O_START_RANK = 5
O_DEALER = 6
O_LEADER = 7
O_TO_MOVE = 8
O_HAND_NUMBER = 9
O_SCORES = 10
O_POOL = 11
O_LAST_WINNER = 12
O_SIZE = 13


# --------------------------------------------------------------------- Python's generator
def _initial_words() -> npt.NDArray[np.int64]:
    """CPython's ``init_genrand(19650218)``, where every seeding starts."""
    words = np.zeros(MT_N, dtype=np.int64)
    words[0] = 19650218
    for i in range(1, MT_N):
        previous = int(words[i - 1])
        words[i] = (1812433253 * (previous ^ (previous >> 30)) + i) & MASK32
    return words


INITIAL_WORDS = _initial_words()


@njit(cache=True)
def mt_seed(mt, key):  # type: ignore[no-untyped-def]
    """Seed ``mt`` (625 words: the state, then the position) as CPython's ``init_by_array``
    does with ``key`` (the seed's 32-bit words, least significant first)."""
    mt[:MT_N] = INITIAL_WORDS
    i = 1
    j = 0
    length = key.shape[0]
    for _ in range(max(MT_N, length)):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525) & MASK32)) + key[j] + j) & (
            MASK32
        )
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(MT_N - 1):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & MASK32)) - i) & MASK32
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[MT_N] = MT_N


@njit(cache=True)
def mt_seed_int(mt, seed):  # type: ignore[no-untyped-def]
    """Seed ``mt`` as ``random.Random(seed)`` does, for a seed of 0 to 2**64 - 1 (given as
    its two 32-bit halves' value in an int64 that may wrap)."""
    value = np.uint64(seed)
    words = 1
    if value >> np.uint64(32):
        words = 2
    key = np.empty(words, dtype=np.int64)
    key[0] = np.int64(value & np.uint64(MASK32))
    if words == 2:
        key[1] = np.int64(value >> np.uint64(32))
    mt_seed(mt, key)


@njit(cache=True)
def mt_next(mt):  # type: ignore[no-untyped-def]
    """The next 32 random bits of ``mt`` (CPython's ``genrand_uint32``)."""
    if mt[MT_N] >= MT_N:
        for k in range(MT_N - MT_M):
            y = (mt[k] & 0x80000000) | (mt[k + 1] & 0x7FFFFFFF)
            mt[k] = mt[k + MT_M] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        for k in range(MT_N - MT_M, MT_N - 1):
            y = (mt[k] & 0x80000000) | (mt[k + 1] & 0x7FFFFFFF)
            mt[k] = mt[k + (MT_M - MT_N)] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        y = (mt[MT_N - 1] & 0x80000000) | (mt[0] & 0x7FFFFFFF)
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        mt[MT_N] = 0
    y = mt[mt[MT_N]]
    mt[MT_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@njit(cache=True)
def mt_below(mt, n):  # type: ignore[no-untyped-def]
    """``random.Random.randrange(n)`` (``_randbelow_with_getrandbits``) for 1 <= n < 2**32."""
    k = 0
    while (n >> k) != 0:
        k += 1
    r = mt_next(mt) >> (32 - k)
    while r >= n:
        r = mt_next(mt) >> (32 - k)
    return r


# -------------------------------------------------------------------------------- the rules
@njit(cache=True)
def popcount(x):  # type: ignore[no-untyped-def]
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def playable(cfg, tables, layout, start_rank):  # type: ignore[no-untyped-def]
    """:func:`fanfold.games.fantan.rules.playable_mask`."""
    if layout == 0 and cfg[C_OPENING] >= 0:
        return np.int64(1) << cfg[C_OPENING]
    if start_rank == 0:
        return np.int64(ALL_CARDS)
    t = tables[start_rank]
    return (
        t[layout & SUIT]
        | (t[(layout >> 13) & SUIT] << 13)
        | (t[(layout >> 26) & SUIT] << 26)
        | (t[(layout >> 39) & SUIT] << 39)
    )


@njit(cache=True)
def deal_hand(cfg, scal, hands, passes, scores, played_by, deck_rng, i, hand_number, deal_seed):  # type: ignore[no-untyped-def]
    """:func:`fanfold.games.fantan.rules.start_hand` for table ``i``: hand ``hand_number``
    shuffled from ``random.Random(deal_seed)`` (the hand's derived seed), the scores as they
    stand, the last winner as ``scal`` holds it."""
    players = cfg[C_PLAYERS]
    dealer = (players - 1 + hand_number) % players
    mt_seed_int(deck_rng, deal_seed)
    deck = np.arange(52)
    for k in range(51, 0, -1):
        j = mt_below(deck_rng, k + 1)
        deck[k], deck[j] = deck[j], deck[k]
    for seat in range(players):
        hands[i, seat] = 0
        passes[i, seat] = 0
    for position in range(52):
        seat = (dealer + 1 + position) % players
        hands[i, seat] |= np.int64(1) << deck[position]
    pool = 0
    if cfg[C_SCORING] == 1:
        for seat in range(players):
            scores[i, seat] -= cfg[C_ANTE]
        pool = cfg[C_ANTE] * players
    leader = (dealer + 1) % players
    if cfg[C_OPENING] >= 0:
        for seat in range(players):
            if (hands[i, seat] >> cfg[C_OPENING]) & 1:
                leader = seat
                break
    scal[i, S_HAND_NUMBER] = hand_number
    scal[i, S_DEALER] = dealer
    scal[i, S_LEADER] = leader
    scal[i, S_TO_MOVE] = leader
    scal[i, S_LAYOUT] = 0
    scal[i, S_START_RANK] = cfg[C_START_RANK]
    scal[i, S_POOL] = pool
    scal[i, S_FINISHED] = 0
    scal[i, S_HISTORY] = 0
    scal[i, S_STATUS] = LEARNER
    played_by[i, :] = -1


@njit(cache=True)
def face_points(mask):  # type: ignore[no-untyped-def]
    """:func:`fanfold.games.fantan.cards.face_points`: aces 1, pictures 10."""
    total = 0
    while mask:
        low = mask & -mask
        index = 0
        while (low >> index) != 1:
            index += 1
        rank = index % 13 + 1
        total += 10 if rank > 10 else rank
        mask ^= low
    return total


@njit(cache=True)
def apply_action(cfg, scal, hands, passes, scores, played_by, history, i, code):  # type: ignore[no-untyped-def]
    """:func:`fanfold.games.fantan.rules.apply` of a legal action (a card index, or
    :data:`PASS`) at table ``i``: a hand that ends is settled, and the match ends
    (``S_FINISHED``) or waits for its next hand's deal (:data:`NEEDS_DEAL`)."""
    players = cfg[C_PLAYERS]
    player = scal[i, S_TO_MOVE]
    following = (player + 1) % players
    history[i, scal[i, S_HISTORY]] = code
    scal[i, S_HISTORY] += 1
    scal[i, S_STEPS] += 1
    if code == PASS:
        passes[i, player] += 1
        if cfg[C_SCORING] == 1:
            scores[i, player] -= cfg[C_PASS_CHIPS]
            scal[i, S_POOL] += cfg[C_PASS_CHIPS]
        scal[i, S_TO_MOVE] = following
        return
    bit = np.int64(1) << code
    hands[i, player] ^= bit
    scal[i, S_LAYOUT] |= bit
    played_by[i, code] = player
    if scal[i, S_START_RANK] == 0:
        scal[i, S_START_RANK] = code % 13 + 1
    if hands[i, player]:
        scal[i, S_TO_MOVE] = following
        return
    # the player went out: settle the hand (rules.settle)
    winner = player
    scoring = cfg[C_SCORING]
    if scoring == 0:
        scores[i, winner] += 1
    elif scoring == 1:
        for seat in range(players):
            if seat != winner:
                owed = cfg[C_CARD_CHIPS] * popcount(hands[i, seat])
                scores[i, seat] -= owed
                scores[i, winner] += owed
        scores[i, winner] += scal[i, S_POOL]
        scal[i, S_POOL] = 0
    else:
        for seat in range(players):
            if seat != winner:
                scores[i, seat] += face_points(hands[i, seat])
    over = cfg[C_HANDS] != 0 and scal[i, S_HAND_NUMBER] + 1 >= cfg[C_HANDS]
    if not over and cfg[C_TARGET] >= 0:
        best = scores[i, 0]
        for seat in range(1, players):
            best = max(best, scores[i, seat])
        over = best >= cfg[C_TARGET]
    scal[i, S_TO_MOVE] = winner
    if over:
        scal[i, S_FINISHED] = 1
        scal[i, S_STATUS] = OVER
    else:
        scal[i, S_LAST_WINNER] = winner
        scal[i, S_STATUS] = NEEDS_DEAL


@njit(cache=True)
def heuristic_card(legal, hand, layout, table, rng, bots):  # type: ignore[no-untyped-def]
    """The card the ``heuristic`` agent plays among ``legal`` (two or more playable cards)
    of ``hand``: :func:`fanfold.agents.strategy.fantan_scoring.best_card`, each card scored by
    the strategy's compiled :func:`~fanfold.agents.strategy.fantan_kernels.card_score`, ties
    (in card order) drawn as ``rng.randrange``."""
    _, pop, beyond, position, start, span, weights = bots
    best = -1e9
    ties = 0
    top = np.empty(52, np.int64)
    for suit in range(4):
        shift = 13 * suit
        mine = (legal >> shift) & SUIT
        if mine == 0:
            continue
        row = (layout >> shift) & SUIT
        hand13 = (hand >> shift) & SUIT
        for bit in range(13):
            if mine >> bit & 1:
                score = card_score(
                    row, hand13, bit, table, pop, beyond, position, start, span, weights
                )
                if score > best:
                    best = score
                    top[0] = shift + bit
                    ties = 1
                elif score == best:
                    top[ties] = shift + bit
                    ties += 1
    if ties == 1:
        return top[0]
    return top[mt_below(rng, ties)]


@njit(cache=True)
def play_bots(cfg, tables, scal, hands, passes, scores, played_by, history, rng, bots, i):  # type: ignore[no-untyped-def]
    """The bots of table ``i`` play until the learner decides (in self-play, anyone), the
    match ends, the step limit cuts it or a hand needs its deal. A random bot draws
    ``legal[randrange(len(legal))]`` from its generator; a heuristic bot plays
    :func:`heuristic_card` (a single legal action without a draw). ``bots``: each seat's kind
    and the strategy's scoring tables (:func:`fanfold.agents.strategy.fantan_fast.tables`)."""
    kinds = bots[0]
    learner = cfg[C_LEARNER]
    max_steps = cfg[C_MAX_STEPS]
    while scal[i, S_STATUS] == LEARNER:
        if max_steps >= 0 and scal[i, S_STEPS] >= max_steps:
            scal[i, S_STATUS] = CUT
            return
        seat = scal[i, S_TO_MOVE]
        if learner == EVERY_SEAT or seat == learner:
            return
        legal = hands[i, seat] & playable(cfg, tables, scal[i, S_LAYOUT], scal[i, S_START_RANK])
        if legal == 0:
            if kinds[seat] == RANDOM:
                mt_below(rng[i, seat], 1)
            apply_action(cfg, scal, hands, passes, scores, played_by, history, i, PASS)
            continue
        if kinds[seat] == HEURISTIC:
            if legal & (legal - 1) == 0:
                card = 0
                while (legal >> card) != 1:
                    card += 1
            else:
                card = heuristic_card(
                    legal,
                    hands[i, seat],
                    scal[i, S_LAYOUT],
                    tables[scal[i, S_START_RANK]],
                    rng[i, seat],
                    bots,
                )
            apply_action(cfg, scal, hands, passes, scores, played_by, history, i, card)
            continue
        choice = mt_below(rng[i, seat], popcount(legal))
        for _ in range(choice):
            legal &= legal - 1
        low = legal & -legal
        index = 0
        while (low >> index) != 1:
            index += 1
        apply_action(cfg, scal, hands, passes, scores, played_by, history, i, index)


@njit(cache=True)
def learner_acts(playing, which, actions):  # type: ignore[no-untyped-def]
    """For each table ``which[k]``: the decider's legal action ``actions[k]``, then its
    bots.

    ``playing``: the arrays the kernels that play take, ``(cfg, tables, scal, hands, passes,
    scores, played_by, history, rng, bots)`` (the module's)."""
    cfg, tables, scal, hands, passes, scores, played_by, history, rng, bots = playing
    for k in range(which.shape[0]):
        i = which[k]
        apply_action(cfg, scal, hands, passes, scores, played_by, history, i, actions[k])
        play_bots(cfg, tables, scal, hands, passes, scores, played_by, history, rng, bots, i)


@njit(cache=True)
def deal_and_play(playing, deck_rng, which, hand_numbers, deal_seeds, game_seeds):  # type: ignore[no-untyped-def]
    """For each table ``which[k]``: deal hand ``hand_numbers[k]`` from ``deal_seeds[k]`` and
    let the bots play up to the learner (``playing``: as :func:`learner_acts` takes it). Hand 0
    starts a new game: ``game_seeds[k]`` is its seed, the scores start at 0, and bot seat
    ``n``'s generator is ``random.Random(seed + n)`` (the environment seeds seat ``n``'s agent
    with ``seed + n``)."""
    cfg, tables, scal, hands, passes, scores, played_by, history, rng, bots = playing
    players = cfg[C_PLAYERS]
    for k in range(which.shape[0]):
        i = which[k]
        if hand_numbers[k] == 0:
            seed = game_seeds[k]
            scal[i, S_SEED] = seed
            scal[i, S_LAST_WINNER] = -1
            scal[i, S_STEPS] = 0
            for seat in range(players):
                scores[i, seat] = 0
                if seat != cfg[C_LEARNER]:
                    mt_seed_int(rng[i, seat], seed + seat)
        deal_hand(
            cfg, scal, hands, passes, scores, played_by, deck_rng, i, hand_numbers[k], deal_seeds[k]
        )
        play_bots(cfg, tables, scal, hands, passes, scores, played_by, history, rng, bots, i)


@njit(cache=True)
def observe(  # type: ignore[no-untyped-def]
    cfg,
    tables,
    offsets,
    scal,
    hands,
    passes,
    scores,
    played_by,
    which,
    rows,
    observations,
    masks,
    seats,
):
    """Write table ``which[k]``'s observation for seat ``seats[k]`` (:class:`FanTanEncoding`'s
    tensor) into ``observations[rows[k]]`` and that seat's action mask into
    ``masks[rows[k]]``."""
    players = cfg[C_PLAYERS]
    for k in range(which.shape[0]):
        me = seats[k]
        i = which[k]
        out = observations[rows[k]]
        mask = masks[rows[k]]
        out[:] = 0.0
        mask[:] = 0
        hand = hands[i, me]
        layout = scal[i, S_LAYOUT]
        for card in range(52):
            if (hand >> card) & 1:
                out[offsets[O_HAND] + card] = 1.0
            if (layout >> card) & 1:
                out[offsets[O_LAYOUT] + card] = 1.0
            seat = played_by[i, card]
            if seat >= 0:
                out[offsets[O_PLAYED_BY] + ((seat - me) % players) * 52 + card] = 1.0
        for seat in range(players):
            relative = (seat - me) % players
            out[offsets[O_HAND_COUNTS] + relative] = popcount(hands[i, seat])
            out[offsets[O_PASSES] + relative] = passes[i, seat]
            out[offsets[O_SCORES] + relative] = scores[i, seat]
        out[offsets[O_START_RANK] + scal[i, S_START_RANK]] = 1.0
        out[offsets[O_DEALER] + (scal[i, S_DEALER] - me) % players] = 1.0
        out[offsets[O_LEADER] + (scal[i, S_LEADER] - me) % players] = 1.0
        finished = scal[i, S_FINISHED] != 0
        if not finished:
            out[offsets[O_TO_MOVE] + (scal[i, S_TO_MOVE] - me) % players] = 1.0
        out[offsets[O_HAND_NUMBER]] = scal[i, S_HAND_NUMBER]
        out[offsets[O_POOL]] = scal[i, S_POOL]
        if scal[i, S_LAST_WINNER] >= 0:
            out[offsets[O_LAST_WINNER] + (scal[i, S_LAST_WINNER] - me) % players] = 1.0
        if not finished and scal[i, S_STATUS] != CUT and scal[i, S_TO_MOVE] == me:
            legal = hand & playable(cfg, tables, layout, scal[i, S_START_RANK])
            if legal == 0:
                mask[PASS] = 1
            while legal:
                low = legal & -legal
                index = 0
                while (low >> index) != 1:
                    index += 1
                mask[index] = 1
                legal ^= low
