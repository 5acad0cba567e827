"""Working arrays on the machine stack (:mod:`fanfold.core.numba_stack`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from fanfold.core.numba_stack import stack_empty

#: compiled without Numba's reference counts (as ``numba_cache.UNCOUNTED``, not cached)
UNCOUNTED: dict[str, Any] = {"_nrt": False}


@njit(**UNCOUNTED)
def _filled():  # type: ignore[no-untyped-def]
    table = stack_empty((3, 4), np.int32)
    row = stack_empty(5, np.float64)
    for i in range(3):
        for j in range(4):
            table[i, j] = 10 * i + j
    for i in range(5):
        row[i] = i / 2
    total = 0.0
    for i in range(3):
        total += table[i, 3]
    return total + row[4], table.shape[0], table.shape[1], row.shape[0], table.strides[0]


def test_a_stack_array_has_its_shape_and_holds_what_is_written() -> None:
    total, rows, columns, length, stride = _filled()
    assert (rows, columns, length, stride) == (3, 4, 5, 16)
    assert total == 3 + 13 + 23 + 2.0


@njit(**UNCOUNTED)
def _summed(values):  # type: ignore[no-untyped-def]
    total = 0
    for k in range(values.shape[0]):
        scratch = stack_empty(8, np.int64)  # one array, reused by every pass
        for i in range(8):
            scratch[i] = values[k] + i
        for i in range(8):
            total += scratch[i]
    return total


def test_a_kernel_without_reference_counts_may_use_one_in_a_loop() -> None:
    values = np.arange(1000, dtype=np.int64)
    assert _summed(values) == sum(8 * v + 28 for v in range(1000))


def test_a_size_not_known_when_compiling_is_refused() -> None:
    @njit
    def sized(n):  # type: ignore[no-untyped-def]
        return stack_empty(n, np.int64).shape[0]

    with pytest.raises(TypingError):
        sized(4)


def test_a_kernel_file_s_fingerprint_follows_the_stack_arrays_file() -> None:
    """Its code is inlined into the kernels that use it: a change to it must compile them
    afresh (:func:`fanfold.core.numba_cache.fingerprint`)."""
    from pathlib import Path

    from fanfold.core import numba_cache, numba_stack

    numba_cache.forget()
    own = numba_cache.fingerprint(Path(numba_stack.__file__))
    assert numba_cache._value_print(stack_empty, ()) == own
