"""The engines' review of a finished table, as a stored job that fills in while the page
watches (``GET /api/tables/{id}/review``, :mod:`fanfold.server.routes.reviews`).

A review is one job per table and review version (:data:`REVIEW_VERSION`) in the
:class:`~fanfold.server.store.protocols.ReviewStore`. Asking for it opens it; a process then
claims it under a lease of :data:`LEASE` seconds and works through the game in steps, each
computed by :func:`review_step` in the process's review worker
(:class:`~fanfold.server.bots.ReviewWorker`: a worker process of its own at the lowest CPU
priority, apart from the live games' bots) and stored by the event loop: Fano330-R-Morris
:data:`CHUNK` moves at a time, Fan's bisection in one step (its moves' values are known
together). Each step's moves are stored as soon as they are computed, and storing them
renews the lease; a heartbeat renews it while a step runs. If the process dies (SIGKILL), its
lease runs out and the next process that asks for the review, or sweeps the store
(:mod:`fanfold.server.review_sweep`), takes it over: moves stored are kept and the rest
computed again, alike (the job keeps its seed and budget).

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
import hashlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.errors import FanfoldError
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.games.fan import FanGame
from fanfold.games.morris import MorrisGame
from fanfold.play import review as reviewed
from fanfold.play import review_cards
from fanfold.play.review import REVIEW_VERSION, ReviewError, review, reviews
from fanfold.server.card_reviews import card_points, card_step, card_summary, is_card_review
from fanfold.server.refusals import refusal
from fanfold.server.store.protocols import ReviewStore
from fanfold.server.store.records import ReviewJob

log = logging.getLogger(__name__)

#: Seconds a claim holds a review without a heartbeat; after it, another process takes over.
LEASE = 30.0
#: Morris moves judged per step (one call in the bot pool, then stored).
CHUNK = 16
#: Fano and Fan Tan moves per step (each decision of a human seat sampled; the page fills in
#: every few seconds).
CARD_CHUNK = 6
#: Fan: the positions the solver may expand per question; past it the review says
#: "undecided" rather than searching on.
FAN_BUDGET = 2_000_000

#: Fano and Fan Tan: the deals a decision of the reviews opened from now on, where this
#: environment variable holds a positive number (tests; default the game's
#: :func:`fanfold.play.review_cards.default_deals`).
DEALS_ENVIRONMENT = "FANFOLD_REVIEW_DEALS"

#: A step's computation: the record, where the step stops (moves), the budget, the review's
#: seed and where the step starts (the moves already stored); answers the review's JSON with
#: (at least) the step's moves (:func:`review_step`).
Compute = Callable[[GameRecord, int, "int | None", str, int], Awaitable[JSONObject]]


class NotReviewableError(FanfoldError):
    """A table that cannot be reviewed now (still playing) or at all (no engine review for
    its game), said in a sentence; answered with HTTP 409."""


def step_end(game: str, moves: int, start: int) -> int:
    """Where the step that starts at move ``start`` (0-based) ends: Morris after
    :data:`CHUNK` moves, Fano and Fan Tan after :data:`CARD_CHUNK`, Fan at the game's end (its
    bisection needs the whole game)."""
    if isinstance(get_game(game), MorrisGame):
        return min(moves, start + CHUNK)
    if is_card_review(game):
        return min(moves, start + CARD_CHUNK)
    return moves


def review_step(
    record: JSONObject, stop: int, budget: int | None, seed: str = "0", start: int = 0
) -> JSONObject:
    """The review of a record cut after its first ``stop`` moves (the whole game, with its
    ending, when ``stop`` reaches it), as JSON: what a worker of the bot pool computes for one
    step. A Morris move is judged from the moves before it only, so a cut record judges its
    moves as the whole one does. Each move gets ``best_words`` (and ``best_said``) too.

    Fano and Fan Tan (:mod:`fanfold.play.review_cards`): only moves ``start + 1`` to ``stop``
    are judged, on ``budget`` deals a decision from ``seed``; the human seats are those the
    record labels ``"human"``; the summary holds the ending only (the whole summary is made
    from the stored moves, :func:`card_summary`)."""
    if is_card_review(str(record["game"])):
        return card_step(GameRecord.from_json(record), stop, budget, seed, start)
    cut = GameRecord.from_json(record)
    if stop < len(cut.actions):
        cut = dataclasses.replace(cut, actions=cut.actions[:stop], outcome=None, ruling=None)
    result = review(cut, max_states=budget).to_json()
    game = get_game(cut.game)
    states = cut.states()
    moves: list[Any] = result["moves"]  # type: ignore[assignment]
    for entry in moves:
        best = entry["best"]
        before = states[int(entry["number"]) - 1]
        entry["best_words"] = (
            None
            if best is None
            else game.describe_action(
                before, game.parse_action(str(best)), None, game.apply_text(before, str(best))
            )
        )
        entry.update(reviewed.said_fields(best_said=entry["best_words"]))
    return result


def review_seed(table_id: str) -> str:
    """The review's seed, from the table's id: the same table is reviewed alike (the exact
    engines of Morris and Fan draw nothing from it; Fano's and Fan Tan's deals are drawn from
    it)."""
    digest = hashlib.blake2b(table_id.encode(), digest_size=8, person=b"review").digest()
    return str(int.from_bytes(digest, "big"))


def budget_of(game: str) -> int | None:
    """The engine's budget per question for ``game``: Fan's solver positions, Fano's and Fan
    Tan's deals a decision, else none."""
    found = get_game(game)
    if isinstance(found, FanGame):
        return FAN_BUDGET
    if is_card_review(game):
        given = os.environ.get(DEALS_ENVIRONMENT, "").strip()
        if given.isdigit() and int(given) > 0:
            return int(given)
        return review_cards.default_deals(found)
    return None


def owner_name() -> str:
    """This process's name as a review's holder: host, process id and a random part."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


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
    """

    def __init__(
        self,
        store: ReviewStore,
        compute: Compute,
        *,
        owner: str | None = None,
        lease: float = LEASE,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.compute = compute
        self.owner = owner or owner_name()
        self.lease = lease
        self.clock = clock
        self.tasks: dict[tuple[str, int], asyncio.Task[None]] = {}

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
        holder, if the claim is lost. Returns at once if someone else holds it."""
        job = await asyncio.to_thread(
            self.store.claim, table_id, REVIEW_VERSION, self.owner, self.clock(), self.lease
        )
        if job is None:
            return
        log.info("reviewing table %s (attempt %d)", table_id, job.attempts)
        try:
            await self._work(job, record, compute or self.compute)
        except (FanfoldError, ValueError, KeyError) as error:  # a record that does not replay
            reason = str(error) if not isinstance(error, ReviewError) else error.args[0]
            log.warning("the review of table %s failed: %s", table_id, reason)
            await asyncio.to_thread(
                self.store.fail, table_id, REVIEW_VERSION, self.owner, str(reason), self.clock()
            )

    async def _work(self, job: ReviewJob, record: GameRecord, compute: Compute) -> None:
        table_id, version, total = job.table_id, job.version, len(record.actions)
        start = len(await asyncio.to_thread(self.store.moves, table_id, version))
        while True:
            stop = step_end(job.game, total, start)
            heartbeat = asyncio.get_running_loop().create_task(self._heartbeat(table_id))
            try:
                result = await compute(record, stop, job.budget, job.seed, start)
            finally:
                heartbeat.cancel()
            moves: list[Any] = list(result["moves"])  # type: ignore[arg-type]
            entries = {
                int(entry["number"]): entry
                for entry in moves
                if start < int(entry["number"]) <= stop
            }
            if not await asyncio.to_thread(
                self.store.add_moves,
                table_id,
                version,
                self.owner,
                entries,
                self.clock(),
                self.lease,
            ):
                log.warning("the review of table %s was taken over", table_id)
                return
            start = stop
            if stop >= total:
                summary = reviewed.summary_from_json(result)
                engine: Any = result["engine"]
                if is_card_review(job.game):
                    stored = await asyncio.to_thread(self.store.moves, table_id, version)
                    summary = card_summary(stored, engine, summary[-1])
                deal: Any = result["deal"]
                await asyncio.to_thread(
                    self.store.finish,
                    table_id,
                    version,
                    self.owner,
                    engine,
                    reviewed.stored_summary(summary),
                    deal,
                    self.clock(),
                )
                return

    async def _heartbeat(self, table_id: str) -> None:
        """Renew the lease while a step is computed (a third of the lease apart)."""
        while True:
            await asyncio.sleep(self.lease / 3)
            if not await asyncio.to_thread(
                self.store.renew, table_id, REVIEW_VERSION, self.owner, self.clock(), self.lease
            ):
                return

    async def answer(self, table_id: str) -> JSONObject:
        """The review as the API answers it now (:func:`review_answer`): the job as stored
        and its moves so far."""

        def read() -> JSONObject:
            job = self.store.job(table_id, REVIEW_VERSION)
            if job is None:
                raise NotReviewableError(refusal("reviews.none", table=table_id))
            return review_answer(job, self.store.moves(table_id, job.version))

        return await asyncio.to_thread(read)


def _score(value: Any, game: str) -> float | None:
    """A value for the mover as a number from -1 (lost) to 1 (won): a sooner win is higher
    and a sooner loss lower (Morris; a distance of 100 plies or more counts as 100)."""
    if not isinstance(value, dict):
        return None
    result, distance = value.get("result"), value.get("distance")
    if result == "draw":
        return 0.0
    sign = 1.0 if result == "win" else -1.0
    if distance is None or not isinstance(get_game(game), MorrisGame):
        return sign
    return sign * (1.0 - min(int(distance), 100) / 200)


def graph_points(game: str, entries: list[JSONObject]) -> list[JSONValue]:
    """The evaluation graph: after each move (and at the start), the position's value for
    the first seat (White; Fan's player), from -1 to 1 (``null``: not known). Fano and Fan
    Tan: after each judged decision, the deciding seat's own expected result (0 to 1 drawn
    from -1 to 1) with its ``seat``: a line per reviewed seat."""
    if is_card_review(game):
        return card_points(entries)
    points: list[JSONValue] = []
    for index, entry in enumerate(entries):
        sign = 1.0 if entry["seat"] == 0 else -1.0
        if index == 0:
            start = _score(entry["before"], game)
            points.append({"move": 0, "value": None if start is None else sign * start})
        after = _score(entry["after"], game)
        points.append({"move": entry["number"], "value": None if after is None else sign * after})
    return points


def review_answer(job: ReviewJob, entries: list[JSONObject]) -> JSONObject:
    """``GET /api/tables/{id}/review``'s answer: the job's state, the moves judged so far,
    the marked ones, the graph's points, and once done the summary, engine and deal."""
    game = get_game(job.game)
    marks: list[JSONValue] = [
        {"move": entry["number"], "mark": entry["mark"], "best": entry["best"]}
        for entry in entries
        if entry.get("mark") is not None
    ]
    moves: list[JSONValue] = list(entries)
    return {
        "table": job.table_id,
        "game": job.game,
        "title": game.title,
        "version": job.version,
        "state": job.state,
        "total": job.moves,
        "judged": len(entries),
        "seed": job.seed,
        "budget": job.budget,
        "attempts": job.attempts,
        "moves": moves,
        "marks": marks,
        "graph": graph_points(job.game, entries),
        **reviewed.summary_fields(job.summary or []),
        "engine": job.engine,
        "deal": job.deal,
        "error": job.error,
    }
