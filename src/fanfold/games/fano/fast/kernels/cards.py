"""Card lists in the state array, card values and the plane's tables
(:mod:`fanfold.games.fano.cards`).

Part of Fano's compiled kernels (:mod:`fanfold.games.fano.fast.kernels`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from fanfold.core import numba_cache
from fanfold.games.fano.cards import ATTACK_SUPPORT as SUPPORT_ROWS
from fanfold.games.fano.cards import LINE_THIRD as THIRD_ROWS
from fanfold.games.fano.cards import MAX_COMBAT, WILD

numba_cache.install()


def _value_table(rows: tuple[tuple[int, ...], ...]) -> npt.NDArray[np.int32]:
    """A plane table of :mod:`fanfold.games.fano.cards` as an array indexed by any card value
    (0 to 10; the prestige values 8 to 10 are on no line)."""
    table = np.zeros((11, 11), np.int32)
    table[: len(rows), : len(rows)] = np.array(rows, np.int32)
    return table


#: ``ATTACK_SUPPORT[a, x]``: :data:`fanfold.games.fano.cards.ATTACK_SUPPORT` (0: no attack).
ATTACK_SUPPORT = _value_table(SUPPORT_ROWS)

#: ``LINE_THIRD[a, x]``: the third point of the line through ``a`` and ``x``.
LINE_THIRD = _value_table(THIRD_ROWS)


@njit(**numba_cache.UNCOUNTED)
def _insert(s, at, card):  # type: ignore[no-untyped-def]
    """Insert ``card`` into the sorted zone at ``at`` (count, then cards)."""
    n = s[at]
    i = n
    while i > 0 and s[at + i] > card:
        s[at + i + 1] = s[at + i]
        i -= 1
    s[at + i + 1] = card
    s[at] = n + 1


@njit(**numba_cache.UNCOUNTED)
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


@njit(**numba_cache.UNCOUNTED)
def _contains(s, at, card):  # type: ignore[no-untyped-def]
    for i in range(s[at]):  # noqa: SIM110 - plain loops compile best in Numba
        if s[at + 1 + i] == card:
            return True
    return False


@njit(**numba_cache.UNCOUNTED)
def _base(card):  # type: ignore[no-untyped-def]
    """The card off the field: a declared joker is wild again."""
    kind = card & 15
    return kind if kind >= WILD else card


@njit(**numba_cache.UNCOUNTED)
def _suited(card):  # type: ignore[no-untyped-def]
    return (card & 15) < WILD


@njit(**numba_cache.UNCOUNTED)
def _prestige(card):  # type: ignore[no-untyped-def]
    return (card >> 4) >= 8 and (card & 15) < WILD


@njit(**numba_cache.UNCOUNTED)
def _combat(card):  # type: ignore[no-untyped-def]
    value = card >> 4
    return value >= 1 and value <= MAX_COMBAT
