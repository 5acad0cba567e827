"""The engines' review of a finished table: ``GET /api/tables/{id}/review`` opens it (the
first request starts the job, :mod:`fanfold.server.reviews`) and answers it as far as it is
computed; the page polls it while it fills in."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from fanfold.core.config import JSONObject
from fanfold.core.records import GameRecord
from fanfold.server import protocol
from fanfold.server.bots import Priority
from fanfold.server.hub import Hub
from fanfold.server.ratings import running_rated
from fanfold.server.reviews import Compute, NotReviewableError, Reviews, review_step
from fanfold.server.routes import HubDep
from fanfold.server.store.review_memory import review_store

router = APIRouter(prefix="/api", tags=["reviews"])

#: The bot pool's client that every review's steps count as: together they hold at most one
#: client's share of the workers, so reviews never fill the pool.
REVIEWS_CLIENT = "reviews"


def review_compute(hub: Hub, priority: Priority = Priority.REVIEW) -> Compute:
    """A review's step computed in the hub's bot pool at ``priority``, as the reviews'
    client."""

    async def compute(
        record: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        return await hub.pool.run(
            review_step,
            record.to_json(),
            stop,
            budget,
            seed,
            start,
            table="review",
            client=REVIEWS_CLIENT,
            priority=priority,
        )

    return compute


def reviews_of(state: Any, hub: Hub) -> Reviews:
    """The application's reviews (``state``: the application's; made at the first call, on
    the hub's store and pool)."""
    found: Reviews | None = getattr(state, "reviews", None)
    if found is None:
        found = state.reviews = Reviews(review_store(hub.store), review_compute(hub))
    return found


@router.get(
    "/tables/{table_id}/review",
    response_model=protocol.ReviewAnswer,
    response_model_exclude_unset=True,
)
async def table_review(table_id: str, request: Request, hub: HubDep) -> protocol.ReviewAnswer:
    live = await hub.get(table_id)
    table = live.table
    async with live.lock:  # never an action that is still being stored
        if running_rated(live.options, table):
            raise NotReviewableError(
                "a rated game is reviewed once it is over: this one is still being played"
            )
        if not table.is_over:
            raise NotReviewableError(
                "this game is still being played: its review opens once it is over"
            )
        record = table.finish()
    reviews = reviews_of(request.app.state, hub)
    await reviews.open(table_id, record)
    return protocol.ReviewAnswer.model_validate(await reviews.answer(table_id))
