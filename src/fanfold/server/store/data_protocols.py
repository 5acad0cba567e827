"""What the server asks of its accounts, ratings, fair play and moderation data, one
:class:`typing.Protocol` a subject (:mod:`fanfold.server.store.protocols` has the tables' and
the coordination's, and names them all). Their SQL stores implement them; a method that takes a
:class:`~fanfold.server.store.records.Transaction` works inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Protocol

from fanfold.server.store.moderation_records import (
    AccountRecord,
    AppealRecord,
    FlagRecord,
    LogRecord,
    RefundRecord,
    ReportRecord,
)
from fanfold.server.store.profile_reads import FinishedSeat, Results, Win
from fanfold.server.store.records import (
    AccountRow,
    Flag,
    Origin,
    RatingChange,
    RatingRow,
    Transaction,
)


class Subject(Protocol):
    """What every subject's store opens: transactions, and connections to read with."""

    def begin(self) -> AbstractContextManager[Transaction]:
        """A transaction, committed when the block ends (rolled back on an error)."""

    def reading(self) -> AbstractContextManager[Transaction]:
        """A connection to read with."""


class AccountStore(Protocol):
    """Accounts, sessions, the server's shared keys and the counted attempts (sign-ins,
    sign-ups, tables opened by a client)."""

    def begin(self) -> AbstractContextManager[Transaction]:
        """A transaction (for the counting methods)."""

    def stored_key(self, name: str, fresh: str) -> str:
        """The key ``name``, ``fresh`` stored now if there was none."""

    def replace_key(self, name: str, value: str) -> str | None:
        """Keep ``value`` as the key ``name``; returns the one it replaces (``None``: none)."""

    def find(self, name_key: str) -> AccountRow | None:
        """The account called ``name_key`` (lower case)."""

    def name_taken(self, name_key: str) -> bool:
        """Whether an account is called ``name_key``."""

    def add_account(self, name: str, password_hash: str, created: float) -> int | None:
        """A new account's id (``None``: the name is taken)."""

    def set_hash(self, account_id: int, hashed: str) -> None:
        """Store an account's new password hash."""

    def name_of(self, account_id: int) -> str | None:
        """An account's name."""

    def add_session(self, account_id: int, hashed: str, now: float, expires: float) -> None:
        """A new session (its token's hash), the account's ended sessions deleted."""

    def session_account(self, hashed: str, now: float) -> tuple[int, str] | None:
        """The open account of a live session: id and name."""

    def end_session(self, hashed: str) -> None:
        """End one session."""

    def end_sessions(self, account_id: int) -> int:
        """End every session of an account; how many."""

    def delete_expired(self, now: float, counted_before: float) -> int:
        """Delete the ended sessions and the old counted rows; how many sessions."""

    def lock_counted(self, tx: Transaction, keys: Iterable[str]) -> None:
        """Hold the counted keys for the transaction (several processes count one at a
        time)."""

    def forget_counted(self, tx: Transaction, keys: Sequence[str], before: float) -> None:
        """Delete the keys' rows counted at ``before`` or earlier."""

    def counted_since(self, tx: Transaction, key: str, since: float) -> int:
        """How many rows ``key`` has after ``since``."""

    def counted_at(self, tx: Transaction, key: str, since: float, place: int) -> float:
        """When the key's row number ``place`` after ``since`` (oldest first) was counted."""

    def last_counted(self, tx: Transaction, key: str, since: float) -> tuple[int, float | None]:
        """How many rows ``key`` has after ``since``, and the last one's time."""

    def count(self, tx: Transaction, key: str, at: float) -> int:
        """Count one row for ``key``; its id."""

    def forgive(self, ids: Sequence[int], key: str) -> None:
        """Delete the rows ``ids`` and every row of ``key``."""


class RatingStore(Subject, Protocol):
    """Ratings: what a rated game's end writes (in the transaction that stores it) and what
    the leaderboards, the profiles and the bot levels' pages read."""

    def mark_rated(self, tx: Transaction, table_id: str, game: str, family: str, at: float) -> bool:
        """Note that the table's game is rated; False when it was already."""

    def rated_by(self, tx: Transaction, table_id: str) -> set[str]:
        """The players the table has moved already."""

    def lock_ratings(
        self, tx: Transaction, family: str, starting: Mapping[str, tuple[float, float]], now: float
    ) -> dict[str, RatingRow]:
        """The players' ratings, locked by player key (made from ``starting`` if missing)."""

    def record_changes(self, tx: Transaction, changes: Sequence[RatingChange], now: float) -> None:
        """Move the players' ratings (a game more each) and keep the changes."""

    def opponents(
        self, tx: Transaction, family: str, people: Sequence[str]
    ) -> dict[str, tuple[int, int]]:
        """Each person's rated games of a family, and different opponents in them."""

    def family_ratings(self, tx: Transaction, family: str) -> list[RatingRow]:
        """A family's ratings moved by a game, best first."""

    def unplayed_bots(self, tx: Transaction, family: str) -> list[RatingRow]:
        """A family's bot levels' rows no game has moved yet."""

    def rating(self, tx: Transaction, family: str, player: str) -> RatingRow | None:
        """One rating."""

    def ratings_of(self, tx: Transaction, family: str, players: Sequence[str]) -> list[RatingRow]:
        """The ratings of some players in a family."""

    def player_ratings(self, tx: Transaction, player: str) -> list[RatingRow]:
        """A player's ratings in every family."""

    def history(
        self, tx: Transaction, player: str, family: str | None = None
    ) -> list[RatingChange]:
        """A player's latest rating changes, newest first."""

    def changes_at(
        self,
        tx: Transaction,
        rated_tables: Sequence[str],
        *,
        other_than: str | None = None,
        people_only: bool = False,
    ) -> list[RatingChange]:
        """The rating changes of some rated tables."""

    def table_changes(self, tx: Transaction, table_id: str) -> list[RatingChange]:
        """A rated table's changes, by seat."""

    def rated_family(self, tx: Transaction, table_id: str) -> str | None:
        """The family a table was rated in."""

    def table_exists(self, tx: Transaction, table_id: str) -> bool:
        """Whether the table exists."""

    def seat_names(self, tx: Transaction, table_id: str) -> list[tuple[int, str]]:
        """A table's seats held by accounts, with their names."""

    def account_named(self, tx: Transaction, name_key: str) -> tuple[int, str] | None:
        """An account by name (lower case): id and name."""

    def account_names(self, tx: Transaction, ids: Iterable[int]) -> dict[int, str]:
        """Accounts' names by id."""

    def unfinished_seats(
        self, tx: Transaction, account_id: int, limit: int
    ) -> list[tuple[str, int]]:
        """The seats an account holds at unfinished tables (table id, seat), newest first."""


class ProfileStore(Subject, Protocol):
    """A player's record, as the profile page reads it: finished games only."""

    def family_results(self, tx: Transaction, player: str) -> list[Results]:
        """A player's rated games and results in each family."""

    def best_wins(self, tx: Transaction, player: str, limit: int) -> list[Win]:
        """A player's rated wins against the highest-rated opponents."""

    def met_opponents(self, tx: Transaction, player: str, limit: int) -> list[Results]:
        """The opponents a player met most in rated games, with the results."""

    def finished_seats(self, tx: Transaction, account_id: int, limit: int) -> list[FinishedSeat]:
        """An account's seats at finished tables, the latest first."""

    def reviewed(self, tx: Transaction, table_ids: Sequence[str], version: int) -> set[str]:
        """Which tables have a done review of ``version``."""

    def closed_among(self, tx: Transaction, account_ids: Collection[int]) -> set[int]:
        """Which of the accounts ``account_ids`` are closed (a profile does not name them)."""


class FairPlayStore(Protocol):
    """Where rated seats were taken from, the flags of accounts that shared an origin, and
    the repeated games between the same people."""

    def record_origins(self, origins: Sequence[Origin]) -> None:
        """Keep where seats were taken from."""

    def origins(self, tx: Transaction, table_id: str) -> list[Origin]:
        """Where a table's seats were taken from."""

    def add_flags(self, tx: Transaction, flags: Sequence[Flag]) -> None:
        """Keep flags."""

    def games_together(
        self, tx: Transaction, player: str, people: Sequence[str], since: float, table_id: str
    ) -> int:
        """The most rated games a player played with any one of ``people`` lately."""

    def delete_origins(self, before: float) -> int:
        """Delete the old origins; how many."""


class ModerationStore(Subject, Protocol):
    """Roles, closed accounts, reports, appeals, the moderators' log and the refunds."""

    def closed_accounts(self, tx: Transaction) -> set[int]:
        """The closed accounts' ids."""

    def account(self, tx: Transaction, name_key: str) -> AccountRecord | None:
        """An account by name (lower case)."""

    def lock_account(self, tx: Transaction, name_key: str) -> AccountRecord | None:
        """An account by name, locked for the transaction."""

    def role(self, tx: Transaction, account_id: int) -> tuple[str, bool] | None:
        """An account's role and whether it is closed."""

    def accounts_by_id(self, tx: Transaction, ids: Iterable[int]) -> dict[int, AccountRecord]:
        """Accounts by id."""

    def reports(self, tx: Transaction, *, everything: bool, limit: int) -> list[ReportRecord]:
        """The (open) reports, newest first."""

    def flags(self, tx: Transaction, *, limit: int) -> list[FlagRecord]:
        """The fair-play flags, newest first."""

    def appeals(self, tx: Transaction, *, limit: int) -> list[AppealRecord]:
        """The appeals, newest first."""

    def log(self, tx: Transaction, *, limit: int) -> list[LogRecord]:
        """The moderators' log, newest first."""

    def summary_counts(self, tx: Transaction, account_id: int, key: str) -> dict[str, float]:
        """An account's open reports, flags, appeals and points refunded for its games."""

    def set_role(self, tx: Transaction, account_id: int, role: str) -> None:
        """Give an account a role."""

    def set_closed(self, tx: Transaction, account_id: int, closed: bool) -> None:
        """Close or reopen an account."""

    def end_sessions(self, tx: Transaction, account_id: int) -> int:
        """End an account's sessions; how many."""

    def settle_reports_about(
        self, tx: Transaction, account_id: int, at: float, by: str, resolution: str
    ) -> int:
        """Settle the open reports about an account; how many."""

    def add_log(self, tx: Transaction, entry: LogRecord) -> None:
        """Keep an entry of the log."""

    def lock_report(self, tx: Transaction, report_id: int) -> ReportRecord | None:
        """A report, locked for the transaction."""

    def resolve(self, tx: Transaction, report_id: int, at: float, by: str, resolution: str) -> None:
        """Settle a report."""

    def lock_counting(self, tx: Transaction, key: str) -> None:
        """Hold a counted key for the transaction."""

    def table_of(self, tx: Transaction, table_id: str) -> tuple[str, str] | None:
        """A table's game and stored options (JSON text)."""

    def seat_accounts(self, tx: Transaction, table_id: str) -> dict[int, int | None]:
        """The account at each seat of a table."""

    def moves_at(self, tx: Transaction, table_id: str) -> int:
        """A table's stored actions."""

    def reports_since(self, tx: Transaction, reporter_id: int, since: float) -> int:
        """A player's reports lately."""

    def open_report(
        self, tx: Transaction, reporter_id: int, table_id: str, seat: int
    ) -> int | None:
        """A player's open report of a seat, if any."""

    def add_report(self, tx: Transaction, report: ReportRecord) -> int:
        """Keep a report; its id."""

    def appeals_since(self, tx: Transaction, account_id: int, since: float) -> int:
        """An account's appeals lately."""

    def add_appeal(self, tx: Transaction, account_id: int, note: str, at: float) -> int:
        """Keep an appeal; its id."""

    def results_of(self, tx: Transaction, player: str) -> dict[str, tuple[int, int]]:
        """A player's rated tables: team and rank at each."""

    def changes_of_tables(self, tx: Transaction, rated_tables: Sequence[str]) -> list[RatingChange]:
        """Every rating change of some rated tables."""

    def lock_rating_rows(self, tx: Transaction, rows: set[tuple[str, str]]) -> None:
        """Lock ratings rows (family, player) in the order rating locks them."""

    def refunds_at(
        self, tx: Transaction, rated_tables: Sequence[str]
    ) -> dict[tuple[str, str], RefundRecord]:
        """The refunds given for some rated tables."""

    def keep_refund(self, tx: Transaction, refund: RefundRecord, *, new: bool) -> None:
        """Keep a refund (new, or topped up)."""

    def add_points(
        self, tx: Transaction, family: str, player: str, points: float, at: float
    ) -> None:
        """Add points to a rating."""
