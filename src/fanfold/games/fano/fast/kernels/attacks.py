"""Attacks, declarations, reactions and their resolution (:mod:`fanfold.games.fano.rules.attacks`).

Part of Fano's compiled kernels (:mod:`fanfold.games.fano.fast.kernels`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.core import numba_cache
from fanfold.core.numba_stack import stack_empty
from fanfold.games.fano.cards import MAX_COMBAT
from fanfold.games.fano.fast.kernels.actions import _pack, _unique
from fanfold.games.fano.fast.kernels.cards import (
    ATTACK_SUPPORT,
    LINE_THIRD,
    _base,
    _combat,
    _contains,
    _insert,
    _suited,
)
from fanfold.games.fano.fast.kernels.specials import _can_use
from fanfold.games.fano.fast.kernels.turns import _after_main_action
from fanfold.games.fano.fast.kernels.zones import (
    _active,
    _clear_pending,
    _leave_field,
    _seat,
    _take_from_hand,
)
from fanfold.games.fano.fast.layout import (
    C_PLAYERS,
    C_TEAMS,
    C_TRIONFEY,
    F_SET,
    FIELD,
    HAND,
    HIDDEN,
    K_ALLOW,
    K_ATTACK,
    K_COUNTER,
    K_DECLARE,
    K_FLIP,
    K_RECRUIT,
    K_SACRIFICE,
    OK,
    P_MAIN,
    P_REACT,
    PENDING_ATTACKER,
    PENDING_DEFENDER,
    PENDING_REVERSE,
    PENDING_SUPPORT,
    PENDING_TARGET,
    PHASE,
    PROTECTED,
    S_REVERSE,
    SHIFT_E,
    TARGET_SEAT,
    TEMP_JOKERS,
    TURN_PLAYER,
)
from fanfold.games.fano.rules.zones import FIELD_SLOTS

numba_cache.install()


@njit(**numba_cache.UNCOUNTED)
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


@njit(**numba_cache.UNCOUNTED)
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


@njit(**numba_cache.UNCOUNTED)
def _hand_cards(s, p, value, skip, cards):  # type: ignore[no-untyped-def]
    """The hand cards that enter play as ``value`` (suited first, in hand order, then each
    joker kind declared as it), the hand less one ``skip`` card (0: none)."""
    m = 0
    if value <= 0:
        return 0
    skipped = skip == 0
    nh = s[p + HAND]
    for k in range(nh):
        card = s[p + HAND + 1 + k]
        if not skipped and card == skip:
            skipped = True
            continue
        if _suited(card) and (card >> 4) == value:
            cards[m] = card
            m += 1
    skipped = skip == 0
    last = -1
    for k in range(nh):
        card = s[p + HAND + 1 + k]
        if not skipped and card == skip:
            skipped = True
            continue
        if not _suited(card) and card != last:
            cards[m] = value * 16 + card
            m += 1
            last = card
    return m


@njit(**numba_cache.UNCOUNTED)
def _support_value(attacker, target, reverse):  # type: ignore[no-untyped-def]
    if reverse:
        return LINE_THIRD[attacker, target] if ATTACK_SUPPORT[target, attacker] else 0
    return ATTACK_SUPPORT[attacker, target]


@njit(**numba_cache.UNCOUNTED)
def _window_opens(s, cfg, defender, target):  # type: ignore[no-untyped-def]
    """The defender gets a counter window: a face-down card, or a counter shape."""
    q = _seat(defender)
    if s[q + HIDDEN] > 0:
        return True
    cards = stack_empty(8, np.int32)
    m = _active(s, q, cards)
    x = target >> 4
    for i in range(m):
        if cards[i] != target and x + (cards[i] >> 4) <= MAX_COMBAT:
            return True
    if s[q + FIELD] < FIELD_SLOTS:
        for i in range(m):
            for j in range(i + 1, m):
                third = LINE_THIRD[cards[i] >> 4, cards[j] >> 4]
                if third and x + third <= MAX_COMBAT:
                    return True
    return False


@njit(**numba_cache.UNCOUNTED)
def _opponents(s, cfg, seat, seats):  # type: ignore[no-untyped-def]
    """The seats ``seat`` may attack now."""
    count = cfg[C_PLAYERS]
    if cfg[C_TRIONFEY] == 0 or count == 2:
        seats[0] = (seat + 1) % count
        return 1
    if s[TARGET_SEAT] >= 0:
        seats[0] = s[TARGET_SEAT]
        return 1
    m = 0
    for other in range(count):
        partner = other == seat if cfg[C_TEAMS] == 0 else (other - seat) % 2 == 0
        if not partner:
            seats[m] = other
            m += 1
    return m


@njit(**numba_cache.UNCOUNTED)
def _declarations(s, cfg, seat, out, n):  # type: ignore[no-untyped-def]
    p = _seat(seat)
    attackers = stack_empty(8, np.int32)
    na = _active(s, p, attackers)
    if na == 0:
        return n
    reverse_ok = _can_use(s, cfg, seat, S_REVERSE)
    named = cfg[C_PLAYERS] > 2
    seats = stack_empty(8, np.int32)
    targets = stack_empty(8, np.int32)
    for f in range(_opponents(s, cfg, seat, seats)):
        foe = seats[f]
        nt = _active(s, _seat(foe), targets)
        for i in range(na):
            a = attackers[i] >> 4
            for j in range(nt):
                x = targets[j] >> 4
                if ATTACK_SUPPORT[a, x]:
                    reverse = 0
                elif reverse_ok and ATTACK_SUPPORT[x, a]:
                    reverse = F_SET
                else:
                    continue
                out[n] = _pack(
                    K_DECLARE, attackers[i], targets[j], foe + 1 if named else 0, 0, reverse
                )
                n += 1
    return n


@njit(**numba_cache.UNCOUNTED)
def _recruits(s, seat, out, n):  # type: ignore[no-untyped-def]
    p = _seat(seat)
    nh = s[p + HAND]
    if s[p + FIELD] >= FIELD_SLOTS or nh == 0:
        return n
    cards = stack_empty(8, np.int32)
    m = _active(s, p, cards)
    for i in range(m):
        for j in range(i + 1, m):
            third = LINE_THIRD[cards[i] >> 4, cards[j] >> 4]
            if not third:
                continue
            for k in range(nh):
                card = s[p + HAND + 1 + k]
                if k > 0 and card == s[p + HAND + k]:
                    continue
                if not _suited(card):
                    out[n] = _pack(K_RECRUIT, third * 16 + card, cards[i], cards[j], 0, 0)
                    n += 1
                elif card >> 4 == third:
                    out[n] = _pack(K_RECRUIT, card, cards[i], cards[j], 0, 0)
                    n += 1
    return n


@njit(**numba_cache.UNCOUNTED)
def _counter(one, two, result, returned, recruited, first, second):  # type: ignore[no-untyped-def]
    """A packed counter: the recruiters in the flags byte and bits 56-63."""
    return (
        _pack(K_COUNTER, one, two, result, returned, first)
        | (np.int64(recruited) << SHIFT_E)
        | (np.int64(second) << 56)
    )


@njit(**numba_cache.UNCOUNTED)
def _counter_returns(one, two, result, recruited, first, second, out, n):  # type: ignore[no-untyped-def]
    out[n] = _counter(one, two, result, 0, recruited, first, second)
    n += 1
    if _suited(one):
        out[n] = _counter(one, two, result, one, recruited, first, second)
        n += 1
    if _suited(two):
        out[n] = _counter(one, two, result, two, recruited, first, second)
        n += 1
    return n


@njit(**numba_cache.UNCOUNTED)
def _react_actions(s, cfg, out):  # type: ignore[no-untyped-def]
    """The defender's answers to the pending attack."""
    defender = s[PENDING_DEFENDER]
    q = _seat(defender)
    target = s[PENDING_TARGET]
    out[0] = _pack(K_ALLOW, 0, 0, 0, 0, 0)
    n = 1
    if s[PENDING_SUPPORT]:
        for i in range(s[q + HIDDEN]):
            out[n] = _pack(K_SACRIFICE, s[q + HIDDEN + 1 + i], 0, 0, 0, 0)
            n += 1
        return n
    for i in range(s[q + HIDDEN]):
        out[n] = _pack(K_FLIP, s[q + HIDDEN + 1 + i], 0, 0, 0, 0)
        n += 1
    cards = stack_empty(8, np.int32)
    m = _active(s, q, cards)
    x = target >> 4
    results = stack_empty(16, np.int32)
    recruits = stack_empty(16, np.int32)
    for i in range(m):
        partner = cards[i]
        total = x + (partner >> 4)
        if partner != target and total <= MAX_COMBAT:
            one = min(partner, target)
            two = max(partner, target)
            for r in range(_hand_cards(s, q, total, 0, results)):
                n = _counter_returns(one, two, results[r], 0, 0, 0, out, n)
    if s[q + FIELD] < FIELD_SLOTS:
        for i in range(m):
            for j in range(i + 1, m):
                third = LINE_THIRD[cards[i] >> 4, cards[j] >> 4]
                if not third or x + third > MAX_COMBAT:
                    continue
                for k in range(_hand_cards(s, q, third, 0, recruits)):
                    recruited = recruits[k]
                    one = min(recruited, target)
                    two = max(recruited, target)
                    for r in range(_hand_cards(s, q, x + third, _base(recruited), results)):
                        n = _counter_returns(
                            one, two, results[r], recruited, cards[i], cards[j], out, n
                        )
    if s[q + TEMP_JOKERS] > 1:
        return _unique(out, n)
    return n


@njit(**numba_cache.UNCOUNTED)
def _fail_attack(s):  # type: ignore[no-untyped-def]
    """Only the attacking card is discarded, face up."""
    _leave_field(s, _seat(s[TURN_PLAYER]), s[PENDING_ATTACKER], True)
    _clear_pending(s)
    s[PHASE] = P_MAIN
    return OK


@njit(**numba_cache.UNCOUNTED)
def _complete(s, cfg, lost, shuffle):  # type: ignore[no-untyped-def]
    """The attack succeeds: attacker and ``lost`` discarded, the support into play."""
    seat = s[TURN_PLAYER]
    p = _seat(seat)
    q = _seat(s[PENDING_DEFENDER])
    support = s[PENDING_SUPPORT]
    _take_from_hand(s, p, support)
    _leave_field(s, p, s[PENDING_ATTACKER], True)
    _insert(s, p + FIELD, support)
    face_up = not _contains(s, q + HIDDEN, lost)
    _leave_field(s, q, lost, face_up)
    _clear_pending(s)
    s[PHASE] = P_MAIN
    return _after_main_action(s, cfg, seat, shuffle)


@njit(**numba_cache.UNCOUNTED)
def _resolve(s, cfg, shuffle):  # type: ignore[no-untyped-def]
    """No (more) counter: the attacker shows the support, or loses the attacker."""
    p = _seat(s[TURN_PLAYER])
    needed = _support_value(
        s[PENDING_ATTACKER] >> 4, s[PENDING_TARGET] >> 4, s[PENDING_REVERSE] == 1
    )
    supports = stack_empty(8, np.int32)
    if _hand_cards(s, p, needed, 0, supports) == 0:
        return _fail_attack(s)
    s[PENDING_SUPPORT] = supports[0]
    if s[_seat(s[PENDING_DEFENDER]) + HIDDEN] > 0:
        s[PHASE] = P_REACT
        return OK
    return _complete(s, cfg, s[PENDING_TARGET], shuffle)
