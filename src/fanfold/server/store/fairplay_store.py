"""Fair play in SQL: where each rated seat was taken from (keyed hashes only), the flags of
accounts that shared an address or a device, and the count of repeated games between the
same people: the SQL :class:`~fanfold.server.store.protocols.FairPlayStore`. What counts, and
how much, is :mod:`fanfold.server.fairplay`'s."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from fanfold.server.store.engine import sql
from fanfold.server.store.records import Flag, Origin, Transaction
from fanfold.server.store.schema import fairplay_flags, rating_changes, seat_origins
from fanfold.server.store.sql_common import SqlSubject


class SqlFairPlay(SqlSubject):
    """Fair play on the engine of a SQL store."""

    def record_origins(self, origins: Sequence[Origin]) -> None:
        """Keep where seats were taken from (each replaces the seat's former origin)."""
        with self.engine.begin() as connection:
            for origin in origins:
                connection.execute(
                    seat_origins.delete().where(
                        seat_origins.c.table_id == origin.table_id,
                        seat_origins.c.seat == origin.seat,
                    )
                )
                connection.execute(
                    seat_origins.insert().values(
                        table_id=origin.table_id,
                        seat=origin.seat,
                        account_id=origin.account_id,
                        address_hash=origin.address_hash,
                        device_hash=origin.device_hash,
                        at=origin.at,
                    )
                )

    def origins(self, tx: Transaction, table_id: str) -> list[Origin]:
        """Where the seats of a table were taken from, as kept."""
        rows = sql(tx).execute(sa.select(seat_origins).where(seat_origins.c.table_id == table_id))
        return [
            Origin(
                str(row.table_id),
                int(row.seat),
                int(row.account_id),
                row.address_hash,
                row.device_hash,
                float(row.at),
            )
            for row in rows
        ]

    def add_flags(self, tx: Transaction, flags: Sequence[Flag]) -> None:
        """Keep the flags."""
        if flags:
            sql(tx).execute(
                fairplay_flags.insert(),
                [
                    {
                        "table_id": flag.table_id,
                        "kind": flag.kind,
                        "first_account": flag.first_account,
                        "second_account": flag.second_account,
                        "at": flag.at,
                    }
                    for flag in flags
                ],
            )

    def games_together(
        self, tx: Transaction, player: str, people: Sequence[str], since: float, table_id: str
    ) -> int:
        """The most rated games ``player`` played with any one of ``people`` after
        ``since``, the table ``table_id`` left out."""
        mine = rating_changes.alias("mine")
        theirs = rating_changes.alias("theirs")
        rows = (
            sql(tx)
            .execute(
                sa.select(theirs.c.player, sa.func.count(sa.distinct(mine.c.rated_table)))
                .select_from(mine.join(theirs, theirs.c.rated_table == mine.c.rated_table))
                .where(
                    mine.c.player == player,
                    theirs.c.player.in_(list(people)),
                    mine.c.at > since,
                    mine.c.rated_table != table_id,
                )
                .group_by(theirs.c.player)
            )
            .all()
        )
        return max((int(row[1]) for row in rows), default=0)

    def delete_origins(self, before: float) -> int:
        """Delete the origins kept at ``before`` or earlier; how many."""
        with self.engine.begin() as connection:
            gone = connection.execute(seat_origins.delete().where(seat_origins.c.at <= before))
            return int(gone.rowcount)
