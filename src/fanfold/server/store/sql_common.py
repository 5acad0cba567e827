"""What the SQL stores of every subject share: a store over an engine with its transactions,
the insert of the engine's dialect (for ``ON CONFLICT DO NOTHING``), PostgreSQL's advisory
locks by name (a table's key, a counted key), the locking and settling of a report's row, and
the reading of a row into the record whose fields its columns are (:func:`record_of`)."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Self, TypeVar

import sqlalchemy as sa
import sqlalchemy.dialects.postgresql
import sqlalchemy.dialects.sqlite
from sqlalchemy.engine import Connection, Engine, Row

from fanfold.server.store.engine import sql
from fanfold.server.store.records import Transaction

RecordT = TypeVar("RecordT")

#: How a column's value becomes a record field's, by the field's type.
_CASTS: dict[str, Callable[[Any], object]] = {"int": int, "float": float, "str": str, "bool": bool}


@functools.cache
def _columns(record: type) -> tuple[tuple[str, Callable[[Any], object], bool], ...]:
    """Each field of the dataclass ``record``: its name, its cast, and whether it may be
    ``None``."""
    found = []
    for field in dataclasses.fields(record):
        kind = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", "")
        name, _, rest = kind.partition(" | ")
        if name not in _CASTS or rest not in ("", "None"):
            raise TypeError(f"{record.__name__}.{field.name}: {kind} is no column's type")
        found.append((field.name, _CASTS[name], rest == "None"))
    return tuple(found)


def record_of(record: type[RecordT], row: Any) -> RecordT:
    """The ``record`` (a dataclass whose fields are ints, floats, texts or booleans, any of
    them maybe ``None``) that ``row`` holds: each field read from the column of its name."""
    values = {}
    kind: type = record  # the cache's key
    for name, cast, optional in _columns(kind):
        value = getattr(row, name)
        values[name] = None if optional and value is None else cast(value)
    return record(**values)


def lock_key(name: str) -> int:
    """The advisory lock key of a name (a table's id, a counted key): 64 bits of its BLAKE2b
    hash, signed (the ``bigint`` that ``pg_try_advisory_lock`` takes)."""
    digest = hashlib.blake2b(name.encode(), digest_size=8, person=b"fanfold").digest()
    return int.from_bytes(digest, "big", signed=True)


def insert_for(
    connection: Connection, table: sa.Table
) -> sa.dialects.postgresql.Insert | sa.dialects.sqlite.Insert:
    """An insert into ``table`` in the connection's dialect (it has ``on_conflict_do_nothing``)."""
    if connection.dialect.name == "postgresql":
        return sa.dialects.postgresql.insert(table)
    return sa.dialects.sqlite.insert(table)


def lock_names(connection: Connection, names: Iterable[str]) -> None:
    """On PostgreSQL, hold each name's advisory lock for the transaction, in one order, so
    that transactions counting the same names at once count one after the other (SQLite has
    one writer at a time, and one process)."""
    if connection.dialect.name == "postgresql":
        for name in sorted(set(names)):
            connection.execute(sa.select(sa.func.pg_advisory_xact_lock(lock_key(name))))


def lock_report_row(tx: Transaction, table: sa.Table, report_id: int) -> Row[Any] | None:
    """A report's row of ``table`` (chat's reports, the players' reports), locked for the
    transaction: an update that changes nothing takes the write lock first. ``None``: no such
    report."""
    return (
        sql(tx)
        .execute(
            table.update()
            .where(table.c.id == report_id)
            .values(resolved_at=table.c.resolved_at)
            .returning(*table.c)
        )
        .first()
    )


def settle_report_row(
    tx: Transaction, table: sa.Table, report_id: int, at: float, by: str, resolution: str
) -> None:
    """Settle a report's row of ``table``: when, by whom, and the note."""
    sql(tx).execute(
        table.update()
        .where(table.c.id == report_id)
        .values(resolved_at=at, resolved_by=by, resolution=resolution)
    )


class SqlSubject:
    """A subject's SQL store on ``engine`` (the tables store's, :attr:`Store.engine`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def of(cls, tx: Transaction) -> Self:
        """The subject's store of the database a transaction of a SQL store works on (what
        runs in a table's transaction, a rated game's ratings, writes with it)."""
        return cls(sql(tx).engine)

    @contextmanager
    def begin(self) -> Iterator[Transaction]:
        """A transaction, committed when the block ends (rolled back on an error)."""
        with self.engine.begin() as connection:
            yield connection

    @contextmanager
    def reading(self) -> Iterator[Transaction]:
        """A connection to read with (what it reads is not kept from others)."""
        with self.engine.connect() as connection:
            yield connection
