"""The socket ``/ws/reviews/{id}``: a finished table's review pushed to the page that opened
it while it fills in, instead of the page polling ``GET /api/tables/{id}/review`` every second.

The socket is opened with the judged moves the page has (``?seen=N``, as a poll says them) and
answers at once as a poll would (:func:`~fanfold.server.routes.reviews.review_now`: the review
opened if it was not). Then each message (``{"type": "review", ...}``, the poll's answer) carries
only what is new: the moves this process just stored, from memory, as it stores them
(:class:`~fanfold.server.review_feed.ReviewFeed`: no read of the store, no table asked of the
hub), or, once the review ended, the rest from the store; a change of its wait for the tables
in play (``held``) is said as it is seen, once a second at most. Where another process runs the
review, the socket reads the store once a second (and takes the review over as a poll would,
its holder gone). The socket closes (1000) after the review's last message; a table with no
review says why in an error message and closes with 4404 (no such table) or 4409 (not
reviewable now or at all). Nothing is asked on it: a client that sends anything is closed
with 1008. The page falls back to polling where the socket cannot be opened."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError
from fanfold.play.review import REVIEW_VERSION
from fanfold.server.live import NotFoundError
from fanfold.server.protocol.sending import error_message, malformed, wire
from fanfold.server.review_answers import review_answer, with_hold
from fanfold.server.review_feed import Changes, Made
from fanfold.server.review_wire import off_loop, socket_text
from fanfold.server.reviews import Reviews
from fanfold.server.routes import HubDep
from fanfold.server.routes.reviews import MAX_SEEN, review_now, review_worker, reviews_of
from fanfold.server.store.records import ReviewJob

router = APIRouter(tags=["reviews"])

#: Seconds between the socket's looks at what it is not told: the wait for the tables in play,
#: and a review run by another process.
LOOK = 1.0

ENDED = ("done", "failed")

#: A message for the socket: the answer, and its text where it was made already (``None``:
#: to be made).
Reply = tuple[JSONObject, str | None]


def seen_of(text: str | None) -> int | None:
    """The socket's ``seen`` (``None``: none given), or ValueError for one out of range."""
    if text is None or text == "":
        return None
    seen = int(text)
    if not 0 <= seen <= MAX_SEEN:
        raise ValueError(f"seen must be 0 to {MAX_SEEN}")
    return seen


def drained(first: list[JSONObject] | None, changes: Changes) -> list[JSONObject] | None:
    """``first`` with the stores queued after it (``None`` if the review ended meanwhile)."""
    entries = first
    while entries is not None and not changes.empty():
        more = changes.get_nowait()
        entries = None if more is None else entries + more
    return entries


class Watch:
    """One socket's review: what it has sent, and what to send next."""

    def __init__(self, state: Any, hub: Any, table_id: str, answer: JSONObject) -> None:
        self.state, self.hub, self.table_id = state, hub, table_id
        self.reviews: Reviews = reviews_of(state, hub)
        self.answer = answer
        self.job: ReviewJob | None = None

    @property
    def judged(self) -> int:
        return int(str(self.answer["judged"]))

    def running_here(self) -> bool:
        task = self.reviews.tasks.get((self.table_id, REVIEW_VERSION))
        return task is not None and not task.done()

    def holding(self) -> bool:
        return self.running_here() and review_worker(self.state, self.hub).holding

    async def stored(self) -> JSONObject:
        """The review from the store (the moves after those sent)."""
        return await review_now(self.state, self.hub, self.table_id, self.judged)

    async def pushed(self, entries: list[JSONObject]) -> Reply | None:
        """The message for the moves this process just stored (``entries``), from memory where
        they follow those sent (made once for every page that has seen the same moves:
        :meth:`~fanfold.server.review_feed.ReviewFeed.shared`), else from the store; ``None``:
        nothing new (the socket's first answer, read as they were stored, has them)."""
        entries = [entry for entry in entries if int(str(entry["number"])) > self.judged]
        if not entries:
            return None
        if int(str(entries[0]["number"])) != self.judged + 1:
            return await self.stored(), None
        if self.job is None:
            job = await asyncio.to_thread(self.reviews.store.job, self.table_id, REVIEW_VERSION)
            if job is None:
                return await self.stored(), None
            self.job = job
        running, holding, seen = (
            dataclasses.replace(self.job, state="running"),
            self.holding(),
            self.judged,
        )

        def make() -> Made:
            answer = review_answer(running, entries, seen)
            if holding:
                with_hold(answer)
            return answer, socket_text(answer)

        key = (running.attempts, seen, int(str(entries[-1]["number"])), holding)
        return self.reviews.feed.shared(self.table_id, key, make)

    def unchanged(self) -> JSONObject:
        """The last answer with no new moves, its wait for the tables in play as it is now."""
        job = self.job
        if job is None:
            answer: JSONObject = {**self.answer, "moves": [], "marks": [], "graph": []}
            answer["seen"] = self.judged
            answer.pop("held", None)
        else:
            answer = review_answer(dataclasses.replace(job, state="running"), [], self.judged)
        if self.holding():
            with_hold(answer)
        return answer


async def closed_by_client(websocket: WebSocket) -> bool:
    """Until the client closes the socket (False) or sends anything (True: nothing is asked
    on this socket, and the server closes it)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        message = await websocket.receive()
        return str(message["type"]) != "websocket.disconnect"
    return False


async def next_answer(watch: Watch, changes: Changes, closed: asyncio.Future[bool]) -> Reply | None:
    """The next message for the socket (``None``: the client left, or spoke)."""
    while True:
        got: asyncio.Future[Any] = asyncio.ensure_future(changes.get())
        waited: set[asyncio.Future[Any]] = {got, closed}
        done, _ = await asyncio.wait(waited, timeout=LOOK, return_when="FIRST_COMPLETED")
        if closed in done:
            got.cancel()
            return None
        if got in done:
            entries = drained(got.result(), changes)
            if entries is None:
                return await watch.stored(), None
            reply = await watch.pushed(entries)
            if reply is not None:
                return reply
            continue
        got.cancel()
        if not watch.running_here():
            answer = await watch.stored()  # another process runs it (or nobody does now)
            if answer["judged"] != watch.judged or answer["state"] != watch.answer["state"]:
                return answer, None
        elif watch.holding() != ("held" in watch.answer):
            return watch.unchanged(), None


@router.websocket("/ws/reviews/{table_id}")
async def review_socket(websocket: WebSocket, table_id: str, hub: HubDep) -> None:
    await websocket.accept()
    try:
        seen = seen_of(websocket.query_params.get("seen"))
    except ValueError as error:
        await websocket.send_text(wire(malformed(str(error))))
        await websocket.close(code=1008, reason="seen")
        return
    state = websocket.app.state
    reviews = reviews_of(state, hub)
    with reviews.feed.watch(table_id) as changes:  # before the first read: nothing missed
        try:
            answer = await review_now(state, hub, table_id, seen)
        except FanfoldError as error:
            await websocket.send_text(wire(error_message(error)))
            await websocket.close(code=4404 if isinstance(error, NotFoundError) else 4409)
            return
        watch = Watch(state, hub, table_id, answer)
        closed = asyncio.ensure_future(closed_by_client(websocket))
        text: str | None = None
        try:
            while True:
                await websocket.send_text(text or await off_loop(socket_text, answer))
                watch.answer = answer
                if answer["state"] in ENDED:
                    await websocket.close(code=1000)
                    return
                found = await next_answer(watch, changes, closed)
                if found is None:
                    if closed.result():  # the client sent something: not this socket's use
                        await websocket.close(code=1008, reason="nothing is asked here")
                    return
                answer, text = found
        except (WebSocketDisconnect, RuntimeError):
            return  # the client left while a message was sent
        finally:
            closed.cancel()


__all__ = ["router"]
