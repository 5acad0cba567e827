"""The winner, and starting and ending turns (:mod:`fanfold.games.fano.rules.turns`).

Part of Fano's compiled kernels (:mod:`fanfold.games.fano.fast.kernels`).
"""

from __future__ import annotations

from numba import njit

from fanfold.core import numba_cache
from fanfold.games.fano.fast.kernels.deck import ASKED, _draw_to_three, _mulligan_offered
from fanfold.games.fano.fast.kernels.zones import _seat
from fanfold.games.fano.fast.layout import (
    C_LAST_TURN,
    C_PLAYERS,
    C_PROMOTIONS_TO_WIN,
    C_TEAMS,
    HAND,
    LEVEL,
    OK,
    P_DRAW_SHUFFLE,
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
    PRIORITY,
    TARGET_SEAT,
    TURN,
    TURN_PLAYER,
)

numba_cache.install()


@njit(**numba_cache.UNCOUNTED)
def winner(s, cfg):  # type: ignore[no-untyped-def]
    """The seat that reached the promotions needed, or -1."""
    for seat in range(cfg[C_PLAYERS]):
        if s[_seat(seat) + LEVEL] >= cfg[C_PROMOTIONS_TO_WIN]:
            return seat
    return -1


@njit(**numba_cache.UNCOUNTED)
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


@njit(**numba_cache.UNCOUNTED)
def _end_turn(s, cfg, shuffle):  # type: ignore[no-untyped-def]
    """The next turn: the next seat; in partnerships the priority holder's partners in turn,
    then priority passes to the next seat."""
    count = cfg[C_PLAYERS]
    if cfg[C_TEAMS] == 0:
        following = (s[TURN_PLAYER] + 1) % count
    else:
        following = (s[TURN_PLAYER] + 2) % count
        if following == s[PRIORITY]:
            following = (s[PRIORITY] + 1) % count
            s[PRIORITY] = following
    return _start_turn(s, cfg, following, s[TURN] + 1, shuffle)


@njit(**numba_cache.UNCOUNTED)
def _after_main_action(s, cfg, seat, shuffle):  # type: ignore[no-untyped-def]
    if s[_seat(seat) + HAND] == 0:
        status = _draw_to_three(s, cfg, seat, shuffle, True)
        if status == ASKED:
            s[PHASE] = P_SHUFFLE
            return OK
        return status
    return OK
