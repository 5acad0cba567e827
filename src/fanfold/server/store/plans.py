"""The plans the database chooses for the store's queries, for the tests and an operator who
checks that a frequent read uses its index: SQLite's ``EXPLAIN QUERY PLAN`` and PostgreSQL's
``EXPLAIN``, one line a step, and the statistics the planner chooses by (``ANALYZE``)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from fanfold.server.store.engine import sql
from fanfold.server.store.records import Transaction


def query_plan(tx: Transaction, query: sa.Select[tuple[object, ...]]) -> list[str]:
    """The steps of the plan of ``query`` in the transaction's database, as it writes them
    (an index used is named in its step)."""
    connection = sql(tx)
    compiled = query.compile(dialect=connection.dialect)
    if connection.dialect.name == "postgresql":
        rows = connection.exec_driver_sql(f"EXPLAIN {compiled}", compiled.params)
        return [str(row[0]) for row in rows]
    parameters = tuple(compiled.params[name] for name in compiled.positiontup or ())
    rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}", parameters)
    return [str(row[-1]) for row in rows]


def refresh_statistics(engine: Engine) -> None:
    """Have the database count its tables' rows and values again (``ANALYZE``), as its own
    maintenance does now and then, so that the plans are those of the data it holds."""
    with engine.begin() as connection:
        connection.exec_driver_sql("ANALYZE")
