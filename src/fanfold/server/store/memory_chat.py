"""Chat in one process's memory: the :class:`~fanfold.server.store.protocols.ChatStore` of
tests and of a server without a database (as :class:`~fanfold.server.store.memory.MemoryTables`
is the tables'). The limits are counted from the lines and reports it keeps, as the SQL store's
are (one process: its lock orders the counts)."""

from __future__ import annotations

import dataclasses
import threading

from fanfold.server.store.chat_records import ChatLine, ChatReport, LineLimits, OverLimitError
from fanfold.server.store.table_side_protocols import ChatStore


class MemoryChat(ChatStore):
    """Chat's lines and reports in lists, guarded by a lock (the server calls it from worker
    threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lines: list[ChatLine] = []
        #: Who said each line of :attr:`_lines` (its speaker key, or ``None``).
        self._speakers: list[str | None] = []
        self._reports: list[ChatReport] = []

    def _keep_line(self, line: ChatLine, speaker: str | None, limits: LineLimits | None) -> int:
        with self._lock:
            if limits is not None and speaker is not None:
                self._check(line.table_id, speaker, line.at, limits)
            number = len(self._lines) + 1
            self._lines.append(dataclasses.replace(line, id=number))
            self._speakers.append(speaker)
        return number

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

    def _keep_report(self, report: ChatReport, most: int | None, seconds: float) -> int:
        with self._lock:
            if most is not None:
                filed = sum(
                    kept.at > report.at - seconds
                    and (
                        kept.reporter == report.reporter
                        if report.reporter_id is None
                        else kept.reporter_id == report.reporter_id
                    )
                    for kept in self._reports
                )
                if filed >= most:
                    raise OverLimitError("reports")
            number = len(self._reports) + 1
            self._reports.append(dataclasses.replace(report, id=number))
        return number

    def reports(self, limit: int, settled: bool = True) -> list[ChatReport]:
        """The reports, newest first (the open ones only unless ``settled``: a server without
        a database has no moderators, and settles none)."""
        with self._lock:
            found = [r for r in reversed(self._reports) if settled or r.resolved_at is None]
        return found[:limit]
