"""The bot pool's shares across server processes in SQL (``bot_leases``): the SQL
:class:`~fanfold.server.store.table_side_protocols.BotLeases`. A lease is one decision of a
client's bots, first waiting for the client's share and then granted (thinking, or about to,
at the process that holds it), until ``until``; the process renews its leases while it holds
them, so that one killed frees its share once they run out. A client's waiting leases are
granted in the order they were asked for, over every process
(:mod:`fanfold.server.bot_shares` has the rules)."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from fanfold.server.store.schema import bot_leases
from fanfold.server.store.sql_common import SqlSubject, lock_names


def _granting() -> sa.Update:
    """The grant of a waiting lease whose turn has come, made once (its values are
    parameters: ``lease_id``, ``of_client``, ``at`` and ``share``; not the columns' names, which an
    update keeps for the values it sets): fewer than ``most`` of the
    client's live leases are granted or were asked for before it."""
    columns = bot_leases.c
    ahead = (
        sa.select(sa.func.count())
        .where(
            columns.client == sa.bindparam("of_client"),
            columns.until > sa.bindparam("at"),
            sa.or_(columns.granted, columns.id < sa.bindparam("lease_id")),
        )
        .scalar_subquery()
    )
    return (
        bot_leases.update()
        .where(
            columns.id == sa.bindparam("lease_id"),
            columns.until > sa.bindparam("at"),
            sa.not_(columns.granted),
            ahead < sa.bindparam("share"),
        )
        .values(granted=True)
    )


_GRANT = _granting()


class SqlBotLeases(SqlSubject):
    """The bot pool's leases on the engine of a SQL store."""

    def ask(self, client: str, holder: str, now: float, seconds: float) -> int:
        """A waiting lease for ``client`` held by ``holder`` until ``now + seconds``; its id.
        The client's leases that ran out are forgotten first."""
        client = client[:200]
        with self.engine.begin() as connection:
            connection.execute(
                bot_leases.delete().where(bot_leases.c.client == client, bot_leases.c.until <= now)
            )
            found = connection.execute(
                bot_leases.insert()
                .values(client=client, holder=holder, until=now + seconds, granted=False)
                .returning(bot_leases.c.id)
            ).scalar_one()
        return int(found)

    def take(self, lease: int, client: str, most: int, now: float) -> bool:
        """Whether the lease is granted now: it was, or its turn has come (fewer than ``most``
        of the client's live leases are granted or were asked for before it)."""
        client = client[:200]
        with self.engine.begin() as connection:
            lock_names(connection, [f"bot-lease {client}"])
            changed = connection.execute(
                _GRANT, {"lease_id": lease, "of_client": client, "at": now, "share": most}
            )
            if changed.rowcount:
                return True
            granted = connection.execute(
                sa.select(bot_leases.c.granted).where(
                    bot_leases.c.id == lease, bot_leases.c.until > now
                )
            ).scalar()
        return bool(granted)

    def give_back(self, lease: int) -> None:
        """End a lease, granted or waiting (nothing happens when it is gone)."""
        with self.engine.begin() as connection:
            connection.execute(bot_leases.delete().where(bot_leases.c.id == lease))

    def renew(self, leases: Sequence[int], until: float) -> None:
        """Hold ``leases`` until ``until``."""
        if not leases:
            return
        with self.engine.begin() as connection:
            connection.execute(
                bot_leases.update().where(bot_leases.c.id.in_(list(leases))).values(until=until)
            )

    def held(self, client: str, now: float) -> int:
        """How many granted leases ``client`` holds at ``now``."""
        with self.engine.connect() as connection:
            found = connection.execute(
                sa.select(sa.func.count()).where(
                    bot_leases.c.client == client[:200],
                    bot_leases.c.until > now,
                    bot_leases.c.granted,
                )
            ).scalar_one()
        return int(found)
