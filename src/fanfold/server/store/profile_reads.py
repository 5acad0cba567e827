"""Reading a player's record for the profile page from SQL: results per rating family, best
wins, most-met opponents (all three from the rated games' rating changes), and the finished
tables where an account held a seat, with their seats and whether their review is done; and
which of the accounts named there are closed.

Only finished games are read: a rating change is written when a rated game's end is stored,
and the tables read here have an outcome.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from fanfold.core.config import JSONObject
from fanfold.server.store.engine import sql
from fanfold.server.store.records import Transaction
from fanfold.server.store.review_file import review_engine
from fanfold.server.store.schema import accounts, rating_changes, reviews, seats, tables
from fanfold.server.store.sql_common import SqlSubject


@dataclass(frozen=True)
class Results:
    """Rated games and their results: against one opponent, or in one family.

    Attributes:
        key: the family's name, or the opponent's rating key (``a:ID``, ``bot:GAME:LEVEL``).
        family: the family (for an opponent: the family of the latest game against them).
        games: rated games.
        won: games won (against an opponent: ranked above them; in a family: ranked first,
            above someone).
        lost: games lost (against an opponent: ranked below; in a family: below someone).
        drawn: games drawn (against an opponent: the same rank; in a family: every player
            ranked alike).
    """

    key: str
    family: str
    games: int
    won: int
    lost: int
    drawn: int


@dataclass(frozen=True)
class Win:
    """A rated game won against an opponent: who, rated how much before it, where and when."""

    rated_table: str
    family: str
    opponent: str
    opponent_mu: float
    at: float


@dataclass(frozen=True)
class FinishedSeat:
    """A seat an account held at a finished table, with the table's seats (seat, player
    (``"human"`` or an agent's text), account) and what a profile shows of it."""

    table_id: str
    game: str
    config: JSONObject
    options: JSONObject
    outcome: JSONObject
    updated: float
    seat: int
    seats: tuple[tuple[int, str, int | None], ...]


def _json(text: Any) -> JSONObject:
    value = json.loads(text) if text else {}
    return value if isinstance(value, dict) else {}


class ProfileReads(SqlSubject):
    """The reads of a player's profile on the engine of a SQL store."""

    def family_results(self, tx: Transaction, player: str) -> list[Results]:
        """The rated games and results of ``player`` (a rating key) in each family, by
        family."""
        mine = rating_changes.alias("mine")
        every = rating_changes.alias("every")
        bounds = (
            sa.select(
                every.c.rated_table,
                sa.func.min(every.c.rank).label("best"),
                sa.func.max(every.c.rank).label("worst"),
            )
            .where(
                every.c.rated_table.in_(
                    sa.select(rating_changes.c.rated_table).where(rating_changes.c.player == player)
                )
            )
            .group_by(every.c.rated_table)
            .subquery()
        )
        # Every player ranked alike (all first): a draw. A leaver is rated at once, ranked
        # below the others, before their rows come: a lone row ranked below first is lost.
        even = sa.and_(bounds.c.best == bounds.c.worst, bounds.c.best == 1)
        won = sa.and_(mine.c.rank == 1, sa.not_(even))
        rows = sql(tx).execute(
            sa.select(
                mine.c.family,
                sa.func.count().label("games"),
                sa.func.sum(sa.case((won, 1), else_=0)).label("won"),
                sa.func.sum(sa.case((even, 1), else_=0)).label("drawn"),
            )
            .join(bounds, bounds.c.rated_table == mine.c.rated_table)
            .where(mine.c.player == player)
            .group_by(mine.c.family)
            .order_by(mine.c.family)
        )
        return [
            Results(
                str(row.family),
                str(row.family),
                int(row.games),
                int(row.won or 0),
                int(row.games) - int(row.won or 0) - int(row.drawn or 0),
                int(row.drawn or 0),
            )
            for row in rows
        ]

    def best_wins(self, tx: Transaction, player: str, limit: int) -> list[Win]:
        """The rated games ``player`` won against the highest-rated opponents (ranked above
        them; their rating before the game), highest first, at most ``limit``."""
        mine = rating_changes.alias("mine")
        other = rating_changes.alias("other")
        rows = sql(tx).execute(
            sa.select(
                mine.c.rated_table,
                mine.c.family,
                other.c.player,
                other.c.mu_before,
                mine.c.at,
            )
            .join(other, other.c.rated_table == mine.c.rated_table)
            .where(
                mine.c.player == player,
                other.c.player != player,
                other.c.team != mine.c.team,
                mine.c.rank < other.c.rank,
            )
            .order_by(other.c.mu_before.desc(), mine.c.at.desc(), other.c.player)
            .limit(limit)
        )
        return [
            Win(str(r.rated_table), str(r.family), str(r.player), float(r.mu_before), float(r.at))
            for r in rows
        ]

    def met_opponents(self, tx: Transaction, player: str, limit: int) -> list[Results]:
        """The opponents ``player`` met most in rated games (partners are not opponents):
        games and results against each, most games first (then the latest met first), at
        most ``limit``."""
        mine = rating_changes.alias("mine")
        other = rating_changes.alias("other")
        rows = sql(tx).execute(
            sa.select(
                other.c.player,
                sa.func.max(mine.c.family).label("family"),
                sa.func.count().label("games"),
                sa.func.sum(sa.case((mine.c.rank < other.c.rank, 1), else_=0)).label("won"),
                sa.func.sum(sa.case((mine.c.rank > other.c.rank, 1), else_=0)).label("lost"),
                sa.func.max(mine.c.at).label("latest"),
            )
            .join(other, other.c.rated_table == mine.c.rated_table)
            .where(mine.c.player == player, other.c.player != player, other.c.team != mine.c.team)
            .group_by(other.c.player)
            .order_by(sa.desc("games"), sa.desc("latest"), other.c.player)
            .limit(limit)
        )
        found = []
        for row in rows:
            games, won, lost = int(row.games), int(row.won or 0), int(row.lost or 0)
            found.append(
                Results(str(row.player), str(row.family), games, won, lost, games - won - lost)
            )
        return found

    def finished_seats(self, tx: Transaction, account_id: int, limit: int) -> list[FinishedSeat]:
        """The seats ``account_id`` held at finished tables, the tables that ended last
        first, at most ``limit``, each with the table's seats."""
        connection = sql(tx)
        held = connection.execute(
            sa.select(
                tables.c.id,
                tables.c.game,
                tables.c.config,
                tables.c.options,
                tables.c.outcome,
                tables.c.updated,
                seats.c.seat,
            )
            .join(tables, tables.c.id == seats.c.table_id)
            .where(seats.c.account_id == account_id, tables.c.outcome.is_not(None))
            .order_by(tables.c.updated.desc(), tables.c.id, seats.c.seat)
            .limit(limit)
        ).all()
        ids = list({str(row.id) for row in held})
        everyone: dict[str, list[tuple[int, str, int | None]]] = {}
        if ids:
            for row in connection.execute(
                sa.select(seats.c.table_id, seats.c.seat, seats.c.player, seats.c.account_id)
                .where(seats.c.table_id.in_(ids))
                .order_by(seats.c.table_id, seats.c.seat)
            ):
                account = None if row.account_id is None else int(row.account_id)
                everyone.setdefault(str(row.table_id), []).append(
                    (int(row.seat), str(row.player), account)
                )
        return [
            FinishedSeat(
                str(row.id),
                str(row.game),
                _json(row.config),
                _json(row.options),
                _json(row.outcome),
                float(row.updated),
                int(row.seat),
                tuple(everyone.get(str(row.id), [])),
            )
            for row in held
        ]

    def reviewed(self, tx: Transaction, table_ids: Sequence[str], version: int) -> set[str]:
        """Which of the tables ``table_ids`` have a done review of ``version``."""
        if not table_ids:
            return set()
        query = sa.select(reviews.c.table_id).where(
            reviews.c.table_id.in_(list(table_ids)),
            reviews.c.version == version,
            reviews.c.state == "done",
        )
        connection = sql(tx)
        held = review_engine(connection.engine)
        if held is connection.engine:
            return {str(table_id) for table_id in connection.execute(query).scalars()}
        with held.connect() as reading:  # the reviews' own file (SQLite)
            return {str(table_id) for table_id in reading.execute(query).scalars()}

    def closed_among(self, tx: Transaction, account_ids: Collection[int]) -> set[int]:
        """Which of the accounts ``account_ids`` the moderators closed."""
        if not account_ids:
            return set()
        found = sql(tx).execute(
            sa.select(accounts.c.id).where(
                accounts.c.id.in_(sorted(account_ids)), accounts.c.closed.is_(True)
            )
        )
        return {int(number) for number in found.scalars()}


__all__ = ["FinishedSeat", "ProfileReads", "Results", "Win"]
