"""A WebSocket's outgoing messages: a bounded queue drained by the socket's own writer task.

Whoever has something to tell a connection (the hub after an action, the socket's own loop
with an ``ok`` or an error) posts the serialised text and goes on at once: no player waits
while another connection's bytes go out. A connection that reads more slowly than its table
moves falls behind; when its queue is full it is dropped (closed with 1013, "try again
later"): the browser reconnects and gets the table as it is then, which is all a watcher
needs (every state message holds the whole view).

A chat line is posted *droppable*: it never counts towards that limit, and a slow reader
loses its oldest queued chat lines (at most :data:`CHAT_QUEUED` wait) rather than its
connection; a state message never waits behind more than those few lines.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

#: Messages a connection may be behind before it is dropped: a table's every version is one
#: message, so a connection this far behind has not read for many moves.
OUTBOX_SIZE = 64
#: Droppable messages (chat lines) a connection may have waiting: one more and the oldest
#: waiting one is dropped, never the connection.
CHAT_QUEUED = 16
#: The close code for a connection that fell behind ("try again later").
BEHIND = 1013

#: Spectators' messages written in one turn of the event loop, at most (see :class:`Pacer`).
SPECTATOR_BURST = 8

Write = Callable[[str], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]


class Pacer:
    """Spreads spectators' writes over turns of the event loop: at most ``burst`` of them in
    one turn, the others in later turns, first come first written.

    A move at a watched table is a message for each of its spectators (up to a few hundred),
    each write a fraction of a millisecond; written all in one turn, they would hold up for
    tens of milliseconds every player whose action arrived meanwhile. Between two turns the
    loop reads the sockets, so a player's action waits at most for one burst.

    A write that finds this turn's burst spent waits in line, asleep, until a later turn wakes
    it: no waiting writer runs before its turn (a waiter that polled each turn would wake
    every waiting connection, hundreds, at every turn of the loop).
    """

    def __init__(self, burst: int = SPECTATOR_BURST) -> None:
        self.burst = burst
        self._written = 0
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self._turning = False

    async def turn(self) -> None:
        """Until one more write fits in a turn of the loop (this one, or a later one)."""
        if self._written < self.burst and not self._waiting:
            self._written += 1
            self._next_turn_soon()
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        self._next_turn_soon()
        await waiter  # counted in its turn by whoever woke it

    def _next_turn_soon(self) -> None:
        if not self._turning:
            self._turning = True
            asyncio.get_running_loop().call_soon(self._next_turn)

    def _next_turn(self) -> None:
        """A new turn: up to ``burst`` waiting writes go in it (they run in the next turn of
        the loop, the sockets read before them), and the turn after is scheduled."""
        self._turning = False
        self._written = 0
        while self._waiting and self._written < self.burst:
            waiter = self._waiting.popleft()
            if not waiter.done():  # not cancelled (its connection was stopped)
                waiter.set_result(None)
                self._written += 1
        if self._written:
            self._next_turn_soon()


_pacers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Pacer] = weakref.WeakKeyDictionary()


def spectators_pacer() -> Pacer:
    """The pacer of the running event loop's spectators' writes."""
    loop = asyncio.get_running_loop()
    pacer = _pacers.get(loop)
    if pacer is None:
        pacer = _pacers[loop] = Pacer()
    return pacer


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
        #: What waits: a text and whether it may be dropped, or the closing (code, reason).
        self._queue: collections.deque[tuple[str, bool] | tuple[int, str]] = collections.deque()
        self._ready = asyncio.Event()
        self._held = 0  # texts waiting that may not be dropped
        self._droppable = 0  # texts waiting that may be
        #: Droppable texts dropped unsent, for the tests and the curious.
        self.dropped_lines = 0
        self.size = size
        #: True once the connection was dropped or shut: nothing more is posted.
        self.closed = False
        #: Writes wait for their turn (:class:`Pacer`): a spectator's connection, whose
        #: messages may come a moment later so that players' actions never wait for them.
        self.pacer: Pacer | None = None
        self._dropped = False
        self._task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._run())

    def post(self, text: str, *, droppable: bool = False) -> bool:
        """Queue ``text``; False (and the connection dropped) when it is full or closed.

        A ``droppable`` text (a chat line) never drops the connection: when
        :data:`CHAT_QUEUED` of them wait already, the oldest waiting one is left unsent."""
        if self.closed:
            return False
        if droppable:
            if self._droppable >= CHAT_QUEUED:
                self._drop_oldest_line()
            self._droppable += 1
        else:
            if self._held >= self.size:
                self.drop(
                    f"this connection fell {self.size} messages behind the table; "
                    "reconnect to see it as it is now"
                )
                return False
            self._held += 1
        self._queue.append((text, droppable))
        self._ready.set()
        return True

    def _drop_oldest_line(self) -> None:
        for index, item in enumerate(self._queue):
            if item[1] is True:
                del self._queue[index]
                self._droppable -= 1
                self.dropped_lines += 1
                return

    def shut(self, code: int, reason: str) -> None:
        """Close the connection once what is queued has gone out."""
        if not self.closed:
            self.closed = True
            self._queue.append((code, reason))
            self._ready.set()

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
            while not self._queue:
                self._ready.clear()
                await self._ready.wait()
            first, second = self._queue.popleft()
            if isinstance(first, int):  # the closing: (code, reason)
                await self._close_quietly(first, str(second))
                return
            item = first
            if second:
                self._droppable -= 1
            else:
                self._held -= 1
            try:
                if self.pacer is not None:
                    await self.pacer.turn()
                await self._write(item)
            except Exception:  # the connection is gone: its loop ends on its own
                self.closed = True
                return

    async def _close_quietly(self, code: int, reason: str) -> None:
        try:
            await self._close(code, reason[:120])
        except Exception as error:  # already closed
            log.debug("closing a connection: %s", error)


__all__ = [
    "BEHIND",
    "CHAT_QUEUED",
    "OUTBOX_SIZE",
    "SPECTATOR_BURST",
    "Outbox",
    "Pacer",
    "spectators_pacer",
]
