"""Reading tables from the SQL store: a table as stored (a few hundred at once), the lobby's
lists, the tables to resume at start-up and the running rated games."""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from fanfold.server.store.records import (
    RESUME,
    OpenTable,
    StoredSeat,
    StoredTable,
    TableSummary,
)
from fanfold.server.store.schema import actions, seats, tables
from fanfold.server.store.sql_base import SqlBase

#: The most tables :meth:`TableReads.load_many` reads in one query (a bound list of ids each).
LOAD_CHUNK = 200


class TableReads(SqlBase):
    """The SQL tables store's reads."""

    def load(self, table_id: str) -> StoredTable | None:
        """The stored table, or ``None`` when there is none by that id."""
        return self.load_many([table_id]).get(table_id)

    def load_many(self, table_ids: Sequence[str]) -> dict[str, StoredTable]:
        """The stored tables of ``table_ids`` by id (an id with no table is left out), read
        in three queries for every :data:`LOAD_CHUNK` of them: the tables a killed process
        played reach their stand-in at once, and one read each kept them waiting in line."""
        found: dict[str, StoredTable] = {}
        wanted = list(dict.fromkeys(table_ids))
        with self.engine.connect() as connection:
            for start in range(0, len(wanted), LOAD_CHUNK):
                found.update(_load_chunk(connection, wanted[start : start + LOAD_CHUNK]))
        return found

    def recent(self, limit: int = 20) -> list[TableSummary]:
        """The most recently changed tables opened to the public (``listed``), newest first."""
        moves = (
            sa.select(actions.c.table_id, sa.func.count().label("moves"))
            .group_by(actions.c.table_id)
            .subquery()
        )
        query = (
            sa.select(tables.c.id, tables.c.game, tables.c.outcome, tables.c.updated, moves.c.moves)
            .select_from(tables.outerjoin(moves, moves.c.table_id == tables.c.id))
            .where(tables.c.listed.is_(True))
            .order_by(tables.c.updated.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
            players: dict[str, list[str]] = {row.id: [] for row in rows}
            if players:
                for seat_row in connection.execute(
                    sa.select(seats.c.table_id, seats.c.player)
                    .where(seats.c.table_id.in_(list(players)))
                    .order_by(seats.c.table_id, seats.c.seat)
                ):
                    players[seat_row.table_id].append(seat_row.player)
        return [
            TableSummary(
                row.id,
                row.game,
                tuple(players[row.id]),
                int(row.moves or 0),
                row.outcome is not None,
                float(row.updated),
            )
            for row in rows
        ]

    def open_tables(self, limit: int = 50) -> list[OpenTable]:
        """Listed unfinished tables with a person's seat nobody holds yet, newest first: each
        its id, game, options, seats and seats free (the caller keeps those opened
        ``open``)."""
        free = (
            sa.select(seats.c.table_id, sa.func.count().label("free"))
            .where(
                seats.c.player == "human",
                seats.c.token_hash.is_(None),
                seats.c.invite_hash.is_(None),
            )
            .group_by(seats.c.table_id)
            .subquery()
        )
        count = (
            sa.select(seats.c.table_id, sa.func.count().label("seats"))
            .group_by(seats.c.table_id)
            .subquery()
        )
        query = (
            sa.select(tables.c.id, tables.c.game, tables.c.options, free.c.free, count.c.seats)
            .join(free, free.c.table_id == tables.c.id)
            .join(count, count.c.table_id == tables.c.id)
            .where(tables.c.listed.is_(True), tables.c.outcome.is_(None))
            .order_by(tables.c.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            (row.id, row.game, json.loads(row.options), int(row.seats), int(row.free))
            for row in rows
        ]

    def to_resume(self, since: float | None = None) -> list[tuple[str, bool | None]]:
        """The unfinished tables changed since ``since`` (a ``time.time()``; ``None``: all),
        each with its stored :data:`RESUME` (``None``: stored before it existed)."""
        query = sa.select(tables.c.id, tables.c.options).where(tables.c.outcome.is_(None))
        if since is not None:
            query = query.where(tables.c.updated >= since)
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        found: list[tuple[str, bool | None]] = []
        for row in rows:
            options = json.loads(row.options)
            resume = options.get(RESUME) if isinstance(options, dict) else None
            found.append((row.id, resume if isinstance(resume, bool) else None))
        return found

    def running_rated(self, game: str) -> list[StoredTable]:
        """The unfinished rated tables of ``game`` (a game id), as stored: a table opened
        from a record or a position is checked against them, so that no running rated game
        can be taken to a table with analysis. The options' text narrows the search (they
        are stored by ``json.dumps``); each table's own options decide."""
        query = sa.select(tables.c.id).where(
            tables.c.game == game,
            tables.c.outcome.is_(None),
            tables.c.options.like('%"rated": true%'),
        )
        with self.engine.connect() as connection:
            ids = [row.id for row in connection.execute(query)]
        found = self.load_many(ids)
        return [table for table in found.values() if table.options.get("rated") is True]

    def unfinished(self) -> list[str]:
        """The ids of tables whose game has not ended (resumed at start-up)."""
        with self.engine.connect() as connection:
            return [
                row.id
                for row in connection.execute(
                    sa.select(tables.c.id).where(tables.c.outcome.is_(None))
                )
            ]


def _load_chunk(connection: Connection, chunk: Sequence[str]) -> dict[str, StoredTable]:
    """The stored tables of ``chunk`` (at most :data:`LOAD_CHUNK` ids) by id, in three
    queries: the tables, their seats, their actions."""
    rows = connection.execute(tables.select().where(tables.c.id.in_(chunk))).all()
    present = [row.id for row in rows]
    if not present:
        return {}
    seats_of: dict[str, list[StoredSeat]] = {table_id: [] for table_id in present}
    for r in connection.execute(
        seats.select().where(seats.c.table_id.in_(present)).order_by(seats.c.table_id, seats.c.seat)
    ):
        seats_of[r.table_id].append(
            StoredSeat(r.seat, r.player, r.token_hash, r.invite_hash, r.account_id)
        )
    actions_of: dict[str, list[tuple[int, str]]] = {table_id: [] for table_id in present}
    for r in connection.execute(
        sa.select(actions.c.table_id, actions.c.seat, actions.c.text)
        .where(actions.c.table_id.in_(present))
        .order_by(actions.c.table_id, actions.c.number)
    ):
        actions_of[r.table_id].append((int(r.seat), str(r.text)))
    return {
        row.id: StoredTable(
            id=row.id,
            game=row.game,
            config=json.loads(row.config),
            seed=int(row.seed),
            start_position=row.start_position,
            version=int(row.version),
            allow_undo=bool(row.allow_undo),
            options=json.loads(row.options),
            outcome=json.loads(row.outcome) if row.outcome is not None else None,
            created=float(row.created),
            updated=float(row.updated),
            seats=tuple(seats_of[row.id]),
            actions=tuple(actions_of[row.id]),
            creator_hash=row.creator_hash,
            listed=bool(row.listed),
        )
        for row in rows
    }
