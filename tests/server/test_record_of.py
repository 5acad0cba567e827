"""Reading a SQL row into the record whose fields its columns are
(:func:`fanfold.server.store.sql_common.record_of`)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from types import SimpleNamespace

import pytest

from fanfold.server.store.sql_common import record_of


@dataclass(frozen=True)
class _Record:
    id: int
    name: str
    at: float
    closed: bool
    note: str | None = None
    seat: int | None = None


@dataclass(frozen=True)
class _Listed:
    ids: list[int]


def test_each_field_is_read_from_its_column_and_cast_to_its_type() -> None:
    row = SimpleNamespace(id=Decimal(3), name="ann", at=Decimal("1.5"), closed=1, note=None, seat=2)
    record = record_of(_Record, row)
    assert record == _Record(3, "ann", 1.5, True, None, 2)
    assert (type(record.id), type(record.at), type(record.closed)) == (int, float, bool)


def test_none_stays_none_only_where_the_field_may_be_none() -> None:
    with pytest.raises(TypeError):
        record_of(_Record, SimpleNamespace(id=None, name="a", at=1.0, closed=0, note=None, seat=1))


def test_a_record_with_a_field_no_column_holds_is_refused() -> None:
    with pytest.raises(TypeError, match=r"_Listed.ids: list\[int\] is no column's type"):
        record_of(_Listed, SimpleNamespace(ids=[1]))
