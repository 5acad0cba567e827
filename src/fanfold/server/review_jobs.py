"""A stored engine review's job (:mod:`fanfold.server.reviews`): its seed, its engine's
budget, its holder's name, the error that refuses a table, and how its writes reach the store
from the server's process (:class:`Writes`)."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from fanfold.core.errors import FanfoldError
from fanfold.core.registry import get_game
from fanfold.games.fan import FanGame
from fanfold.play import review_cards
from fanfold.server.card_reviews import is_card_review

log = logging.getLogger(__name__)

#: Fan: the positions the solver may expand per question; past it the review says
#: "undecided" rather than searching on.
FAN_BUDGET = 2_000_000

#: Fano and Fan Tan: the deals a decision of the reviews opened from now on, where this
#: environment variable holds a positive number (tests; default the game's
#: :func:`fanfold.play.review_cards.default_deals`).
DEALS_ENVIRONMENT = "FANFOLD_REVIEW_DEALS"

_T = TypeVar("_T")


class Writes(Protocol):
    """How a review's writes reach the store (:class:`Reviews`' ``writes``): ``write()`` run
    off the event loop, its answer awaited."""

    def __call__(self, write: Callable[[], _T], /) -> Awaitable[_T]: ...


async def in_thread(write: Callable[[], _T]) -> _T:
    """A write run in a thread of its own (:func:`asyncio.to_thread`): the default
    :class:`Writes`, where no live commit shares the store's lock (a PostgreSQL server)."""
    return await asyncio.to_thread(write)


class NotReviewableError(FanfoldError):
    """A table that cannot be reviewed now (still playing) or at all (no engine review for
    its game), said in a sentence; answered with HTTP 409."""


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


async def keep_leased(
    renewed: dict[str, float], table_id: str, lease: float, renew: Callable[[], Awaitable[bool]]
) -> None:
    """A review's heartbeat: ``renew()`` its lease while it is worked on, a third of the
    ``lease`` after it was last extended (``renewed[table_id]``, ``time.monotonic()``: by the
    claim, just now, by a renewal or by a store of moves, which extends it too, so while steps
    are stored the heartbeat writes nothing). Returns when a renewal finds the review no longer
    held; a renewal that fails (the reviews' file's write lock held past SQLite's wait, as by a
    worker process stopped in its store) is tried again a little later, the lease still
    running meanwhile."""
    renewed[table_id] = time.monotonic()
    try:
        while True:
            wait = renewed[table_id] + lease / 3 - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            try:
                held = await renew()
            except Exception as error:
                log.warning("the lease of table %s's review was not renewed: %r", table_id, error)
                await asyncio.sleep(lease / 30)
                continue
            if not held:
                return
            renewed[table_id] = time.monotonic()
    finally:
        renewed.pop(table_id, None)


__all__ = [
    "DEALS_ENVIRONMENT",
    "FAN_BUDGET",
    "NotReviewableError",
    "Writes",
    "budget_of",
    "in_thread",
    "keep_leased",
    "owner_name",
    "review_seed",
]
