"""The refunds of points lost to a closed account, in SQL: the rated results read, the rating
rows locked in the order rating locks them, the refunds kept once, the points given."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from fanfold.server.store.engine import sql
from fanfold.server.store.moderation_records import RefundRecord
from fanfold.server.store.records import RatingChange, Transaction
from fanfold.server.store.schema import rating_changes, rating_refunds, ratings
from fanfold.server.store.sql_common import SqlSubject, record_of


class RefundStore(SqlSubject):
    """The refunds' part of the moderation's SQL store."""

    def results_of(self, tx: Transaction, player: str) -> dict[str, tuple[int, int]]:
        """Every rated table ``player`` was rated at: its team and rank there."""
        rows = sql(tx).execute(
            sa.select(
                rating_changes.c.rated_table, rating_changes.c.team, rating_changes.c.rank
            ).where(rating_changes.c.player == player)
        )
        return {str(row.rated_table): (int(row.team), int(row.rank)) for row in rows}

    def changes_of_tables(self, tx: Transaction, rated_tables: Sequence[str]) -> list[RatingChange]:
        """Every rating change of the rated tables ``rated_tables``."""
        found: list[RatingChange] = []
        ids = list(rated_tables)
        for start in range(0, len(ids), 500):
            rows = sql(tx).execute(
                sa.select(rating_changes).where(
                    rating_changes.c.rated_table.in_(ids[start : start + 500])
                )
            )
            found.extend(record_of(RatingChange, row) for row in rows)
        return found

    def lock_rating_rows(self, tx: Transaction, rows: set[tuple[str, str]]) -> None:
        """Lock the ratings rows (family, player) for the transaction in one order, by player
        key (and family), the order a rated game locks its players' rows in."""
        players = sorted({player for _, player in rows})
        families = sorted({family for family, _ in rows})
        for start in range(0, len(players), 500):
            sql(tx).execute(
                sa.select(ratings.c.family, ratings.c.player)
                .where(
                    ratings.c.player.in_(players[start : start + 500]),
                    ratings.c.family.in_(families),
                )
                .order_by(ratings.c.player, ratings.c.family)
                .with_for_update()
            ).all()

    def refunds_at(
        self, tx: Transaction, rated_tables: Sequence[str]
    ) -> dict[tuple[str, str], RefundRecord]:
        """The refunds given for the rated tables ``rated_tables``, by (table, player)."""
        given: dict[tuple[str, str], RefundRecord] = {}
        ids = list(rated_tables)
        for start in range(0, len(ids), 500):
            for row in sql(tx).execute(
                sa.select(rating_refunds).where(
                    rating_refunds.c.rated_table.in_(ids[start : start + 500])
                )
            ):
                given[(str(row.rated_table), str(row.player))] = RefundRecord(
                    str(row.rated_table),
                    str(row.player),
                    str(row.family),
                    float(row.points),
                    str(row.closed_accounts),
                    float(row.at),
                )
        return given

    def keep_refund(self, tx: Transaction, refund: RefundRecord, *, new: bool) -> None:
        """Keep a refund: a ``new`` row, or the table's and player's row topped up."""
        values = {
            "family": refund.family,
            "points": refund.points,
            "closed_accounts": refund.closed_accounts,
            "at": refund.at,
        }
        if new:
            sql(tx).execute(
                rating_refunds.insert().values(
                    rated_table=refund.rated_table, player=refund.player, **values
                )
            )
        else:
            sql(tx).execute(
                rating_refunds.update()
                .where(
                    rating_refunds.c.rated_table == refund.rated_table,
                    rating_refunds.c.player == refund.player,
                )
                .values(**values)
            )

    def add_points(
        self, tx: Transaction, family: str, player: str, points: float, at: float
    ) -> None:
        """Add ``points`` to a player's rating in a family (its deviation and games kept)."""
        sql(tx).execute(
            ratings.update()
            .where(ratings.c.family == family, ratings.c.player == player)
            .values(mu=ratings.c.mu + points, updated=at)
        )
