"""Small working arrays on the machine stack, for compiled kernels that allocate nothing.

A kernel compiled without Numba's runtime (:data:`fanfold.core.numba_cache.UNCOUNTED`) may not
allocate an array; :func:`stack_empty` gives it one anyway, in its own stack frame: an
uninitialised C-ordered array of a fixed shape (integer literals) that lives as long as the
call that made it. It has no reference count and nothing frees it, so it must never be
returned or kept past the call. It costs no allocation in a counted kernel either, where
``np.empty`` costs a ``malloc``, a ``free`` and two atomic reference counts.

Use::

    cards = stack_empty(8, np.int32)  # np.empty(8, np.int32), on the stack
    table = stack_empty((3, 16), np.int32)  # two dimensions
"""

from __future__ import annotations

from typing import Any

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np import arrayobj

# Numba's code generation helpers (untyped)
_alloca_once: Any = cgutils.alloca_once
_make_array: Any = arrayobj.make_array
_populate_array: Any = arrayobj.populate_array


def _literal_shape(shape: Any) -> tuple[int, ...] | None:
    """The shape's sizes when every one is a positive integer literal, else ``None``."""
    sizes = list(getattr(shape, "types", ())) if isinstance(shape, types.BaseTuple) else [shape]
    if not sizes or not all(isinstance(size, types.IntegerLiteral) for size in sizes):
        return None
    values = tuple(int(size.literal_value) for size in sizes)
    return values if all(value > 0 for value in values) else None


def _stack_empty(typingctx: Any, shape: Any, dtype: Any) -> Any:
    """``np.empty(shape, dtype)`` in the calling kernel's stack frame (``shape``: an integer
    literal or a tuple of them; the values uninitialised, as ``np.empty``'s)."""
    sizes = _literal_shape(shape)
    if sizes is None or not isinstance(dtype, (types.NumberClass, types.DType)):
        return None
    item = dtype.dtype
    arytype = types.Array(item, len(sizes), "C")
    total = 1
    for size in sizes:
        total *= size

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        element = context.get_value_type(item)
        data = _alloca_once(builder, element, size=total)
        array = _make_array(arytype)(context, builder)
        intp = context.get_value_type(types.intp)
        itemsize = context.get_abi_sizeof(element)
        strides: list[Any] = []
        stride = itemsize
        for size in reversed(sizes):
            strides.insert(0, intp(stride))
            stride *= size
        _populate_array(
            array,
            data=data,
            shape=[intp(size) for size in sizes],
            strides=strides,
            itemsize=intp(itemsize),
            meminfo=None,
        )
        return array._getvalue()

    return arytype(shape, dtype), codegen


#: ``stack_empty(shape, dtype)`` in a compiled kernel (:func:`_stack_empty`).
stack_empty: Any = intrinsic(_stack_empty)
