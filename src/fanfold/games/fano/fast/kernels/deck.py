"""Drawing, reshuffles and the redraw question (:mod:`fanfold.games.fano.rules.deck`).

Part of Fano's compiled kernels (:mod:`fanfold.games.fano.fast.kernels`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.core import numba_cache
from fanfold.core.numba_stack import stack_empty
from fanfold.games.fano.cards import TEMP
from fanfold.games.fano.fast.kernels.cards import _insert, _prestige
from fanfold.games.fano.fast.kernels.specials import _can_use
from fanfold.games.fano.fast.kernels.zones import _seat
from fanfold.games.fano.fast.layout import (
    C_MULLIGAN,
    C_TRIONFEY,
    DOWN,
    DRAW,
    HAND,
    KNOWN,
    LEVEL,
    NEEDS_SHUFFLE,
    OK,
    PILE_CAP,
    S_TEMP_JOKER,
    SHUFFLE_COUNT,
    SHUFFLE_GIVEN,
    SHUFFLE_MODE,
    SHUFFLE_PERM,
    SHUFFLE_SEAT,
    SHUFFLES,
    SPECIALS,
    TEMP_JOKERS,
    UP,
)
from fanfold.games.fano.rules.deck import HAND_SIZE

numba_cache.install()

#: :func:`_draw_to_three` stopped to ask whether to add a Temporary Joker.
ASKED = 2
#: The most cards a reshuffle gathers (both discard piles and a Temporary Joker).
PILE = 2 * PILE_CAP + 1


@njit(**numba_cache.UNCOUNTED)
def _reshuffle(s, seat, shuffle, joker):  # type: ignore[no-untyped-def]
    """The discard pile (face up and face down, sorted; with a Temporary Joker when
    ``joker``) shuffled under the draw pile."""
    p = _seat(seat)
    cards = stack_empty(PILE, np.int32)
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
        shuffled = stack_empty(PILE, np.int32)
        for k in range(n):
            shuffled[k] = cards[shuffle[SHUFFLE_PERM + k]]
    else:
        shuffled = stack_empty(PILE, np.int32)
        for k in range(n):
            shuffled[k] = cards[k]
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
        n = s[p + SPECIALS]
        s[p + SPECIALS + 1 + n] = s[p + LEVEL] * 4 + S_TEMP_JOKER
        s[p + SPECIALS] = n + 1
        s[p + TEMP_JOKERS] += 1
    return OK


@njit(**numba_cache.UNCOUNTED)
def _draw_to_three(s, cfg, seat, shuffle, ask):  # type: ignore[no-untyped-def]
    """Draw until the hand holds three cards, reshuffling when the pile runs out. Returns
    :data:`ASKED` when drawing stopped to ask about a Temporary Joker (``ask``)."""
    p = _seat(seat)
    while s[p + HAND] < HAND_SIZE:
        n = s[p + DRAW]
        if n == 0:
            if ask and cfg[C_TRIONFEY] == 0 and _can_use(s, cfg, seat, S_TEMP_JOKER):
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
        if card == TEMP and cfg[C_TRIONFEY] == 1:
            # The Spades joker lies face up on the draw pile: everyone sees it drawn.
            _insert(s, p + KNOWN, TEMP)
        _insert(s, p + HAND, card)
    return OK


@njit(**numba_cache.UNCOUNTED)
def _mulligan_offered(s, cfg, p):  # type: ignore[no-untyped-def]
    n = s[p + HAND]
    if cfg[C_MULLIGAN] == 0 or n == 0:
        return False
    if cfg[C_TRIONFEY] == 1:
        return (
            n == 3
            and s[p + HAND + 1] >> 4 == 8
            and s[p + HAND + 2] >> 4 == 9
            and s[p + HAND + 3] >> 4 == 10
        )
    for i in range(n):  # noqa: SIM110 - plain loops compile best in Numba
        if not _prestige(s[p + HAND + 1 + i]):
            return False
    return True
