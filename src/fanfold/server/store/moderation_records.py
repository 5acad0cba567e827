"""What the moderation store hands out, without SQL: accounts as moderation sees them, reports,
flags, appeals, the log's entries and the refunds given."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AccountRecord:
    """An account's id, name, role and whether it is closed."""

    id: int
    name: str
    role: str
    closed: bool


@dataclass(frozen=True)
class ReportRecord:
    """A player's report of another seat's account, with its context."""

    id: int
    reporter_id: int
    reported_id: int
    table_ref: str
    game: str
    seat: int
    rated: bool
    moves: int
    reason: str
    note: str
    at: float
    resolved_at: float | None = None
    resolved_by: str | None = None
    resolution: str | None = None


@dataclass(frozen=True)
class FlagRecord:
    """A fair-play flag as kept: two accounts that shared an address or a device."""

    id: int
    table_id: str
    kind: str
    first_account: int
    second_account: int
    at: float


@dataclass(frozen=True)
class AppealRecord:
    """A closed account's appeal."""

    id: int
    account_id: int
    note: str
    at: float


@dataclass(frozen=True)
class LogRecord:
    """One entry of the moderators' log (``id`` 0 before it is kept)."""

    moderator_id: int | None
    moderator: str
    action: str
    account_id: int | None
    account: str | None
    note: str
    detail: str
    at: float
    id: int = 0


@dataclass(frozen=True)
class RefundRecord:
    """Points given back to ``player`` for the rated game ``rated_table``, and the closed
    accounts (rating keys, space-separated) they were lost to."""

    rated_table: str
    player: str
    family: str
    points: float
    closed_accounts: str
    at: float
