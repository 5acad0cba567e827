"""The engines' reviews in one process's memory (the
:class:`~fanfold.server.store.protocols.ReviewStore` beside
:class:`~fanfold.server.store.memory.MemoryTables`), and the review store of any table store
(:func:`review_store`)."""

from __future__ import annotations

import copy
import dataclasses
import threading
import weakref
from collections.abc import Mapping

from fanfold.core.config import JSONObject
from fanfold.server.store.protocols import ReviewStore, TableStore
from fanfold.server.store.records import ReviewJob
from fanfold.server.store.review_store import OPEN_STATES, SqlReviews
from fanfold.server.store.table_store import Store


class MemoryReviews(ReviewStore):
    """The reviews in memory: the same rules as :class:`SqlReviews`, under one lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[tuple[str, int], ReviewJob] = {}
        self._moves: dict[tuple[str, int], dict[int, JSONObject]] = {}

    def _open(self, job: ReviewJob) -> ReviewJob:
        key = (job.table_id, job.version)
        with self._lock:
            if key not in self._jobs:
                self._jobs[key] = job
                self._moves[key] = {}
            return self._jobs[key]

    def job(self, table_id: str, version: int) -> ReviewJob | None:
        """The table's review of ``version``, if any."""
        with self._lock:
            return self._jobs.get((table_id, version))

    def claim(
        self, table_id: str, version: int, owner: str, now: float, lease: float
    ) -> ReviewJob | None:
        """Hold the review for ``lease`` seconds if it is open and nobody else holds it."""
        key = (table_id, version)
        with self._lock:
            job = self._jobs.get(key)
            if job is None or job.state not in OPEN_STATES:
                return None
            if job.owner not in (None, owner) and job.lease_until > now:
                return None
            attempts = job.attempts if job.owner == owner else job.attempts + 1
            job = dataclasses.replace(
                job,
                state="running",
                owner=owner,
                lease_until=now + lease,
                attempts=attempts,
                updated=now,
            )
            self._jobs[key] = job
            return job

    def _change(
        self,
        table_id: str,
        version: int,
        owner: str,
        values: Mapping[str, object],
        entries: Mapping[int, JSONObject] | None = None,
    ) -> bool:
        key = (table_id, version)
        with self._lock:
            job = self._jobs.get(key)
            if job is None or job.state != "running" or job.owner != owner:
                return False
            changed = copy.deepcopy(dict(values))
            self._jobs[key] = dataclasses.replace(job, **changed)  # type: ignore[arg-type]
            stored = self._moves[key]
            for number, entry in (entries or {}).items():
                stored.setdefault(number, copy.deepcopy(entry))
            return True

    def moves(self, table_id: str, version: int, after: int = 0) -> list[JSONObject]:
        """The judged moves stored so far numbered above ``after``, by number."""
        with self._lock:
            stored = self._moves.get((table_id, version), {})
            return [copy.deepcopy(stored[number]) for number in sorted(stored) if number > after]

    def lapsed(self, version: int, now: float, limit: int) -> list[ReviewJob]:
        """Open reviews of ``version`` that nobody holds by ``now``, least recently changed
        first (at most ``limit``)."""
        with self._lock:
            found = [
                job
                for job in self._jobs.values()
                if job.version == version
                and job.state in OPEN_STATES
                and (job.owner is None or job.lease_until <= now)
            ]
        return sorted(found, key=lambda job: (job.updated, job.table_id))[:limit]


_MEMORY: weakref.WeakKeyDictionary[object, MemoryReviews] = weakref.WeakKeyDictionary()


def review_store(tables: TableStore) -> ReviewStore:
    """The review store beside a table store: a SQLite store's reviews file
    (:class:`~fanfold.server.store.review_file.FileReviews`), else SQL on a SQL store's engine,
    else one in memory that lives as long as the table store."""
    if isinstance(tables, Store):
        return tables.file_reviews or SqlReviews(tables.engine)
    with _LOCK:
        found = _MEMORY.get(tables)
        if found is None:
            found = _MEMORY[tables] = MemoryReviews()
        return found


_LOCK = threading.Lock()
