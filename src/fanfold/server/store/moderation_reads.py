"""Reading what moderation keeps from SQL: accounts (and locking one), the lists moderators
read (reports, flags, appeals, the log) and an account's summary counts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from fanfold.server.store.engine import sql
from fanfold.server.store.moderation_records import (
    AccountRecord,
    AppealRecord,
    FlagRecord,
    LogRecord,
    ReportRecord,
)
from fanfold.server.store.records import Transaction
from fanfold.server.store.schema import (
    accounts,
    appeals,
    fairplay_flags,
    moderation_log,
    rating_refunds,
    reports,
)
from fanfold.server.store.sql_common import SqlSubject, record_of

_ACCOUNT = (accounts.c.id, accounts.c.name, accounts.c.role, accounts.c.closed)


class ModerationReads(SqlSubject):
    """The reads of the moderation's SQL store."""

    def closed_accounts(self, tx: Transaction) -> set[int]:
        """The ids of the closed accounts."""
        found = sql(tx).execute(sa.select(accounts.c.id).where(accounts.c.closed.is_(True)))
        return {int(number) for number in found.scalars()}

    def account(self, tx: Transaction, name_key: str) -> AccountRecord | None:
        """The account called ``name_key`` (lower case)."""
        row = sql(tx).execute(sa.select(*_ACCOUNT).where(accounts.c.name_key == name_key)).first()
        return None if row is None else record_of(AccountRecord, row)

    def lock_account(self, tx: Transaction, name_key: str) -> AccountRecord | None:
        """The account called ``name_key``, its row locked for the transaction: an update
        that changes nothing, so that SQLite takes its write lock before anything is read (no
        other writer slips in between) and PostgreSQL locks the row."""
        row = (
            sql(tx)
            .execute(
                accounts.update()
                .where(accounts.c.name_key == name_key)
                .values(role=accounts.c.role)
                .returning(*_ACCOUNT)
            )
            .first()
        )
        return None if row is None else record_of(AccountRecord, row)

    def role(self, tx: Transaction, account_id: int) -> tuple[str, bool] | None:
        """An account's role and whether it is closed."""
        row = (
            sql(tx)
            .execute(
                sa.select(accounts.c.role, accounts.c.closed).where(accounts.c.id == account_id)
            )
            .first()
        )
        return None if row is None else (str(row.role), bool(row.closed))

    def accounts_by_id(self, tx: Transaction, ids: Iterable[int]) -> dict[int, AccountRecord]:
        """The accounts ``ids`` that exist, by id."""
        wanted = sorted(set(ids))
        found: dict[int, AccountRecord] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            for row in sql(tx).execute(sa.select(*_ACCOUNT).where(accounts.c.id.in_(chunk))):
                found[int(row.id)] = record_of(AccountRecord, row)
        return found

    def reports(self, tx: Transaction, *, everything: bool, limit: int) -> list[ReportRecord]:
        """The open reports (``everything``: settled ones too), newest first."""
        query = sa.select(reports).order_by(reports.c.at.desc(), reports.c.id.desc()).limit(limit)
        if not everything:
            query = query.where(reports.c.resolved_at.is_(None))
        return [record_of(ReportRecord, row) for row in sql(tx).execute(query)]

    def flags(self, tx: Transaction, *, limit: int) -> list[FlagRecord]:
        """The fair-play flags, newest first."""
        rows = sql(tx).execute(
            sa.select(fairplay_flags)
            .order_by(fairplay_flags.c.at.desc(), fairplay_flags.c.id.desc())
            .limit(limit)
        )
        return [
            FlagRecord(
                int(row.id),
                str(row.table_id),
                str(row.kind),
                int(row.first_account),
                int(row.second_account),
                float(row.at),
            )
            for row in rows
        ]

    def appeals(self, tx: Transaction, *, limit: int) -> list[AppealRecord]:
        """The appeals, newest first."""
        rows = sql(tx).execute(
            sa.select(appeals).order_by(appeals.c.at.desc(), appeals.c.id.desc()).limit(limit)
        )
        return [
            AppealRecord(int(row.id), int(row.account_id), str(row.note), float(row.at))
            for row in rows
        ]

    def log(self, tx: Transaction, *, limit: int) -> list[LogRecord]:
        """The moderators' log, newest first."""
        rows = sql(tx).execute(
            sa.select(moderation_log)
            .order_by(moderation_log.c.at.desc(), moderation_log.c.id.desc())
            .limit(limit)
        )
        return [
            LogRecord(
                moderator_id=None if row.moderator_id is None else int(row.moderator_id),
                moderator=str(row.moderator),
                action=str(row.action),
                account_id=None if row.account_id is None else int(row.account_id),
                account=row.account,
                note=str(row.note),
                detail=str(row.detail),
                at=float(row.at),
                id=int(row.id),
            )
            for row in rows
        ]

    def summary_counts(self, tx: Transaction, account_id: int, key: str) -> dict[str, float]:
        """About an account (its rating key ``key``): its open reports, its flags, its
        appeals, and the points refunded to others for its games."""
        connection = sql(tx)

        def count(query: Any) -> int:
            return int(connection.execute(query).scalar_one())

        return {
            "open_reports": count(
                sa.select(sa.func.count()).where(
                    reports.c.reported_id == account_id, reports.c.resolved_at.is_(None)
                )
            ),
            "flags": count(
                sa.select(sa.func.count()).where(
                    sa.or_(
                        fairplay_flags.c.first_account == account_id,
                        fairplay_flags.c.second_account == account_id,
                    )
                )
            ),
            "appeals": count(sa.select(sa.func.count()).where(appeals.c.account_id == account_id)),
            "refunded": float(
                connection.execute(
                    sa.select(sa.func.coalesce(sa.func.sum(rating_refunds.c.points), 0.0)).where(
                        (" " + rating_refunds.c.closed_accounts + " ").contains(f" {key} ")
                    )
                ).scalar_one()
            ),
        }
