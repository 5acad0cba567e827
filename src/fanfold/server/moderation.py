"""Moderation: moderators, players' reports, closed accounts, their appeals, the refunds of
the points lost to a closed account, and the log of every moderator's action.

* **Moderators** are accounts whose role (``accounts.role``) is
  :data:`~fanfold.server.accounts.MODERATOR`, granted and revoked on the server's machine
  (``fanfold moderate grant NAME`` / ``revoke NAME``): the site has no page that makes a
  moderator. A moderator signed in reads the open reports, the fair-play flags
  (:data:`fanfold.server.fairplay.fairplay_flags`), the appeals and the log, and closes and
  reopens accounts (``/moderation``, ``/api/moderation/...``).
* **Reports** (``reports``): a signed-in player who holds a seat at a table reports the
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
* **Refunds** (``rating_refunds``, one row per rated table and refunded player): for every
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
* **Appeals** (``appeals``): the owner of a closed account, who cannot sign in, sends a
  note with the account's name and password (checked as a sign-in is, under its limits, but
  no session is made: :meth:`fanfold.server.accounts.Accounts.check`); at most
  :data:`APPEALS_A_DAY` a day.
* **The log** (``moderation_log``): every moderator's action, from the site or from the
  command line: who, what, whom, the note, what it did and when. Moderators read it.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from fanfold.server.accounts import TooManyError
from fanfold.server.live import BadRequestError, ForbiddenError, NotFoundError
from fanfold.server.moderation_actions import (
    CLOSE,
    GRANT,
    MODERATOR_NOTE_LENGTH,
    REOPEN,
    RESOLVE,
    REVOKE,
    Closing,
    checked_note,
    close_account,
    reopen_account,
    resolve_report,
    set_role,
)
from fanfold.server.moderation_lists import (
    LISTED,
    account_summary,
    list_appeals,
    list_flags,
    list_log,
    list_reports,
)
from fanfold.server.moderators import (
    AccountState,
    Moderator,
    closed_account_keys,
    find_account,
    is_moderator,
    moderation_data,
    moderator_of,
    named,
    person,
)
from fanfold.server.refunds import EPSILON, Refund, refund_opponents
from fanfold.server.refusals import refusal
from fanfold.server.store.engine import Engine
from fanfold.server.store.moderation_records import ReportRecord
from fanfold.server.table_options import TableOptions

#: The kinds of report.
REASONS = ("cheating", "abuse", "boosting", "other")
#: A report's note and an appeal's note: at most this many characters.
NOTE_LENGTH = 500
APPEAL_LENGTH = 2000
#: Reports one player may file in :data:`REPORT_WINDOW` seconds.
REPORTS_A_DAY = 10
REPORT_WINDOW = 24 * 3600.0
#: Appeals one closed account may send in :data:`APPEAL_WINDOW` seconds.
APPEALS_A_DAY = 3
APPEAL_WINDOW = 24 * 3600.0

# SQLite has one process: its threads count reports and appeals one at a time (PostgreSQL
# locks the counted key for the transaction).
_counting = threading.Lock()


# ------------------------------------------------------- reports and appeals


def file_report(
    engine: Engine,
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
        raise BadRequestError(
            refusal("report.reason", reasons=", ".join(REASONS), reason=repr(reason))
        )
    text = note.strip()
    if len(text) > NOTE_LENGTH:
        raise BadRequestError(refusal("report.note_length", count=NOTE_LENGTH))
    now = time.time() if now is None else now
    data = moderation_data(engine)
    with _counting, data.begin() as tx:
        data.lock_counting(tx, f"report:{reporter_id}")
        found = data.table_of(tx, table_id)
        if found is None:
            raise NotFoundError(refusal("report.no_table", table=table_id))
        game, options_text = found
        held = data.seat_accounts(tx, table_id)
        if reporter_id not in held.values():
            raise ForbiddenError(refusal("report.players_only"))
        if seat not in held:
            raise BadRequestError(refusal("report.no_seat", seat=seat))
        reported = held[seat]
        if reported is None:
            raise BadRequestError(refusal("report.guest_seat", seat=seat))
        if reported == reporter_id:
            raise BadRequestError(refusal("report.own_seat"))
        filed = data.reports_since(tx, reporter_id, now - REPORT_WINDOW)
        if filed >= REPORTS_A_DAY:
            raise TooManyError(refusal("report.too_many", count=filed, most=REPORTS_A_DAY))
        again = data.open_report(tx, reporter_id, table_id, seat)
        if again is not None:
            raise BadRequestError(refusal("report.again", seat=seat, report=again))
        moves = data.moves_at(tx, table_id)
        rated = TableOptions.from_stored(json.loads(options_text)).rated
        number = data.add_report(
            tx,
            ReportRecord(
                id=0,
                reporter_id=reporter_id,
                reported_id=reported,
                table_ref=table_id,
                game=game[:40],
                seat=seat,
                rated=rated,
                moves=moves,
                reason=reason,
                note=text,
                at=now,
            ),
        )
        names = named(data, tx, [reporter_id, reported])
    return {
        "id": number,
        "table": table_id,
        "game": game,
        "rated": rated,
        "seat": seat,
        "moves": moves,
        "reason": reason,
        "note": text,
        "at": now,
        "reporter": person(names, reporter_id),
        "reported": person(names, reported),
        "resolved_at": None,
        "resolved_by": None,
        "resolution": None,
    }


def file_appeal(
    engine: Engine, account_id: int, note: str, now: float | None = None
) -> dict[str, Any]:
    """An appeal of the closed account ``account_id`` (its password checked by the caller).

    Raises:
        BadRequestError: the account is not closed, or no note, or a note too long.
        TooManyError: :data:`APPEALS_A_DAY` appeals in the last day.
    """
    text = checked_note(note, APPEAL_LENGTH)
    now = time.time() if now is None else now
    data = moderation_data(engine)
    with _counting, data.begin() as tx:
        data.lock_counting(tx, f"appeal:{account_id}")
        state = named(data, tx, [account_id]).get(account_id)
        if state is None or not state.closed:
            raise BadRequestError(refusal("appeal.not_closed"))
        sent = data.appeals_since(tx, account_id, now - APPEAL_WINDOW)
        if sent >= APPEALS_A_DAY:
            raise TooManyError(refusal("appeal.too_many", count=sent, most=APPEALS_A_DAY))
        number = data.add_appeal(tx, account_id, text, now)
    return {"id": number, "account": state.name, "at": now}


__all__ = [
    "APPEALS_A_DAY",
    "APPEAL_LENGTH",
    "CLOSE",
    "EPSILON",
    "GRANT",
    "LISTED",
    "MODERATOR_NOTE_LENGTH",
    "NOTE_LENGTH",
    "REASONS",
    "REOPEN",
    "REPORTS_A_DAY",
    "RESOLVE",
    "REVOKE",
    "AccountState",
    "Closing",
    "Moderator",
    "Refund",
    "account_summary",
    "close_account",
    "closed_account_keys",
    "file_appeal",
    "file_report",
    "find_account",
    "is_moderator",
    "list_appeals",
    "list_flags",
    "list_log",
    "list_reports",
    "moderator_of",
    "refund_opponents",
    "reopen_account",
    "resolve_report",
    "set_role",
]
