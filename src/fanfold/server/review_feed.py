"""A review's progress pushed to the pages that watch it (:class:`ReviewFeed`), so that a page
need not poll ``GET /api/tables/{id}/review`` while it fills in
(:mod:`fanfold.server.routes.review_socket`, the socket ``/ws/reviews/{id}``).

The process that runs a review (:class:`~fanfold.server.reviews.Reviews`) tells the feed the
moves of each store as they are stored, from memory (no read of the store), and that the
review ended; each watcher of the table is handed them on a queue of its own, and sends only
what is new. The watchers that have seen the same moves send the same message for a store:
it is made once, by the first of them, and kept for the others (:meth:`ReviewFeed.shared`)
until the table's next store, so that a store watched by many pages costs the event loop one
answer and one text, not one a page. Nothing is kept for a table nobody watches."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

from fanfold.core.config import JSONObject

#: A watcher's queue: a store's moves (in order), or ``None``: the review ended (done,
#: failed) or was taken over: read it from the store.
Changes = asyncio.Queue[list[JSONObject] | None]

#: A message made for a store: the answer, and its text as sent.
Made = tuple[JSONObject, str]


class ReviewFeed:
    """The watchers of each table's review in this process, and what they are told."""

    def __init__(self) -> None:
        self._watchers: dict[str, set[Changes]] = {}
        self._made: dict[str, dict[Hashable, Made]] = {}

    def watching(self, table_id: str) -> int:
        """How many watchers ``table_id``'s review has in this process."""
        return len(self._watchers.get(table_id, ()))

    @contextmanager
    def watch(self, table_id: str) -> Iterator[Changes]:
        """A queue of the changes to ``table_id``'s review from now on, until the block ends."""
        queue: Changes = asyncio.Queue()
        self._watchers.setdefault(table_id, set()).add(queue)
        try:
            yield queue
        finally:
            watchers = self._watchers.get(table_id)
            if watchers is not None:
                watchers.discard(queue)
                if not watchers:
                    del self._watchers[table_id]
                    self._made.pop(table_id, None)

    def shared(self, table_id: str, key: Hashable, make: Callable[[], Made]) -> Made:
        """The message for ``key`` (what a watcher has seen and is sent) since ``table_id``'s
        last store: made by ``make`` for the first watcher that asks, then the same for the
        others (made, not kept, for a table nobody watches)."""
        if table_id not in self._watchers:
            return make()
        made = self._made.setdefault(table_id, {})
        message = made.get(key)
        if message is None:
            message = made[key] = make()
        return message

    def stored(self, table_id: str, entries: list[JSONObject]) -> None:
        """The moves ``entries`` of ``table_id``'s review were stored (in their order)."""
        watchers = self._watchers.get(table_id, ())
        if watchers:
            self._made[table_id] = {}  # the messages of the store before are not sent again
        for queue in watchers:
            queue.put_nowait(entries)

    def ended(self, table_id: str) -> None:
        """``table_id``'s review ended (done or failed), or this process let it go."""
        self._made.pop(table_id, None)
        for queue in self._watchers.get(table_id, ()):
            queue.put_nowait(None)


__all__ = ["Changes", "Made", "ReviewFeed"]
