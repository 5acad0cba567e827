"""A review step's moves stored by the review worker itself, in the reviews' SQLite file
(:mod:`fanfold.server.store.review_file`), so that the server's process writes none of them.

:func:`store_step` is :meth:`~fanfold.server.store.protocols.ReviewStore.add_moves` for the
review worker's process: one transaction on the reviews' file that extends the holder's lease
only while it still holds the review (the same conditional ``UPDATE``: the review running and
its owner the one named), then adds the moves (a move stored already is kept), or stores
nothing where the review was taken over. The moves come already made into JSON text
(:func:`entry_rows`, before the transaction), written by one ``executemany`` with
:mod:`sqlite3`: no ORM, no statement compiled by SQLAlchemy. Each store opens its own
connection and closes it after (a fraction of a millisecond of the worker's, against a step's
tenth of a second or more), so no connection outlives the server that started the worker, nor
holds a file that a restore replaced. The worker holds the file's write lock for the
transaction only; the server's reads of the file (write-ahead logging) never wait for it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from fanfold.core.config import JSONObject

#: Seconds a worker's write waits for the reviews' file's write lock (held by the server's
#: claim, lease or end of a review, each a millisecond or so) before it fails.
BUSY_SECONDS = 30.0

_UPDATE = (
    "UPDATE reviews SET lease_until = ?, updated = ? "
    "WHERE table_id = ? AND version = ? AND state = 'running' AND owner = ?"
)
_INSERT = (
    "INSERT INTO review_moves (table_id, version, number, entry) VALUES (?, ?, ?, ?) "
    "ON CONFLICT DO NOTHING"
)


@dataclass(frozen=True)
class StepWrite:
    """What a worker's store of a step did: ``stored`` (false: the review was taken over,
    nothing stored), the seconds it waited for the file's write lock and the seconds its
    transaction took after that."""

    stored: bool
    waited: float
    took: float


def entry_rows(entries: Iterable[JSONObject]) -> list[tuple[int, str]]:
    """Each judged move's number and its text as the reviews' file keeps it, by number."""
    rows = [(int(str(entry["number"])), json.dumps(entry, sort_keys=True)) for entry in entries]
    return sorted(rows)


def _connection(path: str) -> sqlite3.Connection:
    if not Path(path).exists():  # never make a file: the server opened (made) it
        raise FileNotFoundError(f"the reviews' file {path} does not exist")
    connection = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    connection.execute("PRAGMA synchronous=NORMAL")  # as the server's: durable across kills
    return connection


def store_step(
    path: str,
    table_id: str,
    version: int,
    owner: str,
    rows: Sequence[tuple[int, str]],
    now: float,
    lease: float,
) -> StepWrite:
    """Store the judged moves ``rows`` (:func:`entry_rows`) of ``table_id``'s review in the
    reviews' file at ``path`` and extend ``owner``'s lease to ``now + lease``, in one
    transaction, only while ``owner`` holds the review (see the module)."""
    connection = _connection(path)
    try:
        asked = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")  # the write lock now, or wait for it here
        began = time.perf_counter()
        try:
            changed = connection.execute(_UPDATE, (now + lease, now, table_id, version, owner))
            stored = changed.rowcount == 1
            if stored and rows:
                connection.executemany(
                    _INSERT, [(table_id, version, number, text) for number, text in rows]
                )
            connection.execute("COMMIT" if stored else "ROLLBACK")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        return StepWrite(stored, began - asked, time.perf_counter() - began)
    finally:
        connection.close()


__all__ = ["BUSY_SECONDS", "StepWrite", "entry_rows", "store_step"]
