"""What the chat store hands out, without SQL: a line said at a table, and a report of one."""

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
