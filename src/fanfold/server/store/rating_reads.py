"""Reading ratings for the players' pages (leaderboards, profiles, the bot levels' pages, a
table's rating changes and its signed-in players) from SQL."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import sqlalchemy as sa

from fanfold.server.store.engine import sql
from fanfold.server.store.plans import query_plan
from fanfold.server.store.records import RatingChange, RatingRow, Transaction
from fanfold.server.store.schema import (
    accounts,
    rated_games,
    rating_changes,
    ratings,
    seats,
    tables,
)
from fanfold.server.store.sql_common import SqlSubject, record_of

#: Rating changes a player's or a bot level's page reads at most.
HISTORY = 200


class RatingReads(SqlSubject):
    """The reads of the ratings' SQL store."""

    def family_ratings(self, tx: Transaction, family: str) -> list[RatingRow]:
        """The family's ratings moved by a rated game, best first (then by player key)."""
        rows = sql(tx).execute(
            sa.select(ratings)
            .where(ratings.c.family == family, ratings.c.games > 0)
            .order_by(ratings.c.mu.desc(), ratings.c.player)
        )
        return [record_of(RatingRow, row) for row in rows]

    def unplayed_bots(self, tx: Transaction, family: str) -> list[RatingRow]:
        """The family's bot levels' rows that no rated game has moved yet."""
        rows = sql(tx).execute(
            sa.select(ratings).where(
                ratings.c.family == family,
                ratings.c.games == 0,
                ratings.c.player.startswith("bot:"),
            )
        )
        return [record_of(RatingRow, row) for row in rows]

    def rating(self, tx: Transaction, family: str, player: str) -> RatingRow | None:
        """One player's rating in a family."""
        row = (
            sql(tx)
            .execute(
                sa.select(ratings).where(ratings.c.family == family, ratings.c.player == player)
            )
            .first()
        )
        return None if row is None else record_of(RatingRow, row)

    def ratings_of(self, tx: Transaction, family: str, players: Sequence[str]) -> list[RatingRow]:
        """The ratings of ``players`` in a family (those that have one)."""
        rows = sql(tx).execute(
            sa.select(ratings).where(ratings.c.family == family, ratings.c.player.in_(players))
        )
        return [record_of(RatingRow, row) for row in rows]

    def player_ratings(self, tx: Transaction, player: str) -> list[RatingRow]:
        """A player's ratings in every family, by family."""
        rows = sql(tx).execute(
            sa.select(ratings).where(ratings.c.player == player).order_by(ratings.c.family)
        )
        return [record_of(RatingRow, row) for row in rows]

    def history(
        self, tx: Transaction, player: str, family: str | None = None
    ) -> list[RatingChange]:
        """A player's latest rating changes (:data:`HISTORY` at most; in one family, if
        given), newest first."""
        query = sa.select(rating_changes).where(rating_changes.c.player == player)
        if family is not None:
            query = query.where(rating_changes.c.family == family)
        rows = sql(tx).execute(query.order_by(rating_changes.c.at.desc()).limit(HISTORY))
        return [record_of(RatingChange, row) for row in rows]

    def changes_at(
        self,
        tx: Transaction,
        rated_tables: Sequence[str],
        *,
        other_than: str | None = None,
        people_only: bool = False,
    ) -> list[RatingChange]:
        """The rating changes of the rated tables ``rated_tables``: those of players other
        than ``other_than``, or of people only (``a:ID``)."""
        if not rated_tables:
            return []
        query = sa.select(rating_changes).where(rating_changes.c.rated_table.in_(rated_tables))
        if other_than is not None:
            query = query.where(rating_changes.c.player != other_than)
        if people_only:
            query = query.where(rating_changes.c.player.startswith("a:"))
        return [record_of(RatingChange, row) for row in sql(tx).execute(query)]

    def table_changes(self, tx: Transaction, table_id: str) -> list[RatingChange]:
        """The rating changes of one rated table, by seat."""
        rows = sql(tx).execute(
            sa.select(rating_changes)
            .where(rating_changes.c.rated_table == table_id)
            .order_by(rating_changes.c.seat)
        )
        return [record_of(RatingChange, row) for row in rows]

    def rated_family(self, tx: Transaction, table_id: str) -> str | None:
        """The family a table was rated in, if it was rated."""
        found = (
            sql(tx)
            .execute(sa.select(rated_games.c.family).where(rated_games.c.table_id == table_id))
            .first()
        )
        return None if found is None else str(found.family)

    def table_exists(self, tx: Transaction, table_id: str) -> bool:
        """Whether the store has the table."""
        found = sql(tx).execute(sa.select(tables.c.id).where(tables.c.id == table_id)).first()
        return found is not None

    def seat_names(self, tx: Transaction, table_id: str) -> list[tuple[int, str]]:
        """The seats of a table held by accounts, with the accounts' names, by seat."""
        rows = sql(tx).execute(
            sa.select(seats.c.seat, accounts.c.name)
            .join(accounts, accounts.c.id == seats.c.account_id)
            .where(seats.c.table_id == table_id)
            .order_by(seats.c.seat)
        )
        return [(int(row.seat), str(row.name)) for row in rows]

    def account_named(self, tx: Transaction, name_key: str) -> tuple[int, str] | None:
        """The id and name of the account called ``name_key`` (lower case)."""
        found = (
            sql(tx)
            .execute(
                sa.select(accounts.c.id, accounts.c.name).where(accounts.c.name_key == name_key)
            )
            .first()
        )
        return None if found is None else (int(found.id), str(found.name))

    def account_names(self, tx: Transaction, ids: Iterable[int]) -> dict[int, str]:
        """The names of the accounts ``ids``."""
        wanted = list(ids)
        if not wanted:
            return {}
        rows = sql(tx).execute(
            sa.select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(wanted))
        )
        return {int(row.id): str(row.name) for row in rows}

    def unfinished_seats(
        self, tx: Transaction, account_id: int, limit: int
    ) -> list[tuple[str, int]]:
        """The seats ``account_id`` holds at unfinished tables (table id, seat), the tables
        changed most recently first, at most ``limit``."""
        rows = sql(tx).execute(unfinished_seats_query(account_id, limit))
        return [(str(row.table_id), int(row.seat)) for row in rows]

    def unfinished_seats_plan(self, tx: Transaction, account_id: int, limit: int) -> list[str]:
        """The plan the database chooses for :meth:`unfinished_seats` (its index on the
        seats' accounts, ``seats_account``, named where it is used)."""
        return query_plan(tx, unfinished_seats_query(account_id, limit))


def unfinished_seats_query(account_id: int, limit: int) -> sa.Select[tuple[object, ...]]:
    """The query of :meth:`RatingReads.unfinished_seats`."""
    return (
        sa.select(seats.c.table_id, seats.c.seat)
        .join(tables, tables.c.id == seats.c.table_id)
        .where(seats.c.account_id == account_id, tables.c.outcome.is_(None))
        .order_by(tables.c.updated.desc(), seats.c.table_id, seats.c.seat)
        .limit(limit)
    )
