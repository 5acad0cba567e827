"""How a decision crosses to a worker process: pickled by :class:`Pickler`, to the very bytes
:class:`~multiprocessing.reduction.ForkingPickler` gives, but faster."""

from __future__ import annotations

import copyreg
import dataclasses
import io
from multiprocessing.reduction import ForkingPickler
from typing import Any

#: How Python's own reduction makes an object again without ``__init__`` (``cls.__new__(cls)``).
_NEW_OBJECT = copyreg.__newobj__  # type: ignore[attr-defined]  # not in the stubs
#: The field names of each class whose instances :class:`Pickler` pickles itself (``None``:
#: a class it leaves to pickle).
FIELDS: dict[type, tuple[str, ...] | None] = {}


def _slotted_fields(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass made with ``slots=True`` that pickles through the
    ``__getstate__`` that :mod:`dataclasses` gives it, else ``None``."""
    getstate = getattr(kind, "__getstate__", None)
    if (
        not dataclasses.is_dataclass(kind)
        or "__slots__" not in vars(kind)
        or getattr(getstate, "__module__", None) != "dataclasses"
    ):
        return None
    return tuple(field.name for field in dataclasses.fields(kind))


class Pickler(ForkingPickler):
    """Pickles a decision to the very bytes :class:`ForkingPickler` gives, but faster: the
    seat's view and the legal actions are mostly small dataclasses with slots (cards, moves),
    whose own ``__getstate__`` looks up the class's fields for every instance (up to two
    thirds of a decision's pickling); here the names are looked up once per class and the
    instance is reduced as Python reduces it (``copyreg.__newobj__`` and the list of its
    fields' values, read back by the class's ``__setstate__``)."""

    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        try:
            names = FIELDS[kind]
        except KeyError:
            names = FIELDS[kind] = _slotted_fields(kind)
        if names is None:
            return NotImplemented
        return _NEW_OBJECT, (kind,), [getattr(obj, name) for name in names]


def dumps(value: object) -> bytes:
    """``value`` pickled by :class:`Pickler`."""
    buffer = io.BytesIO()
    Pickler(buffer).dump(value)
    return buffer.getvalue()


__all__ = ["FIELDS", "Pickler", "dumps"]
