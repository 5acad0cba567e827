"""What moderators read (:mod:`fanfold.server.moderation`): the reports, the fair-play flags,
the appeals, the log, and an account's summary, each with the accounts' names."""

from __future__ import annotations

from typing import Any

from fanfold.server.moderators import data_of, find_account, named, person
from fanfold.server.store import Transaction

#: How many rows a moderator's list shows at most.
LISTED = 200


def list_reports(
    tx: Transaction, *, everything: bool = False, limit: int = LISTED
) -> list[dict[str, Any]]:
    """The open reports (``everything``: settled ones too), newest first, with their
    context and the names of the accounts."""
    data = data_of(tx)
    rows = data.reports(tx, everything=everything, limit=limit)
    found = named(data, tx, [n for row in rows for n in (row.reporter_id, row.reported_id)])
    return [
        {
            "id": row.id,
            "table": row.table_ref,
            "game": row.game,
            "rated": row.rated,
            "seat": row.seat,
            "moves": row.moves,
            "reason": row.reason,
            "note": row.note,
            "at": row.at,
            "reporter": person(found, row.reporter_id),
            "reported": person(found, row.reported_id),
            "resolved_at": row.resolved_at,
            "resolved_by": row.resolved_by,
            "resolution": row.resolution,
        }
        for row in rows
    ]


def list_flags(tx: Transaction, *, limit: int = LISTED) -> list[dict[str, Any]]:
    """The fair-play flags (accounts that shared an address or a device at a rated table),
    newest first, with the accounts' names."""
    data = data_of(tx)
    rows = data.flags(tx, limit=limit)
    found = named(data, tx, [n for row in rows for n in (row.first_account, row.second_account)])
    return [
        {
            "id": row.id,
            "table": row.table_id,
            "kind": row.kind,
            "first": person(found, row.first_account),
            "second": person(found, row.second_account),
            "at": row.at,
        }
        for row in rows
    ]


def list_appeals(tx: Transaction, *, limit: int = LISTED) -> list[dict[str, Any]]:
    """The appeals, newest first, with the account's name and whether it is closed still."""
    data = data_of(tx)
    rows = data.appeals(tx, limit=limit)
    found = named(data, tx, [row.account_id for row in rows])
    return [
        {"id": row.id, "account": person(found, row.account_id), "note": row.note, "at": row.at}
        for row in rows
    ]


def list_log(tx: Transaction, *, limit: int = LISTED) -> list[dict[str, Any]]:
    """The moderators' log, newest first."""
    return [
        {
            "id": row.id,
            "moderator": row.moderator,
            "moderator_id": row.moderator_id,
            "action": row.action,
            "account": row.account,
            "account_id": row.account_id,
            "note": row.note,
            "detail": row.detail,
            "at": row.at,
        }
        for row in data_of(tx).log(tx, limit=limit)
    ]


def account_summary(tx: Transaction, name: str) -> dict[str, Any]:
    """An account as a moderator looks at it: its role and state, the open reports about it,
    its flags, its appeals and the points refunded to others for its games.

    Raises:
        NotFoundError: no account is called that.
    """
    state = find_account(tx, name)
    counts = data_of(tx).summary_counts(tx, state.id, state.key)
    return {
        "id": state.id,
        "name": state.name,
        "role": state.role,
        "closed": state.closed,
        "open_reports": int(counts["open_reports"]),
        "flags": int(counts["flags"]),
        "appeals": int(counts["appeals"]),
        "refunded": float(counts["refunded"]),
    }
