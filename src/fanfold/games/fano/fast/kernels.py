"""The compiled Fano kernels: legal actions, apply and random playouts on the array layout.

Every function here is ``@njit(cache=True)``: Numba compiles it on first call and keeps the
machine code in its cache (``__pycache__`` next to this file, or Numba's user-wide cache
directory when that is not writable; ``NUMBA_CACHE_DIR`` overrides both), so later processes
load it instead of compiling. Importing this module imports Numba: only :mod:`.engine` does,
on first use.

The kernels follow the reference rules (:mod:`fanfold.games.fano.rules`) step by step, in the
same order, so the legal actions come out in the reference's order; the tests check this
action by action. Reshuffles use the fast path's own generator (``np.random``, seeded per
playout) unless the shuffle buffer says exact mode, where the reference's permutation must be
given (see :data:`.layout.NEEDS_SHUFFLE`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from fanfold.games.fano.fast.layout import (
    C_EASY,
    C_HARD,
    C_LAST_TURN,
    C_MULLIGAN,
    C_OVERSUM_PRESTIGE_ONLY,
    C_PLAYERS,
    C_PROMOTION_ENDS_MAIN,
    C_PROMOTIONS_TO_WIN,
    C_SEAT_SPECIALS,
    DOWN,
    DRAW,
    F_SET,
    FIELD,
    HAND,
    HEADER,
    HIDDEN,
    K_ATTACK,
    K_COMBINE,
    K_DEFEND,
    K_DISCARD,
    K_MULLIGAN,
    K_PASS,
    K_PLAY,
    K_PROMOTE,
    K_SHUFFLE,
    K_SUBSTITUTE,
    KNOWN,
    LEVEL,
    MAX_ACTIONS,
    NEEDS_SHUFFLE,
    OK,
    P_DRAW_SHUFFLE,
    P_END,
    P_MAIN,
    P_MULLIGAN,
    P_OVER,
    P_SHUFFLE,
    PENDING_ATTACKER,
    PENDING_DEFENDER,
    PENDING_REVERSE,
    PENDING_SUPPORT,
    PENDING_TARGET,
    PHASE,
    PILE_CAP,
    PLAYER_WIDTH,
    PROTECTED,
    S_DEFENSE,
    S_OVERSUM,
    S_REVERSE,
    S_TEMP_JOKER,
    SHIFT_A,
    SHIFT_B,
    SHIFT_C,
    SHIFT_D,
    SHIFT_FLAGS,
    SHUFFLE_COUNT,
    SHUFFLE_GIVEN,
    SHUFFLE_MODE,
    SHUFFLE_PERM,
    SHUFFLE_SEAT,
    SHUFFLE_SIZE,
    SHUFFLES,
    SPECIALS,
    TARGET_SEAT,
    TEMP_JOKERS,
    TURN,
    TURN_PLAYER,
    UP,
)

HAND_SIZE = 3
#: :func:`_draw_to_three` stopped to ask whether to add a Temporary Joker.
ASKED = 2
FIELD_SLOTS = 4
MAX_COMBAT = 7
WILD = 4
TEMP = 5


def _support_table() -> npt.NDArray[np.int32]:
    table = np.zeros((11, 11), np.int32)
    for i in range(1, 8):
        cycle = (i, (i % 7) + 1, ((i + 2) % 7) + 1)
        a, b, c = cycle
        for x, y, z in ((a, b, c), (b, c, a), (c, a, b)):
            table[x, y] = z
    return table


#: ``ATTACK_SUPPORT[a, x]`` as in :mod:`fanfold.games.fano.cards` (0: no attack).
ATTACK_SUPPORT = _support_table()


def _third_table() -> npt.NDArray[np.int32]:
    table = np.zeros((11, 11), np.int32)
    for x in range(1, 8):
        for y in range(1, 8):
            if ATTACK_SUPPORT[x, y]:
                table[x, y] = table[y, x] = ATTACK_SUPPORT[x, y]
    return table


#: ``LINE_THIRD[a, x]``: the third point of the line through ``a`` and ``x``.
LINE_THIRD = _third_table()


# ----------------------------------------------------------------------------- card lists
@njit(cache=True)
def _insert(s, at, card):  # type: ignore[no-untyped-def]
    """Insert ``card`` into the sorted zone at ``at`` (count, then cards)."""
    n = s[at]
    i = n
    while i > 0 and s[at + i] > card:
        s[at + i + 1] = s[at + i]
        i -= 1
    s[at + i + 1] = card
    s[at] = n + 1


@njit(cache=True)
def _remove(s, at, card):  # type: ignore[no-untyped-def]
    """Remove one ``card`` from the zone at ``at``; False when it is not there."""
    n = s[at]
    for i in range(n):
        if s[at + 1 + i] == card:
            for j in range(i, n - 1):
                s[at + 1 + j] = s[at + 2 + j]
            s[at + n] = 0
            s[at] = n - 1
            return True
    return False


@njit(cache=True)
def _contains(s, at, card):  # type: ignore[no-untyped-def]
    for i in range(s[at]):  # noqa: SIM110 - plain loops compile best in Numba
        if s[at + 1 + i] == card:
            return True
    return False


@njit(cache=True)
def _base(card):  # type: ignore[no-untyped-def]
    """The card off the field: a declared joker is wild again."""
    kind = card & 15
    return kind if kind >= WILD else card


@njit(cache=True)
def _suited(card):  # type: ignore[no-untyped-def]
    return (card & 15) < WILD


@njit(cache=True)
def _prestige(card):  # type: ignore[no-untyped-def]
    return (card >> 4) >= 8 and (card & 15) < WILD


@njit(cache=True)
def _combat(card):  # type: ignore[no-untyped-def]
    value = card >> 4
    return value >= 1 and value <= MAX_COMBAT


@njit(cache=True)
def _seat(seat):  # type: ignore[no-untyped-def]
    return HEADER + seat * PLAYER_WIDTH


# ------------------------------------------------------------------------------ moving cards
@njit(cache=True)
def _leave_field(s, p, card, face_up):  # type: ignore[no-untyped-def]
    """``card`` leaves the field of the player at ``p`` for the discard pile."""
    _remove(s, p + FIELD, card)
    _remove(s, p + PROTECTED, card)
    _remove(s, p + HIDDEN, card)
    base = _base(card)
    if base == TEMP:
        s[p + TEMP_JOKERS] -= 1
    elif face_up:
        _insert(s, p + UP, base)
    else:
        _insert(s, p + DOWN, base)


@njit(cache=True)
def _return_to_hand(s, p, card):  # type: ignore[no-untyped-def]
    _remove(s, p + PROTECTED, card)
    _remove(s, p + FIELD, card)
    _insert(s, p + HAND, card)
    _insert(s, p + KNOWN, card)


@njit(cache=True)
def _take_from_hand(s, p, card):  # type: ignore[no-untyped-def]
    base = _base(card)
    _remove(s, p + KNOWN, base)
    _remove(s, p + HAND, base)


@njit(cache=True)
def _enter_play(s, p, card):  # type: ignore[no-untyped-def]
    _take_from_hand(s, p, card)
    _insert(s, p + FIELD, card)


# ---------------------------------------------------------------------------------- specials
@njit(cache=True)
def _can_use(s, cfg, seat, special):  # type: ignore[no-untyped-def]
    """Classic: ``special`` is the seat's and no special was used at this commander level."""
    if (cfg[C_SEAT_SPECIALS + seat] >> special) & 1 == 0:
        return False
    p = _seat(seat)
    level = s[p + LEVEL]
    for i in range(s[p + SPECIALS]):  # noqa: SIM110 - plain loops compile best in Numba
        if s[p + SPECIALS + 1 + i] // 4 == level:
            return False
    return True


@njit(cache=True)
def _spend(s, p, special):  # type: ignore[no-untyped-def]
    """Record the use of a classic special at the current level (in order of use)."""
    n = s[p + SPECIALS]
    s[p + SPECIALS + 1 + n] = s[p + LEVEL] * 4 + special
    s[p + SPECIALS] = n + 1


# ------------------------------------------------------------------------ drawing, shuffles
@njit(cache=True)
def _reshuffle(s, seat, shuffle, joker):  # type: ignore[no-untyped-def]
    """The discard pile (face up and face down, sorted; with a Temporary Joker when
    ``joker``) shuffled under the draw pile."""
    p = _seat(seat)
    cards = np.empty(2 * PILE_CAP + 1, np.int32)
    n = 0
    i = 0
    j = 0
    nu = s[p + UP]
    nd = s[p + DOWN]
    placed = not joker
    while i < nu or j < nd:
        if not placed and (
            (i >= nu or s[p + UP + 1 + i] >= TEMP) and (j >= nd or s[p + DOWN + 1 + j] >= TEMP)
        ):
            cards[n] = TEMP
            n += 1
            placed = True
            continue
        if j >= nd or (i < nu and s[p + UP + 1 + i] <= s[p + DOWN + 1 + j]):
            cards[n] = s[p + UP + 1 + i]
            i += 1
        else:
            cards[n] = s[p + DOWN + 1 + j]
            j += 1
        n += 1
    if not placed:
        cards[n] = TEMP
        n += 1
    if shuffle[SHUFFLE_MODE] == 1:
        if shuffle[SHUFFLE_GIVEN] != n or shuffle[SHUFFLE_SEAT] != seat:
            shuffle[SHUFFLE_SEAT] = seat
            shuffle[SHUFFLE_COUNT] = n
            return NEEDS_SHUFFLE
        shuffled = np.empty(n, np.int32)
        for k in range(n):
            shuffled[k] = cards[shuffle[SHUFFLE_PERM + k]]
    else:
        shuffled = cards[:n].copy()
        for k in range(n - 1, 0, -1):
            r = np.random.randint(0, k + 1)
            t = shuffled[k]
            shuffled[k] = shuffled[r]
            shuffled[r] = t
    old = s[p + DRAW]
    for k in range(old - 1, -1, -1):
        s[p + DRAW + 1 + n + k] = s[p + DRAW + 1 + k]
    for k in range(n):
        s[p + DRAW + 1 + k] = shuffled[k]
    s[p + DRAW] = old + n
    for k in range(nu):
        s[p + UP + 1 + k] = 0
    for k in range(nd):
        s[p + DOWN + 1 + k] = 0
    s[p + UP] = 0
    s[p + DOWN] = 0
    s[p + SHUFFLES] += 1
    if joker:
        _spend(s, p, S_TEMP_JOKER)
        s[p + TEMP_JOKERS] += 1
    return OK


@njit(cache=True)
def _draw_to_three(s, cfg, seat, shuffle, ask):  # type: ignore[no-untyped-def]
    """Draw until the hand holds three cards, reshuffling when the pile runs out. Returns
    :data:`ASKED` when drawing stopped to ask about a Temporary Joker (``ask``)."""
    p = _seat(seat)
    while s[p + HAND] < HAND_SIZE:
        n = s[p + DRAW]
        if n == 0:
            if ask and _can_use(s, cfg, seat, S_TEMP_JOKER):
                return ASKED
            if s[p + UP] == 0 and s[p + DOWN] == 0:
                break
            status = _reshuffle(s, seat, shuffle, False)
            if status != OK:
                return status
            continue
        card = s[p + DRAW + n]
        s[p + DRAW + n] = 0
        s[p + DRAW] = n - 1
        _insert(s, p + HAND, card)
    return OK


@njit(cache=True)
def _mulligan_offered(s, cfg, p):  # type: ignore[no-untyped-def]
    n = s[p + HAND]
    if cfg[C_MULLIGAN] == 0 or n == 0:
        return False
    for i in range(n):  # noqa: SIM110 - plain loops compile best in Numba
        if not _prestige(s[p + HAND + 1 + i]):
            return False
    return True


# ----------------------------------------------------------------------------------- turns
@njit(cache=True)
def winner(s, cfg):  # type: ignore[no-untyped-def]
    """The seat that reached the promotions needed, or -1."""
    for seat in range(cfg[C_PLAYERS]):
        if s[_seat(seat) + LEVEL] >= cfg[C_PROMOTIONS_TO_WIN]:
            return seat
    return -1


@njit(cache=True)
def _start_turn(s, cfg, seat, turn, shuffle):  # type: ignore[no-untyped-def]
    s[TURN_PLAYER] = seat
    s[TURN] = turn
    s[PENDING_ATTACKER] = 0
    s[PENDING_TARGET] = 0
    s[PENDING_DEFENDER] = 0
    s[PENDING_REVERSE] = 0
    s[PENDING_SUPPORT] = 0
    s[TARGET_SEAT] = -1
    if turn > cfg[C_LAST_TURN]:
        s[PHASE] = P_OVER
        return OK
    status = _draw_to_three(s, cfg, seat, shuffle, True)
    if status == ASKED:
        s[PHASE] = P_DRAW_SHUFFLE
        return OK
    if status != OK:
        return status
    s[PHASE] = P_MULLIGAN if _mulligan_offered(s, cfg, _seat(seat)) else P_MAIN
    return OK


@njit(cache=True)
def _end_turn(s, cfg, shuffle):  # type: ignore[no-untyped-def]
    following = (s[TURN_PLAYER] + 1) % cfg[C_PLAYERS]
    return _start_turn(s, cfg, following, s[TURN] + 1, shuffle)


@njit(cache=True)
def _after_main_action(s, cfg, seat, shuffle):  # type: ignore[no-untyped-def]
    if s[_seat(seat) + HAND] == 0:
        status = _draw_to_three(s, cfg, seat, shuffle, True)
        if status == ASKED:
            s[PHASE] = P_SHUFFLE
            return OK
        return status
    return OK


# ---------------------------------------------------------------------------- legal actions
@njit(cache=True)
def _pack(kind, a, b, c, d, flags):  # type: ignore[no-untyped-def]
    return (
        np.int64(kind)
        | (np.int64(a) << SHIFT_A)
        | (np.int64(b) << SHIFT_B)
        | (np.int64(c) << SHIFT_C)
        | (np.int64(d) << SHIFT_D)
        | (np.int64(flags) << SHIFT_FLAGS)
    )


@njit(cache=True)
def _hand_supports(s, p, value, attacker, target, reverse, out, n):  # type: ignore[no-untyped-def]
    """Attacks with each hand card that enters play as ``value``: suited cards in hand order,
    then each joker kind declared as it."""
    nh = s[p + HAND]
    for k in range(nh):
        card = s[p + HAND + 1 + k]
        if _suited(card) and (card >> 4) == value:
            out[n] = _pack(K_ATTACK, attacker, target, card, 0, reverse)
            n += 1
    for k in range(nh):
        card = s[p + HAND + 1 + k]
        if not _suited(card) and (k == 0 or card != s[p + HAND + k]):
            out[n] = _pack(K_ATTACK, attacker, target, value * 16 + card, 0, reverse)
            n += 1
    return n


@njit(cache=True)
def _attacks(s, cfg, seat, out, n):  # type: ignore[no-untyped-def]
    p = _seat(seat)
    q = _seat((seat + 1) % cfg[C_PLAYERS])
    if s[p + FIELD] == 0 or s[q + FIELD] == 0 or s[p + HAND] == 0:
        return n
    reverse_ok = _can_use(s, cfg, seat, S_REVERSE)
    for i in range(s[p + FIELD]):
        attacker = s[p + FIELD + 1 + i]
        a = attacker >> 4
        if a < 1 or a > MAX_COMBAT:
            continue
        for j in range(s[q + FIELD]):
            target = s[q + FIELD + 1 + j]
            if not _combat(target) or _contains(s, q + PROTECTED, target):
                continue
            x = target >> 4
            support = ATTACK_SUPPORT[a, x]
            if support != 0:
                n = _hand_supports(s, p, support, attacker, target, 0, out, n)
            elif reverse_ok and ATTACK_SUPPORT[x, a] != 0:
                n = _hand_supports(s, p, LINE_THIRD[a, x], attacker, target, F_SET, out, n)
    return n


@njit(cache=True)
def _combine_returns(first, second, result, oversum, out, n):  # type: ignore[no-untyped-def]
    """A combination returning nothing, then ``first``, then ``second`` (suited only)."""
    out[n] = _pack(K_COMBINE, first, second, result, 0, oversum)
    n += 1
    if _suited(first):
        out[n] = _pack(K_COMBINE, first, second, result, first, oversum)
        n += 1
    if _suited(second):
        out[n] = _pack(K_COMBINE, first, second, result, second, oversum)
        n += 1
    return n


@njit(cache=True)
def _combines(s, cfg, seat, out, n):  # type: ignore[no-untyped-def]
    p = _seat(seat)
    nf = s[p + FIELD]
    nh = s[p + HAND]
    oversum_ok = _can_use(s, cfg, seat, S_OVERSUM)
    prestige_only = cfg[C_OVERSUM_PRESTIGE_ONLY] == 1
    if nf >= 2 and nh > 0:
        for i in range(nf):
            first = s[p + FIELD + 1 + i]
            for j in range(i + 1, nf):
                second = s[p + FIELD + 1 + j]
                total = (first >> 4) + (second >> 4)
                for k in range(nh):
                    card = s[p + HAND + 1 + k]
                    if k > 0 and card == s[p + HAND + k]:
                        continue  # the hand as a set
                    if _suited(card):
                        value = card >> 4
                        if value == total:
                            n = _combine_returns(first, second, card, 0, out, n)
                        elif value < total and oversum_ok and (not prestige_only or value >= 8):
                            n = _combine_returns(first, second, card, F_SET, out, n)
                        continue
                    if total <= MAX_COMBAT:
                        n = _combine_returns(first, second, total * 16 + card, 0, out, n)
                    if oversum_ok and not prestige_only:
                        for value in range(1, min(MAX_COMBAT + 1, total)):
                            n = _combine_returns(first, second, value * 16 + card, F_SET, out, n)
    # Promotions: an 8, a 9 and a 10 (hard: of one suit), or any three (easy).
    for i in range(nf):
        one = s[p + FIELD + 1 + i]
        if not _prestige(one):
            continue
        for j in range(i + 1, nf):
            two = s[p + FIELD + 1 + j]
            if not _prestige(two):
                continue
            for k in range(j + 1, nf):
                three = s[p + FIELD + 1 + k]
                if not _prestige(three):
                    continue
                ok = cfg[C_EASY] == 1
                if not ok:
                    v1 = one >> 4
                    v2 = two >> 4
                    v3 = three >> 4
                    # Field order is sorted by value, so 8, 9, 10 come in that order.
                    ok = v1 == 8 and v2 == 9 and v3 == 10
                    if ok and cfg[C_HARD] == 1:
                        ok = (one & 15) == (two & 15) and (two & 15) == (three & 15)
                if ok:
                    out[n] = _pack(K_PROMOTE, one, two, three, 0, 0)
                    n += 1
    if _can_use(s, cfg, seat, S_DEFENSE):
        for i in range(nf):
            card = s[p + FIELD + 1 + i]
            if _combat(card) and not _contains(s, p + PROTECTED, card):
                out[n] = _pack(K_DEFEND, card, 0, 0, 0, 0)
                n += 1
    return n


@njit(cache=True)
def _playable(s, p, cards):  # type: ignore[no-untyped-def]
    """The combat cards the hand can play (a joker as each combat value), in order."""
    nh = s[p + HAND]
    m = 0
    for k in range(nh):
        card = s[p + HAND + 1 + k]
        if k > 0 and card == s[p + HAND + k]:
            continue
        if not _suited(card):
            for value in range(1, MAX_COMBAT + 1):
                cards[m] = value * 16 + card
                m += 1
        elif (card >> 4) <= MAX_COMBAT:
            cards[m] = card
            m += 1
    return m


@njit(cache=True)
def _end_actions(s, seat, out, n):  # type: ignore[no-untyped-def]
    p = _seat(seat)
    nh = s[p + HAND]
    nf = s[p + FIELD]
    cards = np.empty(8 * HAND_SIZE + 8, np.int32)
    m = _playable(s, p, cards)
    if nf < FIELD_SLOTS:
        for k in range(m):
            out[n] = _pack(K_PLAY, cards[k], 0, 0, 0, 0)
            n += 1
    for i in range(nf):
        removed = s[p + FIELD + 1 + i]
        for k in range(m):
            out[n] = _pack(K_SUBSTITUTE, removed, cards[k], 0, 0, 0)
            n += 1
    # Discards: every set of one to three hand cards, in the order of combinations().
    for size in range(1, nh + 1):
        if size == 1:
            for a in range(nh):
                out[n] = _pack(K_DISCARD, s[p + HAND + 1 + a], 0, 0, 0, 0)
                n += 1
        elif size == 2:
            for a in range(nh):
                for b in range(a + 1, nh):
                    out[n] = _pack(K_DISCARD, s[p + HAND + 1 + a], s[p + HAND + 1 + b], 0, 0, 0)
                    n += 1
        elif size == 3:
            for a in range(nh):
                for b in range(a + 1, nh):
                    for c in range(b + 1, nh):
                        out[n] = _pack(
                            K_DISCARD,
                            s[p + HAND + 1 + a],
                            s[p + HAND + 1 + b],
                            s[p + HAND + 1 + c],
                            0,
                            0,
                        )
                        n += 1
    out[n] = _pack(K_PASS, 0, 0, 0, 0, 0)
    return n + 1


@njit(cache=True)
def legal_actions(s, cfg, out):  # type: ignore[no-untyped-def]
    """Write the decider's legal actions into ``out`` (reference order); return how many."""
    phase = s[PHASE]
    if phase == P_OVER or winner(s, cfg) >= 0:
        return 0
    if phase == P_MULLIGAN:
        out[0] = _pack(K_MULLIGAN, 0, 0, 0, 0, F_SET)
        out[1] = _pack(K_MULLIGAN, 0, 0, 0, 0, 0)
        return 2
    if phase == P_DRAW_SHUFFLE or phase == P_SHUFFLE:  # noqa: SIM109 - Numba
        out[0] = _pack(K_SHUFFLE, 0, 0, 0, 0, 0)
        out[1] = _pack(K_SHUFFLE, 0, 0, 0, 0, F_SET)
        return 2
    seat = s[TURN_PLAYER]
    n = 0
    if phase == P_MAIN:
        n = _attacks(s, cfg, seat, out, n)
        n = _combines(s, cfg, seat, out, n)
    n = _end_actions(s, seat, out, n)
    for other in range(cfg[C_PLAYERS]):
        if s[_seat(other) + TEMP_JOKERS] > 1:
            # Two jokers in play with one value are one card for the rules: each move once.
            return _unique(out, n)
    return n


@njit(cache=True)
def _unique(out, n):  # type: ignore[no-untyped-def]
    """Keep the first of equal actions, in order; the new count."""
    m = 0
    for i in range(n):
        seen = False
        for j in range(m):
            if out[j] == out[i]:
                seen = True
                break
        if not seen:
            out[m] = out[i]
            m += 1
    return m


# ------------------------------------------------------------------------------------ apply
@njit(cache=True)
def apply(s, cfg, action, shuffle):  # type: ignore[no-untyped-def]
    """Apply the legal ``action`` to ``s`` in place. Returns :data:`OK`, or in exact mode
    :data:`NEEDS_SHUFFLE` (``s`` is then half changed: the caller works on a copy)."""
    kind = action & 255
    a = (action >> SHIFT_A) & 255
    b = (action >> SHIFT_B) & 255
    c = (action >> SHIFT_C) & 255
    d = (action >> SHIFT_D) & 255
    flags = (action >> SHIFT_FLAGS) & 255
    seat = s[TURN_PLAYER]
    p = _seat(seat)
    if kind == K_PASS:
        return _end_turn(s, cfg, shuffle)
    if kind == K_PLAY:
        _enter_play(s, p, a)
        return _end_turn(s, cfg, shuffle)
    if kind == K_SUBSTITUTE:
        _leave_field(s, p, a, True)
        _enter_play(s, p, b)
        return _end_turn(s, cfg, shuffle)
    if kind == K_DISCARD:
        for card in (a, b, c):
            if card != 0:
                _remove(s, p + HAND, card)
                if _base(card) == TEMP:
                    s[p + TEMP_JOKERS] -= 1
                else:
                    _insert(s, p + DOWN, _base(card))
        for k in range(s[p + KNOWN]):
            s[p + KNOWN + 1 + k] = 0
        s[p + KNOWN] = 0
        return _end_turn(s, cfg, shuffle)
    if kind == K_ATTACK:
        q = _seat((seat + 1) % cfg[C_PLAYERS])
        _take_from_hand(s, p, c)
        _leave_field(s, p, a, True)
        _insert(s, p + FIELD, c)
        if flags:
            _spend(s, p, S_REVERSE)
        _leave_field(s, q, b, True)
        return _after_main_action(s, cfg, seat, shuffle)
    if kind == K_COMBINE:
        _take_from_hand(s, p, c)
        for card in (a, b):
            if card == d:
                _return_to_hand(s, p, card)
            else:
                _leave_field(s, p, card, True)
        _insert(s, p + FIELD, c)
        if flags:
            _spend(s, p, S_OVERSUM)
        return _after_main_action(s, cfg, seat, shuffle)
    if kind == K_DEFEND:
        _insert(s, p + PROTECTED, a)
        _spend(s, p, S_DEFENSE)
        return OK
    if kind == K_SHUFFLE:
        status = _reshuffle(s, seat, shuffle, flags != 0)
        if status != OK:
            return status
        status = _draw_to_three(s, cfg, seat, shuffle, False)
        if status != OK:
            return status
        if s[PHASE] == P_DRAW_SHUFFLE:
            s[PHASE] = P_MULLIGAN if _mulligan_offered(s, cfg, p) else P_MAIN
        else:
            s[PHASE] = P_MAIN
        return OK
    if kind == K_PROMOTE:
        for card in (a, b, c):
            _leave_field(s, p, card, True)
        s[p + LEVEL] += 1
        if cfg[C_PROMOTION_ENDS_MAIN] == 1:
            s[PHASE] = P_END
        return OK
    if kind == K_MULLIGAN:
        if flags == 0:
            s[PHASE] = P_MAIN
            return OK
        for k in range(s[p + HAND]):
            _insert(s, p + UP, s[p + HAND + 1 + k])
            s[p + HAND + 1 + k] = 0
        s[p + HAND] = 0
        for k in range(s[p + KNOWN]):
            s[p + KNOWN + 1 + k] = 0
        s[p + KNOWN] = 0
        status = _draw_to_three(s, cfg, seat, shuffle, True)
        if status == ASKED:
            s[PHASE] = P_SHUFFLE
            return OK
        s[PHASE] = P_MAIN
        return status
    return OK


# ---------------------------------------------------------------------------------- playouts
@njit(cache=True)
def seed_generator(seed):  # type: ignore[no-untyped-def]
    """Seed the fast path's generator (Numba's own, apart from NumPy's)."""
    np.random.seed(seed)


@njit(cache=True)
def playout(s, cfg, max_actions):  # type: ignore[no-untyped-def]
    """Uniformly random legal actions on ``s`` in place until the game ends or
    ``max_actions`` were played; returns the number played."""
    out = np.empty(MAX_ACTIONS, np.int64)
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    played = 0
    while played < max_actions:
        n = legal_actions(s, cfg, out)
        if n == 0:
            break
        apply(s, cfg, out[np.random.randint(0, n)], shuffle)
        played += 1
    return played


@njit(cache=True)
def deal(s, cfg, decks):  # type: ignore[no-untyped-def]
    """A new game on the zeroed ``s``: each seat's deck (``decks[seat]``: count, then cards)
    shuffled by the fast path's generator, a random first player, turn 1 begun."""
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    players = cfg[C_PLAYERS]
    for seat in range(players):
        p = _seat(seat)
        n = decks[seat, 0]
        for k in range(n):
            s[p + DRAW + 1 + k] = decks[seat, 1 + k]
        for k in range(n - 1, 0, -1):
            r = np.random.randint(0, k + 1)
            t = s[p + DRAW + 1 + k]
            s[p + DRAW + 1 + k] = s[p + DRAW + 1 + r]
            s[p + DRAW + 1 + r] = t
        s[p + DRAW] = n
    first = np.random.randint(0, players)
    _start_turn(s, cfg, first, 1, shuffle)


@njit(cache=True)
def random_games(template, cfg, decks, games):  # type: ignore[no-untyped-def]
    """Play ``games`` uniformly random games from fresh deals; returns the actions played."""
    total = 0
    for _ in range(games):
        s = template.copy()
        deal(s, cfg, decks)
        total += playout(s, cfg, 1 << 30)
    return total
