"""A WebSocket's outgoing messages: a bounded queue drained by the socket's own writer task.

Whoever has something to tell a connection (the hub after an action, the socket's own loop
with an ``ok`` or an error) posts the serialised text and goes on at once: no player waits
while another connection's bytes go out. A connection that reads more slowly than its table
moves falls behind; when its queue is full it is dropped (closed with 1013, "try again
later"): the browser reconnects and gets the table as it is then, which is all a watcher
needs (every state message holds the whole view).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

#: Messages a connection may be behind before it is dropped: a table's every version is one
#: message, so a connection this far behind has not read for many moves.
OUTBOX_SIZE = 64
#: The close code for a connection that fell behind ("try again later").
BEHIND = 1013

Write = Callable[[str], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]


class Outbox:
    """The queue of texts still to go out on one connection, and the task that writes them.

    Args:
        write: sends one text on the connection.
        close: closes the connection with a code and a reason.
        size: the most texts waiting; one more and the connection is dropped.
    """

    def __init__(self, write: Write, close: Close, size: int = OUTBOX_SIZE) -> None:
        self._write = write
        self._close = close
        self._queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self.size = size
        #: True once the connection was dropped or shut: nothing more is posted.
        self.closed = False
        self._dropped = False
        self._task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._run())

    def post(self, text: str) -> bool:
        """Queue ``text``; False (and the connection dropped) when it is full or closed."""
        if self.closed:
            return False
        if self._queue.qsize() >= self.size:
            self.drop(
                f"this connection fell {self.size} messages behind the table; "
                "reconnect to see it as it is now"
            )
            return False
        self._queue.put_nowait(text)
        return True

    def shut(self, code: int, reason: str) -> None:
        """Close the connection once what is queued has gone out."""
        if not self.closed:
            self.closed = True
            self._queue.put_nowait((code, reason))

    def drop(self, reason: str) -> None:
        """Close the connection now, with what is queued left unsent (code 1013)."""
        if self._dropped:
            return
        self._dropped = self.closed = True
        self._task.cancel()
        self._task = asyncio.get_running_loop().create_task(self._close_quietly(BEHIND, reason))

    async def wait(self) -> None:
        """Until the writer is done (after :meth:`shut` or :meth:`drop`)."""
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(self._task)

    async def stop(self) -> None:
        """Stop writing (the connection is gone)."""
        self.closed = True
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task

    async def _run(self) -> None:
        while True:
            item = await self._queue.get()
            if isinstance(item, tuple):
                await self._close_quietly(*item)
                return
            try:
                await self._write(item)
            except Exception:  # the connection is gone: its loop ends on its own
                self.closed = True
                return

    async def _close_quietly(self, code: int, reason: str) -> None:
        try:
            await self._close(code, reason[:120])
        except Exception as error:  # already closed
            log.debug("closing a connection: %s", error)


__all__ = ["BEHIND", "OUTBOX_SIZE", "Outbox"]
