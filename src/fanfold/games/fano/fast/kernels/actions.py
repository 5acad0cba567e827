"""Packed action ids and action lists (:mod:`fanfold.games.fano.actions`).

Part of Fano's compiled kernels (:mod:`fanfold.games.fano.fast.kernels`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.core import numba_cache
from fanfold.games.fano.fast.layout import (
    SHIFT_A,
    SHIFT_B,
    SHIFT_C,
    SHIFT_D,
    SHIFT_FLAGS,
)

numba_cache.install()


@njit(**numba_cache.UNCOUNTED)
def _pack(kind, a, b, c, d, flags):  # type: ignore[no-untyped-def]
    return (
        np.int64(kind)
        | (np.int64(a) << SHIFT_A)
        | (np.int64(b) << SHIFT_B)
        | (np.int64(c) << SHIFT_C)
        | (np.int64(d) << SHIFT_D)
        | (np.int64(flags) << SHIFT_FLAGS)
    )


@njit(**numba_cache.UNCOUNTED)
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
