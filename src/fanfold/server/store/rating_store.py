"""Ratings in SQL, written in the transaction that stores a rated game's end: the SQL
:class:`~fanfold.server.store.protocols.RatingStore`. The rating model is
:mod:`fanfold.server.ratings`'; the players' pages read through
:mod:`fanfold.server.store.rating_reads`."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import sqlalchemy as sa

from fanfold.server.store.engine import sql
from fanfold.server.store.rating_reads import RatingReads
from fanfold.server.store.records import RatingChange, RatingRow, Transaction
from fanfold.server.store.schema import rated_games, rating_changes, ratings
from fanfold.server.store.sql_common import insert_for, record_of


class SqlRatings(RatingReads):
    """Ratings on the engine of a SQL store."""

    def mark_rated(self, tx: Transaction, table_id: str, game: str, family: str, at: float) -> bool:
        """Note that the table's game is rated (once): False when it was noted already."""
        connection = sql(tx)
        first = connection.execute(
            insert_for(connection, rated_games)
            .values(table_id=table_id, game=game, family=family, at=at)
            .on_conflict_do_nothing()
            .returning(rated_games.c.table_id)
        ).first()
        return first is not None

    def rated_by(self, tx: Transaction, table_id: str) -> set[str]:
        """The players whose rating the table has moved already."""
        return {
            str(player)
            for player in sql(tx)
            .execute(
                sa.select(rating_changes.c.player).where(rating_changes.c.rated_table == table_id)
            )
            .scalars()
        }

    def lock_ratings(
        self,
        tx: Transaction,
        family: str,
        starting: Mapping[str, tuple[float, float]],
        now: float,
    ) -> dict[str, RatingRow]:
        """The ratings of the players ``starting`` names in ``family``, locked for the
        transaction in one order (by player key, as every transaction that moves ratings
        locks them); a player without one gets its starting ``(mu, sigma)`` first."""
        connection = sql(tx)
        keys = sorted(starting)
        connection.execute(
            insert_for(connection, ratings).on_conflict_do_nothing(),
            [
                {
                    "family": family,
                    "player": key,
                    "mu": starting[key][0],
                    "sigma": starting[key][1],
                    "games": 0,
                    "updated": now,
                }
                for key in keys
            ],
        )
        rows = connection.execute(
            sa.select(ratings)
            .where(ratings.c.family == family, ratings.c.player.in_(keys))
            .order_by(ratings.c.player)
            .with_for_update()
        ).all()
        return {str(row.player): record_of(RatingRow, row) for row in rows}

    def record_changes(self, tx: Transaction, changes: Sequence[RatingChange], now: float) -> None:
        """Move each changed player's rating (one game more) and keep the changes."""
        connection = sql(tx)
        for change in sorted(changes, key=lambda c: c.player):
            connection.execute(
                ratings.update()
                .where(ratings.c.family == change.family, ratings.c.player == change.player)
                .values(
                    mu=change.mu_after,
                    sigma=change.sigma_after,
                    games=ratings.c.games + 1,
                    updated=now,
                )
            )
        if changes:
            connection.execute(
                rating_changes.insert(), [dataclasses.asdict(change) for change in changes]
            )

    def opponents(
        self, tx: Transaction, family: str, people: Sequence[str]
    ) -> dict[str, tuple[int, int]]:
        """For each of ``people`` (``a:ID``) with rated games of ``family``: how many, and
        against how many different opponents."""
        if not people:
            return {}
        mine = rating_changes.alias("mine")
        theirs = rating_changes.alias("theirs")
        rows = (
            sql(tx)
            .execute(
                sa.select(
                    mine.c.player,
                    sa.func.count(sa.distinct(mine.c.rated_table)),
                    sa.func.count(sa.distinct(theirs.c.player)),
                )
                .select_from(
                    mine.join(
                        theirs,
                        sa.and_(
                            theirs.c.rated_table == mine.c.rated_table,
                            theirs.c.player != mine.c.player,
                        ),
                    )
                )
                .where(mine.c.family == family, mine.c.player.in_(list(people)))
                .group_by(mine.c.player)
            )
            .all()
        )
        return {str(row[0]): (int(row[1]), int(row[2])) for row in rows}
