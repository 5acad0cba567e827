"""The ladder's decision compiled (Numba), on the fast path's array state.

The compiled twin of :mod:`fanfold.agents.ladder.search` and
:mod:`fanfold.agents.ladder.features`: the same steps in the same order, each floating-point
sum and product taken in the same order, so that both choose the same action (the tests
compare them decision by decision). It reads the array as the Python twin reads the state:
the deciding seat's own cards (hand, field, the values in its draw pile, never their order)
and of the others only what everyone sees, so that a deal of the hidden cards consistent with
the seat's view decides the same (tested). The rules are the fast path's kernels
(:mod:`fanfold.games.fano.fast.kernels`, tested equal to the reference action by action).

Importing this module imports Numba; :mod:`fanfold.agents.ladder.compiled` is its Python
face. Positions met again in a turn are looked up by a 64-bit hash of their array
(:func:`state_hash`), where the Python twin compares whole states.

Most of a decision's time is its evaluations (dozens a decision: every end of turn searched).
An evaluation allocates nothing (its working arrays, :func:`scratch`, serve the whole
decision), computes the seat's chance to hold a value once (:func:`_own_once`), and its
small helpers are inlined (``inline="always"``): calls that pass arrays cost more here than
the loops they run.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.agents.ladder import features as fx
from fanfold.agents.strategy.fano_policy import _support_in
from fanfold.core import numba_cache
from fanfold.core.numba_stack import stack_empty
from fanfold.games.fano.config import MAX_PLAYERS
from fanfold.games.fano.fast.kernels import apply, legal_actions, winner
from fanfold.games.fano.fast.kernels.attacks import _fail_attack, _support_value, _window_opens
from fanfold.games.fano.fast.kernels.cards import ATTACK_SUPPORT, LINE_THIRD, _insert, _remove
from fanfold.games.fano.fast.kernels.specials import _can_use, _earn, _spend
from fanfold.games.fano.fast.kernels.zones import (
    _enter_play,
    _leave_field,
    _return_to_hand,
    _seat,
)
from fanfold.games.fano.fast.layout import (
    C_PLAYERS,
    C_PROMOTIONS_TO_WIN,
    C_TEAMS,
    C_TRIBUTE,
    C_TRIONFEY,
    DOWN,
    DRAW,
    FIELD,
    FIELD_CAP,
    HAND,
    HAND_CAP,
    HEADER,
    HIDDEN,
    K_ALLOW,
    K_ATTACK,
    K_COMBINE,
    K_COUNTER,
    K_DECLARE,
    K_DISCARD,
    K_MULLIGAN,
    K_PASS,
    K_PLACE_JOKER,
    K_PLAY,
    K_PROMOTE,
    K_SACRIFICE,
    K_SHUFFLE,
    K_SUBSTITUTE,
    KNOWN,
    KNOWN_CAP,
    LEVEL,
    MAX_ACTIONS,
    P_DRAW_SHUFFLE,
    P_END,
    P_MAIN,
    P_MULLIGAN,
    P_REACT,
    P_SHUFFLE,
    PENDING_ATTACKER,
    PENDING_REVERSE,
    PENDING_SUPPORT,
    PENDING_TARGET,
    PHASE,
    PILE_CAP,
    PLAYER_WIDTH,
    PROTECTED,
    S_DEFENSE,
    S_REVERSE,
    SHIFT_A,
    SHIFT_B,
    SHIFT_C,
    SHIFT_D,
    SHIFT_E,
    SHIFT_FLAGS,
    SHUFFLE_SIZE,
    SHUFFLES,
    SPECIALS,
    SPECIALS_CAP,
    TRIBUTE,
    TURN_PLAYER,
    UP,
)
from fanfold.games.fano.rules.specials import TRIBUTE_CAP

numba_cache.install()

MAX_COMBAT = 7
SLOTS = fx.SLOTS
HAND_SIZE = fx.HAND
SIZE = fx.SIZE
WIN = 100.0
DEPTH = 12
NEVER = -np.inf
BLUFF_NEVER = 1
BLUFF_ALWAYS = 2
REACT_ALLOW = 1
REACT_COUNTER = 2

# feature indices
M_LT1 = fx.M_LT1
M_LT2 = fx.M_LT2
M_PR1 = fx.M_PR1
M_PR2 = fx.M_PR2
M_READY = fx.M_READY
M_READY_SAFE = fx.M_READY_SAFE
M_READY_P2 = fx.M_READY_P2
M_PAIR = fx.M_PAIR
M_PIN = fx.M_PIN
M_HALF = fx.M_HALF
M_COMBAT = fx.M_COMBAT
M_USEFUL = fx.M_USEFUL
M_HAND = fx.M_HAND
M_EXP = fx.M_EXP
M_EXP_PAIR = fx.M_EXP_PAIR
M_THREAT = fx.M_THREAT
M_THREAT_PAIR = fx.M_THREAT_PAIR
M_DRAW_PREST = fx.M_DRAW_PREST
M_FREE = fx.M_FREE
M_TRIBUTE = fx.M_TRIBUTE
M_JOKER = fx.M_JOKER
O_LT1 = fx.O_LT1
O_LT2 = fx.O_LT2
O_PR1 = fx.O_PR1
O_PR2 = fx.O_PR2
O_READY = fx.O_READY
O_READY_P2 = fx.O_READY_P2
O_COMBAT = fx.O_COMBAT
O_USEFUL = fx.O_USEFUL
O_PIN = fx.O_PIN
O_TRIBUTE = fx.O_TRIBUTE

# ``fparams`` entries
F_FRESH = 0
F_BELIEF = 1
F_BLUFF_GAIN = 2
F_BLUFF_BONUS = 3
F_WEAKEST = 4
F_SIZE = 5
# ``iparams`` entries
I_BLUFF = 0
I_REACT = 1
I_HOARD = 2
I_NODES = 3
I_SIZE = 4
# ``ctx`` (per-decision integers) entries
X_SEAT = 0
X_COUNT = 1
X_WEAKEST = 2
X_PARTNER = 3  # 8 seats
X_ATTACKS_ME = 11  # 8 seats
X_ATTACKED = 19  # 8 seats
X_REVERSE = 27  # 8 seats
X_SIZE = 35
# rows of an evaluation's integer scratch (:func:`scratch`), ``W_WIDTH`` wide
W_HELD = 0
W_MISSING = 1
W_COMBAT = 2
W_HIT = 3
W_FMISSING = 4
W_FCOMBAT = 5
W_REST = 6
W_VALUES = 7
W_NEED = 8
W_POOL = 9  # how many of each value (0: jokers) the seat's draw pile holds (:func:`pool_counts`)
W_THREAT = 10  # the values of the attacked opponents' cards the seat may hit (:func:`_opponents`)
W_THREAT_PAIR = 11  # 1 where that card is in one of its owner's pairs
W_STATE = 12  # the decision's memo of its opponents (``E_*`` entries)
W_BOUND = 13  # a position's missing prestige values for :func:`_hand_bound` (``B_*`` entries)
W_ROWS = 14
W_WIDTH = 48  # a count for each value a card's upper four bits give; 8 seats' 6 cards in play
# ``ints[W_STATE]`` entries
E_DECISION = 0  # 1 while a decision evaluates (:func:`decide_with`): the memo is kept
E_KNOWN = 1  # 1 when the opponents' signature (``work[3]``) is one's the memo was made for
E_THREATS = 2  # how many cards ``W_THREAT`` lists
# ``ints[W_BOUND]`` entries (:func:`_field_bound`)
B_MISSING = 0  # how many prestige values the seat's field misses
B_VALUES = 1  # those values (three at most)
B_PAIRS = 4  # how many pairs the field's combat cards may make for them at most
B_FREE = 5  # 1 when the field has a free slot
B_PAIRABLE = 6  # 1 for each of those values that two of the field's combat cards sum to
B_NEEDS = 9  # for each threat (``W_THREAT``), the supports its hit needs (a bit a value)
#: The opponents' signature's length: each seat's level, tribute, and its cards in play,
#: face down and under Perfect defense (a count and the cards).
SIGNATURE = 8 * (2 + 3 * (1 + FIELD_CAP))
# rows of its floating-point scratch, ``V_WIDTH`` wide
V_CHANCES = 0
V_ORDER = 1
V_OWN = 2  # the seat's chance to hold each value (:func:`_own`), -1 not yet computed
V_FEATURES = 3
V_SAFE = 4  # the chance that the seat's exposed card of each value (0..7) is not hit; -1 unknown
V_RIVAL = 5  # the main rival's features, ``O_LT1`` on (:func:`_opponents`)
V_BOUND = 6  # a pair's most favourable part of :func:`_hand_bound` (``U_*`` entries)
#: the chance that ``d`` draws from the seat's draw pile bring each value (0: a joker; any
#: other value, it or a joker) in row ``V_DRAWS + d - 1``, ``d`` from 1 to ``HAND_SIZE``
#: (:func:`pool_counts`, read by :func:`_own`)
V_DRAWS = 7
V_ROWS = V_DRAWS + HAND_SIZE
# ``floats[V_BOUND]`` entries (:func:`_field_bound`)
U_READY = 0  # a pair whose value the seat holds: ready, safe and with two prestige values
U_EXP = 1  # the hits on a pair's two cards
U_OWN = 2  # the seat's chance to hold each combat value (1 to 7) after the action, -1 unknown
V_WIDTH = max(SIZE, 11)
assert O_TRIBUTE == SIZE - 1  # the rival's features close the vector (``O_LT1`` on)


@njit(cache=True, inline="always")
def _hidden(s, p, card):  # type: ignore[no-untyped-def]
    """Whether ``card`` of the player at ``p`` lies face down in play (the playout policy's
    ``_hidden``, inlined here: a decision asks it thousands of times)."""
    for i in range(s[p + HIDDEN]):  # noqa: SIM110 - plain loops compile best in Numba
        if s[p + HIDDEN + 1 + i] == card:
            return True
    return False


@njit(cache=True, inline="always")
def _in_zone(s, at, card):  # type: ignore[no-untyped-def]
    """Whether ``card`` is in the zone at ``at`` (inlined, as :func:`_hidden`)."""
    for i in range(s[at]):  # noqa: SIM110 - plain loops compile best in Numba
        if s[at + 1 + i] == card:
            return True
    return False


#: each entry's multiplier in :func:`state_hash` (odd 64-bit numbers drawn once from a fixed
#: seed, so that the hash is the same in every process), room for the largest table's array
HASH_WEIGHTS = np.random.Generator(np.random.PCG64(49)).integers(
    0, np.iinfo(np.uint64).max, 2048, dtype=np.uint64, endpoint=True
) | np.uint64(1)
assert HASH_WEIGHTS.shape[0] >= HEADER + MAX_PLAYERS * PLAYER_WIDTH
#: a seat's zones that :func:`state_hash` reads to their count (offset, capacity), in order:
#: every entry of a seat's block before ``LEVEL`` lies in one of them
HASH_ZONES = np.array(
    [
        [HAND, HAND_CAP],
        [FIELD, FIELD_CAP],
        [DRAW, PILE_CAP],
        [UP, PILE_CAP],
        [DOWN, PILE_CAP],
        [KNOWN, KNOWN_CAP],
        [PROTECTED, FIELD_CAP],
        [HIDDEN, FIELD_CAP],
        [SPECIALS, SPECIALS_CAP],
    ],
    np.int64,
)
assert HASH_ZONES[0, 0] == 0
assert LEVEL == SPECIALS + 1 + SPECIALS_CAP
assert all(HASH_ZONES[z + 1, 0] == HASH_ZONES[z, 0] + 1 + HASH_ZONES[z, 1] for z in range(8))


@njit(cache=True, inline="always")
def _mixed(h):  # type: ignore[no-untyped-def]
    """SplitMix64's finaliser of ``h`` (one to one): every bit of the sum reaches the low
    bits the memo table's slot is taken from."""
    x = np.uint64(h)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.int64(x ^ (x >> np.uint64(31)))


@njit(**numba_cache.UNCOUNTED)
def state_hash(s):  # type: ignore[no-untyped-def]
    """A 64-bit hash of the position in the state array (the memo's key): the sum, modulo
    2**64, of each entry times its own random odd weight (:data:`HASH_WEIGHTS`), mixed
    (:func:`_mixed`), over the entries that hold something: the header, each seat's zones to
    their counts (:data:`HASH_ZONES`) and the rest of its block (its level and counters).
    The engine keeps the entries past a zone's count at 0 (tested), which add nothing to the
    sum: it is the whole array's, read in a fraction of the entries (a Trionfey array of
    362 holds about 60), each product independent of the others (FNV-1a over the whole
    array, the hash before, waited on one multiplication after another)."""
    h = np.uint64(0)
    n = s.shape[0]
    head = min(HEADER, n)
    for i in range(head):
        h += np.uint64(np.int64(s[i])) * HASH_WEIGHTS[i]
    p = HEADER
    while p + PLAYER_WIDTH <= n:
        for z in range(HASH_ZONES.shape[0]):
            at = p + HASH_ZONES[z, 0]
            count = min(max(np.int64(s[at]), 0), HASH_ZONES[z, 1])
            for i in range(at, at + 1 + count):
                h += np.uint64(np.int64(s[i])) * HASH_WEIGHTS[i]
        for i in range(p + LEVEL, p + PLAYER_WIDTH):
            h += np.uint64(np.int64(s[i])) * HASH_WEIGHTS[i]
        p += PLAYER_WIDTH
    for i in range(max(p, head), n):  # a part of a block (never in the engine's arrays)
        h += np.uint64(np.int64(s[i])) * HASH_WEIGHTS[i]
    return _mixed(h)


@njit(cache=True, inline="always")
def comb(n, k):  # type: ignore[no-untyped-def]
    if k < 0 or k > n:
        return 0
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


#: ``COMB[n, k]``: :func:`comb` for ``n < COMB_N`` and ``k < COMB_K``, as a float. Every
#: entry is an integer below 2**53, so a float holds it exactly, and :func:`hyper`'s quotient of
#: two entries is the very float the quotient of the two integers gives (Numba divides two
#: integers as floats): the table saves the loop's integer divisions, not a bit of the result.
COMB_N = 128
COMB_K = 8
COMB = np.array([[float(fx.comb(n, k)) for k in range(COMB_K)] for n in range(COMB_N)], np.float64)


@njit(cache=True, inline="always")
def hyper(pool, copies, draws):  # type: ignore[no-untyped-def]
    if copies <= 0 or draws <= 0 or pool <= 0:
        return 0.0
    if pool - copies < draws:
        return 1.0
    if pool < COMB_N and draws < COMB_K:
        return 1.0 - COMB[pool - copies, draws] / COMB[pool, draws]
    return 1.0 - comb(pool - copies, draws) / comb(pool, draws)


@njit(cache=True, inline="always")
def _is_joker(card):  # type: ignore[no-untyped-def]
    return (card & 15) >= 4


@njit(**numba_cache.UNCOUNTED)
def holds(s, p, suits, value, later):  # type: ignore[no-untyped-def]
    """:func:`fanfold.agents.ladder.features.holds` of the player at ``p``."""
    known = s[p + KNOWN]
    for i in range(known):
        card = s[p + KNOWN + 1 + i]
        if card >> 4 == value or _is_joker(card):
            return 1.0
    hand = s[p + HAND]
    unknown = (HAND_SIZE if later else hand) - known
    if unknown <= 0:
        return 0.0
    copies = suits
    for i in range(s[p + FIELD]):
        card = s[p + FIELD + 1 + i]
        if _hidden(s, p, card):
            continue
        if card >> 4 == value and not _is_joker(card):
            copies -= 1
    for i in range(s[p + UP]):
        card = s[p + UP + 1 + i]
        if card >> 4 == value and not _is_joker(card):
            copies -= 1
    for i in range(known):
        card = s[p + KNOWN + 1 + i]
        if card >> 4 == value and not _is_joker(card):
            copies -= 1
    pool = hand - known + s[p + DRAW] + s[p + DOWN] + s[p + HIDDEN]
    return hyper(pool, copies, unknown)


@njit(**numba_cache.UNCOUNTED)
def holds_into(s, p, suits, later, now, o):  # type: ignore[no-untyped-def]
    """:func:`holds` of the player at ``p`` for every value 1 to 10, later into ``later[o]``
    and now into ``now[o]``: the same numbers (the same counts given to :func:`hyper`), its
    zones read once for all the values instead of once a value."""
    known = s[p + KNOWN]
    hand = s[p + HAND]
    seen = stack_empty(16, np.int64)  # copies of each value in sight, jokers left out
    sure = stack_empty(16, np.int64)  # 1 where a known card has the value
    for v in range(16):
        seen[v] = 0
        sure[v] = 0
    joker = False
    for i in range(known):
        card = s[p + KNOWN + 1 + i]
        sure[card >> 4] = 1
        if _is_joker(card):
            joker = True
    for i in range(s[p + FIELD]):
        card = s[p + FIELD + 1 + i]
        if not _is_joker(card) and not _hidden(s, p, card):
            seen[card >> 4] += 1
    for i in range(s[p + UP]):
        card = s[p + UP + 1 + i]
        if not _is_joker(card):
            seen[card >> 4] += 1
    pool = hand - known + s[p + DRAW] + s[p + DOWN] + s[p + HIDDEN]
    for v in range(1, 11):
        if joker or sure[v]:
            later[o, v] = 1.0
            now[o, v] = 1.0
            continue
        copies = suits - seen[v]  # no known card has the value
        unknown = HAND_SIZE - known
        later[o, v] = 0.0 if unknown <= 0 else hyper(pool, copies, unknown)
        unknown = hand - known
        now[o, v] = 0.0 if unknown <= 0 else hyper(pool, copies, unknown)


@njit(cache=True, inline="always")
def match_pairs(ints, combat, nc, missing, nm, order, row, pairs, out):  # type: ignore[no-untyped-def]
    """:func:`fanfold.agents.ladder.features.match_pairs` of ``ints[combat, :nc]`` and
    ``ints[missing, :nm]`` by ``order[row]``: rows ``(value, a, b)`` into ``pairs[out]``;
    returns their number (``ints[W_REST]`` and ``ints[W_VALUES]``: scratch). Rows of the
    scratch arrays are indexed, never taken as views: a view costs two atomic reference
    counts, and the reference counts were most of an evaluation's time."""
    nr = nc
    for i in range(nc):
        ints[W_REST, i] = ints[combat, i]
    for i in range(nm):
        ints[W_VALUES, i] = ints[missing, i]
    for i in range(nm):
        best = i
        for j in range(i + 1, nm):
            if order[row, ints[W_VALUES, j]] > order[row, ints[W_VALUES, best]]:
                best = j
        swap = ints[W_VALUES, i]
        ints[W_VALUES, i] = ints[W_VALUES, best]
        ints[W_VALUES, best] = swap
    found = 0
    for k in range(nm):
        m = ints[W_VALUES, k]
        hit_i = -1
        hit_j = -1
        for i in range(nr):
            for j in range(i + 1, nr):
                if ints[W_REST, i] + ints[W_REST, j] == m:
                    hit_i = i
                    hit_j = j
                    break
            if hit_i >= 0:
                break
        if hit_i >= 0:
            pairs[out, found, 0] = m
            pairs[out, found, 1] = ints[W_REST, hit_i]
            pairs[out, found, 2] = ints[W_REST, hit_j]
            found += 1
            for j in range(hit_j, nr - 1):
                ints[W_REST, j] = ints[W_REST, j + 1]
            nr -= 1
            for j in range(hit_i, nr - 1):
                ints[W_REST, j] = ints[W_REST, j + 1]
            nr -= 1
    return found


@njit(**numba_cache.UNCOUNTED)
def pool_counts(pool, npool, ints, floats):  # type: ignore[no-untyped-def]
    """How many of each value ``pool[:npool]`` holds, into ``ints[W_POOL]``, and the chance
    that one to ``HAND_SIZE`` draws from it bring each value, into ``floats[V_DRAWS:]``
    (``ints``, ``floats``: the rows of :func:`scratch`): every evaluation of a decision reads
    its draw pile there (:func:`_own`) instead of counting it and dividing again: a decision
    counts it once, after its context (:func:`decide_with`); an evaluation outside a
    decision counts it itself. Each chance is :func:`hyper` of the same numbers that
    :func:`_own` would give it."""
    for v in range(W_WIDTH):
        ints[W_POOL, v] = 0
    for i in range(npool):
        ints[W_POOL, pool[i]] += 1
    for d in range(1, HAND_SIZE + 1):
        for v in range(11):
            copies = ints[W_POOL, v]
            if v != 0:
                copies += ints[W_POOL, 0]
            floats[V_DRAWS + d - 1, v] = hyper(npool, copies, d if d < npool else npool)


@njit(cache=True, inline="always")
def _own(value, ints, floats, nheld, jokers, draws, pool, npool):  # type: ignore[no-untyped-def]
    """The seat's chance to hold ``value`` at its next turn (``ints[W_POOL]``: its draw
    pile's counts, ``floats[V_DRAWS:]`` the chances its draws bring each value,
    :func:`pool_counts`; a joker, value 0, holds any value)."""
    if jokers:
        return 1.0
    for i in range(nheld):
        if ints[W_HELD, i] == value:
            return 1.0
    if draws <= 0:
        return 0.0
    return floats[V_DRAWS + draws - 1, value]  # draws: at most ``HAND_SIZE``


@njit(cache=True, inline="always")
def _own_once(value, floats, ints, nheld, jokers, draws, pool, npool):  # type: ignore[no-untyped-def]
    """:func:`_own`, kept in ``floats[V_OWN, value]`` for the rest of the evaluation (the
    same arguments give the same number)."""
    if floats[V_OWN, value] < 0.0:
        floats[V_OWN, value] = _own(value, ints, floats, nheld, jokers, draws, pool, npool)
    return floats[V_OWN, value]


@njit(cache=True, inline="always")
def _prestige_count(s, q):  # type: ignore[no-untyped-def]
    """Distinct prestige values among the face-up cards in play of the player at ``q``."""
    count = 0
    for m in range(8, 11):
        for i in range(s[q + FIELD]):
            card = s[q + FIELD + 1 + i]
            if card >> 4 == m and not _hidden(s, q, card):
                count += 1
                break
    return count


@njit(cache=True, inline="always")
def _missing(s, q, face_up_only, ints, out):  # type: ignore[no-untyped-def]
    n = 0
    for m in range(8, 11):
        found = False
        for i in range(s[q + FIELD]):
            card = s[q + FIELD + 1 + i]
            if face_up_only and _hidden(s, q, card):
                continue
            if card >> 4 == m:
                found = True
                break
        if not found:
            ints[out, n] = m
            n += 1
    return n


@njit(cache=True, inline="always")
def _face_up_combat(s, q, ints, out):  # type: ignore[no-untyped-def]
    """The combat values (1 to 7) of seat ``q``'s cards in play that everyone sees, into
    ``ints[out]``; how many."""
    n = 0
    for i in range(s[q + FIELD]):
        card = s[q + FIELD + 1 + i]
        if _hidden(s, q, card):
            continue
        v = card >> 4
        if 1 <= v <= MAX_COMBAT:
            ints[out, n] = v
            n += 1
    return n


@njit(cache=True, inline="always")
def _useful(value, ints, missing, nm):  # type: ignore[no-untyped-def]
    for i in range(nm):
        partner = ints[missing, i] - value
        if 1 <= partner <= MAX_COMBAT and partner != value:
            return True
    return False


@njit(cache=True, inline="always")
def _opponents_seen(s, ctx, ints, sig):  # type: ignore[no-untyped-def]
    """Whether the opponents' cards that :func:`_opponents` and :func:`_safe_of` read (each
    one's level, tribute, cards in play, face-down cards and Perfect-defense marks) are those
    of this decision's last evaluation, whose signature ``sig`` holds; ``sig`` then holds
    ``s``'s. Never outside a decision (``ints[W_STATE, E_DECISION]``), whose context may
    change between two evaluations."""
    same = ints[W_STATE, E_DECISION] != 0 and ints[W_STATE, E_KNOWN] != 0
    n = 0
    for o in range(ctx[X_COUNT]):
        if ctx[X_PARTNER + o]:
            continue
        q = _seat(o)
        v = s[q + LEVEL]
        same = same and sig[n] == v
        sig[n] = v
        v = s[q + TRIBUTE]
        same = same and sig[n + 1] == v
        sig[n + 1] = v
        n += 2
        for zone in range(3):
            at = q + (FIELD if zone == 0 else HIDDEN if zone == 1 else PROTECTED)
            for i in range(s[at] + 1):
                v = s[at + i]
                same = same and sig[n] == v
                sig[n] = v
                n += 1
    ints[W_STATE, E_KNOWN] = 1
    return same


@njit(cache=True, inline="always")
def _safe_of(s, ctx, later, value, ints):  # type: ignore[no-untyped-def]
    """The chance that the seat's exposed card of ``value`` is not hit at the opponents'
    next turns (each attack needs its support in the attacker's hand)."""
    safe = 1.0
    for o in range(ctx[X_COUNT]):
        if ctx[X_PARTNER + o] or not ctx[X_ATTACKS_ME + o]:
            continue
        q = _seat(o)
        for v in range(MAX_COMBAT + 1):
            ints[W_NEED, v] = 0
        for j in range(s[q + FIELD]):
            attacker = s[q + FIELD + 1 + j]
            if _hidden(s, q, attacker):
                continue
            a = attacker >> 4
            if a > MAX_COMBAT or a == 0:
                continue
            support = ATTACK_SUPPORT[a, value]
            if support:
                ints[W_NEED, support] = 1
            if ctx[X_REVERSE + o] and ATTACK_SUPPORT[value, a]:
                ints[W_NEED, LINE_THIRD[a, value]] = 1
        for v in range(1, MAX_COMBAT + 1):
            if ints[W_NEED, v]:
                safe *= 1.0 - later[o, v]
    return safe


@njit(cache=True, inline="always")
def _opponents(s, cfg, ctx, later, ints, pairs, floats):  # type: ignore[no-untyped-def]
    """What :func:`features` reads of the opponents alone: the main rival's features into
    ``floats[V_RIVAL]``, the attacked opponents' cards the seat may hit into ``ints[W_THREAT]``
    (with ``ints[W_THREAT_PAIR]``: in one of their owner's pairs), and the exposure chances
    ``floats[V_SAFE]`` marked unknown. The seat's own moves do not change them, so a
    decision computes them again only when the opponents' cards change (:func:`_opponents_seen`)."""
    count = ctx[X_COUNT]
    goal = cfg[C_PROMOTIONS_TO_WIN]
    for v in range(MAX_COMBAT + 1):
        floats[V_SAFE, v] = -1.0
    for i in range(SIZE - O_LT1):
        floats[V_RIVAL, i] = 0.0
    rival = -1
    best = -1
    for o in range(count):
        if ctx[X_PARTNER + o]:
            continue
        q = _seat(o)
        score = s[q + LEVEL] * 4 + _prestige_count(s, q)
        if score > best:
            best = score
            rival = o
    nt = 0
    for o in range(count):
        if ctx[X_PARTNER + o] or not ctx[X_ATTACKED + o]:
            continue
        q = _seat(o)
        nfm = _missing(s, q, True, ints, W_FMISSING)
        nfc = _face_up_combat(s, q, ints, W_FCOMBAT)
        nfp = match_pairs(ints, W_FCOMBAT, nfc, W_FMISSING, nfm, later, o, pairs, 1)
        for i in range(s[q + FIELD]):
            card = s[q + FIELD + 1 + i]
            if _hidden(s, q, card):
                continue
            value = card >> 4
            if value > MAX_COMBAT or value == 0 or _in_zone(s, q + PROTECTED, card):
                continue
            in_pair = 0
            for j in range(nfp):
                if pairs[1, j, 1] == value or pairs[1, j, 2] == value:
                    in_pair = 1
            ints[W_THREAT, nt] = value
            ints[W_THREAT_PAIR, nt] = in_pair
            nt += 1
    ints[W_STATE, E_THREATS] = nt
    if rival >= 0:
        q = _seat(rival)
        flt = goal - s[q + LEVEL]
        if flt == 1:
            floats[V_RIVAL, O_LT1 - O_LT1] = 1.0
        elif flt == 2:
            floats[V_RIVAL, O_LT2 - O_LT1] = 1.0
        fpr = _prestige_count(s, q)
        if fpr == 1:
            floats[V_RIVAL, O_PR1 - O_LT1] = 1.0
        elif fpr >= 2:
            floats[V_RIVAL, O_PR2 - O_LT1] = 1.0
        nfm = _missing(s, q, True, ints, W_FMISSING)
        nfc = _face_up_combat(s, q, ints, W_FCOMBAT)
        nfp = match_pairs(ints, W_FCOMBAT, nfc, W_FMISSING, nfm, later, rival, pairs, 1)
        for k in range(nfp):
            m = pairs[1, k, 0]
            floats[V_RIVAL, O_READY - O_LT1] += later[rival, m]
            if fpr == 2:
                floats[V_RIVAL, O_READY_P2 - O_LT1] += later[rival, m]
        for k in range(nfm):
            m = ints[W_FMISSING, k]
            paired = False
            for j in range(nfp):
                if pairs[1, j, 0] == m:
                    paired = True
            if not paired:
                floats[V_RIVAL, O_PIN - O_LT1] += later[rival, m]
        floats[V_RIVAL, O_COMBAT - O_LT1] = float(nfc + s[q + HIDDEN])
        for i in range(nfc):
            if _useful(ints[W_FCOMBAT, i], ints, W_FMISSING, nfm):
                floats[V_RIVAL, O_USEFUL - O_LT1] += 1.0
        floats[V_RIVAL, O_TRIBUTE - O_LT1] = s[q + TRIBUTE] / 3.0


@njit(cache=True, inline="always")
def features(s, cfg, ctx, later, pool, npool, ints, pairs, floats, sig):  # type: ignore[no-untyped-def]
    """:func:`fanfold.agents.ladder.features.features` of the deciding seat's cards in ``s``
    against the others' public cards, into ``floats[V_FEATURES]``; ``ints``, ``pairs``,
    ``floats``, ``sig``: :func:`scratch` (nothing is allocated here: a decision evaluates
    dozens of positions). Its rows are indexed in place, never taken as views
    (``ints[W_HELD]``): each view costs two atomic reference counts, which were most of an
    evaluation's time. Within a decision, what it reads of the opponents alone is kept from
    one evaluation to the next while their cards are the same (:func:`_opponents`), and the
    seat's draw pile is counted once (:func:`pool_counts`); each number is computed by the
    same operations in the same order as when computed afresh."""
    seat = ctx[X_SEAT]
    p = _seat(seat)
    goal = cfg[C_PROMOTIONS_TO_WIN]
    for i in range(SIZE):
        floats[V_FEATURES, i] = 0.0
    floats[V_FEATURES, 0] = 1.0
    lt = goal - s[p + LEVEL]
    if lt == 1:
        floats[V_FEATURES, M_LT1] = 1.0
    elif lt == 2:
        floats[V_FEATURES, M_LT2] = 1.0
    nh = s[p + HAND]
    nheld = 0
    jokers = 0
    for i in range(nh):
        card = s[p + HAND + 1 + i]
        if _is_joker(card):
            jokers += 1
        else:
            ints[W_HELD, nheld] = card >> 4
            nheld += 1
    draws = HAND_SIZE - nh
    if ints[W_STATE, E_DECISION] == 0:
        pool_counts(pool, npool, ints, floats)
    if not _opponents_seen(s, ctx, ints, sig):
        _opponents(s, cfg, ctx, later, ints, pairs, floats)
    # the seat's own prestige values: its whole field (its face-down cards are combat cards)
    pr = 0
    for m in range(8, 11):
        for i in range(s[p + FIELD]):
            if s[p + FIELD + 1 + i] >> 4 == m:
                pr += 1
                break
    if pr == 1:
        floats[V_FEATURES, M_PR1] = 1.0
    elif pr >= 2:
        floats[V_FEATURES, M_PR2] = 1.0
    nm = _missing(s, p, False, ints, W_MISSING)
    nf = s[p + FIELD]
    nc = 0
    for i in range(nf):
        card = s[p + FIELD + 1 + i]
        v = card >> 4
        if 1 <= v <= MAX_COMBAT and not _hidden(s, p, card):
            ints[W_COMBAT, nc] = v
            nc += 1
    nhit = 0
    for v in range(11):
        floats[V_OWN, v] = -1.0
    for i in range(nf):
        card = s[p + FIELD + 1 + i]
        value = card >> 4
        if value > MAX_COMBAT or _in_zone(s, p + PROTECTED, card) or _hidden(s, p, card):
            continue
        if floats[V_SAFE, value] < 0.0:
            floats[V_SAFE, value] = _safe_of(s, ctx, later, value, ints)
        safe = floats[V_SAFE, value]
        ints[W_HIT, nhit] = value
        floats[V_CHANCES, nhit] = 1.0 - safe
        nhit += 1
        floats[V_FEATURES, M_EXP] += 1.0 - safe
    for v in range(11):
        floats[V_ORDER, v] = 0.0
    for k in range(nm):
        m = ints[W_MISSING, k]
        inhand = False
        for i in range(nheld):
            if ints[W_HELD, i] == m:
                inhand = True
        floats[V_ORDER, m] = (
            2.0 if inhand else _own_once(m, floats, ints, nheld, jokers, draws, pool, npool)
        )
    npairs = match_pairs(ints, W_COMBAT, nc, W_MISSING, nm, floats, V_ORDER, pairs, 0)
    for k in range(npairs):
        m = pairs[0, k, 0]
        hit_a = 0.0
        for i in range(nhit):
            if ints[W_HIT, i] == pairs[0, k, 1]:
                hit_a = floats[V_CHANCES, i]
                break
        hit_b = 0.0
        for i in range(nhit):
            if ints[W_HIT, i] == pairs[0, k, 2]:
                hit_b = floats[V_CHANCES, i]
                break
        floats[V_FEATURES, M_EXP_PAIR] += hit_a + hit_b
        inhand = False
        for i in range(nheld):
            if ints[W_HELD, i] == m:
                inhand = True
        if jokers or inhand:
            survive = (1.0 - hit_a) * (1.0 - hit_b)
            floats[V_FEATURES, M_READY] += 1.0
            floats[V_FEATURES, M_READY_SAFE] += survive
            if pr == 2:
                floats[V_FEATURES, M_READY_P2] += survive
        else:
            floats[V_FEATURES, M_PAIR] += floats[V_ORDER, m]
    free = SLOTS - nf
    for k in range(nm):
        m = ints[W_MISSING, k]
        paired = False
        for j in range(npairs):
            if pairs[0, j, 0] == m:
                paired = True
        if paired:
            continue
        inhand = False
        for i in range(nheld):
            if ints[W_HELD, i] == m:
                inhand = True
        if inhand:
            floats[V_FEATURES, M_PIN] += 1.0
        if free > 0:
            for i in range(nc):
                v = ints[W_COMBAT, i]
                partner = m - v
                if 1 <= partner <= MAX_COMBAT and partner != v:
                    partner_held = jokers > 0
                    for j in range(nheld):
                        if ints[W_HELD, j] == partner:
                            partner_held = True
                    if partner_held:
                        floats[V_FEATURES, M_HALF] += 1.0
                        break
        if not inhand and ints[W_POOL, m] > 0:
            floats[V_FEATURES, M_DRAW_PREST] += 1.0
    floats[V_FEATURES, M_COMBAT] = float(nc)
    for i in range(nc):
        if _useful(ints[W_COMBAT, i], ints, W_MISSING, nm):
            floats[V_FEATURES, M_USEFUL] += 1.0
    floats[V_FEATURES, M_HAND] = float(nh)
    floats[V_FEATURES, M_FREE] = float(free)
    floats[V_FEATURES, M_TRIBUTE] = s[p + TRIBUTE] / 3.0
    floats[V_FEATURES, M_JOKER] = float(jokers)
    for t in range(ints[W_STATE, E_THREATS]):
        value = ints[W_THREAT, t]
        for v in range(MAX_COMBAT + 1):
            ints[W_NEED, v] = 0
        for j in range(nc):
            a = ints[W_COMBAT, j]
            if a == 0:
                continue
            support = ATTACK_SUPPORT[a, value]
            if support:
                ints[W_NEED, support] = 1
        safe = 1.0
        for v in range(1, MAX_COMBAT + 1):
            if ints[W_NEED, v]:
                safe *= 1.0 - _own_once(v, floats, ints, nheld, jokers, draws, pool, npool)
        floats[V_FEATURES, M_THREAT] += 1.0 - safe
        if ints[W_THREAT_PAIR, t]:
            floats[V_FEATURES, M_THREAT_PAIR] += 1.0 - safe
    for i in range(O_LT1, SIZE):
        floats[V_FEATURES, i] = floats[V_RIVAL, i - O_LT1]


@njit(cache=True)
def scratch():  # type: ignore[no-untyped-def]
    """The working arrays of :func:`features` (``work``): integer rows (``W_*``), the two
    pairs tables, floating-point rows (``V_*``) and the opponents' signature
    (:func:`_opponents_seen`); one set serves a whole decision."""
    return (
        np.zeros((W_ROWS, W_WIDTH), np.int64),
        np.empty((2, 3, 3), np.int64),
        np.empty((V_ROWS, V_WIDTH), np.float64),
        np.zeros(SIGNATURE, np.int64),
    )


@njit(cache=True)
def evaluate(s, cfg, ctx, later, pool, npool, weights):  # type: ignore[no-untyped-def]
    """The weights times the features of ``s``, summed in order."""
    return value_of(s, cfg, ctx, later, pool, npool, weights, scratch())


@njit(**numba_cache.UNCOUNTED)
def value_of(s, cfg, ctx, later, pool, npool, weights, work):  # type: ignore[no-untyped-def]
    """:func:`evaluate` with the decision's :func:`scratch` (its draw pile counted there,
    :func:`pool_counts`)."""
    ints, pairs, floats, sig = work
    features(s, cfg, ctx, later, pool, npool, ints, pairs, floats, sig)
    total = 0.0
    for i in range(SIZE):
        total += weights[i] * floats[V_FEATURES, i]
    return total


#: What :func:`_field_bound` adds to a bound so that rounding never makes it smaller than
#: the value :func:`value_of` computes (a relative margin far above the few ulps that
#: summing some thirty terms in another order may differ by).
BOUND_MARGIN = 1e-9


@njit(**numba_cache.UNCOUNTED)
def _field_bound(s, cfg, ctx, later, weights, work):  # type: ignore[no-untyped-def]
    """The part of an upper bound on :func:`value_of` that holds for every position that
    differs from ``s`` only in the seat's hand and tribute (its discards and its pass): the
    features read from the field alone exactly, each feature that the hand changes at its
    most favourable value under the weights' signs, and the opponents' part exactly. What
    the hand decides is added by :func:`_hand_bound`, which reads what this leaves in
    ``ints[W_BOUND]``. Within a decision (its opponents' part kept, :func:`features`)."""
    ints, pairs, floats, sig = work
    if not _opponents_seen(s, ctx, ints, sig):
        _opponents(s, cfg, ctx, later, ints, pairs, floats)
    p = _seat(ctx[X_SEAT])
    total = weights[0]
    lt = cfg[C_PROMOTIONS_TO_WIN] - s[p + LEVEL]
    if lt == 1:
        total += weights[M_LT1]
    elif lt == 2:
        total += weights[M_LT2]
    nf = s[p + FIELD]
    pr = 0
    for m in range(8, 11):
        for i in range(nf):
            if s[p + FIELD + 1 + i] >> 4 == m:
                pr += 1
                break
    if pr == 1:
        total += weights[M_PR1]
    elif pr >= 2:
        total += weights[M_PR2]
    nm = _missing(s, p, False, ints, W_BOUND)
    for i in range(nm - 1, -1, -1):
        ints[W_BOUND, B_VALUES + i] = ints[W_BOUND, i]
    ints[W_BOUND, B_MISSING] = nm
    nc = 0
    exposed = 0.0
    worst = 0.0
    for i in range(nf):
        card = s[p + FIELD + 1 + i]
        value = card >> 4
        hidden = _hidden(s, p, card)
        if 1 <= value <= MAX_COMBAT and not hidden:
            ints[W_COMBAT, nc] = value
            nc += 1
        if value > MAX_COMBAT or _in_zone(s, p + PROTECTED, card) or hidden:
            continue
        if floats[V_SAFE, value] < 0.0:
            floats[V_SAFE, value] = _safe_of(s, ctx, later, value, ints)
        hit = 1.0 - floats[V_SAFE, value]
        exposed += hit
        if hit > worst:
            worst = hit
    total += weights[M_EXP] * exposed
    # a missing value is paired only where two of the field's combat cards sum to it
    pairable = 0
    for k in range(nm):
        m = ints[W_BOUND, B_VALUES + k]
        found = 0
        for i in range(nc):
            for j in range(i + 1, nc):
                if ints[W_COMBAT, i] + ints[W_COMBAT, j] == m:
                    found = 1
        ints[W_BOUND, B_PAIRABLE + k] = found
        pairable += found
    ints[W_BOUND, B_PAIRS] = min(pairable, nc // 2)
    floats[V_BOUND, U_READY] = weights[M_READY] + max(
        0.0, weights[M_READY_SAFE] + (weights[M_READY_P2] if pr == 2 else 0.0)
    )
    floats[V_BOUND, U_EXP] = max(0.0, weights[M_EXP_PAIR]) * 2.0 * worst
    free = SLOTS - nf
    ints[W_BOUND, B_FREE] = 1 if free > 0 and nc > 0 else 0
    useful = 0
    for i in range(nc):
        for k in range(nm):
            partner = ints[W_BOUND, B_VALUES + k] - ints[W_COMBAT, i]
            if 1 <= partner <= MAX_COMBAT and partner != ints[W_COMBAT, i]:
                useful += 1
                break
    total += weights[M_COMBAT] * nc + weights[M_USEFUL] * useful + weights[M_FREE] * free
    for t in range(ints[W_STATE, E_THREATS]):
        value = ints[W_THREAT, t]
        needs = 0
        for j in range(nc):
            support = ATTACK_SUPPORT[ints[W_COMBAT, j], value]
            if support:
                needs |= 1 << support
        ints[W_BOUND, B_NEEDS + t] = needs
    for i in range(O_LT1, SIZE):
        total += weights[i] * floats[V_RIVAL, i - O_LT1]
    return total


@njit(cache=True, inline="always")
def _hand_bound(u, p, cfg, action, field, weights, ints, floats, npool):  # type: ignore[no-untyped-def]
    """An upper bound on :func:`value_of` after the seat's discard or pass ``action`` in
    ``u`` (the seat at ``p``), the action not applied (its cards left out of the hand here,
    its tribute counted), the field's part ``field`` (:func:`_field_bound`): the hand's
    features (cards, jokers, tribute) exactly and, for each missing prestige value, the more
    favourable of its two fates: unpaired, its pin and draw exactly (the hand decides them)
    and its half pair at its most favourable; paired (only a value two of the field's combat
    cards sum to, ``ints[W_BOUND, B_PAIRABLE]``), ready where the hand holds the value or a
    joker and else a pair to draw, each at its most favourable (``floats[V_BOUND]``). At most
    ``ints[W_BOUND, B_PAIRS]`` values are paired: those that gain the most by it. Each
    threat on an attacked opponent's card exactly: the chance that the seat holds a support
    its hit needs (``ints[W_BOUND, B_NEEDS]``) after the action, from the hand left and the
    draw pile's counts (``npool`` cards), as :func:`_own` computes it. Plus a margin for
    rounding."""
    held = u[p + HAND]
    gone = 0
    tribute = u[p + TRIBUTE]
    if action & 255 == K_DISCARD:
        for shift in (SHIFT_A, SHIFT_B, SHIFT_C):
            card = _byte(action, shift)
            if card:
                for i in range(held):
                    if (gone >> i) & 1 == 0 and u[p + HAND + 1 + i] == card:
                        gone |= 1 << i
                        break
        if cfg[C_TRIBUTE] == 1:
            tribute = min(TRIBUTE_CAP, tribute + 1)
    nh = 0
    jokers = 0
    for i in range(held):
        if (gone >> i) & 1 == 0:
            nh += 1
            if _is_joker(u[p + HAND + 1 + i]):
                jokers += 1
    total = (
        field
        + weights[M_HAND] * nh
        + weights[M_JOKER] * jokers
        + weights[M_TRIBUTE] * (tribute / 3.0)
    )
    half = max(0.0, weights[M_HALF]) if ints[W_BOUND, B_FREE] else 0.0
    drawn_pair = max(0.0, weights[M_PAIR]) + floats[V_BOUND, U_EXP]
    ready_pair = floats[V_BOUND, U_READY] + floats[V_BOUND, U_EXP]
    # what pairing each missing value would add, the three largest gains in order
    high = 0.0
    middle = 0.0
    least = 0.0
    nm = ints[W_BOUND, B_MISSING]
    for k in range(nm):
        m = ints[W_BOUND, B_VALUES + k]
        inhand = False
        for i in range(held):
            card = u[p + HAND + 1 + i]
            if (gone >> i) & 1 == 0 and card >> 4 == m and not _is_joker(card):
                inhand = True
        part = half
        if inhand:
            part += weights[M_PIN]
        elif ints[W_POOL, m] > 0:
            part += weights[M_DRAW_PREST]
        total += part
        if ints[W_BOUND, B_PAIRABLE + k]:
            gain = (ready_pair if inhand or jokers else drawn_pair) - part
            if gain > high:
                least = middle
                middle = high
                high = gain
            elif gain > middle:
                least = middle
                middle = gain
            elif gain > least:
                least = gain
    draws = HAND_SIZE - nh
    for v in range(1, MAX_COMBAT + 1):
        floats[V_BOUND, U_OWN + v] = -1.0
    for t in range(ints[W_STATE, E_THREATS]):
        needs = ints[W_BOUND, B_NEEDS + t]
        safe = 1.0
        for v in range(1, MAX_COMBAT + 1):
            if (needs >> v) & 1 == 0:
                continue
            own = floats[V_BOUND, U_OWN + v]
            if own < 0.0:
                own = 1.0 if jokers else 0.0
                for i in range(held):
                    card = u[p + HAND + 1 + i]
                    if (gone >> i) & 1 == 0 and card >> 4 == v and not _is_joker(card):
                        own = 1.0
                if own == 0.0 and draws > 0:
                    own = floats[V_DRAWS + draws - 1, v]  # :func:`pool_counts`
                floats[V_BOUND, U_OWN + v] = own
            safe *= 1.0 - own
        threat = weights[M_THREAT] + (weights[M_THREAT_PAIR] if ints[W_THREAT_PAIR, t] else 0.0)
        total += threat * (1.0 - safe)
    most = ints[W_BOUND, B_PAIRS]
    if most >= 1:
        total += high
    if most >= 2:
        total += middle
    if most >= 3:
        total += least
    return total + BOUND_MARGIN * (1.0 + abs(total))


@njit(cache=True, inline="always")
def _block_bound(u, p, cfg, actions, k, first, last, field, weights, ints, floats):  # type: ignore[no-untyped-def]
    """An upper bound on :func:`_hand_bound` of every action of frame ``k``'s closing block
    (its discards and pass, ``actions[k, first:last]``) in ``u`` (the seat at ``p``), from
    the hand the pass keeps and the most cards a discard of the block lets go: each of
    ``_hand_bound``'s terms at its most favourable over the block (the hand's size, jokers
    and tribute each at the better of keeping and discarding; each missing value's part at
    the better of held and let go, its pairing at the more favourable with a joker or the
    value only where the pass holds one; each threat's support held where the pass holds it
    or a joker, else its draw chance at the most draws a discard leaves), plus twice
    ``_hand_bound``'s margin. Where it is at most the frame's best, no action of the block
    may change the frame's result and none is bounded one by one (:func:`_search_loop`)."""
    held = u[p + HAND]
    most_gone = 0
    discards = False
    for j in range(first, last):
        action = actions[k, j]
        if action & 255 == K_DISCARD:
            discards = True
            gone = 0
            for shift in (SHIFT_A, SHIFT_B, SHIFT_C):
                if _byte(action, shift):
                    gone += 1
            most_gone = max(most_gone, gone)
    most_gone = min(most_gone, held)
    jokers = 0
    for i in range(held):
        if _is_joker(u[p + HAND + 1 + i]):
            jokers += 1
    tribute = u[p + TRIBUTE]
    tribute_term = weights[M_TRIBUTE] * (tribute / 3.0)
    if discards and cfg[C_TRIBUTE] == 1:
        tribute_term = max(tribute_term, weights[M_TRIBUTE] * (min(TRIBUTE_CAP, tribute + 1) / 3.0))
    total = (
        field
        + max(weights[M_HAND] * held, weights[M_HAND] * (held - most_gone))
        + max(weights[M_JOKER] * jokers, weights[M_JOKER] * max(0, jokers - most_gone))
        + tribute_term
    )
    half = max(0.0, weights[M_HALF]) if ints[W_BOUND, B_FREE] else 0.0
    drawn_pair = max(0.0, weights[M_PAIR]) + floats[V_BOUND, U_EXP]
    ready_pair = floats[V_BOUND, U_READY] + floats[V_BOUND, U_EXP]
    high = 0.0
    middle = 0.0
    least = 0.0
    nm = ints[W_BOUND, B_MISSING]
    for k2 in range(nm):
        m = ints[W_BOUND, B_VALUES + k2]
        inhand = False
        for i in range(held):
            card = u[p + HAND + 1 + i]
            if card >> 4 == m and not _is_joker(card):
                inhand = True
        part = half + (weights[M_DRAW_PREST] if ints[W_POOL, m] > 0 else 0.0)
        if inhand:
            part = max(part, half + weights[M_PIN])
        total += part
        if ints[W_BOUND, B_PAIRABLE + k2]:
            pair = max(ready_pair, drawn_pair) if inhand or jokers else drawn_pair
            gain = pair - part
            if gain > high:
                least = middle
                middle = high
                high = gain
            elif gain > middle:
                least = middle
                middle = gain
            elif gain > least:
                least = gain
    fewest = HAND_SIZE - held
    draws = HAND_SIZE - (held - most_gone)
    for t in range(ints[W_STATE, E_THREATS]):
        threat = weights[M_THREAT] + (weights[M_THREAT_PAIR] if ints[W_THREAT_PAIR, t] else 0.0)
        if threat <= 0.0:
            continue  # its term is at most 0
        needs = ints[W_BOUND, B_NEEDS + t]
        safe = 1.0
        for v in range(1, MAX_COMBAT + 1):
            if (needs >> v) & 1 == 0:
                continue
            own = 1.0 if jokers else 0.0
            for i in range(held):
                card = u[p + HAND + 1 + i]
                if card >> 4 == v and not _is_joker(card):
                    own = 1.0
            if own == 0.0:
                for d in range(max(fewest, 1), draws + 1):
                    own = max(own, floats[V_DRAWS + d - 1, v])
            safe *= 1.0 - own
        total += threat * (1.0 - safe)
    most = ints[W_BOUND, B_PAIRS]
    if most >= 1:
        total += high
    if most >= 2:
        total += middle
    if most >= 3:
        total += least
    return total + 2.0 * BOUND_MARGIN * (1.0 + abs(total))


@njit(**numba_cache.UNCOUNTED)
def _is_end(kind):  # type: ignore[no-untyped-def]
    return kind in (K_PLAY, K_SUBSTITUTE, K_DISCARD, K_PASS)


@njit(**numba_cache.UNCOUNTED)
def _byte(action, shift):  # type: ignore[no-untyped-def]
    return np.int32((action >> shift) & 255)


@njit(**numba_cache.UNCOUNTED)
def _spends(action):  # type: ignore[no-untyped-def]
    """:func:`fanfold.agents.ladder.search.spends_tribute`."""
    kind = action & 255
    flag = _byte(action, SHIFT_FLAGS) != 0
    if kind == K_DECLARE or kind == K_ATTACK or kind == K_COMBINE:  # noqa: SIM109 - Numba
        return flag
    if kind == K_PLAY or kind == K_SUBSTITUTE:  # noqa: SIM109 - Numba
        return flag
    return kind == K_PLACE_JOKER


@njit(cache=True)
def end_state(s, cfg, seat, action):  # type: ignore[no-untyped-def]
    """A copy of ``s`` with the seat's own cards after an end action (turn not passed)."""
    u = np.empty_like(s)
    end_into(u, s, cfg, seat, action)
    return u


@njit(**numba_cache.UNCOUNTED)
def end_into(u, s, cfg, seat, action):  # type: ignore[no-untyped-def]
    """:func:`end_state` written into ``u`` (the search's one buffer: a copy allocated for
    every end action searched cost more than its evaluation's features)."""
    for i in range(s.shape[0]):
        u[i] = s[i]
    _end_on(u, cfg, seat, action)


@njit(**numba_cache.UNCOUNTED)
def _end_on(u, cfg, seat, action):  # type: ignore[no-untyped-def]
    """The seat's end action on its own cards in ``u`` (turn not passed): only the seat's
    block of ``u`` changes, so the search restores that block alone between two end
    actions of a position (:func:`_search_loop`)."""
    p = _seat(seat)
    kind = action & 255
    a = _byte(action, SHIFT_A)
    b = _byte(action, SHIFT_B)
    flag = _byte(action, SHIFT_FLAGS) != 0
    if kind == K_PLAY:
        _enter_play(u, p, a)
        if flag:
            _spend(u, cfg, p, S_DEFENSE)
            _insert(u, p + HIDDEN, a)
    elif kind == K_SUBSTITUTE:
        _leave_field(u, p, a, True)
        _enter_play(u, p, b)
        _earn(u, cfg, p)
        if flag:
            _spend(u, cfg, p, S_DEFENSE)
            _insert(u, p + HIDDEN, b)
    elif kind == K_DISCARD:
        for shift in (SHIFT_A, SHIFT_B, SHIFT_C):
            card = _byte(action, shift)
            if card:
                _remove(u, p + HAND, card)
        _earn(u, cfg, p)


@njit(**numba_cache.UNCOUNTED)
def _copy_block(u, s, start, width):  # type: ignore[no-untyped-def]
    """``u[start:start + width] = s[start:start + width]`` (``start`` not negative). The
    indices are unsigned: a signed index makes Numba test each one for a negative value (an
    index from the end), which keeps LLVM from vectorising the copy, about ten times slower
    for a seat's block (175 entries, restored at every end action searched)."""
    first = np.uint64(start)
    for i in range(np.uint64(width)):
        u[first + i] = s[first + i]


@njit(cache=True, inline="always")
def _ended_from(ended, state, p, same, cfg, seat, action):  # type: ignore[no-untyped-def]
    """``state`` with the seat's end ``action`` on its own cards, into ``ended``. ``same``:
    ``ended`` already holds ``state`` but for the seat's block (an end action of the same
    position before it), so only that block is restored."""
    if same:
        _copy_block(ended, state, p, PLAYER_WIDTH)
    else:
        for i in range(state.shape[0]):
            ended[i] = state[i]
    _end_on(ended, cfg, seat, action)


@njit(**numba_cache.UNCOUNTED)
def _drawn(t, cfg, ctx, later, pool, npool, weights, fparams, work, u):  # type: ignore[no-untyped-def]
    """The value of ``t`` with the seat's hand drawn afresh (its cards held and known to the
    others let go), copied into the buffer ``u``, plus the style's fresh-hand bonus."""
    for i in range(t.shape[0]):
        u[i] = t[i]
    p = _seat(ctx[X_SEAT])
    while u[p + HAND] > 0:
        _remove(u, p + HAND, u[p + HAND + 1])
    while u[p + KNOWN] > 0:
        _remove(u, p + KNOWN, u[p + KNOWN + 1])
    return value_of(u, cfg, ctx, later, pool, npool, weights, work) + fparams[F_FRESH]


@njit(**numba_cache.UNCOUNTED)
def _settle(before, t, cfg, ctx, later, pool, npool, weights, fparams, work, u):  # type: ignore[no-untyped-def]
    """The value of ``t`` reached by a main-phase action from ``before`` when it ends the
    search there (a win, a draw): ``(True, value)``; else ``(False, 0.0)`` (``u``: a buffer
    of the state's size)."""
    won = winner(t, cfg)
    if won >= 0:
        return True, (WIN if ctx[X_PARTNER + won] else -WIN)
    p = _seat(ctx[X_SEAT])
    if t[p + DRAW] < before[p + DRAW] or t[p + SHUFFLES] != before[p + SHUFFLES]:
        return True, _drawn(t, cfg, ctx, later, pool, npool, weights, fparams, work, u)
    if t[PHASE] != P_MAIN and t[PHASE] != P_END:
        return True, _drawn(t, cfg, ctx, later, pool, npool, weights, fparams, work, u)
    return False, 0.0


@njit(**numba_cache.UNCOUNTED)
def _supported(s, p, attacker, target, reverse):  # type: ignore[no-untyped-def]
    """Whether the hand at ``p`` holds the support of ``attacker`` on ``target`` (a card of
    the value, or a joker: the playout policy's :func:`_support_in`)."""
    return _support_in(s, p, _support_value(attacker >> 4, target >> 4, reverse)) != 0


@njit(**numba_cache.UNCOUNTED)
def _stops(s, p, attacker, value, reverse):  # type: ignore[no-untyped-def]
    """Whether an attack of ``attacker``'s value redirected onto ``value`` fails: no support
    needed exists, or the hand at ``p`` lacks it."""
    need = _support_value(attacker, value, reverse)
    return not need or _support_in(s, p, need) == 0


@njit(**numba_cache.UNCOUNTED)
def _counter_chance(s, ctx, now, attacker, target, reverse, defender):  # type: ignore[no-untyped-def]
    q = _seat(defender)
    p = _seat(ctx[X_SEAT])
    x = target >> 4
    a = attacker >> 4
    active = stack_empty(8, np.int64)
    na = 0
    for i in range(s[q + FIELD]):
        card = s[q + FIELD + 1 + i]
        if 1 <= card >> 4 <= MAX_COMBAT and not _hidden(s, q, card):
            active[na] = card
            na += 1
    best = 0.0
    for i in range(na):
        partner = active[i]
        total = x + (partner >> 4)
        if partner == target or total > MAX_COMBAT:
            continue
        if _stops(s, p, a, total, reverse):
            chance = now[defender, total]
            if chance > best:
                best = chance
    if s[q + FIELD] < SLOTS:
        for i in range(na):
            for j in range(i + 1, na):
                third = LINE_THIRD[active[i] >> 4, active[j] >> 4]
                if not third or x + third > MAX_COMBAT:
                    continue
                if _stops(s, p, a, x + third, reverse):
                    chance = now[defender, third] * now[defender, x + third]
                    if chance > best:
                        best = chance
    return best


# the memo table's first capacity (a power of two), doubled at half full: a node budget of 300
# meets up to about 320 positions, so its searches fit, and a complete one is kept for the
# seat's next decision (a grown table is not the workspace's, and is not kept)
MEMO_START = 1024


@njit(cache=True, inline="always")
def _slot(keys, used, key):  # type: ignore[no-untyped-def]
    """The slot of ``key`` in the memo's open-addressing table (``keys``, ``used``): where it
    is, or the empty slot where it goes (linear probing; the table is never full)."""
    mask = keys.shape[0] - 1
    i = (key ^ (key >> 29)) & mask
    while used[i] and keys[i] != key:
        i = (i + 1) & mask
    return i


@njit(**numba_cache.COUNTED)  # allocates: counted, though called from uncounted kernels
def _grown(keys, values, used, moves):  # type: ignore[no-untyped-def]
    """The memo's table at twice the capacity, every entry moved over."""
    size = keys.shape[0] * 2
    new_keys = np.zeros(size, np.int64)
    new_values = np.zeros(size, np.float64)
    new_used = np.zeros(size, np.bool_)
    new_moves = np.full(size, -1, np.int64)
    for i in range(keys.shape[0]):
        if used[i]:
            j = _slot(new_keys, new_used, keys[i])
            new_keys[j] = keys[i]
            new_values[j] = values[i]
            new_used[j] = True
            new_moves[j] = moves[i]
    return new_keys, new_values, new_used, new_moves


@njit(**numba_cache.UNCOUNTED)
def _record(k, value, index, best, top, roots, moves, move):  # type: ignore[no-untyped-def]
    """Keep ``value`` of frame ``k``'s action ``index`` (packed: ``move``) if it is the
    frame's best (the root frame's every value in ``roots`` too, where it has room); below
    the root, the frame's first best action in order in ``moves[k]``."""
    if k == 0:
        if index < roots.shape[0]:
            roots[index] = value
        if value > top[0]:
            top[0] = value
            top[1] = index
    elif value > best[k]:
        best[k] = value
        moves[k] = move


#: The most discards and passes a frame's closing block may hold to be searched best bound
#: first (:func:`_search_loop`; three cards in hand give eight); a longer block is searched in
#: order.
BLOCK = 32


@njit(cache=True, inline="always")
def _discards_close(actions, k, first, last):  # type: ignore[no-untyped-def]
    """Whether frame ``k``'s actions from ``first`` to ``last`` are all discards or passes
    (the engine lists them last: they close a frame's actions)."""
    for j in range(first, last):
        kind = actions[k, j] & 255
        if kind != K_DISCARD and kind != K_PASS:
            return False
    return True


@njit(cache=True, inline="always")
def _next_bound(bounds, n, k, first, best, top):  # type: ignore[no-untyped-def]
    """The index in ``bounds[:n]`` (frame ``k``'s closing discards and pass from its action
    ``first``, ``NEVER`` where already evaluated) of the highest bound that may still change
    the frame's result, the first of equal ones; -1 when none may. Below the root only the
    frame's best value counts, so an action is skipped when its bound is at most that value;
    at the root the first best action is kept, so one bound equal to the best is evaluated
    when it comes before the best's action."""
    pick = -1
    high = NEVER
    for j in range(n):
        b = bounds[j]
        if b == NEVER:
            continue
        if k == 0:
            if b < top[0] or (b == top[0] and first + j > top[1]):
                continue
        elif b <= best[k]:
            continue
        if b > high:
            pick = j
            high = b
    return pick


@njit(cache=True, inline="always")
def _record_any(k, value, index, best, top):  # type: ignore[no-untyped-def]
    """:func:`_record` of an action evaluated out of order (no root values kept): at the root,
    a value equal to the best replaces it when its action comes first, so that the first best
    in the legal order is kept as in order."""
    if k == 0:
        if value > top[0] or (value == top[0] and index < top[1]):
            top[0] = value
            top[1] = index
    elif value > best[k]:
        best[k] = value


@njit(cache=True)
def workspace(s):  # type: ignore[no-untyped-def]
    """Every working array of a decision on states shaped as ``s`` (:func:`decide_with`'s
    ``ws``), allocated once and reused by every decision that is given it: a batch of tables
    allocates one, and a decision then allocates nothing (its memo table only when a search
    outgrows :data:`MEMO_START` positions). ``ws`` is ``(ctx, work, frames, buffers, memo,
    plan)``: :func:`context_into`'s arrays, :func:`scratch`, the search's frames
    (:func:`search`), its position buffers, its memo table and what a complete search keeps
    for the seat's next decision (``PL_*``, the context and parameters it was searched with;
    :func:`forget` drops it). Its contents are overwritten by each decision; a workspace
    serves one table at a time (the environments' kernels :func:`forget` between tables)."""
    size = s.shape[0]
    frames = DEPTH + 4
    decision = (
        np.zeros(X_SIZE, np.int64),
        np.zeros((8, 11), np.float64),
        np.zeros((8, 11), np.float64),
        np.zeros(max(size, 1), np.int64),
    )
    stack = (
        np.empty((frames, size), s.dtype),  # states
        np.empty((frames, size), s.dtype),  # opened
        np.empty((frames, MAX_ACTIONS), np.int64),  # actions
        np.zeros(frames, np.int64),  # count
        np.zeros(frames, np.int64),  # index
        np.zeros(frames, np.int64),  # waiting
        np.zeros(frames, np.int64),  # depth
        np.zeros(frames, np.bool_),  # expand
        np.zeros(frames, np.int64),  # keys
        np.full(frames, NEVER),  # best
        np.zeros(frames, np.float64),  # bonus
        np.zeros(frames, np.float64),  # chance
        np.zeros(frames, np.float64),  # failed_value
        np.zeros(frames, np.bool_),  # supported
        np.zeros(3, np.float64),  # top: the root's best value, its index, the most it may be
        np.zeros(L_SIZE, np.int64),  # the loop's integers (``L_*``)
        np.zeros(1, np.float64),  # the value delivered to the loop's frame
        np.full(frames, -1, np.int64),  # moves: each frame's first best action, -1 unknown
    )
    buffers = (
        np.zeros(SHUFFLE_SIZE, np.int32),  # shuffle
        np.empty(size, s.dtype),  # ended
        np.empty(size, s.dtype),  # spare (unused: the search makes a child in its frame's row)
        np.empty(size, s.dtype),  # drawn
        np.empty(size, s.dtype),  # :func:`_hit`'s copy
        np.empty(size, s.dtype),  # :func:`_react`'s countered position
        np.empty(0, np.float64),  # no root values kept (:func:`decide`'s ``roots``)
    )
    memo = (
        np.zeros(MEMO_START, np.int64),
        np.zeros(MEMO_START, np.float64),
        np.zeros(MEMO_START, np.bool_),
        np.full(MEMO_START, -1, np.int64),  # each position's first best action, -1 unknown
    )
    plan = (
        np.zeros(PL_SIZE, np.int64),  # ``PL_*``: whether the memo is kept, its count
        np.zeros(X_SIZE, np.int64),  # the context it was searched with
        np.zeros((8, 11), np.float64),  # later
        np.zeros((8, 11), np.float64),  # now
        np.zeros(max(size, 1), np.int64),  # the pool
        np.zeros(PL_PARAMS, np.float64),  # the weights, then ``fparams``
        np.zeros(I_SIZE, np.int64),  # iparams
        np.zeros(max(size, 1), np.int64),  # the rules' options (``cfg``)
    )
    return decision, scratch(), stack, buffers, memo, plan


# the plan's integers (``ws[5][0]``): a search's memo kept for the seat's next decision
PL_KEPT = 0  # 1: the last search in the workspace was complete; its memo and context kept
PL_COUNT = 1  # the memo's entries
PL_NPOOL = 2
PL_WEIGHTS = 3  # how many weights
PL_OPTIONS = 4  # how many options
PL_USED = 5  # how many searches went on from a kept memo (a count for tests and notes)
PL_ANSWERED = 6  # how many of those the memo's first best action answered (no root searched)
PL_SIZE = 7
PL_PARAMS = 256  # room for the weights and ``fparams``


@njit(**numba_cache.UNCOUNTED)
def forget(ws):  # type: ignore[no-untyped-def]
    """Drop the workspace's kept memo (:func:`search`): the next decision searches afresh.
    The environments' kernels call it before each table's bots play, so that nothing kept
    crosses tables or games."""
    ws[5][0][PL_KEPT] = 0


@njit(**numba_cache.UNCOUNTED)
def _same_search(cfg, ctx, later, now, pool, npool, weights, fparams, iparams, plan):  # type: ignore[no-untyped-def]
    """Whether a search with these rules, context and parameters values every position as
    the one whose memo ``plan`` keeps."""
    info, p_ctx, p_later, p_now, p_pool, p_params, p_iparams, p_cfg = plan
    if info[PL_KEPT] == 0 or info[PL_NPOOL] != npool:
        return False
    if info[PL_WEIGHTS] != weights.shape[0] or info[PL_OPTIONS] != cfg.shape[0]:
        return False
    for i in range(ctx.shape[0]):
        if p_ctx[i] != ctx[i]:
            return False
    for o in range(later.shape[0]):
        for v in range(later.shape[1]):
            if p_later[o, v] != later[o, v] or p_now[o, v] != now[o, v]:
                return False
    for i in range(npool):
        if p_pool[i] != pool[i]:
            return False
    n = weights.shape[0]
    for i in range(n):
        if p_params[i] != weights[i]:
            return False
    for i in range(fparams.shape[0]):
        if p_params[n + i] != fparams[i]:
            return False
    for i in range(iparams.shape[0]):
        if p_iparams[i] != iparams[i]:
            return False
    for i in range(cfg.shape[0]):  # noqa: SIM110 - Numba
        if p_cfg[i] != cfg[i]:
            return False
    return True


@njit(**numba_cache.UNCOUNTED)
def _keep_search(cfg, ctx, later, now, pool, npool, weights, fparams, iparams, plan, count):  # type: ignore[no-untyped-def]
    """Mark the workspace's memo (``count`` entries) kept, with what it was searched with
    (:func:`_same_search`), where it all fits."""
    info, p_ctx, p_later, p_now, p_pool, p_params, p_iparams, p_cfg = plan
    n = weights.shape[0]
    if n + fparams.shape[0] > p_params.shape[0] or cfg.shape[0] > p_cfg.shape[0]:
        return
    if npool > p_pool.shape[0]:
        return
    for i in range(ctx.shape[0]):
        p_ctx[i] = ctx[i]
    for o in range(later.shape[0]):
        for v in range(later.shape[1]):
            p_later[o, v] = later[o, v]
            p_now[o, v] = now[o, v]
    for i in range(npool):
        p_pool[i] = pool[i]
    for i in range(n):
        p_params[i] = weights[i]
    for i in range(fparams.shape[0]):
        p_params[n + i] = fparams[i]
    for i in range(iparams.shape[0]):
        p_iparams[i] = iparams[i]
    for i in range(cfg.shape[0]):
        p_cfg[i] = cfg[i]
    info[PL_NPOOL] = npool
    info[PL_WEIGHTS] = n
    info[PL_OPTIONS] = cfg.shape[0]
    info[PL_COUNT] = count
    info[PL_KEPT] = 1


# the search loop's integers kept in ``stack[15]`` while its memo table grows
L_K = 0
L_HAVE = 1
L_AFTER_FAIL = 2
L_NODES = 3
L_MEMO_COUNT = 4
L_CUT = 5  # 1: a frame's actions were left unsearched (the node budget or the depth)
L_SIZE = 6


@njit(**numba_cache.UNCOUNTED)
def search(  # type: ignore[no-untyped-def]
    s, legal, nlegal, cfg, ctx, later, now, pool, npool, weights, fparams, iparams, work, roots, ws
):
    """:meth:`fanfold.agents.ladder.search.Decision.choose` in the main phase: the index of
    the best of ``legal`` with the seat's turn searched on; ``roots[i]`` gets ``legal[i]``'s
    value where ``roots`` has room (an empty array: none kept). The Python twin's recursion
    (``child``, ``after``, ``node``, ``declared``) runs on an explicit stack of frames, one a
    position being searched (Numba's cache does not keep recursive functions), in the same
    order, so that the same positions are searched and remembered. The frames, buffers and
    memo table are the workspace's (:func:`workspace`). It and its loop (:func:`_search_loop`)
    count no references (a counted call counts each array it is given, the workspace's
    thirty-odd, up and down); a search whose memo table must grow goes on in
    :func:`_search_grown`, which allocates."""
    _, _, stack, buffers, memo, plan = ws
    states, _, actions, count, index, waiting, depth, expand, keys, best = stack[:10]
    bonus, chance, failed_value, supported, top, loop, delivered = stack[10:17]
    # positions met again, by :func:`state_hash`: an open-addressing table (a typed
    # dictionary cost an allocation and reference counts on every look-up)
    memo_keys, memo_values, memo_used, memo_moves = memo
    # the memo of the workspace's last search is kept where that search was complete (no
    # action left unsearched), this position is one it searched, and everything the values
    # depend on (the rules, the context, the parameters) is the same: each position's value
    # is then the one this search would find, so the choice is the same; never where the
    # root's values are asked for. That search's value of this position is the most the root
    # may reach (``top[2]``): the first action found worth it is the choice, as the first of
    # equal ones is in order. Where that search knew the position's first best action in
    # order (``memo_moves``: its frame's best found in order, or its closing block's first
    # best with no action left unevaluated that might equal it), that is the choice, and
    # nothing is searched
    info = plan[0]
    most = np.inf
    kept = (
        roots.shape[0] == 0
        and info[PL_KEPT] != 0
        and _same_search(cfg, ctx, later, now, pool, npool, weights, fparams, iparams, plan)
    )
    if kept:
        slot = _slot(memo_keys, memo_used, state_hash(s))
        kept = memo_used[slot]
        most = memo_values[slot]
        # the kept search found this position's first best action: the root's choice
        # (the first action worth the position's value), with nothing else to search
        move = memo_moves[slot]
        if kept and move >= 0:
            for i in range(nlegal):
                if legal[i] == move:
                    info[PL_USED] += 1
                    info[PL_ANSWERED] += 1
                    return np.int64(i)
    for f in range(count.shape[0]):
        count[f] = 0
        index[f] = 0
        waiting[f] = 0  # 0 none, 1 a child, 2 a failed attack, 3 carried
        depth[f] = 0
        expand[f] = False
        keys[f] = 0
        best[f] = NEVER
        bonus[f] = 0.0
        chance[f] = 0.0
        failed_value[f] = 0.0
        supported[f] = False
    top[0] = NEVER
    top[1] = 0.0
    top[2] = np.inf
    for i in range(loop.shape[0]):
        loop[i] = 0
    delivered[0] = 0.0
    shuffle = buffers[0]
    for i in range(shuffle.shape[0]):
        shuffle[i] = 0
    info[PL_KEPT] = 0
    if kept:
        top[2] = most
        info[PL_USED] += 1
        loop[L_MEMO_COUNT] = info[PL_COUNT]
    else:
        for i in range(memo_used.shape[0]):
            memo_used[i] = False
    for i in range(s.shape[0]):
        states[0, i] = s[i]
    for i in range(nlegal):
        actions[0, i] = legal[i]
    count[0] = nlegal
    expand[0] = True
    if _search_loop(
        legal,
        cfg,
        ctx,
        later,
        now,
        pool,
        npool,
        weights,
        fparams,
        iparams,
        work,
        roots,
        stack,
        buffers,
        memo_keys,
        memo_values,
        memo_used,
        memo_moves,
    ):
        # the grown table is not the workspace's: nothing is kept
        _search_grown(
            legal, cfg, ctx, later, now, pool, npool, weights, fparams, iparams, work, roots, ws
        )
    elif loop[L_CUT] == 0 and roots.shape[0] == 0:
        _keep_search(
            cfg, ctx, later, now, pool, npool, weights, fparams, iparams, plan, loop[L_MEMO_COUNT]
        )
    return np.int64(top[1])


@njit(**numba_cache.COUNTED)  # allocates: counted, though called from uncounted kernels
def _search_grown(  # type: ignore[no-untyped-def]
    legal, cfg, ctx, later, now, pool, npool, weights, fparams, iparams, work, roots, ws
):
    """:func:`search`'s loop carried on from where it stopped with its memo table half full:
    the table grown to twice its size (a fresh one, allocated) each time it fills."""
    stack, buffers, memo = ws[2:5]
    memo_keys, memo_values, memo_used, memo_moves = _grown(memo[0], memo[1], memo[2], memo[3])
    while _search_loop(
        legal,
        cfg,
        ctx,
        later,
        now,
        pool,
        npool,
        weights,
        fparams,
        iparams,
        work,
        roots,
        stack,
        buffers,
        memo_keys,
        memo_values,
        memo_used,
        memo_moves,
    ):
        memo_keys, memo_values, memo_used, memo_moves = _grown(
            memo_keys, memo_values, memo_used, memo_moves
        )


@njit(**numba_cache.UNCOUNTED)
def _search_loop(  # type: ignore[no-untyped-def]
    legal,
    cfg,
    ctx,
    later,
    now,
    pool,
    npool,
    weights,
    fparams,
    iparams,
    work,
    roots,
    stack,
    buffers,
    memo_keys,
    memo_values,
    memo_used,
    memo_moves,
):
    """:func:`search`'s loop from where ``stack`` left it: ``False`` when the root is
    decided, ``True`` (its place kept in ``stack``) when the memo table is half full and must
    grow first."""
    states, opened, actions, count, index, waiting, depth, expand, keys, best = stack[:10]
    bonus, chance, failed_value, supported, top, loop, delivered_box = stack[10:17]
    moves = stack[17]
    shuffle, ended, _, drawn = buffers[:4]
    seat = ctx[X_SEAT]
    p = _seat(seat)
    size = states.shape[1]
    k = loop[L_K]
    have = loop[L_HAVE] != 0  # a value is delivered to frame k
    delivered = delivered_box[0]
    after_fail = loop[L_AFTER_FAIL] != 0
    nodes = loop[L_NODES]
    memo_count = loop[L_MEMO_COUNT]
    cut = loop[L_CUT]
    gain = fparams[F_BLUFF_GAIN]
    # ``ended`` holds the position of the frame keyed ``ended_key`` but for the seat's block
    ended_valid = False
    ended_key = keys[0]
    ints = work[0]
    bounds = stack_empty(BLOCK, np.float64)
    while True:
        k_state = states[k]
        push = False
        child = k_state  # the position to search next, when push
        if have:
            have = False
            if waiting[k] == 1:
                _record(
                    k, delivered + bonus[k], index[k], best, top, roots, moves, actions[k, index[k]]
                )
                waiting[k] = 0
                index[k] += 1
                continue
            if waiting[k] == 2:
                failed_value[k] = delivered
                after_fail = True
            elif waiting[k] == 3:
                value = (1.0 - chance[k]) * delivered + chance[k] * (failed_value[k] + gain)
                _record(
                    k, value + bonus[k], index[k], best, top, roots, moves, actions[k, index[k]]
                )
                waiting[k] = 0
                index[k] += 1
                continue
        if after_fail:
            after_fail = False
            if not supported[k]:
                value = NEVER
                if iparams[I_BLUFF] != BLUFF_NEVER:
                    value = failed_value[k] + chance[k] * gain
                    if iparams[I_BLUFF] == BLUFF_ALWAYS:
                        value += fparams[F_BLUFF_BONUS]
                    value += bonus[k]
                _record(k, value, index[k], best, top, roots, moves, actions[k, index[k]])
                waiting[k] = 0
                index[k] += 1
                continue
            carried = states[k + 1]
            for i in range(size):
                carried[i] = opened[k, i]
            apply(carried, cfg, np.int64(K_ALLOW), shuffle)
            if carried[PHASE] == P_REACT:
                apply(carried, cfg, np.int64(K_ALLOW), shuffle)
            done, through = _settle(
                k_state, carried, cfg, ctx, later, pool, npool, weights, fparams, work, drawn
            )
            if done:
                value = (1.0 - chance[k]) * through + chance[k] * (failed_value[k] + gain)
                _record(
                    k, value + bonus[k], index[k], best, top, roots, moves, actions[k, index[k]]
                )
                waiting[k] = 0
                index[k] += 1
                continue
            waiting[k] = 3
            push = True
            child = carried
        elif index[k] >= count[k] or (k == 0 and top[0] == top[2]):
            if k == 0:
                break
            value = best[k]
            if value == NEVER:
                value = value_of(k_state, cfg, ctx, later, pool, npool, weights, work)
            slot = _slot(memo_keys, memo_used, keys[k])
            if not memo_used[slot]:
                memo_used[slot] = True
                memo_keys[slot] = keys[k]
                memo_count += 1
            memo_values[slot] = value
            memo_moves[slot] = moves[k] if best[k] != NEVER else -1
            k -= 1
            have = True
            delivered = value
            if 2 * memo_count >= memo_keys.shape[0]:
                loop[L_K] = k
                loop[L_HAVE] = 1
                loop[L_AFTER_FAIL] = 0
                loop[L_NODES] = nodes
                loop[L_MEMO_COUNT] = memo_count
                loop[L_CUT] = cut
                delivered_box[0] = delivered
                return True
            continue
        else:
            action = actions[k, index[k]]
            kind = action & 255
            refused = (
                iparams[I_HOARD] != 0
                and cfg[C_TRIBUTE] == 1
                and _spends(action)
                and k_state[p + TRIBUTE] < TRIBUTE_CAP
            )
            if _is_end(kind):
                value = NEVER
                # the discards and the pass close a frame's actions and leave its field as
                # it is: each is bounded from the position and the action, and they are
                # evaluated best bound first while a bound may beat the frame's best (else
                # the value changes nothing; never where the root's values are kept)
                first = index[k]
                last = count[k]
                if (
                    not refused
                    and (kind == K_DISCARD or kind == K_PASS)  # noqa: SIM109 - Numba
                    and (k != 0 or first >= roots.shape[0])
                    and last - first <= BLOCK
                    and _discards_close(actions, k, first, last)
                ):
                    field = _field_bound(k_state, cfg, ctx, later, weights, work)
                    if last - first > 2 and _block_bound(
                        k_state, p, cfg, actions, k, first, last, field, weights, ints, work[2]
                    ) <= (top[0] if k == 0 else best[k]):
                        index[k] = last  # no action of the block may change the result
                        continue
                    for j in range(last - first):
                        bounds[j] = _hand_bound(
                            k_state,
                            p,
                            cfg,
                            actions[k, first + j],
                            field,
                            weights,
                            ints,
                            work[2],
                            npool,
                        )
                    winner = -1  # the block's first best action in order, below the root
                    while True:
                        pick = _next_bound(bounds, last - first, k, first, best, top)
                        if pick < 0:
                            break
                        bounds[pick] = NEVER
                        _ended_from(
                            ended,
                            k_state,
                            p,
                            ended_valid and ended_key == keys[k],
                            cfg,
                            seat,
                            actions[k, first + pick],
                        )
                        ended_valid = True
                        ended_key = keys[k]
                        value = value_of(ended, cfg, ctx, later, pool, npool, weights, work)
                        if k != 0 and (
                            value > best[k] or (value == best[k] and first + pick < winner)
                        ):
                            winner = first + pick
                        _record_any(k, value, first + pick, best, top)
                    if winner >= 0:
                        moves[k] = actions[k, winner]
                        for j in range(last - first):
                            # an action not evaluated may equal the best and come first
                            if bounds[j] != NEVER and bounds[j] >= best[k] and first + j < winner:
                                moves[k] = -1
                    index[k] = last
                    continue
                if not refused:
                    _ended_from(
                        ended, k_state, p, ended_valid and ended_key == keys[k], cfg, seat, action
                    )
                    ended_valid = True
                    ended_key = keys[k]
                    value = value_of(ended, cfg, ctx, later, pool, npool, weights, work)
                _record(k, value, index[k], best, top, roots, moves, actions[k, index[k]])
                index[k] += 1
                continue
            if not expand[k]:
                cut = 1
                index[k] += 1
                continue
            if refused:
                _record(k, NEVER, index[k], best, top, roots, moves, actions[k, index[k]])
                index[k] += 1
                continue
            extra = 0.0
            if kind == K_DECLARE:
                attacker = _byte(action, SHIFT_A)
                target = _byte(action, SHIFT_B)
                code = _byte(action, SHIFT_C)
                reverse = _byte(action, SHIFT_FLAGS) != 0
                defender = code - 1 if code else (seat + 1) % ctx[X_COUNT]
                if fparams[F_WEAKEST] and defender == ctx[X_WEAKEST] and ctx[X_COUNT] > 2:
                    extra = fparams[F_WEAKEST]
                if _window_opens(k_state, cfg, defender, target):
                    for i in range(size):
                        opened[k, i] = k_state[i]
                    apply(opened[k], cfg, action, shuffle)
                    failed = states[k + 1]
                    for i in range(size):
                        failed[i] = opened[k, i]
                    _fail_attack(failed)
                    bonus[k] = extra
                    waiting[k] = 2
                    supported[k] = _supported(k_state, p, attacker, target, reverse)
                    done, value = _settle(
                        k_state, failed, cfg, ctx, later, pool, npool, weights, fparams, work, drawn
                    )
                    chance[k] = (
                        _counter_chance(k_state, ctx, now, attacker, target, reverse, defender)
                        * fparams[F_BELIEF]
                    )
                    if done:
                        failed_value[k] = value
                        after_fail = True
                        continue
                    push = True
                    child = failed
                elif iparams[I_BLUFF] == BLUFF_NEVER and not _supported(
                    k_state, p, attacker, target, reverse
                ):
                    _record(k, NEVER, index[k], best, top, roots, moves, actions[k, index[k]])
                    index[k] += 1
                    continue
            if not push:
                t = states[k + 1]
                for i in range(size):
                    t[i] = k_state[i]
                apply(t, cfg, action, shuffle)
                done, value = _settle(
                    k_state, t, cfg, ctx, later, pool, npool, weights, fparams, work, drawn
                )
                if done:
                    _record(
                        k, value + extra, index[k], best, top, roots, moves, actions[k, index[k]]
                    )
                    index[k] += 1
                    continue
                bonus[k] = extra
                waiting[k] = 1
                push = True
                child = t
        # search ``child`` one level down (or find it remembered)
        key = state_hash(child)
        slot = _slot(memo_keys, memo_used, key)
        if memo_used[slot]:
            have = True
            delivered = memo_values[slot]
            continue
        d = depth[k] + 1
        k += 1  # ``child`` was made in this frame's row
        count[k] = legal_actions(states[k], cfg, actions[k])
        index[k] = 0
        waiting[k] = 0
        depth[k] = d
        expand[k] = d < DEPTH and nodes < iparams[I_NODES]
        nodes += 1
        keys[k] = key
        best[k] = NEVER
        moves[k] = -1
    loop[L_MEMO_COUNT] = memo_count
    loop[L_CUT] = cut
    return False


@njit(**numba_cache.UNCOUNTED)
def _hit(s, cfg, ctx, later, pool, npool, weights, lost, face_up, need, work, u):  # type: ignore[no-untyped-def]
    """:meth:`fanfold.agents.ladder.search.Decision.hit`, the defender's cards in ``s``
    (copied into the buffer ``u``)."""
    for i in range(s.shape[0]):
        u[i] = s[i]
    p = _seat(ctx[X_SEAT])
    q = _seat(u[TURN_PLAYER])
    attacker = u[PENDING_ATTACKER]
    if lost:
        _leave_field(u, p, lost, face_up)
        support = u[PENDING_SUPPORT]
        if not support:
            support = (need << 4) | (attacker & 15)
        _leave_field(u, q, attacker, True)
        _insert(u, q + FIELD, support)
    else:
        _leave_field(u, q, attacker, True)
    return value_of(u, cfg, ctx, later, pool, npool, weights, work)


@njit(**numba_cache.UNCOUNTED)
def _attacked(s, cfg, ctx, later, now, pool, npool, weights, target, work, u):  # type: ignore[no-untyped-def]
    need = _support_value(s[PENDING_ATTACKER] >> 4, target >> 4, s[PENDING_REVERSE] == 1)
    if not need:
        return _hit(s, cfg, ctx, later, pool, npool, weights, 0, True, 0, work, u)
    chance = 1.0 if s[PENDING_SUPPORT] else now[s[TURN_PLAYER], need]
    lost = _hit(s, cfg, ctx, later, pool, npool, weights, target, True, need, work, u)
    kept = _hit(s, cfg, ctx, later, pool, npool, weights, 0, True, 0, work, u)
    return chance * lost + (1.0 - chance) * kept


@njit(**numba_cache.UNCOUNTED)
def _react(s, cfg, legal, nlegal, ctx, later, now, pool, npool, weights, iparams, work, buffers):  # type: ignore[no-untyped-def]
    """:meth:`fanfold.agents.ladder.search.Decision.react` (``buffers``: the workspace's)."""
    copy = buffers[4]
    p = _seat(ctx[X_SEAT])
    counters = False
    for i in range(nlegal):
        if legal[i] & 255 == K_COUNTER:
            counters = True
    mode = iparams[I_REACT]
    best = 0
    top = NEVER
    for i in range(nlegal):
        action = legal[i]
        kind = action & 255
        value = NEVER
        if kind == K_ALLOW:
            if not (mode == REACT_COUNTER and counters):
                value = _attacked(
                    s, cfg, ctx, later, now, pool, npool, weights, s[PENDING_TARGET], work, copy
                )
        elif kind == K_SACRIFICE:
            if not (mode == REACT_COUNTER and counters):
                card = _byte(action, SHIFT_A)
                value = _hit(s, cfg, ctx, later, pool, npool, weights, card, False, 0, work, copy)
        elif kind == K_COUNTER:  # noqa: SIM102 - as the Python twin
            if mode != REACT_ALLOW:
                u = buffers[5]
                for j in range(s.shape[0]):
                    u[j] = s[j]
                first = _byte(action, SHIFT_A)
                second = _byte(action, SHIFT_B)
                result = _byte(action, SHIFT_C)
                returned = _byte(action, SHIFT_D)
                recruited = _byte(action, SHIFT_E)
                if recruited:
                    _enter_play(u, p, recruited)
                _enter_play(u, p, result)
                for card in (first, second):
                    if card == returned:
                        _return_to_hand(u, p, card)
                    else:
                        _leave_field(u, p, card, True)
                _earn(u, cfg, p)
                value = _attacked(u, cfg, ctx, later, now, pool, npool, weights, result, work, copy)
        if value > top:
            best = i
            top = value
    return best


@njit(cache=True)
def context(s, cfg, seat, suits):  # type: ignore[no-untyped-def]
    """What the seat's decision in ``s`` reads besides the position: the context (its seat,
    partners, who attacks whom, the weakest rival), the chances that each rival holds each
    value later and now (:func:`holds`, from the copies not in the seat's sight), and the
    values left in its own draw pile (``pool[:npool]``)."""
    p = _seat(seat)
    ctx = np.zeros(X_SIZE, np.int64)
    later = np.zeros((8, 11), np.float64)
    now = np.zeros((8, 11), np.float64)
    pool = np.empty(max(s[p + DRAW], 1), np.int64)
    npool = context_into(s, cfg, seat, suits, ctx, later, now, pool)
    return ctx, later, now, pool, npool


@njit(**numba_cache.UNCOUNTED)
def context_into(s, cfg, seat, suits, ctx, later, now, pool):  # type: ignore[no-untyped-def]
    """:func:`context` written into ``ctx``, ``later``, ``now`` and ``pool`` (a workspace's,
    :func:`workspace`; ``pool`` at least as long as the seat's draw pile); returns
    ``npool``."""
    count = cfg[C_PLAYERS]
    for i in range(ctx.shape[0]):
        ctx[i] = 0
    for o in range(later.shape[0]):
        for v in range(later.shape[1]):
            later[o, v] = 0.0
            now[o, v] = 0.0
    ctx[X_SEAT] = seat
    ctx[X_COUNT] = count
    for o in range(count):
        if cfg[C_TEAMS] == 0:
            ctx[X_PARTNER + o] = o == seat
        else:
            ctx[X_PARTNER + o] = (o - seat) % 2 == 0
    if cfg[C_TRIONFEY] == 0 or count == 2:
        ctx[X_ATTACKS_ME + (seat - 1 + count) % count] = 1
        ctx[X_ATTACKED + (seat + 1) % count] = 1
    else:
        for o in range(count):
            if not ctx[X_PARTNER + o]:
                ctx[X_ATTACKS_ME + o] = 1
                ctx[X_ATTACKED + o] = 1
    weakest = -1
    low = 1 << 30
    for o in range(count):
        if ctx[X_PARTNER + o]:
            continue
        q = _seat(o)
        holds_into(s, q, suits[o], later, now, o)
        ctx[X_REVERSE + o] = _can_use(s, cfg, o, S_REVERSE)
        score = s[q + LEVEL] * 4 + _prestige_count(s, q)
        if score < low:
            weakest = o
            low = score
    ctx[X_WEAKEST] = weakest
    p = _seat(seat)
    npool = s[p + DRAW]
    for i in range(npool):
        pool[i] = s[p + DRAW + 1 + i] >> 4
    return npool


@njit(cache=True)
def decide(s, cfg, seat, legal, nlegal, suits, weights, fparams, iparams):  # type: ignore[no-untyped-def]
    """:func:`fanfold.agents.ladder.search.decide`: the index in ``legal[:nlegal]`` (packed
    ids) of the seat's choice in ``s``; ``suits[o]``: how many suits seat ``o`` commands."""
    ws = workspace(s)
    return decide_with(s, cfg, seat, legal, nlegal, suits, weights, fparams, iparams, ws[3][6], ws)


@njit(cache=True)
def decide_into(s, cfg, seat, legal, nlegal, suits, weights, fparams, iparams, roots):  # type: ignore[no-untyped-def]
    """:func:`decide`, with each legal action's value kept in ``roots`` where the turn is
    searched and ``roots`` has room (:func:`root_values`)."""
    return decide_with(
        s, cfg, seat, legal, nlegal, suits, weights, fparams, iparams, roots, workspace(s)
    )


@njit(**numba_cache.UNCOUNTED)
def decide_with(s, cfg, seat, legal, nlegal, suits, weights, fparams, iparams, roots, ws):  # type: ignore[no-untyped-def]
    """:func:`decide_into` in the workspace ``ws`` (:func:`workspace`, made for states
    shaped as ``s``): the decision allocates nothing (its search's memo table only when it
    outgrows the workspace's), so a batch of tables deciding many times allocates once. Its
    evaluations share what they read of the opponents while it lasts (:func:`features`)."""
    ints = ws[1][0]
    ints[W_STATE, E_DECISION] = 1
    ints[W_STATE, E_KNOWN] = 0
    choice = _decide_in(s, cfg, seat, legal, nlegal, suits, weights, fparams, iparams, roots, ws)
    ints[W_STATE, E_DECISION] = 0
    return choice


@njit(**numba_cache.UNCOUNTED)
def _decide_in(s, cfg, seat, legal, nlegal, suits, weights, fparams, iparams, roots, ws):  # type: ignore[no-untyped-def]
    """:func:`decide_with`'s decision, its evaluations' memo kept."""
    if nlegal == 1:
        return 0
    for i in range(nlegal):
        if legal[i] & 255 == K_PROMOTE:
            return i
    ctx, later, now, pool = ws[0]
    npool = context_into(s, cfg, seat, suits, ctx, later, now, pool)
    work = ws[1]
    pool_counts(pool, npool, work[0], work[2])
    p = _seat(seat)
    phase = s[PHASE]
    if phase == P_DRAW_SHUFFLE or phase == P_SHUFFLE:  # noqa: SIM109 - Numba
        for i in range(nlegal):
            if legal[i] & 255 == K_SHUFFLE and _byte(legal[i], SHIFT_FLAGS) != 0:
                return i
        return 0
    if phase == P_MULLIGAN:
        keep = value_of(s, cfg, ctx, later, pool, npool, weights, work)
        u = ws[3][5]
        for i in range(s.shape[0]):
            u[i] = s[i]
        while u[p + HAND] > 0:
            _remove(u, p + HAND, u[p + HAND + 1])
        while u[p + KNOWN] > 0:
            _remove(u, p + KNOWN, u[p + KNOWN + 1])
        take = value_of(u, cfg, ctx, later, pool, npool, weights, work) + fparams[F_FRESH]
        want = take > keep
        for i in range(nlegal):
            if legal[i] & 255 == K_MULLIGAN and (_byte(legal[i], SHIFT_FLAGS) != 0) == want:
                return i
        return 0
    if phase == P_REACT:
        return _react(
            s, cfg, legal, nlegal, ctx, later, now, pool, npool, weights, iparams, work, ws[3]
        )
    return search(
        s,
        legal,
        nlegal,
        cfg,
        ctx,
        later,
        now,
        pool,
        npool,
        weights,
        fparams,
        iparams,
        work,
        roots,
        ws,
    )


@njit(cache=True)
def root_values(s, cfg, seat, legal, nlegal, suits, weights, fparams, iparams, roots):  # type: ignore[no-untyped-def]
    """The member's value of each of ``legal[:nlegal]`` in ``s`` into ``roots`` (its turn
    searched on, as :func:`decide` searches it; ``-inf``: refused by the style) and ``True``
    where :func:`decide` searches the turn; else (one legal action, a promotion, a shuffle, a
    mulligan, a defender's answer) ``False`` and ``roots`` untouched."""
    if nlegal < 2:
        return False
    for i in range(nlegal):
        if legal[i] & 255 == K_PROMOTE:
            return False
    phase = s[PHASE]
    if phase == P_DRAW_SHUFFLE or phase == P_SHUFFLE or phase == P_MULLIGAN or phase == P_REACT:  # noqa: SIM109 - Numba
        return False
    decide_into(s, cfg, seat, legal, nlegal, suits, weights, fparams, iparams, roots)
    return True
