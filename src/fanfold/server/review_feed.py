"""A review's progress pushed to the pages that watch it (:class:`ReviewFeed`), so that a page
need not poll ``GET /api/tables/{id}/review`` while it fills in
(:mod:`fanfold.server.routes.review_socket`, the socket ``/ws/reviews/{id}``).

The process that runs a review (:class:`~fanfold.server.reviews.Reviews`) tells the feed the
moves of each store as they are stored, from memory (no read of the store), and that the
review ended; each watcher of the table is handed them on a queue of its own, and sends only
what is new. Nothing is kept for a table nobody watches."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

from fanfold.core.config import JSONObject

#: A watcher's queue: a store's moves (in order), or ``None``: the review ended (done,
#: failed) or was taken over: read it from the store.
Changes = asyncio.Queue[list[JSONObject] | None]


class ReviewFeed:
    """The watchers of each table's review in this process, and what they are told."""

    def __init__(self) -> None:
        self._watchers: dict[str, set[Changes]] = {}

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

    def stored(self, table_id: str, entries: list[JSONObject]) -> None:
        """The moves ``entries`` of ``table_id``'s review were stored (in their order)."""
        for queue in self._watchers.get(table_id, ()):
            queue.put_nowait(entries)

    def ended(self, table_id: str) -> None:
        """``table_id``'s review ended (done or failed), or this process let it go."""
        for queue in self._watchers.get(table_id, ()):
            queue.put_nowait(None)


__all__ = ["Changes", "ReviewFeed"]
