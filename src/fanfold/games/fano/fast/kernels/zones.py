"""Seats and moving cards between zones (:mod:`fanfold.games.fano.rules.zones`).

Part of Fano's compiled kernels (:mod:`fanfold.games.fano.fast.kernels`).
"""

from __future__ import annotations

from numba import njit

from fanfold.core import numba_cache
from fanfold.games.fano.cards import MAX_COMBAT, TEMP
from fanfold.games.fano.config import Teams
from fanfold.games.fano.fast.kernels.cards import (
    _base,
    _combat,
    _contains,
    _insert,
    _remove,
    _suited,
)
from fanfold.games.fano.fast.layout import (
    DOWN,
    FIELD,
    HAND,
    HEADER,
    HIDDEN,
    KNOWN,
    PENDING_ATTACKER,
    PENDING_DEFENDER,
    PENDING_REVERSE,
    PENDING_SUPPORT,
    PENDING_TARGET,
    PLAYER_WIDTH,
    PROTECTED,
    TEMP_JOKERS,
    UP,
)

numba_cache.install()

#: The config array's code of "One for all" (Fano's partnership teams), as the codec writes it.
ONE_FOR_ALL = tuple(Teams).index(Teams.ONE_FOR_ALL)


@njit(**numba_cache.UNCOUNTED)
def _seat(seat):  # type: ignore[no-untyped-def]
    return HEADER + seat * PLAYER_WIDTH


@njit(**numba_cache.UNCOUNTED)
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


@njit(**numba_cache.UNCOUNTED)
def _return_to_hand(s, p, card):  # type: ignore[no-untyped-def]
    _remove(s, p + PROTECTED, card)
    _remove(s, p + FIELD, card)
    _insert(s, p + HAND, card)
    _insert(s, p + KNOWN, card)


@njit(**numba_cache.UNCOUNTED)
def _take_from_hand(s, p, card):  # type: ignore[no-untyped-def]
    base = _base(card)
    _remove(s, p + KNOWN, base)
    _remove(s, p + HAND, base)


@njit(**numba_cache.UNCOUNTED)
def _enter_play(s, p, card):  # type: ignore[no-untyped-def]
    _take_from_hand(s, p, card)
    _insert(s, p + FIELD, card)


@njit(**numba_cache.UNCOUNTED)
def _active(s, p, cards):  # type: ignore[no-untyped-def]
    """The face-up combat cards in play (they attack, are attacked, recruit, counter)."""
    m = 0
    for i in range(s[p + FIELD]):
        card = s[p + FIELD + 1 + i]
        if _combat(card) and not _contains(s, p + HIDDEN, card):
            cards[m] = card
            m += 1
    return m


@njit(**numba_cache.UNCOUNTED)
def _face_up(s, p, cards):  # type: ignore[no-untyped-def]
    """The cards in play that may combine: face up."""
    m = 0
    for i in range(s[p + FIELD]):
        card = s[p + FIELD + 1 + i]
        if not _contains(s, p + HIDDEN, card):
            cards[m] = card
            m += 1
    return m


@njit(**numba_cache.UNCOUNTED)
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


@njit(**numba_cache.UNCOUNTED)
def _clear(s, at):  # type: ignore[no-untyped-def]
    for k in range(s[at]):
        s[at + 1 + k] = 0
    s[at] = 0


@njit(**numba_cache.UNCOUNTED)
def _clear_pending(s):  # type: ignore[no-untyped-def]
    s[PENDING_ATTACKER] = 0
    s[PENDING_TARGET] = 0
    s[PENDING_DEFENDER] = 0
    s[PENDING_REVERSE] = 0
    s[PENDING_SUPPORT] = 0
