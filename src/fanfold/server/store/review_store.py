"""The engines' reviews in SQL: one job per table and review version, claimed under a lease
by one process at a time, and its judged moves (the SQL
:class:`~fanfold.server.store.protocols.ReviewStore`). Claiming is one conditional
``UPDATE``, so two processes that claim at once cannot both hold a review."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from fanfold.core.config import JSONObject
from fanfold.server.store.records import ReviewJob
from fanfold.server.store.schema import review_moves, reviews
from fanfold.server.store.sql_common import SqlSubject, insert_for

#: The states of a review still to be worked on.
OPEN_STATES = ("pending", "running")


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _job(row: Any) -> ReviewJob:
    return ReviewJob(
        str(row.table_id),
        int(row.version),
        str(row.game),
        str(row.state),
        int(row.moves),
        str(row.seed),
        None if row.budget is None else int(row.budget),
        row.owner,
        float(row.lease_until),
        int(row.attempts),
        _loads(row.engine),
        _loads(row.summary),
        _loads(row.deal),
        row.error,
        float(row.created),
        float(row.updated),
    )


def _key(table_id: str, version: int) -> sa.ColumnElement[bool]:
    return sa.and_(reviews.c.table_id == table_id, reviews.c.version == version)


class SqlReviews(SqlSubject):
    """The engines' reviews on the engine of a SQL store."""

    def open(
        self,
        table_id: str,
        version: int,
        *,
        game: str,
        moves: int,
        seed: str,
        budget: int | None,
        now: float,
    ) -> ReviewJob:
        """The table's review of ``version``: the stored one, or a new ``pending`` one."""
        with self.engine.begin() as connection:
            connection.execute(
                insert_for(connection, reviews)
                .values(
                    table_id=table_id,
                    version=version,
                    game=game,
                    state="pending",
                    moves=moves,
                    seed=seed,
                    budget=budget,
                    owner=None,
                    lease_until=0.0,
                    attempts=0,
                    created=now,
                    updated=now,
                )
                .on_conflict_do_nothing()
            )
            row = connection.execute(sa.select(reviews).where(_key(table_id, version))).one()
        return _job(row)

    def job(self, table_id: str, version: int) -> ReviewJob | None:
        """The table's review of ``version``, if any."""
        with self.engine.connect() as connection:
            row = connection.execute(sa.select(reviews).where(_key(table_id, version))).first()
        return None if row is None else _job(row)

    def claim(
        self, table_id: str, version: int, owner: str, now: float, lease: float
    ) -> ReviewJob | None:
        """Hold the review for ``lease`` seconds if it is open and nobody else holds it."""
        with self.engine.begin() as connection:
            taken = connection.execute(
                reviews.update()
                .where(
                    _key(table_id, version),
                    reviews.c.state.in_(OPEN_STATES),
                    sa.or_(
                        reviews.c.owner.is_(None),
                        reviews.c.owner == owner,
                        reviews.c.lease_until <= now,
                    ),
                )
                .values(
                    state="running",
                    attempts=sa.case(
                        (reviews.c.owner == owner, reviews.c.attempts),
                        else_=reviews.c.attempts + 1,
                    ),
                    owner=owner,
                    lease_until=now + lease,
                    updated=now,
                )
            )
            if taken.rowcount != 1:
                return None
            row = connection.execute(sa.select(reviews).where(_key(table_id, version))).one()
        return _job(row)

    def lapsed(self, version: int, now: float, limit: int) -> list[ReviewJob]:
        """Open reviews of ``version`` that nobody holds by ``now``, least recently changed
        first (at most ``limit``)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(reviews)
                .where(
                    reviews.c.version == version,
                    reviews.c.state.in_(OPEN_STATES),
                    sa.or_(reviews.c.owner.is_(None), reviews.c.lease_until <= now),
                )
                .order_by(reviews.c.updated, reviews.c.table_id)
                .limit(limit)
            ).all()
        return [_job(row) for row in rows]

    def _hold(
        self, connection: Connection, table_id: str, version: int, owner: str, **values: Any
    ) -> bool:
        """Change the running review's row only while ``owner`` holds it."""
        changed = connection.execute(
            reviews.update()
            .where(_key(table_id, version), reviews.c.state == "running", reviews.c.owner == owner)
            .values(**values)
        )
        return changed.rowcount == 1

    def renew(self, table_id: str, version: int, owner: str, now: float, lease: float) -> bool:
        """Extend ``owner``'s lease; false if it no longer holds the review."""
        with self.engine.begin() as connection:
            return self._hold(
                connection, table_id, version, owner, lease_until=now + lease, updated=now
            )

    def add_moves(
        self,
        table_id: str,
        version: int,
        owner: str,
        entries: Mapping[int, JSONObject],
        now: float,
        lease: float,
    ) -> bool:
        """Store judged moves and extend the lease, only while ``owner`` holds the review."""
        with self.engine.begin() as connection:
            if not self._hold(
                connection, table_id, version, owner, lease_until=now + lease, updated=now
            ):
                return False
            if entries:
                connection.execute(
                    insert_for(connection, review_moves).on_conflict_do_nothing(),
                    [
                        {
                            "table_id": table_id,
                            "version": version,
                            "number": number,
                            "entry": json.dumps(entry, sort_keys=True),
                        }
                        for number, entry in sorted(entries.items())
                    ],
                )
        return True

    def finish(
        self,
        table_id: str,
        version: int,
        owner: str,
        engine: JSONObject,
        summary: Sequence[str],
        deal: JSONObject | None,
        now: float,
    ) -> bool:
        """Mark the review done, if ``owner`` holds it."""
        with self.engine.begin() as connection:
            return self._hold(
                connection,
                table_id,
                version,
                owner,
                state="done",
                engine=json.dumps(engine, sort_keys=True),
                summary=json.dumps(list(summary)),
                deal=None if deal is None else json.dumps(deal, sort_keys=True),
                updated=now,
            )

    def fail(self, table_id: str, version: int, owner: str, error: str, now: float) -> bool:
        """Mark the review failed, with why, if ``owner`` holds it."""
        with self.engine.begin() as connection:
            return self._hold(
                connection, table_id, version, owner, state="failed", error=error, updated=now
            )

    def moves(self, table_id: str, version: int) -> list[JSONObject]:
        """The judged moves stored so far, by number."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(review_moves.c.entry)
                .where(review_moves.c.table_id == table_id, review_moves.c.version == version)
                .order_by(review_moves.c.number)
            )
            return [json.loads(row.entry) for row in rows]
