"""The engines' review of a finished table: ``GET /api/tables/{id}/review`` opens it (the
first request starts the job, :mod:`fanfold.server.reviews`) and answers it as far as it is
computed; a poll says how many moves it has (``?seen=N``) so that each answer carries only
the moves after those (:mod:`fanfold.server.review_answers`). The page watches it on a socket
instead (:mod:`fanfold.server.routes.review_socket`); polls stay for clients without one."""

from __future__ import annotations

import asyncio
import functools
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response

from fanfold.core.config import JSONObject
from fanfold.core.records import GameRecord
from fanfold.play.review import REVIEW_VERSION
from fanfold.server import protocol
from fanfold.server.bots import Priority, ReviewWorker, hold_limit
from fanfold.server.hub import Hub
from fanfold.server.hub.records import stored_record
from fanfold.server.live import NotFoundError
from fanfold.server.metrics import Metrics
from fanfold.server.ratings import running_rated
from fanfold.server.refusals import refusal
from fanfold.server.review_answers import read_answer, with_hold
from fanfold.server.review_jobs import Writes, in_thread
from fanfold.server.review_steps import WorkerSteps
from fanfold.server.review_wire import off_loop, poll_text
from fanfold.server.reviews import Compute, NotReviewableError, Reviews
from fanfold.server.routes import HubDep
from fanfold.server.store.review_file import FileReviews
from fanfold.server.store.review_memory import review_store
from fanfold.server.table_options import TableOptions

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
        found.idled = hub.metrics.review_idle_seconds.observe
    return found


def review_compute(worker: ReviewWorker, priority: Priority = Priority.REVIEW) -> Compute:
    """A review's step computed by the review ``worker`` at ``priority`` (a review someone
    asked for before the sweep's); on SQLite the worker stores its moves itself
    (:class:`~fanfold.server.review_steps.WorkerSteps`)."""
    return WorkerSteps(worker.run, priority)


def reviews_of(state: Any, hub: Hub) -> Reviews:
    """The application's reviews (``state``: the application's; made at the first call, on
    the hub's store and the process's review worker)."""
    found: Reviews | None = getattr(state, "reviews", None)
    if found is None:
        compute = review_compute(review_worker(state, hub))
        store = review_store(hub.store)
        writes: Writes = in_thread  # PostgreSQL: a thread of its own, as the other writes
        step_file: str | None = None
        if isinstance(store, FileReviews):
            # SQLite: the reviews' own file, on a write lock no live commit takes
            # (fanfold.server.store.review_file). The review worker claims the review, stores
            # each step's moves and closes it there itself; its opening, a lease's renewal
            # and a failure are written by the file's own thread here.
            store.waited = hub.metrics.review_write_wait_seconds.observe
            store.took = hub.metrics.review_write_seconds.observe
            writes, step_file = store.writes, store.path
        elif hub.commits.appender is None:
            # SQLite in memory: the live commits and the reviews' writes share the one
            # writer; the reviews' go to the store's thread after the live ones.
            writes = hub.commits.after_live
        found = state.reviews = Reviews(store, compute, writes=writes, step_file=step_file)
        found.worker_wrote = functools.partial(worker_wrote, hub.metrics)
    return found


def worker_wrote(metrics: Metrics, waited: float, took: float) -> None:
    """A step's store by the review worker: its wait for the reviews' file's write lock and
    its transaction's seconds, into the metrics."""
    metrics.review_worker_write_wait_seconds.observe(waited)
    metrics.review_worker_write_seconds.observe(took)


async def finished_record(hub: Hub, table_id: str) -> GameRecord:
    """The finished table's record, to open or take over its review: the table in memory if
    it is (under its lock: never an action still being stored), else read from the store as
    it is stored (:func:`~fanfold.server.hub.records.stored_record`: its outcome, written
    with the actions that ended it, says the game is over), in a thread: a finished game let
    go is neither made resident again nor replayed for its review.

    Raises:
        NotFoundError: no such table.
        NotReviewableError: the game is still playing (rated or not).
    """
    live = hub.live.get(table_id)
    if live is None:
        return await asyncio.to_thread(stored_finished_record, hub, table_id)
    table = live.table
    async with live.lock:
        if running_rated(live.options, table):
            raise NotReviewableError(refusal("reviews.rated_playing"))
        if not table.is_over:
            raise NotReviewableError(refusal("reviews.playing"))
        return table.finish()


def stored_finished_record(hub: Hub, table_id: str) -> GameRecord:
    """:func:`finished_record` of a table not in memory, read and made in one thread: its
    row loaded, its stored outcome checked, its record taken as stored.

    Raises:
        NotFoundError: no such table.
        NotReviewableError: the game is still playing (rated or not).
    """
    stored = hub.store.load(table_id)
    if stored is None:
        raise NotFoundError(refusal("found.table", table=repr(table_id)))
    options = TableOptions.from_stored(stored.options)
    if stored.outcome is None:
        raise NotReviewableError(
            refusal("reviews.rated_playing" if options.rated else "reviews.playing")
        )
    return stored_record(stored, options.ruling)


async def review_now(state: Any, hub: Hub, table_id: str, seen: int | None) -> JSONObject:
    """The table's review as far as it is stored (only the moves after the client's
    ``seen``), opened first if it was not: what a poll and the review socket answer.

    A review already opened is answered from the review store alone, in one thread: no table
    is asked of the hub, made resident or rebuilt (a review is only ever opened for a finished
    game, which stays finished). The table's record is read only where the review must be
    opened, or taken over from a holder whose lease ran out (:func:`finished_record`)."""
    reviews = reviews_of(state, hub)

    def stored() -> JSONObject | None:
        job = reviews.store.job(table_id, REVIEW_VERSION)
        if job is None or (job.state in ("pending", "running") and reviews.may_claim(job)):
            return None
        return read_answer(reviews.store, job, seen)

    answer = await asyncio.to_thread(stored)
    if answer is None:
        answer = await reviews.poll(table_id, await finished_record(hub, table_id), seen)
    task = reviews.tasks.get((table_id, REVIEW_VERSION))
    if task is not None and not task.done() and review_worker(state, hub).holding:
        with_hold(answer)  # this process works on it, and it waits for live play (before a
        # step or paused inside one)
    return answer


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
) -> Response:
    """The review (opened by the first request). ``seen``: the judged moves the client has
    (the game's first ones); the answer then carries only the moves after them, and the marks
    and graph points they add, and says its ``seen`` (0 where the client's count is not the
    store's: the whole review). A page with a socket watches it on ``/ws/reviews/{id}``
    instead (:mod:`fanfold.server.routes.review_socket`): pushed, not polled."""
    answer = await review_now(request.app.state, hub, table_id, seen)
    # The text made as the model words it, a long review's outside the event loop.
    return Response(await off_loop(poll_text, answer), media_type="application/json")
