"""Chat in one process's memory: the :class:`~fanfold.server.store.protocols.ChatStore` of
tests and of a server without a database (as :class:`~fanfold.server.store.memory.MemoryTables`
is the tables'). The limits are counted from the lines and reports it keeps, as the SQL store's
are (one process: its lock orders the counts)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from fanfold.server.store.chat_records import ChatLine, ChatReport, LineLimits, OverLimitError


class MemoryChat:
    """Chat's lines and reports in lists, guarded by a lock (the server calls it from worker
    threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lines: list[ChatLine] = []
        #: Who said each line of :attr:`_lines` (its speaker key, or ``None``).
        self._speakers: list[str | None] = []
        self._reports: list[ChatReport] = []

    def add_line(
        self,
        table_id: str,
        room: str,
        account_id: int | None,
        name: str,
        seat: int | None,
        text: str,
        at: float,
        speaker: str | None = None,
        limits: LineLimits | None = None,
    ) -> ChatLine:
        """Keep a line said by ``speaker``; the line as kept.

        Raises:
            OverLimitError: ``speaker`` is at one of ``limits`` (nothing kept).
        """
        with self._lock:
            if limits is not None and speaker is not None:
                self._check(table_id, speaker, at, limits)
            line = ChatLine(len(self._lines) + 1, table_id, room, account_id, name, seat, text, at)
            self._lines.append(line)
            self._speakers.append(speaker)
        return line

    def _check(self, table_id: str, speaker: str, at: float, limits: LineLimits) -> None:
        """Raise :class:`OverLimitError` where ``speaker`` is at one of ``limits`` (newest
        lines first: the windows' lines are the last ones kept)."""
        at_table = on_site = 0
        since = at - max(limits.table_seconds, limits.site_seconds)
        for line, said in zip(reversed(self._lines), reversed(self._speakers), strict=True):
            if line.at <= since:
                break
            if said != speaker:
                continue
            on_site += line.at > at - limits.site_seconds
            at_table += line.table_id == table_id and line.at > at - limits.table_seconds
        if at_table >= limits.table_most:
            raise OverLimitError("table")
        if on_site >= limits.site_most:
            raise OverLimitError("site")

    def _room(self, table_id: str, room: str) -> list[ChatLine]:
        with self._lock:
            return [line for line in self._lines if (line.table_id, line.room) == (table_id, room)]

    def recent(self, table_id: str, room: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` lines of a room, oldest first."""
        return self._room(table_id, room)[-limit:] if limit > 0 else []

    def line(self, line_id: int) -> ChatLine | None:
        """A line by id."""
        with self._lock:
            return self._lines[line_id - 1] if 0 < line_id <= len(self._lines) else None

    def around(self, line: ChatLine, count: int) -> list[ChatLine]:
        """Up to ``count`` lines of the room before ``line``, the line, and ``count`` after."""
        lines = self._room(line.table_id, line.room)
        place = next(index for index, found in enumerate(lines) if found.id == line.id)
        return lines[max(0, place - count) : place + count + 1]

    def reported(self, reporter: str, line_id: int) -> bool:
        """Whether ``reporter`` reported the line already."""
        with self._lock:
            return any(
                (report.reporter, report.message_id) == (reporter, line_id)
                for report in self._reports
            )

    def add_report(
        self,
        line: ChatLine,
        reporter: str,
        reporter_id: int | None,
        note: str,
        context: Sequence[ChatLine],
        at: float,
        most: int | None = None,
        seconds: float = 3600.0,
    ) -> int:
        """Keep a report with its context; its id.

        Raises:
            OverLimitError: the reporter (its account, else the name it reports as) has
                ``most`` reports in the last ``seconds`` (nothing kept).
        """
        with self._lock:
            if most is not None:
                filed = sum(
                    report.at > at - seconds
                    and (
                        report.reporter == reporter
                        if reporter_id is None
                        else report.reporter_id == reporter_id
                    )
                    for report in self._reports
                )
                if filed >= most:
                    raise OverLimitError("reports")
            number = len(self._reports) + 1
            self._reports.append(
                ChatReport(
                    number,
                    line.id,
                    line.table_id,
                    reporter,
                    reporter_id,
                    note,
                    tuple(context),
                    at,
                    line.account_id,
                )
            )
        return number

    def reports(self, limit: int, settled: bool = True) -> list[ChatReport]:
        """The reports, newest first (the open ones only unless ``settled``: a server without
        a database has no moderators, and settles none)."""
        with self._lock:
            found = [r for r in reversed(self._reports) if settled or r.resolved_at is None]
        return found[:limit]
