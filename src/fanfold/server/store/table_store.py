"""The server's storage of tables, seats and actions in SQL, through SQLAlchemy.

A game is stored as its record (game id, config, seed, start position, action texts), the seats
(who plays each, and the hash of the secret token that holds it) and a version number. Every
action is committed before the server acknowledges it, so a restart (even a kill) loses nothing
that a player was told had happened. SQLite is the default (one file, nothing to install);
PostgreSQL works by URL (``postgresql+psycopg://user@host/db``). The schema is created and
upgraded by Alembic migrations (:mod:`fanfold.server.migrations`) when the store opens.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

import sqlalchemy as sa
import sqlalchemy.dialects.postgresql
import sqlalchemy.dialects.sqlite
from sqlalchemy.engine import Connection

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError
from fanfold.server.store.beat_store import BeatWrites
from fanfold.server.store.protocols import TableStore
from fanfold.server.store.quick_append import (
    QUICK_APPEND,
    fits_one_statement,
    not_stored,
    quick_append_parameters,
)
from fanfold.server.store.records import LISTED, AppendRow, InTransaction, TablePlan
from fanfold.server.store.schema import actions, metadata, seats, tables
from fanfold.server.store.seat_store import SeatWrites
from fanfold.server.store.table_reads import TableReads


class Store(SeatWrites, TableReads, BeatWrites, TableStore):
    """Tables, seats and actions in one SQL database: the SQL
    :class:`~fanfold.server.store.protocols.TableStore`. The other subjects' SQL stores
    (accounts, ratings, moderation, fair play) work on its :attr:`engine`.

    Args:
        url: a SQLAlchemy URL (``sqlite:///path.db``, ``postgresql+psycopg://...``).

    Raises:
        StoreOpenError: the store cannot be opened or its schema brought up to date (a
            damaged file, an unknown database, a folder that cannot be made); a SQLite file's
            missing folder is made.
    """

    # --------------------------------------------------------------- writing
    def create(self, table_id: str, plan: TablePlan, options: JSONObject) -> None:
        """Store a new table as planned, with its seats (and, for a loaded record, its
        actions and, when the record's game is over, its ``outcome``) and its ``options``."""
        now = time.time()
        with self._begin() as connection:
            connection.execute(
                tables.insert().values(
                    id=table_id,
                    game=plan.game,
                    config=json.dumps(plan.config),
                    seed=str(plan.seed),
                    start_position=plan.start_position,
                    version=plan.version,
                    allow_undo=plan.allow_undo,
                    options=json.dumps(options),
                    outcome=json.dumps(plan.outcome) if plan.outcome is not None else None,
                    created=now,
                    updated=now,
                    creator_hash=plan.creator_hash,
                    listed=plan.listed,
                )
            )
            connection.execute(
                seats.insert(),
                [
                    {
                        "table_id": table_id,
                        "seat": seat.seat,
                        "player": seat.player,
                        "token_hash": seat.token_hash,
                        "invite_hash": seat.invite_hash,
                        "account_id": seat.account_id,
                    }
                    for seat in plan.stored_seats()
                ],
            )
            if plan.actions_done:
                connection.execute(
                    actions.insert(),
                    [
                        {"table_id": table_id, "number": n + 1, "seat": seat, "text": text}
                        for n, (seat, text) in enumerate(plan.actions_done)
                    ],
                )
            if plan.listed:
                self._lobby_changed(connection)
        if plan.listed:
            self._tell_lobby()

    def _refused(self, table_id: str, number: int) -> Exception:
        # As the actions' primary key refuses it outside a group commit.
        return sa.exc.IntegrityError(
            "INSERT INTO actions",
            {"table_id": table_id, "number": number},
            ValueError(f"table {table_id} has an action {number} already"),
        )

    def append_many(self, rows: Sequence[AppendRow]) -> set[str]:
        """Store several tables' new actions in one transaction (a group commit); returns the
        ids of the tables refused, whose rows were not stored.

        A table is refused when one of its action numbers is stored already (another server
        process stored it: the table moved on elsewhere, see :mod:`fanfold.server.ownership`);
        its rows are left out and its version kept, and the other tables of the commit are
        stored as usual. Any other error stores nothing.
        """
        if not rows:
            return set()
        if self._one_statement_fits(rows):
            return self._append_in_one_statement(rows)
        now = time.time()
        with self._begin() as connection:
            insert = (
                sa.dialects.postgresql.insert(actions)
                if connection.dialect.name == "postgresql"
                else sa.dialects.sqlite.insert(actions)
            )
            stored = connection.execute(
                insert.on_conflict_do_nothing().returning(actions.c.table_id, actions.c.number),
                [
                    {"table_id": r.table_id, "number": r.number, "seat": r.seat, "text": r.text}
                    for r in rows
                ],
            ).all()
            kept = {(row.table_id, row.number) for row in stored}
            refused = {r.table_id for r in rows if (r.table_id, r.number) not in kept}
            for table_id in refused:  # none of a refused table's rows stays
                numbers = [n for (t, n) in kept if t == table_id]
                if numbers:
                    connection.execute(
                        actions.delete().where(
                            actions.c.table_id == table_id, actions.c.number.in_(numbers)
                        )
                    )
            latest: dict[str, AppendRow] = {}
            for row in rows:
                if row.table_id not in refused:
                    latest[row.table_id] = row  # a table's last row carries its newest version
            if latest:
                connection.execute(
                    tables.update()
                    .where(tables.c.id == sa.bindparam("table"))
                    .values(
                        version=sa.bindparam("new_version"),
                        updated=sa.bindparam("now"),
                        outcome=sa.bindparam("new_outcome"),
                        options=sa.func.coalesce(
                            sa.bindparam("new_options", type_=sa.Text), tables.c.options
                        ),
                    ),
                    [
                        {
                            "table": row.table_id,
                            "new_version": row.version,
                            "now": now,
                            "new_outcome": json.dumps(row.outcome)
                            if row.outcome is not None
                            else None,
                            "new_options": json.dumps(row.options)
                            if row.options is not None
                            else None,
                        }
                        for row in latest.values()
                    ],
                )
            for row in rows:
                if row.on_end is not None and row.table_id not in refused:
                    row.on_end(connection)
            # A listed game that ended leaves the lobby's open tables.
            ended = any(
                row.outcome is not None and row.options and row.options.get(LISTED)
                for row in latest.values()
            )
            if ended:
                self._lobby_changed(connection)
        if ended:
            self._tell_lobby()
        return refused

    def _one_statement_fits(self, rows: Sequence[AppendRow]) -> bool:
        """Whether :meth:`append_many` may store ``rows`` with one statement
        (:data:`QUICK_APPEND`): on PostgreSQL, when :func:`fits_one_statement`."""
        return self.engine.dialect.name == "postgresql" and fits_one_statement(rows)

    def _append_in_one_statement(self, rows: Sequence[AppendRow]) -> set[str]:
        """:meth:`append_many` on PostgreSQL as one statement (:data:`QUICK_APPEND`), so one
        round trip to the database besides the pool's check of the connection, in place of
        five; returns the refused tables. (A running server makes these commits from its
        event loop instead, :class:`fanfold.server.store.appender.Appender`.)"""
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            stored = connection.exec_driver_sql(QUICK_APPEND, quick_append_parameters(rows)).all()
        return not_stored(rows, stored)

    def truncate(
        self, table_id: str, keep: int, version: int, *, options: JSONObject | None = None
    ) -> None:
        """Keep only the first ``keep`` actions (an undo) and store the new version (and the
        table's ``options``, unless ``None``)."""
        with self._begin() as connection:
            connection.execute(
                actions.delete().where(actions.c.table_id == table_id, actions.c.number > keep)
            )
            self._touch(connection, table_id, version, None)
            if options is not None:
                self._set_options(connection, table_id, options)

    def rule(
        self,
        table_id: str,
        version: int,
        outcome: JSONObject,
        options: JSONObject,
        on_end: InTransaction | None = None,
    ) -> None:
        """Store a table-level ending (:mod:`fanfold.core.rulings`): the table's new
        ``version``, its ``outcome`` and its ``options`` (which carry the ruling), with
        ``on_end`` (a rated game's ratings) in the same transaction.

        Raises:
            FanfoldError: the table is not at ``version - 1`` in the store (another process
                changed it); nothing is stored.
        """
        with self._begin() as connection:
            changed = connection.execute(
                tables.update()
                .where(tables.c.id == table_id, tables.c.version == version - 1)
                .values(
                    version=version,
                    outcome=json.dumps(outcome),
                    options=json.dumps(options),
                    updated=time.time(),
                )
            )
            if changed.rowcount != 1:
                raise FanfoldError(f"table {table_id} changed elsewhere; nothing was stored")
            if on_end is not None:
                on_end(connection)
            if options.get(LISTED):
                self._lobby_changed(connection)
        if options.get(LISTED):
            self._tell_lobby()

    def set_options(self, table_id: str, options: JSONObject) -> None:
        """Store a table's options (the hub's :data:`RESUME`, written after start-up)."""
        with self._begin() as connection:
            self._set_options(connection, table_id, options)

    def expire(self, before: float, keep: Sequence[str] = ()) -> list[str]:
        """Delete every unfinished table whose last change (its ``updated`` time) is before
        ``before`` (a ``time.time()``), with its seats and actions, except the ids in
        ``keep``; returns the ids deleted. Finished games stay, and so does a rated game once
        a move was played: it never expires unrated (its clock ends it, or a player)."""
        stale = sa.select(tables.c.id).where(
            tables.c.outcome.is_(None),
            tables.c.updated < before,
            sa.or_(tables.c.version == 0, tables.c.options.not_like('%"rated": true%')),
        )
        if keep:
            stale = stale.where(tables.c.id.not_in(list(keep)))
        with self._begin() as connection:
            if connection.dialect.name == "sqlite":
                # A first write takes SQLite's write lock, so no action is stored for one of
                # these tables between choosing them and deleting them.
                connection.execute(actions.delete().where(actions.c.table_id.in_(stale)))
            else:  # the rows chosen stay locked (an action for one waits) until the commit
                stale = stale.with_for_update()
            ids = [row.id for row in connection.execute(stale)]
            if not ids:
                return []
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                for table in reversed(metadata.sorted_tables):
                    if table is tables:
                        continue
                    if "table_id" in table.c:  # every table that belongs to a table
                        connection.execute(table.delete().where(table.c.table_id.in_(chunk)))
                connection.execute(tables.delete().where(tables.c.id.in_(chunk)))
            self._lobby_changed(connection)
        self._tell_lobby()
        return ids

    def _touch(
        self, connection: Connection, table_id: str, version: int, outcome: JSONObject | None
    ) -> None:
        connection.execute(
            tables.update()
            .where(tables.c.id == table_id)
            .values(
                version=version,
                updated=time.time(),
                outcome=json.dumps(outcome) if outcome is not None else None,
            )
        )
