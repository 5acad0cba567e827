"""A moderator's actions on accounts and reports (:mod:`fanfold.server.moderation` says what
each does): granting and revoking the role, closing and reopening an account, settling a
report (a player's, or a line of chat's); each in one transaction, and logged."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from fanfold.server.accounts import MODERATOR, PLAYER
from fanfold.server.live import BadRequestError, ForbiddenError, NotFoundError
from fanfold.server.moderators import (
    AccountState,
    Moderator,
    lock_account,
    moderation_data,
    named,
)
from fanfold.server.refunds import Refund, refund_opponents
from fanfold.server.refusals import refusal
from fanfold.server.store import Transaction
from fanfold.server.store.chat_store import SqlChat
from fanfold.server.store.engine import Engine
from fanfold.server.store.moderation_records import LogRecord
from fanfold.server.store.protocols import ModerationStore
from fanfold.server.store.table_side_protocols import ChatSettling

#: A moderator's note: at most this many characters.
MODERATOR_NOTE_LENGTH = 1000
#: The actions of the log.
GRANT, REVOKE, CLOSE, REOPEN, RESOLVE = "grant", "revoke", "close", "reopen", "resolve"


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


# ----------------------------------------------------------------- acting


def checked_note(note: str, limit: int = MODERATOR_NOTE_LENGTH) -> str:
    """``note`` without the spaces around it, if it may be a note of at most ``limit``
    characters (a moderator's, by default).

    Raises:
        BadRequestError: no note, or a note too long.
    """
    text = note.strip()
    if not text:
        raise BadRequestError(refusal("moderation.note_needed"))
    if len(text) > limit:
        raise BadRequestError(refusal("moderation.note_length", most=limit, count=len(text)))
    return text


def _log(
    data: ModerationStore,
    tx: Transaction,
    by: Moderator,
    action: str,
    account: AccountState | None,
    note: str,
    detail: str,
    now: float,
) -> None:
    data.add_log(
        tx,
        LogRecord(
            moderator_id=by.id,
            moderator=by.name[:80],
            action=action,
            account_id=None if account is None else account.id,
            account=None if account is None else account.name,
            note=note,
            detail=detail,
            at=now,
        ),
    )


def set_role(engine: Engine, name: str, role: str, by: Moderator, note: str = "") -> AccountState:
    """Make the account ``name`` a moderator (``role`` :data:`MODERATOR`) or a player again
    (:data:`PLAYER`), logged; returns it as it is now.

    Raises:
        NotFoundError: no account is called that.
        BadRequestError: it has that role already, or it is closed (granting).
    """
    if role not in (PLAYER, MODERATOR):
        raise BadRequestError(refusal("moderation.role", role=repr(role)))
    now = time.time()
    data = moderation_data(engine)
    with data.begin() as tx:
        state = lock_account(data, tx, name)
        if state.role == role:
            if role == MODERATOR:
                raise BadRequestError(refusal("moderation.moderator_already", name=state.name))
            raise BadRequestError(refusal("moderation.player_already", name=state.name))
        if role == MODERATOR and state.closed:
            raise BadRequestError(refusal("moderation.closed", name=state.name))
        data.set_role(tx, state.id, role)
        action = GRANT if role == MODERATOR else REVOKE
        _log(data, tx, by, action, state, note.strip(), f"role {state.role} -> {role}", now)
    return AccountState(state.id, state.name, role, state.closed)


def close_account(
    engine: Engine, name: str, note: str, by: Moderator, now: float | None = None
) -> Closing:
    """Close the account ``name`` in one transaction: mark it closed, end its sessions,
    settle the open reports about it (and of its lines of chat, as "account closed"), give
    its opponents back the points they lost to it (:func:`refund_opponents`) and log it.
    Closing a closed account again closes nothing more, but refunds its rated games that
    ended since (a game it was playing) and is logged.

    A moderator on the site may not close their own account nor another moderator's
    (revoke the role first); the command line (``by.id`` ``None``) may.

    Raises:
        NotFoundError: no account is called that.
        BadRequestError: no note, or a note too long.
        ForbiddenError: a moderator's own account or another moderator's, from the site.
    """
    text = checked_note(note)
    now = time.time() if now is None else now
    data = moderation_data(engine)
    with data.begin() as tx:
        state = lock_account(data, tx, name)
        if by.id is not None and state.id == by.id:
            raise ForbiddenError(refusal("moderation.own_account"))
        if by.id is not None and state.role == MODERATOR:
            raise ForbiddenError(refusal("moderation.revoke_first", name=state.name))
        data.set_closed(tx, state.id, True)
        ended = data.end_sessions(tx, state.id)
        resolution = f"account closed: {text}"
        settled = data.settle_reports_about(tx, state.id, now, by.name[:80], resolution)
        chat: ChatSettling = SqlChat.of(tx)
        chat_settled = chat.settle_reports_about(tx, state.id, now, by.name[:80], resolution)
        settled += chat_settled
        refunds = refund_opponents(tx, state.id, now)
        points = sum(refund.points for refund in refunds)
        detail = (
            f"{'closed already; ' if state.closed else ''}{ended} session(s) ended, "
            f"{settled} report(s) settled ({chat_settled} of chat), {points:.1f} point(s) "
            "refunded to "
            f"{len({r.player for r in refunds})} player(s) over "
            f"{len({r.table for r in refunds})} game(s)"
        )
        _log(data, tx, by, CLOSE, state, text, detail, now)
    return Closing(
        AccountState(state.id, state.name, state.role, True), state.closed, ended, settled, refunds
    )


def reopen_account(
    engine: Engine, name: str, note: str, by: Moderator, now: float | None = None
) -> AccountState:
    """Reopen the closed account ``name``: it may sign in again (the refunds its closing
    gave stay given). Logged.

    Raises:
        NotFoundError: no account is called that.
        BadRequestError: it is not closed, or no note.
    """
    text = checked_note(note)
    now = time.time() if now is None else now
    data = moderation_data(engine)
    with data.begin() as tx:
        state = lock_account(data, tx, name)
        if not state.closed:
            raise BadRequestError(refusal("moderation.not_closed", name=state.name))
        data.set_closed(tx, state.id, False)
        _log(data, tx, by, REOPEN, state, text, "may sign in again; refunds stay", now)
    return AccountState(state.id, state.name, state.role, False)


def resolve_report(
    engine: Engine, report_id: int, note: str, by: Moderator, now: float | None = None
) -> dict[str, Any]:
    """Settle an open report (looked at, nothing more to do, or done), logged.

    Raises:
        NotFoundError: no such report.
        BadRequestError: settled already, or no note.
    """
    text = checked_note(note)
    now = time.time() if now is None else now
    data = moderation_data(engine)
    with data.begin() as tx:
        row = data.lock_report(tx, report_id)
        if row is None:
            raise NotFoundError(refusal("moderation.no_report", report=report_id))
        if row.resolved_at is not None:
            raise BadRequestError(refusal("moderation.report_settled", report=report_id))
        data.resolve(tx, report_id, now, by.name[:80], text)
        reported = named(data, tx, [row.reported_id]).get(row.reported_id)
        _log(data, tx, by, RESOLVE, reported, text, f"report {report_id} ({row.table_ref})", now)
    return {"id": report_id, "resolved_at": now, "resolved_by": by.name, "resolution": text}


def settle_chat_report(
    engine: Engine, report_id: int, note: str, by: Moderator, now: float | None = None
) -> dict[str, Any]:
    """Settle an open report of a line of chat (looked at, nothing more to do, or done),
    logged with the account that said the line.

    Raises:
        NotFoundError: no such report.
        BadRequestError: settled already, or no note.
    """
    text = checked_note(note)
    now = time.time() if now is None else now
    data = moderation_data(engine)
    with data.begin() as tx:
        chat: ChatSettling = SqlChat.of(tx)
        report = chat.lock_report(tx, report_id)
        if report is None:
            raise NotFoundError(refusal("moderation.no_chat_report", report=report_id))
        if report.resolved_at is not None:
            raise BadRequestError(refusal("moderation.chat_report_settled", report=report_id))
        chat.settle(tx, report_id, now, by.name[:80], text)
        said = report.reported_id
        reported = None if said is None else named(data, tx, [said]).get(said)
        detail = f"chat report {report_id} ({report.table_id})"
        _log(data, tx, by, RESOLVE, reported, text, detail, now)
    return {"id": report_id, "resolved_at": now, "resolved_by": by.name, "resolution": text}
