"""The daily Fan deal's board: who won today's deal (:mod:`fanfold.server.daily`) and in how
few moves. A win counts, and is ranked, only when its table used no aid (no undo, no hint, no
"still winnable?": the table's :data:`~fanfold.server.hub.AIDS`); a win with aids is listed
with them and not ranked. Only signed-in players are on the board: a guest has no name that
lasts from one day to the next, so a guest's win is not listed.

The board is read from the stored tables (the deal is the table's seed, the classic rules,
the game over and won), so nothing a browser sends sets it.
"""

from __future__ import annotations

from typing import Any

from fanfold.games.fan.game import FanGame
from fanfold.server.store import Store
from fanfold.server.store.board_store import SqlBoard
from fanfold.server.table_options import TableOptions

#: Lines the board lists at most.
LIMIT = 200


def board(store: Store, deal: int) -> list[dict[str, Any]]:
    """The wins of ``deal`` by signed-in players: ranked ones (no aid) first, fewest moves
    first and then the earliest, then those with aids. Each line: ``rank`` (``None`` when
    not ranked), ``name``, ``moves``, ``aids``, ``table``."""
    lines: list[dict[str, Any]] = []
    for row in SqlBoard(store.engine).finished_with_seed(deal):
        if row.game != FanGame.id:  # the daily deal is Fan patience's (server/daily.py)
            continue
        options = TableOptions.from_stored(row.options)
        if (options.variant or "classic") != "classic":
            continue
        returns = row.outcome.get("returns") or [0]
        if not returns[0] > 0:  # type: ignore[index,operator]
            continue  # lost, or stopped
        aids = list(options.aids)
        lines.append(
            {
                "name": row.name,
                "moves": row.moves,
                "aids": aids,
                "table": row.id,
                "when": row.updated,
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
