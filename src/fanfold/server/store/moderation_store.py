"""Moderation in SQL: roles, closing and reopening accounts, reports and appeals, the log, and
(:mod:`~fanfold.server.store.refund_store`) the refunds: the SQL
:class:`~fanfold.server.store.protocols.ModerationStore`. The rules are
:mod:`fanfold.server.moderation`'s."""

from __future__ import annotations

import sqlalchemy as sa

from fanfold.server.store.engine import sql
from fanfold.server.store.moderation_reads import ModerationReads
from fanfold.server.store.moderation_records import LogRecord, ReportRecord
from fanfold.server.store.records import Transaction
from fanfold.server.store.refund_store import RefundStore
from fanfold.server.store.schema import (
    accounts,
    actions,
    appeals,
    moderation_log,
    reports,
    seats,
    sessions,
    tables,
)
from fanfold.server.store.sql_common import (
    lock_names,
    lock_report_row,
    record_of,
    settle_report_row,
)


class SqlModeration(ModerationReads, RefundStore):
    """Moderation on the engine of a SQL store."""

    # ------------------------------------------------------------ acting
    def set_role(self, tx: Transaction, account_id: int, role: str) -> None:
        """Give an account a role."""
        sql(tx).execute(accounts.update().where(accounts.c.id == account_id).values(role=role))

    def set_closed(self, tx: Transaction, account_id: int, closed: bool) -> None:
        """Close an account, or reopen it."""
        sql(tx).execute(accounts.update().where(accounts.c.id == account_id).values(closed=closed))

    def end_sessions(self, tx: Transaction, account_id: int) -> int:
        """End every session of an account; how many."""
        done = sql(tx).execute(sessions.delete().where(sessions.c.account_id == account_id))
        return int(done.rowcount)

    def settle_reports_about(
        self, tx: Transaction, account_id: int, at: float, by: str, resolution: str
    ) -> int:
        """Settle every open report about an account; how many."""
        done = sql(tx).execute(
            reports.update()
            .where(reports.c.reported_id == account_id, reports.c.resolved_at.is_(None))
            .values(resolved_at=at, resolved_by=by, resolution=resolution)
        )
        return int(done.rowcount)

    def add_log(self, tx: Transaction, entry: LogRecord) -> None:
        """Keep an entry of the moderators' log."""
        sql(tx).execute(
            moderation_log.insert().values(
                moderator_id=entry.moderator_id,
                moderator=entry.moderator,
                action=entry.action,
                account_id=entry.account_id,
                account=entry.account,
                note=entry.note,
                detail=entry.detail,
                at=entry.at,
            )
        )

    def lock_report(self, tx: Transaction, report_id: int) -> ReportRecord | None:
        """A report, its row locked for the transaction."""
        row = lock_report_row(tx, reports, report_id)
        return None if row is None else record_of(ReportRecord, row)

    def resolve(self, tx: Transaction, report_id: int, at: float, by: str, resolution: str) -> None:
        """Settle a report."""
        settle_report_row(tx, reports, report_id, at, by, resolution)

    # ------------------------------------------------ reports and appeals
    def lock_counting(self, tx: Transaction, key: str) -> None:
        """On PostgreSQL, hold the lock of a counted key (a player's reports, an account's
        appeals) for the transaction."""
        lock_names(sql(tx), [f"moderation {key}"])

    def table_of(self, tx: Transaction, table_id: str) -> tuple[str, str] | None:
        """A table's game and its options as stored (JSON text)."""
        found = (
            sql(tx)
            .execute(sa.select(tables.c.game, tables.c.options).where(tables.c.id == table_id))
            .first()
        )
        return None if found is None else (str(found.game), str(found.options or "{}"))

    def seat_accounts(self, tx: Transaction, table_id: str) -> dict[int, int | None]:
        """The account holding each seat of a table (``None``: a guest, a bot, nobody)."""
        return {
            int(row.seat): None if row.account_id is None else int(row.account_id)
            for row in sql(tx).execute(
                sa.select(seats.c.seat, seats.c.account_id).where(seats.c.table_id == table_id)
            )
        }

    def moves_at(self, tx: Transaction, table_id: str) -> int:
        """How many actions a table has stored."""
        return int(
            sql(tx)
            .execute(sa.select(sa.func.count()).where(actions.c.table_id == table_id))
            .scalar_one()
        )

    def reports_since(self, tx: Transaction, reporter_id: int, since: float) -> int:
        """How many reports a player filed after ``since``."""
        return int(
            sql(tx)
            .execute(
                sa.select(sa.func.count()).where(
                    reports.c.reporter_id == reporter_id, reports.c.at > since
                )
            )
            .scalar_one()
        )

    def open_report(
        self, tx: Transaction, reporter_id: int, table_id: str, seat: int
    ) -> int | None:
        """The player's open report of a seat at a table, if any."""
        again = (
            sql(tx)
            .execute(
                sa.select(reports.c.id).where(
                    reports.c.reporter_id == reporter_id,
                    reports.c.table_ref == table_id,
                    reports.c.seat == seat,
                    reports.c.resolved_at.is_(None),
                )
            )
            .first()
        )
        return None if again is None else int(again.id)

    def add_report(self, tx: Transaction, report: ReportRecord) -> int:
        """Keep a new report; its id."""
        number = (
            sql(tx)
            .execute(
                reports.insert()
                .values(
                    reporter_id=report.reporter_id,
                    reported_id=report.reported_id,
                    table_ref=report.table_ref,
                    game=report.game,
                    seat=report.seat,
                    rated=report.rated,
                    moves=report.moves,
                    reason=report.reason,
                    note=report.note,
                    at=report.at,
                )
                .returning(reports.c.id)
            )
            .scalar_one()
        )
        return int(number)

    def appeals_since(self, tx: Transaction, account_id: int, since: float) -> int:
        """How many appeals an account sent after ``since``."""
        return int(
            sql(tx)
            .execute(
                sa.select(sa.func.count()).where(
                    appeals.c.account_id == account_id, appeals.c.at > since
                )
            )
            .scalar_one()
        )

    def add_appeal(self, tx: Transaction, account_id: int, note: str, at: float) -> int:
        """Keep a new appeal; its id."""
        number = (
            sql(tx)
            .execute(
                appeals.insert()
                .values(account_id=account_id, note=note, at=at)
                .returning(appeals.c.id)
            )
            .scalar_one()
        )
        return int(number)
