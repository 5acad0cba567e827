"""The daily Fan deal's board: who won today's deal (:mod:`fanfold.server.daily`) and in how
few moves. A win counts, and is ranked, only when its table used no aid (no undo, no hint, no
"still winnable?": the table's :data:`~fanfold.server.hub.AIDS`); a win with aids is listed
with them and not ranked. Only signed-in players are on the board: a guest has no name that
lasts from one day to the next, so a guest's win is not listed.

The board is read from the stored tables (the deal is the table's seed, the classic rules,
the game over and won), so nothing a browser sends sets it.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from fanfold.games.fan.game import FanGame
from fanfold.server.accounts import accounts
from fanfold.server.hub import AIDS
from fanfold.server.store import Store, actions, seats, tables

#: Lines the board lists at most.
LIMIT = 200


def board(store: Store, deal: int) -> list[dict[str, Any]]:
    """The wins of ``deal`` by signed-in players: ranked ones (no aid) first, fewest moves
    first and then the earliest, then those with aids. Each line: ``rank`` (``None`` when
    not ranked), ``name``, ``moves``, ``aids``, ``table``."""
    moves = (
        sa.select(sa.func.count())
        .where(actions.c.table_id == tables.c.id)
        .scalar_subquery()
        .label("moves")
    )
    query = (
        sa.select(
            tables.c.id,
            tables.c.game,
            tables.c.options,
            tables.c.outcome,
            tables.c.updated,
            accounts.c.name,
            moves,
        )
        .join(seats, sa.and_(seats.c.table_id == tables.c.id, seats.c.seat == 0))
        .join(accounts, accounts.c.id == seats.c.account_id)
        .where(tables.c.seed == str(deal), tables.c.outcome.is_not(None))
    )
    lines: list[dict[str, Any]] = []
    with store.engine.connect() as connection:
        for row in connection.execute(query):
            if row.game != FanGame.id:  # the daily deal is Fan patience's (server/daily.py)
                continue
            options = json.loads(row.options)
            if options.get("variant", "classic") != "classic":
                continue
            returns = json.loads(row.outcome).get("returns") or [0]
            if not returns[0] > 0:
                continue  # lost, or stopped
            used = options.get(AIDS)
            aids = [a for a in used if isinstance(a, str)] if isinstance(used, list) else []
            lines.append(
                {
                    "name": str(row.name),
                    "moves": int(row.moves),
                    "aids": aids,
                    "table": str(row.id),
                    "when": float(row.updated),
                }
            )
    lines.sort(key=lambda line: (bool(line["aids"]), line["moves"], line["when"]))
    best: list[dict[str, Any]] = []
    seen: set[str] = set()
    for line in lines:  # each player once: their best win, an unaided one if any
        if line["name"].casefold() in seen:
            continue
        seen.add(line["name"].casefold())
        line["rank"] = None if line["aids"] else len(best) + 1
        del line["when"]
        best.append(line)
    return best[:LIMIT]
