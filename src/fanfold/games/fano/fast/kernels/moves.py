"""The legal actions, in the reference's order (:mod:`fanfold.games.fano.rules.moves`).

Part of Fano's compiled kernels (:mod:`fanfold.games.fano.fast.kernels`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.core import numba_cache
from fanfold.core.numba_stack import stack_empty
from fanfold.games.fano.cards import MAX_COMBAT
from fanfold.games.fano.fast.kernels.actions import _pack, _unique
from fanfold.games.fano.fast.kernels.attacks import (
    _attacks,
    _declarations,
    _react_actions,
    _recruits,
)
from fanfold.games.fano.fast.kernels.cards import _combat, _contains, _prestige, _suited
from fanfold.games.fano.fast.kernels.specials import _can_substitute_down, _can_use
from fanfold.games.fano.fast.kernels.turns import winner
from fanfold.games.fano.fast.kernels.zones import ONE_FOR_ALL, _face_up, _playable, _seat
from fanfold.games.fano.fast.layout import (
    C_EASY,
    C_HARD,
    C_OVERSUM_PRESTIGE_ONLY,
    C_PLAYERS,
    C_TEAMS,
    C_TRIONFEY,
    F_SET,
    FIELD,
    HAND,
    HIDDEN,
    K_COMBINE,
    K_DEFEND,
    K_DISCARD,
    K_FLIP,
    K_MULLIGAN,
    K_PASS,
    K_PLACE_JOKER,
    K_PLAY,
    K_PROMOTE,
    K_SHUFFLE,
    K_SUBSTITUTE,
    P_DRAW_SHUFFLE,
    P_MAIN,
    P_MULLIGAN,
    P_OVER,
    P_REACT,
    P_SHUFFLE,
    PHASE,
    PROTECTED,
    S_DEFENSE,
    S_OVERSUM,
    S_TEMP_JOKER,
    SHIFT_E,
    TEMP_JOKERS,
    TURN_PLAYER,
)
from fanfold.games.fano.rules.deck import HAND_SIZE
from fanfold.games.fano.rules.specials import JOKER_SUPPLY
from fanfold.games.fano.rules.zones import FIELD_SLOTS

PLAYABLE = 8 * HAND_SIZE + 8  # the cards :func:`_playable` may list

numba_cache.install()


@njit(**numba_cache.UNCOUNTED)
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


@njit(**numba_cache.UNCOUNTED)
def _combines(s, cfg, seat, field, nf, out, n):  # type: ignore[no-untyped-def]
    """Combinations of the face-up cards ``field[:nf]`` and promotions."""
    p = _seat(seat)
    nh = s[p + HAND]
    oversum_ok = _can_use(s, cfg, seat, S_OVERSUM)
    prestige_only = cfg[C_OVERSUM_PRESTIGE_ONLY] == 1
    if nf >= 2 and nh > 0:
        for i in range(nf):
            first = field[i]
            for j in range(i + 1, nf):
                second = field[j]
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
    if cfg[C_TEAMS] == ONE_FOR_ALL:
        return _team_promotions(s, cfg, seat, out, n)
    # Promotions: an 8, a 9 and a 10 (hard: of one suit), or any three (easy).
    for i in range(nf):
        one = field[i]
        if not _prestige(one):
            continue
        for j in range(i + 1, nf):
            two = field[j]
            if not _prestige(two):
                continue
            for k in range(j + 1, nf):
                three = field[k]
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
    return n


@njit(**numba_cache.UNCOUNTED)
def _team_promotions(s, cfg, seat, out, n):  # type: ignore[no-untyped-def]
    """One for all: an 8, a 9 and a 10 from the partnership's fields; owners (seat + 1, 0 for
    the promoting seat) packed in d (first two) and e (third)."""
    count = cfg[C_PLAYERS]
    cards = stack_empty((3, 16), np.int32)  # a partnership's fields hold 4 x 4 cards
    owners = stack_empty((3, 16), np.int32)
    found = stack_empty(3, np.int32)
    found[:] = 0
    for step in range(0, count, 2):
        member = (seat + step) % count
        owner = 0 if member == seat else member + 1
        q = _seat(member)
        for i in range(s[q + FIELD]):
            card = s[q + FIELD + 1 + i]
            if _prestige(card):
                row = (card >> 4) - 8
                cards[row, found[row]] = card
                owners[row, found[row]] = owner
                found[row] += 1
    for i in range(found[0]):
        for j in range(found[1]):
            for k in range(found[2]):
                out[n] = _pack(
                    K_PROMOTE,
                    cards[0, i],
                    cards[1, j],
                    cards[2, k],
                    owners[0, i] | (owners[1, j] << 4),
                    0,
                ) | (np.int64(owners[2, k]) << SHIFT_E)
                n += 1
    return n


@njit(**numba_cache.UNCOUNTED)
def _end_actions(s, cfg, seat, out, n):  # type: ignore[no-untyped-def]
    p = _seat(seat)
    nh = s[p + HAND]
    nf = s[p + FIELD]
    cards = stack_empty(PLAYABLE, np.int32)
    m = _playable(s, p, cards)
    trionfey = cfg[C_TRIONFEY] == 1
    if nf < FIELD_SLOTS:
        for k in range(m):
            out[n] = _pack(K_PLAY, cards[k], 0, 0, 0, 0)
            n += 1
        if trionfey and _can_use(s, cfg, seat, S_DEFENSE):
            for k in range(m):
                if _suited(cards[k]):
                    out[n] = _pack(K_PLAY, cards[k], 0, 0, 0, F_SET)
                    n += 1
    for i in range(nf):
        removed = s[p + FIELD + 1 + i]
        for k in range(m):
            out[n] = _pack(K_SUBSTITUTE, removed, cards[k], 0, 0, 0)
            n += 1
    if nf > 0 and trionfey and _can_substitute_down(s, cfg, seat):
        for i in range(nf):
            removed = s[p + FIELD + 1 + i]
            for k in range(m):
                if _suited(cards[k]):
                    out[n] = _pack(K_SUBSTITUTE, removed, cards[k], 0, 0, F_SET)
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


@njit(**numba_cache.UNCOUNTED)
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
    if phase == P_REACT:
        return _react_actions(s, cfg, out)
    seat = s[TURN_PLAYER]
    p = _seat(seat)
    n = 0
    if phase == P_MAIN:
        field = stack_empty(8, np.int32)
        if cfg[C_TRIONFEY] == 1:
            n = _declarations(s, cfg, seat, out, n)
            n = _recruits(s, seat, out, n)
            n = _combines(s, cfg, seat, field, _face_up(s, p, field), out, n)
            for i in range(s[p + HIDDEN]):
                out[n] = _pack(K_FLIP, s[p + HIDDEN + 1 + i], 0, 0, 0, 0)
                n += 1
            if s[p + TEMP_JOKERS] < JOKER_SUPPLY and _can_use(s, cfg, seat, S_TEMP_JOKER):
                out[n] = _pack(K_PLACE_JOKER, 0, 0, 0, 0, 0)
                n += 1
        else:
            n = _attacks(s, cfg, seat, out, n)
            n = _combines(s, cfg, seat, field, _face_up(s, p, field), out, n)
            if _can_use(s, cfg, seat, S_DEFENSE):
                for i in range(s[p + FIELD]):
                    card = s[p + FIELD + 1 + i]
                    if _combat(card) and not _contains(s, p + PROTECTED, card):
                        out[n] = _pack(K_DEFEND, card, 0, 0, 0, 0)
                        n += 1
    n = _end_actions(s, cfg, seat, out, n)
    for other in range(cfg[C_PLAYERS]):
        if s[_seat(other) + TEMP_JOKERS] > 1:
            # Two jokers in play with one value are one card for the rules: each move once.
            return _unique(out, n)
    return n
