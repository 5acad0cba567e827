"""The daily deal's board from SQL: the finished tables of one deal whose first seat an account
held (:mod:`fanfold.server.daily_board` ranks them)."""

from __future__ import annotations

import json

import sqlalchemy as sa

from fanfold.server.store.records import FinishedGame
from fanfold.server.store.schema import accounts, actions, seats, tables
from fanfold.server.store.sql_common import SqlSubject


class SqlBoard(SqlSubject):
    """The daily board's reads on the engine of a SQL store."""

    def finished_with_seed(self, seed: int) -> list[FinishedGame]:
        """The finished tables dealt with ``seed`` whose first seat an account held: each
        with its game, options, outcome, last change, the account's name and its moves."""
        moves = (
            sa.select(sa.func.count())
            .where(actions.c.table_id == tables.c.id)
            .scalar_subquery()
            .label("moves")
        )
        query = (
            sa.select(
                tables.c.id,
                tables.c.game,
                tables.c.options,
                tables.c.outcome,
                tables.c.updated,
                accounts.c.name,
                moves,
            )
            .join(seats, sa.and_(seats.c.table_id == tables.c.id, seats.c.seat == 0))
            .join(accounts, accounts.c.id == seats.c.account_id)
            .where(tables.c.seed == str(seed), tables.c.outcome.is_not(None))
        )
        with self.engine.connect() as connection:
            return [
                FinishedGame(
                    str(row.id),
                    str(row.game),
                    json.loads(row.options),
                    json.loads(row.outcome),
                    float(row.updated),
                    str(row.name),
                    int(row.moves),
                )
                for row in connection.execute(query)
            ]
