"""Chat in SQL: the lines said at tables and their reports, the SQL
:class:`~fanfold.server.store.protocols.ChatStore` (the rules are :mod:`fanfold.server.chat`'s).
Chat has tables of its own, apart from the tables' actions: a record or a replay never holds a
line of it."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from fanfold.server.store.chat_records import ChatLine, ChatReport
from fanfold.server.store.schema import chat_messages, chat_reports
from fanfold.server.store.sql_common import SqlSubject


def line_of(row: Any) -> ChatLine:
    """A line as its row keeps it."""
    return ChatLine(
        id=int(row.id),
        table_id=str(row.table_id),
        room=str(row.room),
        account_id=None if row.account_id is None else int(row.account_id),
        name=str(row.name),
        seat=None if row.seat is None else int(row.seat),
        text=str(row.text),
        at=float(row.at),
    )


def context_text(lines: Sequence[ChatLine]) -> str:
    """A report's context as JSON text."""
    return json.dumps([dataclasses.astuple(line) for line in lines])


def context_lines(text: str) -> tuple[ChatLine, ...]:
    """A report's context from its JSON text."""
    return tuple(ChatLine(*entry) for entry in json.loads(text))


class SqlChat(SqlSubject):
    """Chat on the engine of a SQL store."""

    def add_line(
        self,
        table_id: str,
        room: str,
        account_id: int | None,
        name: str,
        seat: int | None,
        text: str,
        at: float,
    ) -> ChatLine:
        """Keep a line; the line as kept."""
        values = {
            "table_id": table_id,
            "room": room,
            "account_id": account_id,
            "name": name,
            "seat": seat,
            "text": text,
            "at": at,
        }
        with self.engine.begin() as connection:
            found = connection.execute(
                chat_messages.insert().values(**values).returning(chat_messages.c.id)
            ).scalar_one()
        return ChatLine(int(found), table_id, room, account_id, name, seat, text, at)

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
        return [line_of(row) for row in reversed(rows)]

    def line(self, line_id: int) -> ChatLine | None:
        """A line by id."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(chat_messages).where(chat_messages.c.id == line_id)
            ).first()
        return None if row is None else line_of(row)

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
        return [line_of(row) for row in [*reversed(earlier), *later]]

    def reported(self, reporter: str, line_id: int) -> bool:
        """Whether ``reporter`` reported the line already."""
        query = sa.select(chat_reports.c.id).where(
            chat_reports.c.reporter == reporter, chat_reports.c.message_id == line_id
        )
        with self.engine.connect() as connection:
            return connection.execute(query).first() is not None

    def add_report(
        self,
        line: ChatLine,
        reporter: str,
        reporter_id: int | None,
        note: str,
        context: Sequence[ChatLine],
        at: float,
    ) -> int:
        """Keep a report with its context; its id."""
        with self.engine.begin() as connection:
            found = connection.execute(
                chat_reports.insert()
                .values(
                    message_id=line.id,
                    table_ref=line.table_id,
                    reporter=reporter,
                    reporter_id=reporter_id,
                    note=note,
                    context=context_text(context),
                    at=at,
                )
                .returning(chat_reports.c.id)
            ).scalar_one()
        return int(found)

    def reports(self, limit: int) -> list[ChatReport]:
        """The reports, newest first."""
        query = sa.select(chat_reports).order_by(chat_reports.c.id.desc()).limit(limit)
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            ChatReport(
                id=int(row.id),
                message_id=int(row.message_id),
                table_id=str(row.table_ref),
                reporter=str(row.reporter),
                reporter_id=None if row.reporter_id is None else int(row.reporter_id),
                note=str(row.note),
                context=context_lines(str(row.context)),
                at=float(row.at),
            )
            for row in rows
        ]
