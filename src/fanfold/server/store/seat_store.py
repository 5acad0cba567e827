"""Writing seats in the SQL store: an invitation claimed, an open seat taken, a seat given to a
bot, a new invitation."""

from __future__ import annotations

from collections.abc import Mapping

from fanfold.core.config import JSONObject
from fanfold.server.store.records import InTransaction
from fanfold.server.store.schema import seats
from fanfold.server.store.sql_base import SqlBase


class SeatWrites(SqlBase):
    """The SQL tables store's writes of seats."""

    def claim(
        self,
        table_id: str,
        seat: int,
        invite_hash: str,
        hashed: str,
        account_id: int | None = None,
    ) -> bool:
        """Give ``seat`` a token's hash (and the claimant's account, if signed in) if its
        pending invitation is ``invite_hash``, and spend the invitation, in one statement (two
        claims of one link: only the first wins); returns whether it did."""
        with self._begin() as connection:
            done = connection.execute(
                seats.update()
                .where(
                    seats.c.table_id == table_id,
                    seats.c.seat == seat,
                    seats.c.invite_hash == invite_hash,
                )
                .values(token_hash=hashed, invite_hash=None, account_id=account_id)
            )
            return done.rowcount == 1

    def take_open(
        self, table_id: str, seat: int, hashed: str, account_id: int | None = None
    ) -> bool:
        """Give an open seat (no token, no invitation) a token's hash and the account taking
        it, in one statement (two people joining at once: only the first gets it); returns
        whether it did."""
        with self._begin() as connection:
            done = connection.execute(
                seats.update()
                .where(
                    seats.c.table_id == table_id,
                    seats.c.seat == seat,
                    seats.c.token_hash.is_(None),
                    seats.c.invite_hash.is_(None),
                )
                .values(token_hash=hashed, account_id=account_id)
            )
            taken = done.rowcount == 1
            if taken:
                self._lobby_changed(connection)
        if taken:
            self._tell_lobby()
        return taken

    def _give_seat(
        self,
        table_id: str,
        seat: int,
        values: Mapping[str, object],
        options: JSONObject,
        also: InTransaction | None,
    ) -> None:
        with self._begin() as connection:
            connection.execute(
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(**values)
            )
            self._set_options(connection, table_id, options)
            if also is not None:
                also(connection)
            self._lobby_changed(connection)
        self._tell_lobby()

    def invite(self, table_id: str, seat: int, invite_hash: str) -> None:
        """Give ``seat`` a new invitation; whoever held the seat before holds it no more."""
        with self._begin() as connection:
            connection.execute(
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(token_hash=None, invite_hash=invite_hash, account_id=None)
            )
