"""What the chat store hands out, without SQL: a line said at a table, and a report of one; the
limits it counts them against, and its refusal of one over a limit."""

from __future__ import annotations

from dataclasses import dataclass

#: The rooms of a table: its players' (the seats) and its spectators'.
PLAYERS, SPECTATORS = "players", "spectators"


@dataclass(frozen=True)
class ChatLine:
    """A line said in a room of a table: who said it (an account, or a guest at a seat), the
    seat it was said from (``None``: a spectator), the text and when (``time.time()``)."""

    id: int
    table_id: str
    room: str
    account_id: int | None
    name: str
    seat: int | None
    text: str
    at: float


@dataclass(frozen=True)
class ChatReport:
    """A reported line, kept with the lines around it (``context``, oldest first, the
    reported line among them) as they were when it was reported."""

    id: int
    message_id: int
    table_id: str
    #: Who reported: an account's name, or a guest's seat.
    reporter: str
    reporter_id: int | None
    note: str
    context: tuple[ChatLine, ...]
    at: float
    #: The account that said the line (``None``: a guest, or a report kept before revision
    #: 0011).
    reported_id: int | None = None
    #: When a moderator settled it, who, and the note (``None``: open).
    resolved_at: float | None = None
    resolved_by: str | None = None
    resolution: str | None = None


@dataclass(frozen=True)
class LineLimits:
    """What one speaker may say, counted by the chat store from the lines it keeps (so that
    every server process on one store counts the same lines): at most ``table_most`` lines in
    ``table_seconds`` at one table and ``site_most`` in ``site_seconds`` at every table."""

    table_most: int
    table_seconds: float
    site_most: int
    site_seconds: float


class OverLimitError(Exception):
    """A line or a report the chat store did not keep: its speaker (or reporter) is at a
    limit. :attr:`which` says which: ``"table"``, ``"site"`` (:class:`LineLimits`) or
    ``"reports"``."""

    def __init__(self, which: str) -> None:
        super().__init__(f"over the chat's {which} limit")
        self.which = which
