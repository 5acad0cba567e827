"""Moderation: moderators, players' reports, closed accounts, their appeals, the refunds of
the points lost to a closed account, and the log of every moderator's action.

* **Moderators** are accounts whose role (``accounts.role``) is
  :data:`~fanfold.server.accounts.MODERATOR`, granted and revoked on the server's machine
  (``fanfold moderate grant NAME`` / ``revoke NAME``): the site has no page that makes a
  moderator. A moderator signed in reads the open reports, the fair-play flags
  (:data:`fanfold.server.fairplay.fairplay_flags`), the appeals and the log, and closes and
  reopens accounts (``/moderation``, ``/api/moderation/...``).
* **Reports** (:data:`reports`): a signed-in player who holds a seat at a table reports the
  account at another seat of it, with a reason (:data:`REASONS`) and a note of at most
  :data:`NOTE_LENGTH` characters; at most :data:`REPORTS_A_DAY` reports a player in
  :data:`REPORT_WINDOW`, and one open report of a seat at a table by one player. The report
  keeps its context: the table, its game, whether it is rated, the seat, the reported
  account, the reporter and the moves played when it was filed (the table's own rows may go
  when an unfinished table expires; the report stays). There is no chat yet, so there is no
  chat to keep.
* **Closing an account** (:func:`close_account`), in one transaction: the account is marked
  closed (``accounts.closed``), every session of it ends, its open reports are settled, the
  points its opponents lost to it are given back (:func:`refund_opponents`), and the action
  is logged. A closed account cannot sign in (the sentence says how to appeal:
  :func:`fanfold.server.accounts.closed_sentence`) and leaves the leaderboards
  (:func:`closed_account_keys`). **Reopening** (:func:`reopen_account`) lets it sign in again;
  refunds are never taken back.
* **Refunds** (:data:`rating_refunds`, one row per rated table and refunded player): for every
  rated game of the closed account, every person of another team who ranked below it and lost
  points there gets back the points lost, all of them in a game of two teams; in a game of
  more, the share of the teams ranked above them that held a closed account (a third if one
  of three teams above them was the closed account's). The points come from the recorded
  rating changes (``mu_before - mu_after``, the repeated-results weight included) and are
  added to the player's current rating in that family; the deviation (``sigma``) and the
  games count are left as they are. Bot levels get nothing back (their ratings are measured
  strengths that many games move). A refund is given once: closing again, or closing,
  reopening and closing, gives nothing more for the same game; a second closed account at
  the same table tops the row up to its larger share. The ratings rows are locked in the
  order rating locks them (by player key, ``SELECT ... FOR UPDATE``:
  :meth:`fanfold.server.ratings.RatedGame.apply`), so a refund and a game ending at once wait
  for each other instead of deadlocking or losing an update.
* **Appeals** (:data:`appeals`): the owner of a closed account, who cannot sign in, sends a
  note with the account's name and password (checked as a sign-in is, under its limits, but
  no session is made: :meth:`fanfold.server.accounts.Accounts.check`); at most
  :data:`APPEALS_A_DAY` a day.
* **The log** (:data:`moderation_log`): every moderator's action, from the site or from the
  command line: who, what, whom, the note, what it did and when. Moderators read it.
"""

from __future__ import annotations

import getpass
import json
import threading
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from fanfold.server.accounts import (
    MODERATOR,
    PLAYER,
    Account,
    SignInError,
    TooManyError,
    accounts,
    sessions,
)
from fanfold.server.fairplay import fairplay_flags
from fanfold.server.live import BadRequestError, ForbiddenError, NotFoundError
from fanfold.server.ownership import lock_key
from fanfold.server.ratings import RATED, account_key, rating_changes, ratings
from fanfold.server.store import actions, metadata, seats, tables

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter_id", sa.Integer, nullable=False),
    sa.Column("reported_id", sa.Integer, nullable=False),
    # Not "table_id": an unfinished table that expires takes its rows with it
    # (Store.expire); its reports stay.
    sa.Column("table_ref", sa.String(40), nullable=False),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    # The moves (actions) played at the table when the report was filed.
    sa.Column("moves", sa.Integer, nullable=False),
    sa.Column("reason", sa.String(20), nullable=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    # Settled (by a moderator, or by closing the reported account): when, by whom, how.
    sa.Column("resolved_at", sa.Float, nullable=True),
    sa.Column("resolved_by", sa.String(80), nullable=True),
    sa.Column("resolution", sa.Text, nullable=True),
    sa.Index("reports_reporter", "reporter_id", "at"),
    sa.Index("reports_open", "resolved_at", "at"),
)

appeals = sa.Table(
    "appeals",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("appeals_account", "account_id", "at"),
)

#: The points given back to ``player`` for the rated game ``rated_table``, once: the primary
#: key makes a second row for the same game and player impossible.
rating_refunds = sa.Table(
    "rating_refunds",
    metadata,
    sa.Column("rated_table", sa.String(40), primary_key=True),
    sa.Column("player", sa.String(80), primary_key=True),
    sa.Column("family", sa.String(40), nullable=False),
    sa.Column("points", sa.Float, nullable=False),
    # The closed accounts (rating keys, space-separated) the points were lost to.
    sa.Column("closed_accounts", sa.String(400), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

moderation_log = sa.Table(
    "moderation_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    # The moderator's account (none: the command line, named in ``moderator``).
    sa.Column("moderator_id", sa.Integer, nullable=True),
    sa.Column("moderator", sa.String(80), nullable=False),
    sa.Column("action", sa.String(20), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("account", sa.String(40), nullable=True),
    sa.Column("note", sa.Text, nullable=False),
    # What the action did (sessions ended, points refunded, reports settled).
    sa.Column("detail", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("moderation_log_at", "at"),
)

#: The kinds of report.
REASONS = ("cheating", "abuse", "boosting", "other")
#: A report's note, an appeal's note and a moderator's note: at most this many characters.
NOTE_LENGTH = 500
APPEAL_LENGTH = 2000
MODERATOR_NOTE_LENGTH = 1000
#: Reports one player may file in :data:`REPORT_WINDOW` seconds.
REPORTS_A_DAY = 10
REPORT_WINDOW = 24 * 3600.0
#: Appeals one closed account may send in :data:`APPEAL_WINDOW` seconds.
APPEALS_A_DAY = 3
APPEAL_WINDOW = 24 * 3600.0
#: How many rows a moderator's list shows at most.
LISTED = 200
#: Refunds below this many points are none (rounding).
EPSILON = 1e-9
#: The actions of the log.
GRANT, REVOKE, CLOSE, REOPEN, RESOLVE = "grant", "revoke", "close", "reopen", "resolve"

# SQLite has one process: its threads count reports and appeals one at a time (PostgreSQL
# locks the counted key for the transaction).
_counting = threading.Lock()


@dataclass(frozen=True)
class Moderator:
    """Who acts: a moderator's account (``id``), or the command line (``id`` ``None``, named
    after the machine's user)."""

    id: int | None
    name: str

    @classmethod
    def console(cls) -> Moderator:
        """The command line, as the log names it: ``command line (USER)``."""
        try:
            user = getpass.getuser()
        except Exception:  # no user name to be had (a container without one)
            user = "unknown user"
        return cls(None, f"command line ({user})"[:80])


@dataclass(frozen=True)
class AccountState:
    """An account as moderation sees it."""

    id: int
    name: str
    role: str
    closed: bool

    @property
    def key(self) -> str:
        """Its key in the ratings (``a:ID``)."""
        return account_key(self.id)


@dataclass(frozen=True)
class Refund:
    """Points given back: to ``player`` (its name ``name``) for the rated game ``table``."""

    table: str
    player: str
    name: str
    family: str
    points: float


@dataclass(frozen=True)
class Closing:
    """What closing an account did."""

    account: AccountState
    was_closed: bool
    sessions_ended: int
    reports_settled: int
    refunds: list[Refund] = field(default_factory=list)

    @property
    def refunded(self) -> float:
        """The points given back, all together."""
        return sum(refund.points for refund in self.refunds)


# ----------------------------------------------------------------- reading


def closed_account_keys(connection: sa.Connection) -> set[str]:
    """The rating keys (``a:ID``, as :func:`fanfold.server.ratings.account_key` makes them) of
    every closed account: what the leaderboards leave out."""
    found = connection.execute(sa.select(accounts.c.id).where(accounts.c.closed.is_(True)))
    return {account_key(int(number)) for number in found.scalars()}


def _state(row: Any) -> AccountState:
    return AccountState(int(row.id), str(row.name), str(row.role), bool(row.closed))


def find_account(connection: sa.Connection, name: str) -> AccountState:
    """The account called ``name`` (any case).

    Raises:
        NotFoundError: no account is called that.
    """
    row = connection.execute(
        sa.select(accounts.c.id, accounts.c.name, accounts.c.role, accounts.c.closed).where(
            accounts.c.name_key == name.strip().lower()[:40]
        )
    ).first()
    if row is None:
        raise NotFoundError(f"no account is called {name.strip()!r}")
    return _state(row)


def _lock_account(connection: sa.Connection, name: str) -> AccountState:
    """The account called ``name``, its row locked for the transaction: an update that
    changes nothing, so that SQLite takes its write lock before anything is read (no other
    writer slips in between) and PostgreSQL locks the row.

    Raises:
        NotFoundError: no account is called that.
    """
    row = connection.execute(
        accounts.update()
        .where(accounts.c.name_key == name.strip().lower()[:40])
        .values(role=accounts.c.role)
        .returning(accounts.c.id, accounts.c.name, accounts.c.role, accounts.c.closed)
    ).first()
    if row is None:
        raise NotFoundError(f"no account is called {name.strip()!r}")
    return _state(row)


def moderator_of(engine: sa.Engine, account: Account | None) -> Moderator:
    """The moderator signed in as ``account``, read from the store at each request (a role
    revoked, or an account closed, counts at once).

    Raises:
        SignInError: nobody is signed in.
        ForbiddenError: the account is no moderator.
    """
    if account is None:
        raise SignInError("sign in with a moderator's account first")
    with engine.connect() as connection:
        row = connection.execute(
            sa.select(accounts.c.role, accounts.c.closed).where(accounts.c.id == account.id)
        ).first()
    if row is None or row.role != MODERATOR or row.closed:
        raise ForbiddenError("only the site's moderators may do this")
    return Moderator(account.id, account.name)


def is_moderator(engine: sa.Engine, account: Account | None) -> bool:
    """Whether ``account`` is a moderator's (open) account."""
    try:
        moderator_of(engine, account)
    except (SignInError, ForbiddenError):
        return False
    return True


def _names(connection: sa.Connection, ids: Iterable[int]) -> dict[int, AccountState]:
    wanted = sorted(set(ids))
    found: dict[int, AccountState] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        for row in connection.execute(
            sa.select(accounts.c.id, accounts.c.name, accounts.c.role, accounts.c.closed).where(
                accounts.c.id.in_(chunk)
            )
        ):
            found[int(row.id)] = _state(row)
    return found


def _person(found: dict[int, AccountState], number: int | None) -> dict[str, Any] | None:
    if number is None:
        return None
    state = found.get(int(number))
    if state is None:
        return {"id": int(number), "name": f"#{number}", "closed": False}
    return {"id": state.id, "name": state.name, "closed": state.closed}


def list_reports(
    connection: sa.Connection, *, everything: bool = False, limit: int = LISTED
) -> list[dict[str, Any]]:
    """The open reports (``everything``: settled ones too), newest first, with their
    context and the names of the accounts."""
    query = sa.select(reports).order_by(reports.c.at.desc(), reports.c.id.desc()).limit(limit)
    if not everything:
        query = query.where(reports.c.resolved_at.is_(None))
    rows = connection.execute(query).all()
    found = _names(connection, [n for row in rows for n in (row.reporter_id, row.reported_id)])
    return [
        {
            "id": int(row.id),
            "table": str(row.table_ref),
            "game": str(row.game),
            "rated": bool(row.rated),
            "seat": int(row.seat),
            "moves": int(row.moves),
            "reason": str(row.reason),
            "note": str(row.note),
            "at": float(row.at),
            "reporter": _person(found, row.reporter_id),
            "reported": _person(found, row.reported_id),
            "resolved_at": None if row.resolved_at is None else float(row.resolved_at),
            "resolved_by": row.resolved_by,
            "resolution": row.resolution,
        }
        for row in rows
    ]


def list_flags(connection: sa.Connection, *, limit: int = LISTED) -> list[dict[str, Any]]:
    """The fair-play flags (accounts that shared an address or a device at a rated table),
    newest first, with the accounts' names."""
    rows = connection.execute(
        sa.select(fairplay_flags)
        .order_by(fairplay_flags.c.at.desc(), fairplay_flags.c.id.desc())
        .limit(limit)
    ).all()
    found = _names(connection, [n for row in rows for n in (row.first_account, row.second_account)])
    return [
        {
            "id": int(row.id),
            "table": str(row.table_id),
            "kind": str(row.kind),
            "first": _person(found, row.first_account),
            "second": _person(found, row.second_account),
            "at": float(row.at),
        }
        for row in rows
    ]


def list_appeals(connection: sa.Connection, *, limit: int = LISTED) -> list[dict[str, Any]]:
    """The appeals, newest first, with the account's name and whether it is closed still."""
    rows = connection.execute(
        sa.select(appeals).order_by(appeals.c.at.desc(), appeals.c.id.desc()).limit(limit)
    ).all()
    found = _names(connection, [row.account_id for row in rows])
    return [
        {
            "id": int(row.id),
            "account": _person(found, row.account_id),
            "note": str(row.note),
            "at": float(row.at),
        }
        for row in rows
    ]


def list_log(connection: sa.Connection, *, limit: int = LISTED) -> list[dict[str, Any]]:
    """The moderators' log, newest first."""
    rows = connection.execute(
        sa.select(moderation_log)
        .order_by(moderation_log.c.at.desc(), moderation_log.c.id.desc())
        .limit(limit)
    ).all()
    return [
        {
            "id": int(row.id),
            "moderator": str(row.moderator),
            "moderator_id": None if row.moderator_id is None else int(row.moderator_id),
            "action": str(row.action),
            "account": row.account,
            "account_id": None if row.account_id is None else int(row.account_id),
            "note": str(row.note),
            "detail": str(row.detail),
            "at": float(row.at),
        }
        for row in rows
    ]


def account_summary(connection: sa.Connection, name: str) -> dict[str, Any]:
    """An account as a moderator looks at it: its role and state, the open reports about it,
    its flags, its appeals and the points refunded to others for its games.

    Raises:
        NotFoundError: no account is called that.
    """
    state = find_account(connection, name)

    def count(query: Any) -> int:
        return int(connection.execute(query).scalar_one())

    return {
        "id": state.id,
        "name": state.name,
        "role": state.role,
        "closed": state.closed,
        "open_reports": count(
            sa.select(sa.func.count()).where(
                reports.c.reported_id == state.id, reports.c.resolved_at.is_(None)
            )
        ),
        "flags": count(
            sa.select(sa.func.count()).where(
                sa.or_(
                    fairplay_flags.c.first_account == state.id,
                    fairplay_flags.c.second_account == state.id,
                )
            )
        ),
        "appeals": count(sa.select(sa.func.count()).where(appeals.c.account_id == state.id)),
        "refunded": float(
            connection.execute(
                sa.select(sa.func.coalesce(sa.func.sum(rating_refunds.c.points), 0.0)).where(
                    (" " + rating_refunds.c.closed_accounts + " ").contains(f" {state.key} ")
                )
            ).scalar_one()
        ),
    }


# ----------------------------------------------------------------- acting


def _note(note: str, limit: int = MODERATOR_NOTE_LENGTH) -> str:
    text = note.strip()
    if not text:
        raise BadRequestError("a note is needed: say why, for the log")
    if len(text) > limit:
        raise BadRequestError(f"a note has at most {limit} characters, not {len(text)}")
    return text


def _log(
    connection: sa.Connection,
    by: Moderator,
    action: str,
    account: AccountState | None,
    note: str,
    detail: str,
    now: float,
) -> None:
    connection.execute(
        moderation_log.insert().values(
            moderator_id=by.id,
            moderator=by.name[:80],
            action=action,
            account_id=None if account is None else account.id,
            account=None if account is None else account.name,
            note=note,
            detail=detail,
            at=now,
        )
    )


def set_role(
    engine: sa.Engine, name: str, role: str, by: Moderator, note: str = ""
) -> AccountState:
    """Make the account ``name`` a moderator (``role`` :data:`MODERATOR`) or a player again
    (:data:`PLAYER`), logged; returns it as it is now.

    Raises:
        NotFoundError: no account is called that.
        BadRequestError: it has that role already, or it is closed (granting).
    """
    if role not in (PLAYER, MODERATOR):
        raise BadRequestError(f"a role is {PLAYER!r} or {MODERATOR!r}, not {role!r}")
    now = time.time()
    with engine.begin() as connection:
        state = _lock_account(connection, name)
        if state.role == role:
            said = "a moderator" if role == MODERATOR else "no moderator"
            raise BadRequestError(f"{state.name} is {said} already")
        if role == MODERATOR and state.closed:
            raise BadRequestError(f"{state.name} is closed: reopen the account first")
        connection.execute(accounts.update().where(accounts.c.id == state.id).values(role=role))
        action = GRANT if role == MODERATOR else REVOKE
        _log(connection, by, action, state, note.strip(), f"role {state.role} -> {role}", now)
    return AccountState(state.id, state.name, role, state.closed)


def close_account(
    engine: sa.Engine, name: str, note: str, by: Moderator, now: float | None = None
) -> Closing:
    """Close the account ``name`` in one transaction: mark it closed, end its sessions,
    settle the open reports about it, give its opponents back the points they lost to it
    (:func:`refund_opponents`) and log it. Closing a closed account again closes nothing
    more, but refunds its rated games that ended since (a game it was playing) and is logged.

    A moderator on the site may not close their own account nor another moderator's
    (revoke the role first); the command line (``by.id`` ``None``) may.

    Raises:
        NotFoundError: no account is called that.
        BadRequestError: no note, or a note too long.
        ForbiddenError: a moderator's own account or another moderator's, from the site.
    """
    text = _note(note)
    now = time.time() if now is None else now
    with engine.begin() as connection:
        state = _lock_account(connection, name)
        if by.id is not None and state.id == by.id:
            raise ForbiddenError("a moderator does not close their own account")
        if by.id is not None and state.role == MODERATOR:
            raise ForbiddenError(
                f"{state.name} is a moderator: revoke the role first (fanfold moderate revoke)"
            )
        connection.execute(accounts.update().where(accounts.c.id == state.id).values(closed=True))
        ended = int(
            connection.execute(sessions.delete().where(sessions.c.account_id == state.id)).rowcount
        )
        settled = int(
            connection.execute(
                reports.update()
                .where(reports.c.reported_id == state.id, reports.c.resolved_at.is_(None))
                .values(
                    resolved_at=now,
                    resolved_by=by.name[:80],
                    resolution=f"account closed: {text}",
                )
            ).rowcount
        )
        refunds = refund_opponents(connection, state.id, now)
        points = sum(refund.points for refund in refunds)
        detail = (
            f"{'closed already; ' if state.closed else ''}{ended} session(s) ended, "
            f"{settled} report(s) settled, {points:.1f} point(s) refunded to "
            f"{len({r.player for r in refunds})} player(s) over "
            f"{len({r.table for r in refunds})} game(s)"
        )
        _log(connection, by, CLOSE, state, text, detail, now)
    return Closing(
        AccountState(state.id, state.name, state.role, True), state.closed, ended, settled, refunds
    )


def reopen_account(
    engine: sa.Engine, name: str, note: str, by: Moderator, now: float | None = None
) -> AccountState:
    """Reopen the closed account ``name``: it may sign in again (the refunds its closing
    gave stay given). Logged.

    Raises:
        NotFoundError: no account is called that.
        BadRequestError: it is not closed, or no note.
    """
    text = _note(note)
    now = time.time() if now is None else now
    with engine.begin() as connection:
        state = _lock_account(connection, name)
        if not state.closed:
            raise BadRequestError(f"{state.name} is not closed")
        connection.execute(accounts.update().where(accounts.c.id == state.id).values(closed=False))
        _log(connection, by, REOPEN, state, text, "may sign in again; refunds stay", now)
    return AccountState(state.id, state.name, state.role, False)


def resolve_report(
    engine: sa.Engine, report_id: int, note: str, by: Moderator, now: float | None = None
) -> dict[str, Any]:
    """Settle an open report (looked at, nothing more to do, or done), logged.

    Raises:
        NotFoundError: no such report.
        BadRequestError: settled already, or no note.
    """
    text = _note(note)
    now = time.time() if now is None else now
    with engine.begin() as connection:
        row = connection.execute(
            reports.update()
            .where(reports.c.id == report_id)
            .values(resolved_at=reports.c.resolved_at)  # takes the write lock first
            .returning(reports.c.resolved_at, reports.c.reported_id, reports.c.table_ref)
        ).first()
        if row is None:
            raise NotFoundError(f"no report {report_id}")
        if row.resolved_at is not None:
            raise BadRequestError(f"report {report_id} is settled already")
        connection.execute(
            reports.update()
            .where(reports.c.id == report_id)
            .values(resolved_at=now, resolved_by=by.name[:80], resolution=text)
        )
        reported = _names(connection, [row.reported_id]).get(int(row.reported_id))
        _log(connection, by, RESOLVE, reported, text, f"report {report_id} ({row.table_ref})", now)
    return {"id": report_id, "resolved_at": now, "resolved_by": by.name, "resolution": text}


# ---------------------------------------------------------------- refunds


def refund_opponents(connection: sa.Connection, account_id: int, now: float) -> list[Refund]:
    """In the caller's transaction (after the account is marked closed): give every person
    who lost points to the account ``account_id`` in a rated game those points back, once
    (see the module's text). The ratings rows are locked first, by player key as rating
    locks them; the refunds given before are read after the locks, so two closings at once
    give nothing twice. Returns what was given now."""
    key = account_key(account_id)
    own = {
        str(row.rated_table): row
        for row in connection.execute(
            sa.select(
                rating_changes.c.rated_table, rating_changes.c.team, rating_changes.c.rank
            ).where(rating_changes.c.player == key)
        )
    }
    if not own:
        return []
    at_table: dict[str, list[Any]] = defaultdict(list)
    ids = sorted(own)
    for start in range(0, len(ids), 500):
        for row in connection.execute(
            sa.select(rating_changes).where(
                rating_changes.c.rated_table.in_(ids[start : start + 500])
            )
        ):
            at_table[str(row.rated_table)].append(row)
    candidates = [
        row
        for table_id, mine in own.items()
        for row in at_table[table_id]
        if row.player != key
        and str(row.player).startswith("a:")
        and row.team != mine.team
        and row.rank > mine.rank
        and float(row.mu_after) < float(row.mu_before)
    ]
    if not candidates:
        return []
    _lock_ratings(connection, {(str(row.family), str(row.player)) for row in candidates})
    tables_ = sorted({str(row.rated_table) for row in candidates})
    given: dict[tuple[str, str], Any] = {}
    for start in range(0, len(tables_), 500):
        for row in connection.execute(
            sa.select(rating_refunds).where(
                rating_refunds.c.rated_table.in_(tables_[start : start + 500])
            )
        ):
            given[(str(row.rated_table), str(row.player))] = row
    closed = closed_account_keys(connection) | {key}
    refunds: list[Refund] = []
    for row in sorted(candidates, key=lambda r: (str(r.player), str(r.rated_table))):
        table_id, player = str(row.rated_table), str(row.player)
        before = given.get((table_id, player))
        causes = set(str(before.closed_accounts).split()) if before is not None else set()
        people = at_table[table_id]
        causes |= {str(other.player) for other in people if str(other.player) in closed}
        above = {
            int(other.team)
            for other in people
            if str(other.player) in causes and other.rank < row.rank and other.team != row.team
        }
        share = min(1.0, len(above) / max(1, int(row.rank) - 1))
        target = (float(row.mu_before) - float(row.mu_after)) * share
        already = float(before.points) if before is not None else 0.0
        more = target - already
        if more <= EPSILON:
            continue
        values = {
            "family": str(row.family),
            "points": target,
            "closed_accounts": " ".join(sorted(causes))[:400],
            "at": now,
        }
        if before is None:
            connection.execute(
                rating_refunds.insert().values(rated_table=table_id, player=player, **values)
            )
        else:
            connection.execute(
                rating_refunds.update()
                .where(rating_refunds.c.rated_table == table_id, rating_refunds.c.player == player)
                .values(**values)
            )
        refunds.append(Refund(table_id, player, player, str(row.family), more))
    totals: dict[tuple[str, str], float] = defaultdict(float)
    for refund in refunds:
        totals[(refund.player, refund.family)] += refund.points
    for (player, family), points in sorted(totals.items()):
        connection.execute(
            ratings.update()
            .where(ratings.c.family == family, ratings.c.player == player)
            .values(mu=ratings.c.mu + points, updated=now)
        )
    numbers = {r.player: int(r.player[2:]) for r in refunds if r.player[2:].isdigit()}
    named = _names(connection, numbers.values())
    return [
        Refund(
            r.table, r.player, _name_of(named, numbers.get(r.player), r.player), r.family, r.points
        )
        for r in refunds
    ]


def _name_of(found: dict[int, AccountState], number: int | None, otherwise: str) -> str:
    state = found.get(number) if number is not None else None
    return otherwise if state is None else state.name


def _lock_ratings(connection: sa.Connection, rows: set[tuple[str, str]]) -> None:
    """Lock the ratings rows (family, player) for the transaction in one order, by player key
    (and family), the order a rated game locks its players' rows in
    (:meth:`fanfold.server.ratings.RatedGame.apply`)."""
    players = sorted({player for _, player in rows})
    families = sorted({family for family, _ in rows})
    for start in range(0, len(players), 500):
        connection.execute(
            sa.select(ratings.c.family, ratings.c.player)
            .where(
                ratings.c.player.in_(players[start : start + 500]),
                ratings.c.family.in_(families),
            )
            .order_by(ratings.c.player, ratings.c.family)
            .with_for_update()
        ).all()


# ------------------------------------------------------- reports and appeals


def _lock_counting(connection: sa.Connection, key: str) -> None:
    """On PostgreSQL, hold the advisory lock of ``key`` for the transaction, so that two
    reports (appeals) of one player at once are counted one after the other."""
    if connection.dialect.name == "postgresql":
        connection.execute(sa.select(sa.func.pg_advisory_xact_lock(lock_key(f"moderation {key}"))))


def file_report(
    engine: sa.Engine,
    reporter_id: int,
    table_id: str,
    seat: int,
    reason: str,
    note: str,
    now: float | None = None,
) -> dict[str, Any]:
    """A report by the account ``reporter_id``, who holds a seat at ``table_id``, of the
    account at ``seat`` there; returns it with its context.

    Raises:
        NotFoundError: no such table.
        ForbiddenError: the reporter holds no seat at the table.
        BadRequestError: an unknown reason, a note too long, a seat held by no account (a
            guest, a bot) or by the reporter, or a seat reported by this reporter already
            (the report is open still).
        TooManyError: :data:`REPORTS_A_DAY` reports in the last day.
    """
    if reason not in REASONS:
        raise BadRequestError(f"a report's reason is one of {', '.join(REASONS)}, not {reason!r}")
    text = note.strip()
    if len(text) > NOTE_LENGTH:
        raise BadRequestError(f"a report's note has at most {NOTE_LENGTH} characters")
    now = time.time() if now is None else now
    with _counting, engine.begin() as connection:
        _lock_counting(connection, f"report:{reporter_id}")
        found = connection.execute(
            sa.select(tables.c.game, tables.c.options).where(tables.c.id == table_id)
        ).first()
        if found is None:
            raise NotFoundError(f"no table {table_id}")
        held = {
            int(row.seat): None if row.account_id is None else int(row.account_id)
            for row in connection.execute(
                sa.select(seats.c.seat, seats.c.account_id).where(seats.c.table_id == table_id)
            )
        }
        if reporter_id not in held.values():
            raise ForbiddenError("only a player at the table may report one of its players")
        if seat not in held:
            raise BadRequestError(f"the table has no seat {seat}")
        reported = held[seat]
        if reported is None:
            raise BadRequestError(
                f"seat {seat} is not held by a signed-in player: only accounts are reported"
            )
        if reported == reporter_id:
            raise BadRequestError("that seat is yours: report another player")
        filed = int(
            connection.execute(
                sa.select(sa.func.count()).where(
                    reports.c.reporter_id == reporter_id, reports.c.at > now - REPORT_WINDOW
                )
            ).scalar_one()
        )
        if filed >= REPORTS_A_DAY:
            raise TooManyError(
                f"you filed {filed} reports in the last day, the most a player may "
                f"({REPORTS_A_DAY} a day); a moderator reads them all, try again tomorrow"
            )
        again = connection.execute(
            sa.select(reports.c.id).where(
                reports.c.reporter_id == reporter_id,
                reports.c.table_ref == table_id,
                reports.c.seat == seat,
                reports.c.resolved_at.is_(None),
            )
        ).first()
        if again is not None:
            raise BadRequestError(
                f"you reported seat {seat} at this table already (report {again.id}); a "
                "moderator will look at it"
            )
        moves = int(
            connection.execute(
                sa.select(sa.func.count()).where(actions.c.table_id == table_id)
            ).scalar_one()
        )
        options = json.loads(found.options or "{}")
        rated = bool(options.get(RATED)) if isinstance(options, dict) else False
        number = connection.execute(
            reports.insert()
            .values(
                reporter_id=reporter_id,
                reported_id=reported,
                table_ref=table_id,
                game=str(found.game)[:40],
                seat=seat,
                rated=rated,
                moves=moves,
                reason=reason,
                note=text,
                at=now,
            )
            .returning(reports.c.id)
        ).scalar_one()
        names = _names(connection, [reporter_id, reported])
    return {
        "id": int(number),
        "table": table_id,
        "game": str(found.game),
        "rated": rated,
        "seat": seat,
        "moves": moves,
        "reason": reason,
        "note": text,
        "at": now,
        "reporter": _person(names, reporter_id),
        "reported": _person(names, reported),
        "resolved_at": None,
        "resolved_by": None,
        "resolution": None,
    }


def file_appeal(
    engine: sa.Engine, account_id: int, note: str, now: float | None = None
) -> dict[str, Any]:
    """An appeal of the closed account ``account_id`` (its password checked by the caller).

    Raises:
        BadRequestError: the account is not closed, or no note, or a note too long.
        TooManyError: :data:`APPEALS_A_DAY` appeals in the last day.
    """
    text = _note(note, APPEAL_LENGTH)
    now = time.time() if now is None else now
    with _counting, engine.begin() as connection:
        _lock_counting(connection, f"appeal:{account_id}")
        state = _names(connection, [account_id]).get(account_id)
        if state is None or not state.closed:
            raise BadRequestError("this account is not closed: sign in as usual")
        sent = int(
            connection.execute(
                sa.select(sa.func.count()).where(
                    appeals.c.account_id == account_id, appeals.c.at > now - APPEAL_WINDOW
                )
            ).scalar_one()
        )
        if sent >= APPEALS_A_DAY:
            raise TooManyError(
                f"{sent} appeals were sent for this account in the last day, the most "
                f"({APPEALS_A_DAY} a day); the moderators read them all"
            )
        number = connection.execute(
            appeals.insert()
            .values(account_id=account_id, note=text, at=now)
            .returning(appeals.c.id)
        ).scalar_one()
    return {"id": int(number), "account": state.name, "at": now}
