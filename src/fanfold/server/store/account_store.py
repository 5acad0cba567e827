"""Accounts, sessions, the server's shared keys and the counted attempts (sign-ins, sign-ups,
tables opened) in SQL: the SQL :class:`~fanfold.server.store.protocols.AccountStore`. The rules
(hashing, limits, delays) are :mod:`fanfold.server.accounts`'."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import sqlalchemy as sa

from fanfold.server.store.engine import sql
from fanfold.server.store.records import AccountRow, Transaction
from fanfold.server.store.schema import accounts, server_keys, sessions, sign_in_attempts
from fanfold.server.store.sql_common import SqlSubject, insert_for, lock_names


class SqlAccounts(SqlSubject):
    """Accounts and what signing in counts, on the engine of a SQL store."""

    # ------------------------------------------------------------- keys
    def stored_key(self, name: str, fresh: str) -> str:
        """The secret key ``name``: the stored one, or ``fresh`` stored now (when two
        processes start at once, the first insert wins and both read it)."""
        with self.engine.begin() as connection:
            connection.execute(
                insert_for(connection, server_keys)
                .values(name=name, value=fresh)
                .on_conflict_do_nothing()
            )
            value: str = connection.execute(
                sa.select(server_keys.c.value).where(server_keys.c.name == name)
            ).scalar_one()
        return value

    def replace_key(self, name: str, value: str) -> str | None:
        """Keep ``value`` as the key ``name`` from now on; returns the one it replaces
        (``None``: none)."""
        with self.engine.begin() as connection:
            before = connection.execute(
                sa.select(server_keys.c.value).where(server_keys.c.name == name)
            ).scalar()
            if before is None:
                connection.execute(server_keys.insert().values(name=name, value=value))
            else:
                connection.execute(
                    server_keys.update().where(server_keys.c.name == name).values(value=value)
                )
        return None if before is None else str(before)

    # --------------------------------------------------------- accounts
    def find(self, name_key: str) -> AccountRow | None:
        """The account called ``name_key`` (lower case), or ``None``."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(
                    accounts.c.id, accounts.c.name, accounts.c.password_hash, accounts.c.closed
                ).where(accounts.c.name_key == name_key)
            ).first()
        if row is None:
            return None
        return AccountRow(int(row.id), str(row.name), str(row.password_hash), bool(row.closed))

    def name_taken(self, name_key: str) -> bool:
        """Whether an account is called ``name_key`` (lower case)."""
        with self.engine.connect() as connection:
            taken = connection.execute(
                sa.select(accounts.c.id).where(accounts.c.name_key == name_key)
            ).first()
        return taken is not None

    def add_account(self, name: str, password_hash: str, created: float) -> int | None:
        """A new account's id, or ``None`` when its name (in any case) is taken."""
        with self.engine.begin() as connection:
            found = connection.execute(
                insert_for(connection, accounts)
                .values(
                    name=name, name_key=name.lower(), password_hash=password_hash, created=created
                )
                .on_conflict_do_nothing()
                .returning(accounts.c.id)
            ).first()
        return None if found is None else int(found.id)

    def set_hash(self, account_id: int, hashed: str) -> None:
        """Store an account's new password hash (a rehash)."""
        with self.engine.begin() as connection:
            connection.execute(
                accounts.update().where(accounts.c.id == account_id).values(password_hash=hashed)
            )

    def name_of(self, account_id: int) -> str | None:
        """An account's name."""
        with self.engine.connect() as connection:
            name = connection.execute(
                sa.select(accounts.c.name).where(accounts.c.id == account_id)
            ).scalar()
        return str(name) if name is not None else None

    # --------------------------------------------------------- sessions
    def add_session(self, account_id: int, hashed: str, now: float, expires: float) -> None:
        """A new session of the account (its token's hash), its ended sessions deleted."""
        with self.engine.begin() as connection:
            connection.execute(
                sessions.delete().where(
                    sessions.c.account_id == account_id, sessions.c.expires <= now
                )
            )
            connection.execute(
                sessions.insert().values(
                    token_hash=hashed, account_id=account_id, created=now, expires=expires
                )
            )

    def session_account(self, hashed: str, now: float) -> tuple[int, str] | None:
        """The id and name of the open account whose live session has the token's hash."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(accounts.c.id, accounts.c.name)
                .select_from(sessions.join(accounts, accounts.c.id == sessions.c.account_id))
                .where(
                    sessions.c.token_hash == hashed,
                    sessions.c.expires > now,
                    accounts.c.closed.is_(False),
                )
            ).first()
        return (int(row.id), str(row.name)) if row is not None else None

    def end_session(self, hashed: str) -> None:
        """End the session of the token's hash."""
        with self.engine.begin() as connection:
            connection.execute(sessions.delete().where(sessions.c.token_hash == hashed))

    def end_sessions(self, account_id: int) -> int:
        """End every session of an account; returns how many."""
        with self.engine.begin() as connection:
            done = connection.execute(sessions.delete().where(sessions.c.account_id == account_id))
            return int(done.rowcount)

    def delete_expired(self, now: float, counted_before: float) -> int:
        """Delete the sessions ended by ``now`` and the counted rows from before
        ``counted_before`` (inclusive); returns how many sessions went."""
        with self.engine.begin() as connection:
            gone = connection.execute(sessions.delete().where(sessions.c.expires <= now))
            connection.execute(
                sign_in_attempts.delete().where(sign_in_attempts.c.at <= counted_before)
            )
            return int(gone.rowcount)

    # --------------------------------------------------------- counting
    def lock_counted(self, tx: Transaction, keys: Iterable[str]) -> None:
        """On PostgreSQL, hold the counted keys' locks for the transaction, in one order."""
        lock_names(sql(tx), (f"sign-in {key}" for key in keys))

    def forget_counted(self, tx: Transaction, keys: Sequence[str], before: float) -> None:
        """Delete the keys' rows counted at ``before`` or earlier."""
        sql(tx).execute(
            sign_in_attempts.delete().where(
                sign_in_attempts.c.key.in_(list(keys)), sign_in_attempts.c.at <= before
            )
        )

    def counted_since(self, tx: Transaction, key: str, since: float) -> int:
        """How many rows ``key`` has after ``since``."""
        return int(
            sql(tx)
            .execute(
                sa.select(sa.func.count()).where(
                    sign_in_attempts.c.key == key, sign_in_attempts.c.at > since
                )
            )
            .scalar_one()
        )

    def counted_at(self, tx: Transaction, key: str, since: float, place: int) -> float:
        """When ``key``'s row number ``place`` (from 0, oldest first) after ``since`` was
        counted."""
        found = (
            sql(tx)
            .execute(
                sa.select(sign_in_attempts.c.at)
                .where(sign_in_attempts.c.key == key, sign_in_attempts.c.at > since)
                .order_by(sign_in_attempts.c.at)
                .offset(place)
                .limit(1)
            )
            .scalar_one()
        )
        return float(found)

    def last_counted(self, tx: Transaction, key: str, since: float) -> tuple[int, float | None]:
        """How many rows ``key`` has after ``since``, and when the last was counted."""
        counted, last = (
            sql(tx)
            .execute(
                sa.select(sa.func.count(), sa.func.max(sign_in_attempts.c.at)).where(
                    sign_in_attempts.c.key == key, sign_in_attempts.c.at > since
                )
            )
            .one()
        )
        return int(counted), None if last is None else float(last)

    def count(self, tx: Transaction, key: str, at: float) -> int:
        """Count a row for ``key`` at ``at``; returns its id."""
        found = (
            sql(tx)
            .execute(
                sign_in_attempts.insert().values(key=key, at=at).returning(sign_in_attempts.c.id)
            )
            .scalar_one()
        )
        return int(found)

    def forgive(self, ids: Sequence[int], key: str) -> None:
        """Delete the rows ``ids`` and every row of ``key``."""
        with self.engine.begin() as connection:
            connection.execute(
                sign_in_attempts.delete().where(
                    sa.or_(sign_in_attempts.c.id.in_(list(ids)), sign_in_attempts.c.key == key)
                )
            )
