"""The refunds of the points lost to a closed account (:mod:`fanfold.server.moderation` says
who gets what): computed here from the recorded rating changes, kept once by the moderation
store."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from fanfold.server.moderators import AccountState, closed_account_keys, data_of, named
from fanfold.server.ratings import account_key
from fanfold.server.store import Transaction
from fanfold.server.store.moderation_records import RefundRecord
from fanfold.server.store.records import RatingChange

#: Refunds below this many points are none (rounding).
EPSILON = 1e-9


@dataclass(frozen=True)
class Refund:
    """Points given back: to ``player`` (its name ``name``) for the rated game ``table``."""

    table: str
    player: str
    name: str
    family: str
    points: float


def refund_opponents(tx: Transaction, account_id: int, now: float) -> list[Refund]:
    """In the caller's transaction (after the account is marked closed): give every person
    who lost points to the account ``account_id`` in a rated game those points back, once
    (see :mod:`fanfold.server.moderation`). The ratings rows are locked first, by player key
    as rating locks them; the refunds given before are read after the locks, so two closings
    at once give nothing twice. Returns what was given now."""
    data = data_of(tx)
    key = account_key(account_id)
    own = data.results_of(tx, key)
    if not own:
        return []
    at_table: dict[str, list[RatingChange]] = defaultdict(list)
    for change in data.changes_of_tables(tx, sorted(own)):
        at_table[change.rated_table].append(change)
    candidates = [
        row
        for table_id, (team, rank) in own.items()
        for row in at_table[table_id]
        if row.player != key
        and row.player.startswith("a:")
        and row.team != team
        and row.rank > rank
        and row.mu_after < row.mu_before
    ]
    if not candidates:
        return []
    data.lock_rating_rows(tx, {(row.family, row.player) for row in candidates})
    given = data.refunds_at(tx, sorted({row.rated_table for row in candidates}))
    closed = closed_account_keys(tx) | {key}
    refunds: list[Refund] = []
    for row in sorted(candidates, key=lambda r: (r.player, r.rated_table)):
        table_id, player = row.rated_table, row.player
        before = given.get((table_id, player))
        causes = set(before.closed_accounts.split()) if before is not None else set()
        people = at_table[table_id]
        causes |= {other.player for other in people if other.player in closed}
        above = {
            other.team
            for other in people
            if other.player in causes and other.rank < row.rank and other.team != row.team
        }
        share = min(1.0, len(above) / max(1, row.rank - 1))
        target = (row.mu_before - row.mu_after) * share
        already = before.points if before is not None else 0.0
        more = target - already
        if more <= EPSILON:
            continue
        kept = RefundRecord(
            table_id, player, row.family, target, " ".join(sorted(causes))[:400], now
        )
        data.keep_refund(tx, kept, new=before is None)
        refunds.append(Refund(table_id, player, player, row.family, more))
    totals: dict[tuple[str, str], float] = defaultdict(float)
    for refund in refunds:
        totals[(refund.player, refund.family)] += refund.points
    for (player, family), points in sorted(totals.items()):
        data.add_points(tx, family, player, points, now)
    numbers = {r.player: int(r.player[2:]) for r in refunds if r.player[2:].isdigit()}
    found = named(data, tx, numbers.values())
    return [
        Refund(
            r.table, r.player, _name_of(found, numbers.get(r.player), r.player), r.family, r.points
        )
        for r in refunds
    ]


def _name_of(found: dict[int, AccountState], number: int | None, otherwise: str) -> str:
    state = found.get(number) if number is not None else None
    return otherwise if state is None else state.name
