"""The store's writes of actions: :class:`Commits`, a group commit off the event loop.

An action is stored before anyone hears of it (:meth:`Commits.store_played`). The writes run
in the store's own thread (:attr:`Commits.writer`), one at a time, never blocking the event
loop: on PostgreSQL a commit is a few round trips to the database, which would hold up every
table of the process. While one write is in flight, the rows of every other table queue and
are committed together by the next; where there is an
:class:`~fanfold.server.store.appender.Appender` (a server on PostgreSQL), a batch's actions that
end no game are one statement sent from the event loop instead.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TypeVar

from fanfold.play.table import Played
from fanfold.server.clocks import advance, credited
from fanfold.server.hub.basics import (
    MOVED_ON,
    other_side,
    rating_of,
    settled,
    stored_options,
)
from fanfold.server.hub.outage import Outage
from fanfold.server.live import LiveTable, StorageError, storage_failure
from fanfold.server.logs import about
from fanfold.server.metrics import Metrics, since_ns
from fanfold.server.ownership import ElsewhereError
from fanfold.server.refusals import refusal
from fanfold.server.store import AppendRow, fits_one_statement
from fanfold.server.store.appender import Appender
from fanfold.server.store.protocols import TableStore

log = logging.getLogger(__name__)

_T = TypeVar("_T")

#: The most seconds a write of the store's that no player waits for waits for the live
#: commits (:meth:`Commits.after_live`); past it, it is queued behind the batch being written.
AFTER_LIVE_LIMIT = 1.0

#: What one batch's writes answer: the tables the store refused (another process stored
#: their action of that number first), and the error of each table whose write failed.
Answer = tuple[set[str], dict[str, BaseException]]


class Commits:
    """The actions of every table, stored in ``store`` (and, for most of them, by
    ``appender``), counted and timed in ``metrics``; ``outage`` keeps when the store refused,
    and ``let_go`` drops a table from memory when another process stored its next action
    first."""

    def __init__(
        self,
        store: TableStore,
        *,
        appender: Appender | None,
        metrics: Metrics,
        outage: Outage,
        let_go: Callable[[LiveTable], None],
    ) -> None:
        self.store = store
        #: Stores most group commits from the event loop, on PostgreSQL (see :meth:`commit`).
        self.appender = appender
        self.metrics = metrics
        self.outage = outage
        self.let_go = let_go
        #: The store's writes of actions (:meth:`commit`): one thread, off the event loop.
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self._pending: list[tuple[AppendRow, asyncio.Future[None]]] = []
        self._writing: asyncio.Task[None] | None = None
        #: When the group commit of each row being written began (perf_counter_ns), until its
        #: table reads it (:meth:`_time_stages`).
        self._began: dict[asyncio.Future[None], int] = {}
        #: The most seconds :meth:`after_live` waits for the live commits.
        self.after_live_limit = AFTER_LIVE_LIMIT

    async def store_played(self, live: LiveTable, played: Played) -> None:
        """Store ``played`` (just submitted to ``live``), or take it back from the table and
        raise :class:`StorageError` when the store fails."""
        table = live.table
        before = live.options
        offer = before.draw_offer
        if offer is not None and other_side(table, offer, played.seat):
            # Another side played on: the draw offered is declined.
            live.options = replace(before, draw_offer=None)
        clocks = before.clocks
        control = before.time_control
        outage = self.outage.since
        if clocks is not None and outage is not None:  # not charged, if this write goes in
            clocks = credited(clocks, time.time() - outage)
        if clocks is not None and control is not None:
            # The clocks move with the action, stored in its own transaction.
            # A clock runs only for a person's seat somebody holds (an invited friend's
            # starts once the seat is taken: Seating._start_seated_clock).
            held = [
                entry.is_human and live.seat_hashes[n] is not None
                for n, entry in enumerate(table.seats)
            ]
            now = time.time()
            moved = advance(clocks, control.to_json(), played.seat, table.decider, held, now)
            live.options = replace(live.options, clocks=moved)
        outcome = table.outcome
        row = AppendRow(
            live.id,
            played.number,
            played.seat,
            played.text,
            table.version,
            outcome.to_json() if outcome is not None else None,
            stored_options(table, live.options),
            on_end=rating_of(live),
        )
        queued = time.perf_counter_ns()
        future = self.commit(row)
        try:
            try:
                await settled(future)
            finally:
                began = self._began.pop(future, None)
            self._time_stages(queued, began)
        except asyncio.CancelledError:
            # Stopped while its row was written (settled waited for the write): the table
            # keeps the action only if the store does.
            if future.exception() is not None:
                table.take_back()
                live.options = before
            raise
        except ElsewhereError:
            table.take_back()
            live.options = before
            self.let_go(live)  # another process stored this table's next action first
            raise
        except Exception as error:
            table.take_back()
            live.options = before
            self.outage.refused()
            raise storage_failure("store.move", error) from None
        self.metrics.actions.inc()
        if outage is not None:
            self.outage.answers(skip=live)  # this table's own write carried its time back

    def _time_stages(self, queued: int, began: int | None) -> None:
        """Observe a stored row's wait for its group commit (from ``queued`` to ``began``, each
        a :func:`time.perf_counter_ns`; ``began`` None: not known) and that commit's time to
        now."""
        if began is None:
            return
        stage = self.metrics.act_stage_seconds
        stage.labels("queue").observe(max(0, began - queued) / 1e9)
        stage.labels("commit").observe(since_ns(began))

    def commit(self, row: AppendRow) -> asyncio.Future[None]:
        """Queue ``row`` for the store; the future is done once it is committed (or failed
        with what the write raised, or with :class:`ElsewhereError` when the store refused the
        row: another process stored the table's action of that number first).

        The writes run in the store's own thread (:attr:`writer`), one at a time, never
        blocking the event loop: on PostgreSQL a commit is a few round trips to the database,
        which would hold up every table of the process. Where there is an :attr:`appender`
        (a server on PostgreSQL), a batch's actions that end no game are one statement sent
        from the event loop instead, awaited, beside the thread's part of the batch
        (:mod:`fanfold.server.store.appender`). While one write is in flight, the rows of every
        other table queue and are committed together by the next (a group commit); a rated
        game's end is committed alone, so that its transaction locks only its own players'
        ratings (in one order: :mod:`fanfold.server.ratings`). A table has one row in flight
        at most (its lock is held until the row is committed), so its rows are stored in
        order."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((row, future))
        if self._writing is None:
            self._writing = loop.create_task(self._write_pending())
        return future

    async def _write_pending(self) -> None:
        """Write the queued rows, batch after batch, until none is left."""
        batch: list[tuple[AppendRow, asyncio.Future[None]]] = []
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                began = time.perf_counter_ns()
                for _, future in batch:  # when each row's commit began (store_played)
                    self._began[future] = began
                rows = [row for row, _ in batch]
                if self.appender is None:  # the store's thread alone: its answer awaited
                    # as it is, a turn of the event loop after the write (a stopped task
                    # leaves the write running, as the shield does)
                    names = " ".join(dict.fromkeys(row.table_id for row in rows))
                    loop = asyncio.get_running_loop()
                    refused, errors = await loop.run_in_executor(
                        self.writer, self._write, rows, names
                    )
                else:
                    refused, errors = await asyncio.shield(self._write_batch(rows))
                for row, future in batch:
                    if future.done():
                        continue
                    if row.table_id in errors:
                        future.set_exception(errors[row.table_id])
                    elif row.table_id in refused:
                        future.set_exception(ElsewhereError(MOVED_ON))
                    else:
                        future.set_result(None)
                batch = []
        finally:
            self._writing = None
            # Only when this task is stopped with rows in flight (the server stops): they are
            # not acknowledged.
            for _, future in [*batch, *self._pending]:
                if not future.done():
                    future.set_exception(StorageError(refusal("store.stopping")))
            self._pending = []

    async def _write_batch(self, rows: list[AppendRow]) -> Answer:
        """Store one batch: the rows :attr:`appender` takes (one a table, no game's end) from
        the event loop, the others in the store's thread (:meth:`_write`), both at once;
        returns the tables refused and the error of each table that failed."""
        quick: list[AppendRow] = []
        rest = rows
        if self.appender is not None:
            quick = [row for row in rows if row.outcome is None and row.on_end is None]
            if fits_one_statement(quick):
                rest = [row for row in rows if row.outcome is not None or row.on_end is not None]
            else:
                quick = []
        jobs: list[Awaitable[Answer]] = []
        if quick:
            jobs.append(self._write_quick(quick))
        if rest:
            # The write's lines name every table it stores (fanfold.server.logs).
            names = " ".join(dict.fromkeys(row.table_id for row in rest))
            loop = asyncio.get_running_loop()
            jobs.append(loop.run_in_executor(self.writer, self._write, rest, names))
        refused: set[str] = set()
        errors: dict[str, BaseException] = {}
        for found, failed in await asyncio.gather(*jobs):
            refused |= found
            errors.update(failed)
        return refused, errors

    async def _write_quick(self, rows: list[AppendRow]) -> Answer:
        """Store ``rows`` with :attr:`appender`; the same answer as :meth:`_write`."""
        assert self.appender is not None
        started = time.perf_counter()
        with about(" ".join(row.table_id for row in rows)):
            try:
                refused = await self.appender.append(rows)
            except Exception as error:
                log.warning("%d actions could not be stored: %s", len(rows), error)
                return set(), {row.table_id: error for row in rows}
            took = time.perf_counter() - started
            log.debug("%d actions stored in %.1f ms", len(rows), took * 1e3)
        self.metrics.store_seconds.observe(took)
        return refused, {}

    def _write(self, rows: list[AppendRow], names: str) -> Answer:
        """In the store's thread: store ``rows`` (the rated games' ends each alone, the rest
        in one transaction); returns the tables the store refused and the error of each table
        whose transaction failed (nothing of such a table is stored)."""
        refused: set[str] = set()
        errors: dict[str, BaseException] = {}
        shared = [row for row in rows if row.on_end is None]
        groups = [[row] for row in rows if row.on_end is not None]
        if shared:
            groups.append(shared)
        with about(names):
            for group in groups:
                started = time.perf_counter()
                try:
                    refused |= self.store.append_many(group)
                except Exception as error:
                    log.warning("%d actions could not be stored: %s", len(group), error)
                    errors.update((row.table_id, error) for row in group)
                    continue
                took = time.perf_counter() - started
                log.debug("%d actions stored in %.1f ms", len(group), took * 1e3)
                self.metrics.store_seconds.observe(took)
        return refused, errors

    async def after_live(self, write: Callable[[], _T]) -> _T:
        """``write()`` (a write of the store's that no player waits for: an engine review's
        moves, its claim, its lease, where the reviews share the store's database: a SQLite
        database in memory; a SQLite file keeps them in a file of its own,
        :mod:`fanfold.server.store.review_file`) run in the store's thread at the lowest
        priority: once
        no live row is queued or being written, so it never delays a live commit already
        waiting, and never beside one. On SQLite the file has one writer: a transaction of
        another thread that held its lock made a live commit that met it sleep in SQLite's
        busy handler (1 ms, then 2, 5, ...) and try again. In the store's own thread the two
        take turns instead; a live commit that comes while ``write`` runs waits for that one
        short transaction only. On a server whose live commits never pause, it waits
        :attr:`after_live_limit` seconds at most, then goes behind the batch being written.
        Its wait for the live writes and its own time are observed in :attr:`metrics`
        (``fanfold_review_write_wait_seconds``, ``fanfold_review_write_seconds``)."""
        asked = time.perf_counter()
        deadline = asked + self.after_live_limit
        while self._writing is not None:  # live rows queued or in flight: they go first
            left = deadline - time.perf_counter()
            if left <= 0:  # never quiet: behind the batch being written, before the next
                break
            await asyncio.wait({self._writing}, timeout=left)
        started = time.perf_counter()
        self.metrics.review_write_wait_seconds.observe(started - asked)

        def timed() -> _T:
            began = time.perf_counter()
            try:
                return write()
            finally:
                self.metrics.review_write_seconds.observe(time.perf_counter() - began)

        return await asyncio.get_running_loop().run_in_executor(self.writer, timed)

    async def flush(self, timeout: float = 10.0) -> None:
        """Wait (at most ``timeout`` seconds) for the actions being stored (the server
        stops)."""
        if self._writing is not None:
            await asyncio.wait({self._writing}, timeout=timeout)


__all__ = ["Commits"]
