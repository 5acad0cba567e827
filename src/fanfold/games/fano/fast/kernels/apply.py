"""Applying a legal action (:mod:`fanfold.games.fano.rules.apply`).

Part of Fano's compiled kernels (:mod:`fanfold.games.fano.fast.kernels`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.core import numba_cache
from fanfold.core.numba_stack import stack_empty
from fanfold.games.fano.cards import TEMP
from fanfold.games.fano.fast.kernels.attacks import (
    _complete,
    _fail_attack,
    _hand_cards,
    _resolve,
    _support_value,
    _window_opens,
)
from fanfold.games.fano.fast.kernels.cards import _base, _combat, _insert, _remove
from fanfold.games.fano.fast.kernels.deck import (
    ASKED,
    _draw_to_three,
    _mulligan_offered,
    _reshuffle,
)
from fanfold.games.fano.fast.kernels.specials import _earn, _spend
from fanfold.games.fano.fast.kernels.turns import _after_main_action, _end_turn
from fanfold.games.fano.fast.kernels.zones import (
    ONE_FOR_ALL,
    _clear,
    _enter_play,
    _leave_field,
    _return_to_hand,
    _seat,
    _take_from_hand,
)
from fanfold.games.fano.fast.layout import (
    C_PLAYERS,
    C_PROMOTION_ENDS_MAIN,
    C_TEAMS,
    C_TRIONFEY,
    DOWN,
    DRAW,
    FIELD,
    HAND,
    HIDDEN,
    K_ALLOW,
    K_ATTACK,
    K_COMBINE,
    K_COUNTER,
    K_DECLARE,
    K_DEFEND,
    K_DISCARD,
    K_FLIP,
    K_MULLIGAN,
    K_PASS,
    K_PLACE_JOKER,
    K_PLAY,
    K_PROMOTE,
    K_RECRUIT,
    K_SACRIFICE,
    K_SHUFFLE,
    K_SUBSTITUTE,
    KNOWN,
    LEVEL,
    OK,
    P_DRAW_SHUFFLE,
    P_END,
    P_MAIN,
    P_MULLIGAN,
    P_REACT,
    P_SHUFFLE,
    PENDING_ATTACKER,
    PENDING_DEFENDER,
    PENDING_REVERSE,
    PENDING_SUPPORT,
    PENDING_TARGET,
    PHASE,
    PROTECTED,
    S_DEFENSE,
    S_OVERSUM,
    S_REVERSE,
    S_TEMP_JOKER,
    SHIFT_A,
    SHIFT_B,
    SHIFT_C,
    SHIFT_D,
    SHIFT_E,
    SHIFT_FLAGS,
    TARGET_SEAT,
    TEMP_JOKERS,
    TURN_PLAYER,
    UP,
)

numba_cache.install()


@njit(**numba_cache.UNCOUNTED)
def apply(s, cfg, action, shuffle):  # type: ignore[no-untyped-def]
    """Apply the legal ``action`` to ``s`` in place. Returns :data:`OK`, or in exact mode
    :data:`NEEDS_SHUFFLE` (``s`` is then half changed: the caller works on a copy)."""
    kind = action & 255
    a = (action >> SHIFT_A) & 255
    b = (action >> SHIFT_B) & 255
    c = (action >> SHIFT_C) & 255
    d = (action >> SHIFT_D) & 255
    flags = (action >> SHIFT_FLAGS) & 255
    e = (action >> SHIFT_E) & 255
    seat = s[TURN_PLAYER]
    p = _seat(seat)
    if kind == K_PASS:
        return _end_turn(s, cfg, shuffle)
    if kind == K_PLAY:
        _enter_play(s, p, a)
        if flags:
            _spend(s, cfg, p, S_DEFENSE)
            _insert(s, p + HIDDEN, a)
        return _end_turn(s, cfg, shuffle)
    if kind == K_SUBSTITUTE:
        _leave_field(s, p, a, True)
        _enter_play(s, p, b)
        _earn(s, cfg, p)
        if flags:
            _spend(s, cfg, p, S_DEFENSE)
            _insert(s, p + HIDDEN, b)
        return _end_turn(s, cfg, shuffle)
    if kind == K_DISCARD:
        for card in (a, b, c):
            if card != 0:
                _remove(s, p + HAND, card)
                if _base(card) == TEMP:
                    s[p + TEMP_JOKERS] -= 1
                else:
                    _insert(s, p + DOWN, _base(card))
        _clear(s, p + KNOWN)
        if cfg[C_TRIONFEY] == 1:
            for k in range(s[p + HAND]):
                if s[p + HAND + 1 + k] == TEMP:
                    _insert(s, p + KNOWN, TEMP)
        _earn(s, cfg, p)
        return _end_turn(s, cfg, shuffle)
    if kind == K_ATTACK:
        q = _seat((seat + 1) % cfg[C_PLAYERS])
        _take_from_hand(s, p, c)
        _leave_field(s, p, a, True)
        _insert(s, p + FIELD, c)
        if flags:
            _spend(s, cfg, p, S_REVERSE)
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
            _spend(s, cfg, p, S_OVERSUM)
        if not flags or _combat(c):
            _earn(s, cfg, p)
        return _after_main_action(s, cfg, seat, shuffle)
    if kind == K_DECLARE:
        defender = c - 1 if c else (seat + 1) % cfg[C_PLAYERS]
        if flags:
            _spend(s, cfg, p, S_REVERSE)
        s[PENDING_ATTACKER] = a
        s[PENDING_TARGET] = b
        s[PENDING_DEFENDER] = defender
        s[PENDING_REVERSE] = 1 if flags else 0
        s[PENDING_SUPPORT] = 0
        s[TARGET_SEAT] = defender if cfg[C_PLAYERS] > 2 else -1
        if _window_opens(s, cfg, defender, b):
            s[PHASE] = P_REACT
            return OK
        return _resolve(s, cfg, shuffle)
    if kind == K_ALLOW:
        if s[PENDING_SUPPORT]:
            return _complete(s, cfg, s[PENDING_TARGET], shuffle)
        return _resolve(s, cfg, shuffle)
    if kind == K_SACRIFICE:
        return _complete(s, cfg, a, shuffle)
    if kind == K_COUNTER:
        defender = s[PENDING_DEFENDER]
        q = _seat(defender)
        if e:
            _take_from_hand(s, q, e)
            _insert(s, q + FIELD, e)
        _take_from_hand(s, q, c)
        for card in (a, b):
            if card == d:
                _return_to_hand(s, q, card)
            else:
                _leave_field(s, q, card, True)
        _insert(s, q + FIELD, c)
        _earn(s, cfg, q)
        s[PENDING_TARGET] = c
        needed = _support_value(s[PENDING_ATTACKER] >> 4, c >> 4, s[PENDING_REVERSE] == 1)
        supports = stack_empty(8, np.int32)
        if needed == 0 or _hand_cards(s, p, needed, 0, supports) == 0:
            return _fail_attack(s)
        if _window_opens(s, cfg, defender, c):
            s[PHASE] = P_REACT
            return OK
        return _resolve(s, cfg, shuffle)
    if kind == K_FLIP:
        decider = s[PENDING_DEFENDER] if s[PENDING_ATTACKER] else seat
        _remove(s, _seat(decider) + HIDDEN, a)
        return OK
    if kind == K_RECRUIT:
        _enter_play(s, p, a)
        return _after_main_action(s, cfg, seat, shuffle)
    if kind == K_PLACE_JOKER:
        _spend(s, cfg, p, S_TEMP_JOKER)
        n = s[p + DRAW]
        s[p + DRAW + 1 + n] = TEMP
        s[p + DRAW] = n + 1
        s[p + TEMP_JOKERS] += 1
        return OK
    if kind == K_DEFEND:
        _insert(s, p + PROTECTED, a)
        _spend(s, cfg, p, S_DEFENSE)
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
        owners = (d & 15, d >> 4, e)
        cards = (a, b, c)
        for i in range(3):
            owner = owners[i]
            _leave_field(s, p if owner == 0 else _seat(owner - 1), cards[i], True)
        count = cfg[C_PLAYERS]
        if cfg[C_TEAMS] == ONE_FOR_ALL:
            for step in range(0, count, 2):
                s[_seat((seat + step) % count) + LEVEL] += 1
        else:
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
        _clear(s, p + KNOWN)
        status = _draw_to_three(s, cfg, seat, shuffle, True)
        if status == ASKED:
            s[PHASE] = P_SHUFFLE
            return OK
        s[PHASE] = P_MAIN
        return status
    return OK
