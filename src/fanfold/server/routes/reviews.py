"""The engines' review of a finished table: ``GET /api/tables/{id}/review`` opens it (the
first request starts the job, :mod:`fanfold.server.reviews`) and answers it as far as it is
computed; the page polls it while it fills in, saying how many moves it has (``?seen=N``) so
that each answer carries only the moves after those (:mod:`fanfold.server.review_answers`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from fanfold.core.config import JSONObject
from fanfold.core.records import GameRecord
from fanfold.play.review import REVIEW_VERSION
from fanfold.server import protocol
from fanfold.server.bots import Priority, ReviewWorker, hold_limit
from fanfold.server.hub import Hub
from fanfold.server.ratings import running_rated
from fanfold.server.refusals import refusal
from fanfold.server.review_answers import with_hold
from fanfold.server.reviews import Compute, NotReviewableError, Reviews, review_step
from fanfold.server.routes import HubDep
from fanfold.server.store.review_memory import review_store

router = APIRouter(prefix="/api", tags=["reviews"])

#: The largest ``seen`` a poll may send (no game is this long).
MAX_SEEN = 1_000_000


def review_worker(state: Any, hub: Hub) -> ReviewWorker:
    """The process's one review worker (``state``: the application's; made at the first call,
    a worker process at the lowest CPU priority where the hub's bots think in processes; its
    steps wait for the live work of the hub's pool, before they start and paused inside them,
    :data:`~fanfold.server.bots.HOLD_LIMIT` in all)."""
    found: ReviewWorker | None = getattr(state, "review_worker", None)
    if found is None:
        found = state.review_worker = ReviewWorker(
            processes=hub.pool.processes, live=hub.pool.live, hold=hold_limit()
        )
        found.held = hub.metrics.review_hold_seconds.observe
        found.paused = hub.metrics.review_pauses.inc
    return found


def review_compute(worker: ReviewWorker, priority: Priority = Priority.REVIEW) -> Compute:
    """A review's step computed by the review ``worker`` at ``priority`` (a review someone
    asked for before the sweep's)."""

    async def compute(
        record: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        return await worker.run(
            review_step, record.to_json(), stop, budget, seed, start, priority=priority
        )

    return compute


def reviews_of(state: Any, hub: Hub) -> Reviews:
    """The application's reviews (``state``: the application's; made at the first call, on
    the hub's store and the process's review worker)."""
    found: Reviews | None = getattr(state, "reviews", None)
    if found is None:
        compute = review_compute(review_worker(state, hub))
        found = state.reviews = Reviews(review_store(hub.store), compute)
    return found


@router.get(
    "/tables/{table_id}/review",
    response_model=protocol.ReviewAnswer,
    response_model_exclude_unset=True,
)
async def table_review(
    table_id: str,
    request: Request,
    hub: HubDep,
    seen: Annotated[int | None, Query(ge=0, le=MAX_SEEN)] = None,
) -> protocol.ReviewAnswer:
    """The review (opened by the first request). ``seen``: the judged moves the client has
    (the game's first ones); the answer then carries only the moves after them, and the marks
    and graph points they add, and says its ``seen`` (0 where the client's count is not the
    store's: the whole review)."""
    live = await hub.get(table_id)
    table = live.table
    async with live.lock:  # never an action that is still being stored
        if running_rated(live.options, table):
            raise NotReviewableError(refusal("reviews.rated_playing"))
        if not table.is_over:
            raise NotReviewableError(refusal("reviews.playing"))
        record = table.finish()
    reviews = reviews_of(request.app.state, hub)
    answer = await reviews.poll(table_id, record, seen)
    task = reviews.tasks.get((table_id, REVIEW_VERSION))
    if task is not None and not task.done() and review_worker(request.app.state, hub).holding:
        with_hold(answer)  # this process works on it, and it waits for live play (before a
        # step or paused inside one)
    return protocol.ReviewAnswer.model_validate(answer)
