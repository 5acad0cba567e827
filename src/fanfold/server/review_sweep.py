"""Each process's sweep of the reviews nobody works on: at start, then every lease period
(:data:`fanfold.server.reviews.LEASE`), a process claims the reviews left pending or whose
holder's lease ran out (a process killed, or stopped) and finishes them, so that a review
finishes without anyone asking for it again.

The sweep is bounded: it works on one review at a time, its steps in the process's review
worker (:class:`~fanfold.server.bots.ReviewWorker`, at the lowest CPU priority) at
:attr:`~fanfold.server.bots.Priority.BACKGROUND`, after the steps of reviews someone asked
for. At shutdown the sweep stops, every review of the process is cancelled cleanly
(:meth:`fanfold.server.reviews.Reviews.stop`: its stored moves are kept and its claim runs out
for another process) and the review worker is stopped. :func:`with_review_sweep` wraps the
application's life span with all three.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI

from fanfold.core.records import GameRecord
from fanfold.play.review import REVIEW_VERSION
from fanfold.server.bots import Priority
from fanfold.server.hub import Hub
from fanfold.server.live import NotFoundError
from fanfold.server.refusals import refusal
from fanfold.server.review_answers import failure_text
from fanfold.server.reviews import Compute, NotReviewableError, Reviews
from fanfold.server.routes.reviews import (
    finished_record,
    review_compute,
    review_worker,
    reviews_of,
)

log = logging.getLogger(__name__)

#: The reviews nobody holds read from the store at a time (worked on one by one).
SWEEP_BATCH = 4
#: Seconds the shutdown waits for the sweep and the reviews to stop (their threads may be in a
#: store that does not answer).
STOP_SECONDS = 5.0

#: A finished table's record by its id; ``None`` if no such finished table is stored (its
#: review then fails, saying so); raises if the table cannot be read now (the review waits
#: for the next sweep).
RecordOf = Callable[[str], Awaitable["GameRecord | None"]]


async def sweep_once(reviews: Reviews, record_of: RecordOf, compute: Compute) -> bool:
    """Claim one review that nobody holds and work it to its end (or until its claim is lost);
    false if there was none this process could take."""
    jobs = await asyncio.to_thread(
        reviews.store.lapsed, REVIEW_VERSION, reviews.clock(), SWEEP_BATCH
    )
    for job in jobs:
        if not reviews.may_claim(job):
            continue
        try:
            record = await record_of(job.table_id)
        except Exception as error:  # the table held elsewhere just now, the store busy
            log.info("the review of table %s waits: %r", job.table_id, error)
            continue
        if record is None:
            reason = failure_text(refusal("reviews.table_gone"))
            await asyncio.to_thread(_fail, reviews, job.table_id, reason)
            return True
        log.info("the sweep takes over the review of table %s", job.table_id)
        await asyncio.wait([reviews.start(job.table_id, record, compute)])
        return True
    return False


def _fail(reviews: Reviews, table_id: str, reason: str) -> None:
    now = reviews.clock()
    if reviews.store.claim(table_id, REVIEW_VERSION, reviews.owner, now, reviews.lease):
        reviews.store.fail(table_id, REVIEW_VERSION, reviews.owner, reason, now)


async def sweeping(
    reviews: Reviews, record_of: RecordOf, compute: Compute, period: float | None = None
) -> None:
    """Sweep now and then every ``period`` seconds (default the lease), until cancelled."""
    while True:
        try:
            while await sweep_once(reviews, record_of, compute):
                pass
        except Exception as error:  # the store unreachable: try again at the next period
            log.warning("the sweep of the reviews stopped: %r", error)
        await asyncio.sleep(reviews.lease if period is None else period)


def finished_records(hub: Hub) -> RecordOf:
    """A finished table's record from the hub (``None``: no such table, or not over), as a
    review opened by a request reads it (:func:`~fanfold.server.routes.reviews.finished_record`:
    a table let go from memory is read as stored, neither made resident nor replayed)."""

    async def record_of(table_id: str) -> GameRecord | None:
        try:
            return await finished_record(hub, table_id)
        except (NotFoundError, NotReviewableError):
            return None

    return record_of


def with_review_sweep(
    inner: Callable[[FastAPI], AbstractAsyncContextManager[None]],
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The application's life span ``inner`` with the reviews' sweep running inside it, and
    the process's reviews cancelled and its review worker stopped before ``inner`` stops the
    hub and its bot pool."""

    @asynccontextmanager
    async def running(app: FastAPI) -> AsyncIterator[None]:
        async with inner(app):
            hub: Hub = app.state.hub
            reviews = reviews_of(app.state, hub)
            worker = review_worker(app.state, hub)
            background = review_compute(worker, Priority.BACKGROUND)
            sweeper = asyncio.get_running_loop().create_task(
                sweeping(reviews, finished_records(hub), background), name="review sweep"
            )
            try:
                yield
            finally:
                sweeper.cancel()
                # A store that does not answer holds a thread of either: never the shutdown.
                await asyncio.wait([sweeper], timeout=STOP_SECONDS)
                await reviews.stop(STOP_SECONDS)
                worker.shutdown()

    return running
