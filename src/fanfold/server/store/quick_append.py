"""A group commit of one action a table on PostgreSQL as one statement (:data:`QUICK_APPEND`),
sent by the store's own thread (:meth:`fanfold.server.store.Store.append_many`) or from the
event loop (:class:`fanfold.server.store.appender.Appender`)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from fanfold.server.store.records import AppendRow

#: A group commit of one action a table on PostgreSQL as one statement (one round trip): each
#: action is inserted unless its number is stored already, and only the tables whose action went
#: in get their new version and options (a single statement is atomic, and each table has one
#: row, so a refused table has nothing of its own to take back); it answers the tables stored.
#: The rows come as six arrays (:func:`quick_append_parameters`), so the text is the same for
#: any number of rows and PostgreSQL plans it once a connection.
QUICK_APPEND = (
    "WITH new AS (SELECT * FROM unnest(%s::varchar[], %s::integer[], %s::integer[], "
    "%s::varchar[], %s::integer[], %s::text[]) AS n (table_id, number, seat, text, version, "
    "options)), "
    "stored AS (INSERT INTO actions (table_id, number, seat, text) "
    "SELECT table_id, number, seat, text FROM new "
    "ON CONFLICT DO NOTHING RETURNING table_id), "
    "touched AS (UPDATE tables SET version = new.version, updated = %s, "
    "outcome = NULL, options = coalesce(new.options, tables.options) FROM new "
    "WHERE tables.id = new.table_id AND new.table_id IN (SELECT table_id FROM stored)) "
    "SELECT table_id FROM stored"
)


def fits_one_statement(rows: Sequence[AppendRow]) -> bool:
    """Whether ``rows`` may be stored by :data:`QUICK_APPEND`: a row per table (as the hub's
    group commits have: a table has one action in flight at most), no game's end among them
    (an end may change the lobby, or a rating)."""
    return all(row.outcome is None and row.on_end is None for row in rows) and len(
        {row.table_id for row in rows}
    ) == len(rows)


def quick_append_parameters(rows: Sequence[AppendRow]) -> tuple[object, ...]:
    """:data:`QUICK_APPEND`'s parameters for ``rows``: a list per column, then the time."""
    return (
        [row.table_id for row in rows],
        [row.number for row in rows],
        [row.seat for row in rows],
        [row.text for row in rows],
        [row.version for row in rows],
        [json.dumps(row.options) if row.options is not None else None for row in rows],
        time.time(),
    )


def not_stored(rows: Sequence[AppendRow], stored: Sequence[Sequence[object]]) -> set[str]:
    """The tables of ``rows`` that :data:`QUICK_APPEND` did not store (its answer
    ``stored``)."""
    return {row.table_id for row in rows} - {str(found[0]) for found in stored}
