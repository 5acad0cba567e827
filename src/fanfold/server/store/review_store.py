"""The engines' reviews in SQL: one job per table and review version, claimed under a lease
by one process at a time, and its judged moves (the SQL
:class:`~fanfold.server.store.protocols.ReviewStore`). Claiming is one conditional
``UPDATE``, so two processes that claim at once cannot both hold a review."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from fanfold.core.config import JSONObject
from fanfold.server.store.records import ReviewJob
from fanfold.server.store.schema import review_moves, reviews
from fanfold.server.store.sql_common import SqlSubject, insert_for
from fanfold.server.store.table_side_protocols import ReviewStore

#: The states of a review still to be worked on.
OPEN_STATES = ("pending", "running")
#: The columns of a review that hold JSON text.
JSON_COLUMNS = ("engine", "summary", "deal")


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


def _columns(values: Mapping[str, object]) -> dict[str, object]:
    """A review's fields as its row keeps them (the JSON ones as text)."""
    columns = dict(values)
    for name in JSON_COLUMNS:
        if columns.get(name) is not None:
            columns[name] = json.dumps(columns[name], sort_keys=True)
    return columns


def _key(table_id: str, version: int) -> sa.ColumnElement[bool]:
    return sa.and_(reviews.c.table_id == table_id, reviews.c.version == version)


class SqlReviews(SqlSubject, ReviewStore):
    """The engines' reviews on the engine of a SQL store."""

    def _open(self, job: ReviewJob) -> ReviewJob:
        with self.engine.begin() as connection:
            connection.execute(
                insert_for(connection, reviews)
                .values(_columns(dataclasses.asdict(job)))
                .on_conflict_do_nothing()
            )
            row = connection.execute(
                sa.select(reviews).where(_key(job.table_id, job.version))
            ).one()
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

    def _change(
        self,
        table_id: str,
        version: int,
        owner: str,
        values: Mapping[str, object],
        entries: Mapping[int, JSONObject] | None = None,
    ) -> bool:
        with self.engine.begin() as connection:
            changed = connection.execute(
                reviews.update()
                .where(
                    _key(table_id, version), reviews.c.state == "running", reviews.c.owner == owner
                )
                .values(_columns(values))
            )
            if changed.rowcount != 1:
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

    def moves(self, table_id: str, version: int, after: int = 0) -> list[JSONObject]:
        """The judged moves stored so far numbered above ``after``, by number."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(review_moves.c.entry)
                .where(
                    review_moves.c.table_id == table_id,
                    review_moves.c.version == version,
                    review_moves.c.number > after,
                )
                .order_by(review_moves.c.number)
            )
            return [json.loads(row.entry) for row in rows]
