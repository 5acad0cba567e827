"""The engines' reviews in a SQLite file of their own, beside the main one.

A SQLite file has one writer at a time. A review's writes (its claim, its moves about once a
second, its lease, its end) in the file of the live tables took the file's write lock while
they ran, so a live commit arriving meanwhile waited behind them. On SQLite the reviews'
tables (``reviews``, ``review_moves``) therefore live in a file of their own,
``<name>-reviews.sqlite3`` beside the main ``<name>.<ext>`` (:func:`review_path`), with its own
engine (its connections and write lock, write-ahead logging as the main file) and, in a
server, its own writer thread (:class:`FileReviews`): a live commit never waits for a review's
write, nor a review's write for a live commit. Every process serving the file pair claims
reviews in the one reviews file, so a job is still held by one process at a time.

Opening a store (:func:`open_review_file`, called by
:class:`~fanfold.server.store.sql_base.SqlBase`) makes the file and its tables, then:

* **moves** the review rows of the main file (those of a release that kept them there) into
  it, committed in the reviews file before they are deleted from the main one: nothing stored
  is lost, and a start stopped between the two moves them again (a review already in the
  reviews file is kept as it is). The main file keeps its (empty) review tables, so the release
  before still serves it;
* **drops the reviews whose game the main file does not hold finished**, as after a restore of
  the reviews file newer than the main one: a review is only ever shown of the game it
  reviewed. A game whose review is missing (a reviews file older than the main one, or lost) is
  reviewed again when it is asked for.

PostgreSQL keeps the reviews in its one database (the same transactions as before), and so
does a SQLite database in memory or named by a URI (``file:...``): :func:`review_path` is
``None`` there.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine

from fanfold.server.store.engine import make_engine, private_file, sqlite_file
from fanfold.server.store.review_store import SqlReviews
from fanfold.server.store.schema import metadata, review_moves, reviews

_T = TypeVar("_T")

#: How the reviews' file is named after the main file's name without its ending.
REVIEW_SUFFIX = "-reviews.sqlite3"
#: The reviews moved out of the main file per pair of transactions.
MOVE_BATCH = 200

#: Each main engine's reviews engine (those with a file of their own).
_ENGINES: weakref.WeakKeyDictionary[Engine, Engine] = weakref.WeakKeyDictionary()


def review_path(url: str) -> Path | None:
    """The reviews' own file beside the SQLite file of ``url``: ``fanfold.db`` keeps them in
    ``fanfold-reviews.sqlite3``. ``None`` where the reviews stay in the store itself
    (PostgreSQL, a SQLite database in memory or named by a URI)."""
    path = sqlite_file(url)
    return None if path is None else path.with_name(path.stem + REVIEW_SUFFIX)


def review_url(url: str) -> str | None:
    """The SQLite URL of :func:`review_path` (``None``: the reviews stay in the store)."""
    path = review_path(url)
    return None if path is None else f"sqlite:///{path}"


def review_engine(engine: Engine) -> Engine:
    """The engine that holds the reviews of the store on ``engine``: its reviews file's, or
    ``engine`` itself."""
    return _ENGINES.get(engine, engine)


def open_review_file(main: Engine, url: str) -> Engine | None:
    """Open (make if missing) the reviews' file of the SQLite store at ``url`` whose engine is
    ``main`` (already migrated): its tables made, the main file's review rows moved into it,
    the reviews of games the main file does not hold finished dropped. ``None``: the reviews
    stay in the store (:func:`review_path`)."""
    path = review_path(url)
    if path is None:
        return None
    private_file(path)  # 0600, as the main file (a new file only)
    engine = make_engine(f"sqlite:///{path}")
    try:
        metadata.create_all(engine, tables=[reviews, review_moves])
        move_reviews(main, engine)
        main_file = main.url.database
        assert main_file is not None
        drop_orphans(path, Path(main_file).expanduser())
    except BaseException:
        engine.dispose()
        raise
    _ENGINES[main] = engine
    return engine


def _keys(table: sa.Table, rows: Sequence[Any]) -> sa.ColumnElement[bool]:
    """Whether a row of ``table`` is of one of the reviews ``rows`` (table id, version)."""
    return sa.tuple_(table.c.table_id, table.c.version).in_(
        [(str(row[0]), int(row[1])) for row in rows]
    )


def move_reviews(main: Engine, target: Engine) -> int:
    """Move the review rows of ``main`` into ``target``, :data:`MOVE_BATCH` reviews (with
    their moves) at a time: each batch committed in ``target`` first (a review already there
    kept as it is), then deleted from ``main``. Returns the reviews moved."""
    moved = 0
    while True:
        with main.connect() as source:
            keys = source.execute(
                sa.select(reviews.c.table_id, reviews.c.version).limit(MOVE_BATCH)
            ).all()
            if not keys:
                return moved
            jobs = [
                dict(row)
                for row in source.execute(sa.select(reviews).where(_keys(reviews, keys))).mappings()
            ]
            moves_key = _keys(review_moves, keys)
            entries = [
                dict(row)
                for row in source.execute(sa.select(review_moves).where(moves_key)).mappings()
            ]
        with target.begin() as connection:
            there = {  # a review already in the reviews' file is newer: kept as it is
                (str(row[0]), int(row[1]))
                for row in connection.execute(
                    sa.select(reviews.c.table_id, reviews.c.version).where(_keys(reviews, keys))
                )
            }
            jobs = [row for row in jobs if (row["table_id"], row["version"]) not in there]
            entries = [row for row in entries if (row["table_id"], row["version"]) not in there]
            # (Ignoring a row there already: two processes starting at once move alike.)
            if jobs:
                connection.execute(sqlite_insert(reviews).on_conflict_do_nothing(), jobs)
            if entries:
                connection.execute(sqlite_insert(review_moves).on_conflict_do_nothing(), entries)
        with main.begin() as connection:
            connection.execute(review_moves.delete().where(moves_key))
            connection.execute(reviews.delete().where(_keys(reviews, keys)))
        moved += len(keys)


def drop_orphans(path: Path, main_file: Path) -> int:
    """Delete from the reviews' file at ``path`` the reviews (and their moves) of tables that
    the main file ``main_file`` does not hold finished; returns how many."""
    connection = sqlite3.connect(path, timeout=30)
    try:
        connection.execute("ATTACH DATABASE ? AS live", (f"{main_file}",))
        with connection:
            orphans = connection.execute(
                "SELECT table_id, version FROM main.reviews AS r WHERE NOT EXISTS "
                "(SELECT 1 FROM live.tables AS t WHERE t.id = r.table_id "
                "AND t.outcome IS NOT NULL)"
            ).fetchall()
            for table_id, version in orphans:
                connection.execute(
                    "DELETE FROM main.review_moves WHERE table_id = ? AND version = ?",
                    (table_id, version),
                )
                connection.execute(
                    "DELETE FROM main.reviews WHERE table_id = ? AND version = ?",
                    (table_id, version),
                )
        connection.execute("DETACH DATABASE live")
    finally:
        connection.close()
    return len(orphans)


class FileReviews(SqlReviews):
    """The reviews in their own file (:func:`open_review_file`), written by a thread of their
    own (:meth:`writes`): one short transaction at a time, on a write lock no live commit
    takes."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        #: The reviews' writes: one thread, neither the event loop nor the live commits'.
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reviews")
        #: Told each write's wait for the writer thread, and its time in it (seconds).
        self.waited: Callable[[float], object] = lambda _: None
        self.took: Callable[[float], object] = lambda _: None

    @property
    def path(self) -> str:
        """The reviews' file (where the review worker stores the steps' moves itself,
        :mod:`fanfold.server.store.review_step_writes`)."""
        database = self.engine.url.database
        assert database is not None
        return database

    async def writes(self, write: Callable[[], _T]) -> _T:
        """``write()`` (a review's claim, moves, lease, end) run in :attr:`writer`, awaited
        (a :class:`~fanfold.server.reviews.Writes`)."""
        asked = time.perf_counter()

        def timed() -> _T:
            began = time.perf_counter()
            self.waited(began - asked)
            try:
                return write()
            finally:
                self.took(time.perf_counter() - began)

        return await asyncio.get_running_loop().run_in_executor(self.writer, timed)

    def close(self) -> None:
        """Stop the writer thread (after the writes queued) and release the connections."""
        with contextlib.suppress(RuntimeError):
            self.writer.shutdown(wait=True)
        self.engine.dispose()
