"""A review's writes made by the review worker itself, in the reviews' SQLite file
(:mod:`fanfold.server.store.review_file`), so that the server's process writes none of them
but the review's opening.

* :func:`claim_review` is :meth:`~fanfold.server.store.protocols.ReviewStore.claim` for the
  worker's process (the same conditional ``UPDATE``: open, and nobody else holds it), and
  counts the moves stored already (where the review goes on from).
* :func:`store_step` is :meth:`~fanfold.server.store.protocols.ReviewStore.add_moves`: one
  transaction that extends the holder's lease only while it still holds the review (running,
  its owner the one named), then adds the moves (a move stored already is kept), or stores
  nothing where the review was taken over. Given ``done`` (the game's last step), the same
  transaction closes the review as
  :meth:`~fanfold.server.store.protocols.ReviewStore.finish` does, with the engine, summary and
  deal that ``done`` makes (from the moves stored, where it asks for them).

The moves come already made into JSON text (:func:`entry_rows`, before the transaction),
written by one ``executemany`` with :mod:`sqlite3`: no ORM, no statement compiled by
SQLAlchemy. Each call opens its own connection and closes it after (a fraction of a
millisecond of the worker's, against a step's tenth of a second or more), so no connection
outlives the server that started the worker, nor holds a file that a restore replaced. The
worker holds the file's write lock for the transaction only; the server's reads of the file
(write-ahead logging) never wait for it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fanfold.core.config import JSONObject, JSONValue

#: Seconds a worker's write waits for the reviews' file's write lock (held by the server's
#: opening of a review, or its lease's renewal, each a millisecond or so) before it fails.
BUSY_SECONDS = 30.0

_KEY = "table_id = ? AND version = ?"
_EXTEND = f"UPDATE reviews SET lease_until = ?, updated = ? WHERE {_KEY} AND state = 'running' AND owner = ?"  # noqa: E501
_INSERT = (
    "INSERT INTO review_moves (table_id, version, number, entry) VALUES (?, ?, ?, ?) "
    "ON CONFLICT DO NOTHING"
)
_CLAIM = (
    "UPDATE reviews SET state = 'running', "
    "attempts = CASE WHEN owner = ? THEN attempts ELSE attempts + 1 END, "
    f"owner = ?, lease_until = ?, updated = ? WHERE {_KEY} AND state IN ('pending', 'running') "
    "AND (owner IS NULL OR owner = ? OR lease_until <= ?)"
)
_FINISH = (
    "UPDATE reviews SET state = 'done', engine = ?, summary = ?, deal = ?, updated = ? "
    f"WHERE {_KEY} AND state = 'running' AND owner = ?"
)

#: What closes a review on its last step: made from the moves stored (``None`` where it does
#: not ask for them), its engine, summary and deal.
Done = Callable[[list[JSONObject] | None], tuple[JSONObject, Sequence[JSONValue], Any]]


@dataclass(frozen=True)
class StepWrite:
    """What one of the worker's transactions did: ``stored`` (false: the review was not held,
    nothing written), the seconds it waited for the file's write lock and the seconds it took
    after that."""

    stored: bool
    waited: float
    took: float


@dataclass(frozen=True)
class Claimed:
    """The worker's claim of a review: the claim's write, the review's claims so far
    (``attempts``, this one counted) and the moves stored already (``stored``)."""

    write: StepWrite
    attempts: int
    stored: int


def entry_rows(entries: Iterable[JSONObject]) -> list[tuple[int, str]]:
    """Each judged move's number and its text as the reviews' file keeps it, by number."""
    rows = [(int(str(entry["number"])), json.dumps(entry, sort_keys=True)) for entry in entries]
    return sorted(rows)


def _text(value: object) -> str | None:
    """A JSON column's text, as the SQL review store writes it."""
    return None if value is None else json.dumps(value, sort_keys=True)


@contextmanager
def _written(path: str) -> Iterator[tuple[sqlite3.Connection, float]]:
    """A write transaction on the reviews' file at ``path`` (its write lock taken first), and
    the seconds waited for that lock; committed where the block ends, unless rolled back."""
    if not Path(path).exists():  # never make a file: the server opened (made) it
        raise FileNotFoundError(f"the reviews' file {path} does not exist")
    connection = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    try:
        connection.execute("PRAGMA synchronous=NORMAL")  # as the server's: durable across kills
        asked = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")  # the write lock now, or wait for it here
        waited = time.perf_counter() - asked
        try:
            yield connection, waited
            if connection.in_transaction:
                connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
    finally:
        connection.close()


def claim_review(
    path: str, table_id: str, version: int, owner: str, now: float, lease: float
) -> Claimed | None:
    """Hold ``table_id``'s review for ``owner`` until ``now + lease`` if it is open and nobody
    else holds it (``None``: someone does, or it ended), in the reviews' file at ``path``."""
    with _written(path) as (connection, waited):
        began = time.perf_counter()
        key = (table_id, version)
        taken = connection.execute(_CLAIM, (owner, owner, now + lease, now, *key, owner, now))
        if taken.rowcount != 1:
            connection.execute("ROLLBACK")
            return None
        attempts = connection.execute(f"SELECT attempts FROM reviews WHERE {_KEY}", key)
        counted = connection.execute(f"SELECT count(*) FROM review_moves WHERE {_KEY}", key)
        found = int(attempts.fetchone()[0]), int(counted.fetchone()[0])
    return Claimed(StepWrite(True, waited, time.perf_counter() - began), *found)


def store_step(
    path: str,
    table_id: str,
    version: int,
    owner: str,
    rows: Sequence[tuple[int, str]],
    now: float,
    lease: float,
    done: Done | None = None,
    *,
    read: bool = False,
) -> StepWrite:
    """Store the judged moves ``rows`` (:func:`entry_rows`) of ``table_id``'s review in the
    reviews' file at ``path`` and extend ``owner``'s lease to ``now + lease``, in one
    transaction, only while ``owner`` holds the review; given ``done``, close the review in
    the same transaction with what ``done`` makes (of the moves stored, where ``read``)."""
    with _written(path) as (connection, waited):
        began = time.perf_counter()
        key = (table_id, version)
        extended = connection.execute(_EXTEND, (now + lease, now, *key, owner))
        if extended.rowcount != 1:
            connection.execute("ROLLBACK")
            return StepWrite(False, waited, time.perf_counter() - began)
        if rows:
            connection.executemany(_INSERT, [(*key, number, text) for number, text in rows])
        if done is not None:
            stored = None
            if read:
                entries = connection.execute(
                    f"SELECT entry FROM review_moves WHERE {_KEY} ORDER BY number", key
                )
                stored = [json.loads(entry) for (entry,) in entries]
            engine, summary, deal = done(stored)
            closing = (_text(engine), _text(list(summary)), _text(deal), now, *key, owner)
            connection.execute(_FINISH, closing)
    return StepWrite(True, waited, time.perf_counter() - began)


__all__ = [
    "BUSY_SECONDS",
    "Claimed",
    "Done",
    "StepWrite",
    "claim_review",
    "entry_rows",
    "store_step",
]
