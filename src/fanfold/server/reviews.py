"""The engines' review of a finished table, as a stored job that fills in while the page
watches (``GET /api/tables/{id}/review``, :mod:`fanfold.server.routes.reviews`).

A review is one job per table and review version (:data:`REVIEW_VERSION`) in the
:class:`~fanfold.server.store.protocols.ReviewStore`. Asking for it opens it; a process then
claims it under a lease of :data:`LEASE` seconds and works through the game in steps, each
computed by :func:`review_step` in the process's review worker
(:class:`~fanfold.server.bots.ReviewWorker`: a worker process of its own at the lowest CPU
priority, apart from the live games' bots): Fano330-R-Morris :data:`CHUNK` moves at a time,
Fan's bisection in one step (its moves' values are known together). On SQLite (the reviews'
own file, :mod:`fanfold.server.store.review_file`) the worker writes the review itself
(:class:`WorkerSteps` given the file): its first step claims it, each step stores its moves in
one transaction, the last one closes it; this process only opens it, renews its lease while a
step is long and closes a failed one, by the file's own thread (:class:`Writes`). Elsewhere
(PostgreSQL, SQLite in memory) this process claims it, stores the moves of the steps computed
together, at most :data:`BATCH` seconds after the last store (one transaction, not one a
step), and closes it. Storing moves extends the lease; a heartbeat renews it a third
of the lease after its last extension. If the process dies (SIGKILL),
its lease runs out and the next process that asks for the review, or sweeps the store
(:mod:`fanfold.server.review_sweep`), takes it over: moves stored are kept and the rest (with
the steps computed but not stored yet) computed again, alike (the job keeps its seed and
budget).

Fano and Fan Tan are reviewed by :mod:`fanfold.play.review_cards`, each decision of a human
seat from that seat's view on sampled deals (bots' seats listed, not judged): :data:`CARD_CHUNK`
moves a step, each step judging its own moves only (a decision's deals come from the job's seed
and the move's number, so a step taken over is computed alike); the job's budget is the deals
a decision, and its summary is made from the stored moves at the end.

Only a finished table is reviewed: a running game, rated or not, is refused
(:class:`NotReviewableError`), so a review never says anything about a game in play. The
reviews themselves are :mod:`fanfold.play.review`'s (Morris from the solved table, Fan from
the exact solver) and :mod:`fanfold.play.review_cards`' (Fano, Fan Tan).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play import review_cards
from fanfold.play.review import REVIEW_VERSION, reviews
from fanfold.server.card_reviews import is_card_review
from fanfold.server.refusals import refusal
from fanfold.server.review_answers import failure_text, read_answer
from fanfold.server.review_feed import ReviewFeed
from fanfold.server.review_jobs import DEALS_ENVIRONMENT as DEALS_ENVIRONMENT
from fanfold.server.review_jobs import FAN_BUDGET as FAN_BUDGET
from fanfold.server.review_jobs import NotReviewableError as NotReviewableError
from fanfold.server.review_jobs import Writes as Writes
from fanfold.server.review_jobs import budget_of, keep_leased, owner_name
from fanfold.server.review_jobs import in_thread as in_thread
from fanfold.server.review_jobs import review_seed as review_seed
from fanfold.server.review_steps import CARD_CHUNK as CARD_CHUNK
from fanfold.server.review_steps import CHUNK as CHUNK
from fanfold.server.review_steps import StepClaim, WorkerSteps, closing
from fanfold.server.review_steps import review_step as review_step
from fanfold.server.review_steps import step_end as step_end
from fanfold.server.store.protocols import ReviewStore
from fanfold.server.store.records import ReviewJob

log = logging.getLogger(__name__)

#: Seconds a claim holds a review without a heartbeat; after it, another process takes over.
LEASE = 30.0
#: Seconds the moves of computed steps may wait to be stored together, in one transaction of
#: the store, where the server's process stores them (PostgreSQL, SQLite in memory); a step
#: not stored when its holder dies is computed again, alike, by the next.
BATCH = 1.0

#: A step's computation: the record, where the step stops (moves), the budget, the review's
#: seed and where the step starts (the moves already stored); answers the review's JSON with
#: (at least) the step's moves (:func:`review_step`).
Compute = Callable[[GameRecord, int, "int | None", str, int], Awaitable[JSONObject]]


def _said(task: asyncio.Task[None]) -> None:
    """Log a review's task that stopped on an unexpected error (a worker process lost): the
    job stays held until its lease runs out, then it is taken over."""
    if not task.cancelled() and task.exception() is not None:
        log.error("%s stopped: %r", task.get_name(), task.exception())


class Reviews:
    """One process's side of the reviews: opens them, claims and runs them, and answers.

    Args:
        store: where reviews are kept.
        compute: one step's computation (the server's: :func:`review_step` in the bot pool).
        owner: this process's name as a holder (default :func:`owner_name`).
        lease: seconds a claim holds without a heartbeat.
        clock: the wall clock (leases are compared across processes).
        batch: seconds a computed step's moves may wait to be stored with the next steps' (0:
            each step stored as it ends).
        writes: how the review's writes (its claim, moves, lease and end) reach the store
            (default :func:`in_thread`; on SQLite the reviews' file's own writer thread,
            :meth:`fanfold.server.store.review_file.FileReviews.writes`).
        step_file: the reviews' SQLite file, where a :class:`WorkerSteps` compute's worker
            writes the review itself (its claim, each step's moves in a transaction, its end)
            for this process (``None``: this process claims, stores batched and closes).
    """

    def __init__(
        self,
        store: ReviewStore,
        compute: Compute,
        *,
        owner: str | None = None,
        lease: float = LEASE,
        clock: Callable[[], float] = time.time,
        batch: float = BATCH,
        writes: Writes = in_thread,
        step_file: str | None = None,
    ) -> None:
        self.store = store
        self.step_file = step_file
        #: Told the seconds each of the worker's transactions waited for the file's write
        #: lock and took (the metrics).
        self.worker_wrote: Callable[[float, float], object] | None = None
        self.writes = writes
        self.batch = batch
        self.compute = compute
        self.owner = owner or owner_name()
        self.lease = lease
        self.clock = clock
        self.tasks: dict[tuple[str, int], asyncio.Task[None]] = {}
        #: When each review worked on here last extended its lease (``time.monotonic()``).
        self._renewed: dict[str, float] = {}
        #: The pages watching a review, told its moves as they are stored and its end.
        self.feed = ReviewFeed()

    async def open(self, table_id: str, record: GameRecord) -> ReviewJob:
        """The table's review, opened now if it was not; its work started in this process if
        nobody else holds it (never started, or its holder's lease ran out).

        Raises:
            NotReviewableError: a game without an engine review.
        """
        job = await asyncio.to_thread(self._open, table_id, record)
        if job.state in ("pending", "running") and self.may_claim(job):
            self.start(table_id, record)
        return job

    async def poll(self, table_id: str, record: GameRecord, seen: int | None = None) -> JSONObject:
        """The table's review opened (as :meth:`open`) and answered (as :meth:`answer`) in one
        call of a thread, from the job as opened: a page's poll, once a second while it fills
        in, costs the server's process one read of the job and of the moves it lacks.

        Raises:
            NotReviewableError: a game without an engine review.
        """

        def read() -> tuple[ReviewJob, JSONObject]:
            job = self._open(table_id, record)
            return job, read_answer(self.store, job, seen)

        job, answer = await asyncio.to_thread(read)
        if job.state in ("pending", "running") and self.may_claim(job):
            self.start(table_id, record)
        return answer

    def _open(self, table_id: str, record: GameRecord) -> ReviewJob:
        game = get_game(record.game)
        config = game.config_from_json(record.config)
        if not reviews(game) and not review_cards.reviews_cards(game, config):
            raise NotReviewableError(refusal("reviews.variant", game=game.title))
        return self.store.job(table_id, REVIEW_VERSION) or self.store.open(
            table_id,
            REVIEW_VERSION,
            game=record.game,
            moves=len(record.actions),
            seed=review_seed(table_id),
            budget=budget_of(record.game),
            now=self.clock(),
        )

    def may_claim(self, job: ReviewJob) -> bool:
        """Whether this process may claim ``job`` now: not at work on it already, and nobody
        else holds it."""
        key = (job.table_id, job.version)
        if key in self.tasks and not self.tasks[key].done():
            return False  # this process works on it
        return job.owner is None or job.owner == self.owner or job.lease_until <= self.clock()

    def start(
        self, table_id: str, record: GameRecord, compute: Compute | None = None
    ) -> asyncio.Task[None]:
        """Run the review in a task of this process (one at a time per review), its steps by
        ``compute`` (default this process's)."""
        key = (table_id, REVIEW_VERSION)
        task = self.tasks.get(key)
        if task is None or task.done():
            task = self.tasks[key] = asyncio.get_running_loop().create_task(
                self.run(table_id, record, compute), name=f"review {table_id}"
            )
            task.add_done_callback(_said)
        return task

    async def stop(self, timeout: float | None = None) -> None:
        """Cancel this process's reviews and wait (at most ``timeout`` s) for them to stop, at
        shutdown: their stored moves are kept and their claims run out for another process."""
        running = [task for task in self.tasks.values() if not task.done()]
        for task in running:
            task.cancel()
        if running:
            await asyncio.wait(running, timeout=timeout)

    async def run(self, table_id: str, record: GameRecord, compute: Compute | None = None) -> None:
        """Claim the review and work through it step by step; stop, leaving it to its new
        holder, if the claim is lost. Returns at once if someone else holds it. Where the
        worker writes the review itself (:attr:`step_file` and a :class:`WorkerSteps`
        compute), its first step claims it there."""
        compute = compute or self.compute
        in_worker = self.step_file is not None and isinstance(compute, WorkerSteps)
        claim = functools.partial(
            self.store.claim, table_id, REVIEW_VERSION, self.owner, self.clock(), self.lease
        )
        job = (
            await asyncio.to_thread(functools.partial(self.store.job, table_id, REVIEW_VERSION))
            if in_worker
            else await self.writes(claim)
        )
        if job is None:
            return
        try:
            if isinstance(compute, WorkerSteps) and self.step_file is not None:
                await self._work_in_worker(job, record, compute, self.step_file)
            else:
                log.info("reviewing table %s (attempt %d)", table_id, job.attempts)
                await self._work(job, record, compute)
        except (FanfoldError, ValueError, KeyError) as error:  # a record that does not replay
            reason = failure_text(error)  # its code where it has one, else its English
            log.warning("the review of table %s failed: %s", table_id, error)
            await self.writes(
                functools.partial(
                    self.store.fail, table_id, REVIEW_VERSION, self.owner, reason, self.clock()
                )
            )
        finally:  # ended, failed, taken over or stopped: its watchers read the store
            self.feed.ended(table_id)

    async def _work(self, job: ReviewJob, record: GameRecord, compute: Compute) -> None:
        table_id, version, total = job.table_id, job.version, len(record.actions)
        start = len(await asyncio.to_thread(self.store.moves, table_id, version))
        pending: dict[int, JSONObject] = {}  # steps computed, not stored yet
        stored_at = time.monotonic()
        heartbeat = asyncio.get_running_loop().create_task(self._heartbeat(table_id))
        try:
            while True:
                stop = step_end(job.game, total, start)
                step = asyncio.ensure_future(compute(record, stop, job.budget, job.seed, start))
                try:
                    while not step.done():  # steps waiting past the batch's time: stored now
                        wait = stored_at + self.batch - time.monotonic() if pending else None
                        await asyncio.wait({step}, timeout=None if wait is None else max(wait, 0))
                        if pending and not step.done():
                            if not await self._store(job, pending):
                                return
                            pending, stored_at = {}, time.monotonic()
                finally:
                    step.cancel()  # cancelled with this task: the step is abandoned
                if pending and step.exception() is not None:  # steps before it are kept
                    await self._store(job, pending)
                result = step.result()
                moves: list[Any] = list(result["moves"])  # type: ignore[arg-type]
                pending.update(
                    (int(entry["number"]), entry)
                    for entry in moves
                    if start < int(entry["number"]) <= stop
                )
                start = stop
                if stop >= total or time.monotonic() - stored_at >= self.batch:
                    if not await self._store(job, pending):
                        return
                    pending, stored_at = {}, time.monotonic()
                if stop >= total:
                    await self._finish(job, result)
                    return
        finally:
            heartbeat.cancel()
            self._renewed.pop(table_id, None)

    async def _work_in_worker(
        self, job: ReviewJob, record: GameRecord, compute: WorkerSteps, path: str
    ) -> None:
        """:meth:`_work` where the worker writes the review itself, in the reviews' file at
        ``path`` (:func:`~fanfold.server.review_steps.stored_step`): its first step claims it,
        each step stores its moves and the last one closes it; this process writes none of
        it. The watchers are told a step's moves once the worker answers that they are
        stored; the review stops, left to its holder, where the worker found it held by
        another."""
        total, table_id = len(record.actions), job.table_id
        claim = StepClaim(path, table_id, job.version, job.game, self.owner, self.lease, True)
        start = stop = 0  # the first step: from the moves stored, answered by the worker
        answered = asyncio.Event()  # a first step longer than a third of the lease: renewed
        beat = self._heartbeat(table_id, answered)
        heartbeat = asyncio.get_running_loop().create_task(beat)
        try:
            while True:
                result: Any = await compute(record, stop, job.budget, job.seed, start, claim)
                for waited, took in result["writes"]:
                    if self.worker_wrote is not None:
                        self.worker_wrote(waited, took)
                answered.set()
                if not result["claimed"]:
                    return  # someone else holds it
                if claim.first:
                    log.info("reviewing table %s (attempt %d)", table_id, result["attempts"])
                    claim = dataclasses.replace(claim, first=False)
                if not result["stored"]:
                    log.warning("the review of table %s was taken over", table_id)
                    return
                self._renewed[table_id] = time.monotonic()  # the store extended the lease
                self.feed.stored(table_id, list(result["moves"]))
                start = int(result["stop"])
                if result["done"] or start >= total:
                    return
                stop = step_end(job.game, total, start)
        finally:
            heartbeat.cancel()
            self._renewed.pop(table_id, None)

    async def _store(self, job: ReviewJob, entries: dict[int, JSONObject]) -> bool:
        """Store the moves of the steps computed since the last store, in one transaction
        (renewing the lease); false if the review was taken over (nothing stored)."""
        if await self.writes(
            functools.partial(
                self.store.add_moves,
                job.table_id,
                job.version,
                self.owner,
                entries,
                self.clock(),
                self.lease,
            )
        ):
            self._renewed[job.table_id] = time.monotonic()  # the store extended the lease
            self.feed.stored(job.table_id, [entries[number] for number in sorted(entries)])
            return True
        log.warning("the review of table %s was taken over", job.table_id)
        return False

    async def _finish(self, job: ReviewJob, result: JSONObject) -> None:
        """Close the review with its last step's engine and deal and its summary (Fano and
        Fan Tan: made from the stored moves, :func:`closing`)."""
        stored = None
        if is_card_review(job.game):
            stored = await asyncio.to_thread(self.store.moves, job.table_id, job.version)
        engine, summary, deal = closing(job.game, result, stored)
        finish = self.store.finish
        await self.writes(
            functools.partial(
                finish, job.table_id, job.version, self.owner, engine, summary, deal, self.clock()
            )
        )

    async def _heartbeat(self, table_id: str, claiming: asyncio.Event | None = None) -> None:
        """Renew the lease while the review is worked on (:func:`keep_leased`); while
        ``claiming`` is not set (the worker's first step, which claims the review, not answered
        yet), a renewal that finds the review not held yet does not stop it."""

        async def renew() -> bool:
            held = await self.writes(
                functools.partial(
                    self.store.renew, table_id, REVIEW_VERSION, self.owner, self.clock(), self.lease
                )
            )
            return held or (claiming is not None and not claiming.is_set())

        await keep_leased(self._renewed, table_id, self.lease, renew)

    async def answer(self, table_id: str, seen: int | None = None) -> JSONObject:
        """The review as the API answers it now
        (:func:`~fanfold.server.review_answers.review_answer`): the job as stored and its
        moves so far, or only those after the client's first ``seen``."""

        def read() -> JSONObject:
            job = self.store.job(table_id, REVIEW_VERSION)
            if job is None:
                raise NotReviewableError(refusal("reviews.none", table=table_id))
            return read_answer(self.store, job, seen)

        return await asyncio.to_thread(read)
