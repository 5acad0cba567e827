"""Chat in SQL: the lines said at tables and their reports, the SQL
:class:`~fanfold.server.store.protocols.ChatStore` (the rules are :mod:`fanfold.server.chat`'s).
Chat has tables of its own, apart from the tables' actions: a record or a replay never holds a
line of it.

The limits on what a speaker says (:class:`~fanfold.server.store.chat_records.LineLimits`) and on
a reporter's reports are counted from the lines and reports kept, in the statement that keeps
one (``INSERT ... SELECT ... WHERE`` the counts are under the limits): every process on one
store counts the same rows, and no round trip is added but, on PostgreSQL, the speaker's
advisory lock for the transaction (so that two processes keeping the same speaker's lines at
once count one after the other; SQLite has one writer at a time)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from fanfold.server.store.chat_records import ChatLine, ChatReport, LineLimits, OverLimitError
from fanfold.server.store.engine import sql
from fanfold.server.store.records import Transaction
from fanfold.server.store.schema import chat_messages, chat_reports
from fanfold.server.store.sql_common import (
    SqlSubject,
    lock_names,
    lock_report_row,
    record_of,
    settle_report_row,
)
from fanfold.server.store.table_side_protocols import ChatStore


def context_text(lines: Sequence[ChatLine]) -> str:
    """A report's context as JSON text."""
    return json.dumps([dataclasses.astuple(line) for line in lines])


def context_lines(text: str) -> tuple[ChatLine, ...]:
    """A report's context from its JSON text."""
    return tuple(ChatLine(*entry) for entry in json.loads(text))


def _insert_if(table: sa.Table, values: dict[str, Any], *conditions: Any) -> Any:
    """An insert of ``values`` into ``table`` that inserts nothing unless ``conditions`` hold
    (checked in the same statement); it returns the new row's id."""
    chosen = sa.select(
        *[sa.cast(sa.literal(value), table.c[name].type) for name, value in values.items()]
    )
    return table.insert().from_select(list(values), chosen.where(*conditions)).returning(table.c.id)


def _count(*conditions: Any) -> Any:
    """How many rows meet ``conditions``, as a value in a statement."""
    return sa.select(sa.func.count()).where(*conditions).scalar_subquery()


def _counted_line() -> tuple[Any, Any]:
    """The insert of a line under its speaker's limits, and the count of its lines at the
    table, made once (their values are parameters: the columns' names, ``table_since``,
    ``site_since``, ``table_most`` and ``site_most``)."""
    columns = chat_messages.c
    said = columns.speaker == sa.bindparam("speaker")
    at_table = _count(
        said,
        columns.table_id == sa.bindparam("table_id"),
        columns.at > sa.bindparam("table_since"),
    )
    on_site = _count(said, columns.at > sa.bindparam("site_since"))
    names = ["table_id", "room", "account_id", "name", "seat", "text", "at", "speaker"]
    chosen = sa.select(*[sa.cast(sa.bindparam(name), columns[name].type) for name in names])
    insert = (
        chat_messages.insert()
        .from_select(
            names,
            chosen.where(
                at_table < sa.bindparam("table_most"), on_site < sa.bindparam("site_most")
            ),
        )
        .returning(columns.id)
    )
    return insert, sa.select(at_table)


_COUNTED_LINE, _LINES_AT_TABLE = _counted_line()


class SqlChat(SqlSubject, ChatStore):
    """Chat on the engine of a SQL store."""

    def _keep_line(self, line: ChatLine, speaker: str | None, limits: LineLimits | None) -> int:
        values = dataclasses.asdict(line)
        del values["id"]
        values["speaker"] = speaker
        with self.engine.begin() as connection:
            if limits is None or speaker is None:
                found = connection.execute(
                    chat_messages.insert().values(**values).returning(chat_messages.c.id)
                ).scalar_one()
            else:
                lock_names(connection, [f"chat {speaker}"])
                counted = {
                    **values,
                    "table_since": line.at - limits.table_seconds,
                    "site_since": line.at - limits.site_seconds,
                    "table_most": limits.table_most,
                    "site_most": limits.site_most,
                }
                found = connection.execute(_COUNTED_LINE, counted).scalar_one_or_none()
                if found is None:
                    full = connection.execute(_LINES_AT_TABLE, counted).scalar_one()
                    raise OverLimitError("table" if full >= limits.table_most else "site")
        return int(found)

    def recent(self, table_id: str, room: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` lines of a room, oldest first."""
        query = (
            sa.select(chat_messages)
            .where(chat_messages.c.table_id == table_id, chat_messages.c.room == room)
            .order_by(chat_messages.c.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [record_of(ChatLine, row) for row in reversed(rows)]

    def line(self, line_id: int) -> ChatLine | None:
        """A line by id."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(chat_messages).where(chat_messages.c.id == line_id)
            ).first()
        return None if row is None else record_of(ChatLine, row)

    def around(self, line: ChatLine, count: int) -> list[ChatLine]:
        """Up to ``count`` lines of the room before ``line``, the line, and ``count`` after."""
        room = (chat_messages.c.table_id == line.table_id, chat_messages.c.room == line.room)
        before = (
            sa.select(chat_messages)
            .where(*room, chat_messages.c.id < line.id)
            .order_by(chat_messages.c.id.desc())
            .limit(count)
        )
        after = (
            sa.select(chat_messages)
            .where(*room, chat_messages.c.id >= line.id)
            .order_by(chat_messages.c.id)
            .limit(count + 1)
        )
        with self.engine.connect() as connection:
            earlier = connection.execute(before).all()
            later = connection.execute(after).all()
        return [record_of(ChatLine, row) for row in [*reversed(earlier), *later]]

    def reported(self, reporter: str, line_id: int) -> bool:
        """Whether ``reporter`` reported the line already."""
        query = sa.select(chat_reports.c.id).where(
            chat_reports.c.reporter == reporter, chat_reports.c.message_id == line_id
        )
        with self.engine.connect() as connection:
            return connection.execute(query).first() is not None

    def _keep_report(self, report: ChatReport, most: int | None, seconds: float) -> int:
        values = {
            "message_id": report.message_id,
            "table_ref": report.table_id,
            "reporter": report.reporter,
            "reporter_id": report.reporter_id,
            "note": report.note,
            "context": context_text(report.context),
            "at": report.at,
            "reported_id": report.reported_id,
        }
        with self.engine.begin() as connection:
            if most is None:
                found = connection.execute(
                    chat_reports.insert().values(**values).returning(chat_reports.c.id)
                ).scalar_one()
            else:
                who = (
                    chat_reports.c.reporter == report.reporter
                    if report.reporter_id is None
                    else chat_reports.c.reporter_id == report.reporter_id
                )
                lock_names(connection, [f"chat-reports {report.reporter_id or report.reporter}"])
                filed = _count(who, chat_reports.c.at > report.at - seconds)
                found = connection.execute(
                    _insert_if(chat_reports, values, filed < most)
                ).scalar_one_or_none()
                if found is None:
                    raise OverLimitError("reports")
        return int(found)

    def reports(self, limit: int, settled: bool = True) -> list[ChatReport]:
        """The reports, newest first (the open ones only unless ``settled``)."""
        query = sa.select(chat_reports).order_by(chat_reports.c.id.desc()).limit(limit)
        if not settled:
            query = query.where(chat_reports.c.resolved_at.is_(None))
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [report_of(row) for row in rows]

    # ------------------------------------------------ settling (SQL only)
    def lock_report(self, tx: Transaction, report_id: int) -> ChatReport | None:
        """A report, its row locked for the transaction."""
        row = lock_report_row(tx, chat_reports, report_id)
        return None if row is None else report_of(row)

    def settle(self, tx: Transaction, report_id: int, at: float, by: str, resolution: str) -> None:
        """Settle a report: when, by whom, and the note."""
        settle_report_row(tx, chat_reports, report_id, at, by, resolution)

    def settle_reports_about(
        self, tx: Transaction, account_id: int, at: float, by: str, resolution: str
    ) -> int:
        """Settle every open report of a line the account said; how many."""
        done = sql(tx).execute(
            chat_reports.update()
            .where(chat_reports.c.reported_id == account_id, chat_reports.c.resolved_at.is_(None))
            .values(resolved_at=at, resolved_by=by, resolution=resolution)
        )
        return int(done.rowcount)


def report_of(row: Any) -> ChatReport:
    """A report as its row keeps it."""
    return ChatReport(
        id=int(row.id),
        message_id=int(row.message_id),
        table_id=str(row.table_ref),
        reporter=str(row.reporter),
        reporter_id=None if row.reporter_id is None else int(row.reporter_id),
        note=str(row.note),
        context=context_lines(str(row.context)),
        at=float(row.at),
        reported_id=None if row.reported_id is None else int(row.reported_id),
        resolved_at=None if row.resolved_at is None else float(row.resolved_at),
        resolved_by=None if row.resolved_by is None else str(row.resolved_by),
        resolution=None if row.resolution is None else str(row.resolution),
    )
