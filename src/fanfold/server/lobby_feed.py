"""The lobby's live list of seats to take: what ``GET /api/open-tables`` answers, pushed on the
WebSocket ``/ws/lobby`` whenever it changes, so that no lobby polls.

Who hears of a change:

* The store says when the open tables may have changed (a listed table opened, an open seat
  taken or given to a bot, a listed game ended, tables expired). On SQLite (one process) it
  calls its :attr:`~fanfold.server.store.Store.lobby_listeners` after the commit; on
  PostgreSQL it notifies :data:`~fanfold.server.store.LOBBY_CHANNEL` in the change's own
  transaction, and every process (``fanfold serve --processes N``) LISTENs on a connection
  of its own, so a table opened through one process shows in the lobbies connected to
  every other.
* The feed (:class:`LobbyFeed`) gathers the changes of :data:`GATHER_SECONDS`, reads the list
  once from the store (one query however many lobbies are open) and hands the text to every
  subscriber; each connection sends it only when it differs from what it sent last.

A browser whose socket fails falls back to asking ``/api/open-tables`` every few seconds and
reconnects (``static/open-tables.js``).

The lobby's sockets have limits of their own (:class:`LobbyLimits`), apart from the tables'
sockets (whose per-client cap they do not count against):

* a client holds at most :attr:`LobbyLimits.per_client` of them and a process at most
  :attr:`LobbyLimits.total`; one more is told why and closed (:data:`TOO_MANY`, 1008, for
  the client's cap; :data:`FULL`, 1013 "try again later", for the process's);
* each socket's sending (:class:`LobbySender`) keeps only the newest list waiting (a list not
  yet sent is replaced by a newer one, so a socket holds one message at most), written by its
  own task: the feed never waits for a socket, and a socket whose write takes longer than
  :attr:`LobbyLimits.send_seconds` (a client that does not read) is dropped with 1013;
* a socket lasts at most :attr:`LobbyLimits.lifetime_seconds` and is then closed with
  :data:`RENEW`: a page that is shown connects again at once, a hidden one (a forgotten tab)
  only once it is shown again, so idle tabs do not hold sockets;
* it takes no messages (it only listens): one closes it (1003).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from fanfold.server.outbox import Pacer
from fanfold.server.protocol import OpenTable, lobby_tables, wire
from fanfold.server.store import LOBBY_CHANNEL, Store
from fanfold.server.store.coordination import PgSubscription
from fanfold.server.store.engine import is_postgresql
from fanfold.server.store.protocols import Subscription
from fanfold.server.table_options import TableOptions

log = logging.getLogger(__name__)

#: Changes arriving within this many seconds are read from the store once.
GATHER_SECONDS = 0.1
#: Seconds between tries to open the listening connection again after it broke.
RECONNECT_SECONDS = 1.0
#: Lines of the pushed list (as ``/api/open-tables?limit=20``, what the lobby shows).
PUSHED_LINES = 20
#: The table option naming its seats open to anyone (``fanfold.server.hub.OPEN``).
OPEN = "open"


#: The close code for a lobby socket beyond its client's cap (policy violation).
TOO_MANY = 1008
#: The close code for a lobby socket beyond the process's cap, or one that did not read
#: ("try again later").
FULL = 1013
#: The close code for a lobby socket that reached its lifetime: connect again.
RENEW = 4000


@dataclass(frozen=True)
class LobbyLimits:
    """The lobby sockets' own limits (see the module's text).

    Attributes:
        per_client: lobby sockets one client may hold open at once (a person's lobby tabs).
        total: lobby sockets one process holds open at once.
        send_seconds: the longest one write of the list may take before the socket is
            dropped as not reading.
        lifetime_seconds: how long a lobby socket lasts before the server closes it (the
            page connects again when it is shown).
    """

    per_client: int = 4
    total: int = 5000
    send_seconds: float = 10.0
    lifetime_seconds: float = 1800.0

    def __post_init__(self) -> None:
        for name in ("per_client", "total"):
            if getattr(self, name) < 1:
                raise ValueError(
                    f"the lobby limit {name} must be at least 1, not {getattr(self, name)}"
                )
        for name in ("send_seconds", "lifetime_seconds"):
            if not getattr(self, name) > 0:
                raise ValueError(
                    f"the lobby limit {name} must be above 0, not {getattr(self, name)}"
                )


Write = Callable[[str], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]


class LobbySender:
    """One lobby socket's sending: the newest list waits (a list not sent yet is replaced by
    a newer one, and a list equal to the last one is not sent again), written by the socket's
    own task; a write that takes longer than ``send_seconds`` drops the socket (1013).

    Args:
        write: sends one text on the socket.
        close: closes the socket with a code and a reason.
        send_seconds: the longest one write may take.
        pacer: spreads the writes over turns of the event loop (a change is a message for
            every lobby at once).
    """

    def __init__(
        self, write: Write, close: Close, *, send_seconds: float, pacer: Pacer | None = None
    ) -> None:
        self._write = write
        self._close = close
        self.send_seconds = send_seconds
        self.pacer = pacer
        self._last = ""
        self._waiting: str | None = None
        self._closing: tuple[int, str] | None = None
        self._wake = asyncio.Event()
        #: True once the socket is closed, shut or dropped: nothing more is posted.
        self.closed = False
        #: The close code and reason the server gave the socket, once it gave one.
        self.closed_with: tuple[int, str] | None = None
        self.task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._run())

    def post(self, text: str) -> None:
        """Send ``text`` soon, in place of any list still waiting (never waits)."""
        if self.closed or text == self._last:
            return
        self._last = self._waiting = text
        self._wake.set()

    def shut(self, code: int, reason: str) -> None:
        """Close the socket once the list waiting (if any) has gone out."""
        if not self.closed:
            self.closed = True
            self._closing = (code, reason)
            self._wake.set()

    async def stop(self) -> None:
        """Stop sending (the socket is gone)."""
        self.closed = True
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.task

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            text, self._waiting = self._waiting, None
            if text is not None:
                if self.pacer is not None:
                    await self.pacer.turn()
                try:
                    await asyncio.wait_for(self._write(text), self.send_seconds)
                except TimeoutError:
                    self.closed = True
                    await self._close_quietly(
                        FULL,
                        f"this connection did not take the lobby's list within "
                        f"{self.send_seconds:g} s; reconnect",
                    )
                    return
                except Exception:  # the socket is gone
                    self.closed = True
                    return
            if self._closing is not None:
                await self._close_quietly(*self._closing)
                return

    async def _close_quietly(self, code: int, reason: str) -> None:
        self.closed_with = (code, reason)
        try:
            await asyncio.wait_for(self._close(code, reason[:120]), self.send_seconds)
        except Exception as error:  # already closed, or not reading at all
            log.debug("closing a lobby socket: %s", error)


def open_table_lines(store: Store, limit: int) -> list[OpenTable]:
    """The lobby's open tables (:class:`~fanfold.server.protocol.OpenTable`), newest first:
    listed unfinished tables with a seat open to anyone still free; friends' seats are never
    listed."""
    lines: list[OpenTable] = []
    for table_id, game, stored, count, free in store.open_tables(limit):
        options = TableOptions.from_stored(stored)
        if not options.open_seats:
            continue  # a friend's seat nobody claimed: reached by its link only
        lines.append(
            OpenTable(
                table=table_id,
                game=game.split(".")[0],
                variant=options.variant,
                players=count,
                free=free,
                rated=options.rated,
                time_limit=options.time_limit,
            )
        )
    return lines


def lobby_message(lines: list[OpenTable]) -> str:
    """The pushed message (:class:`~fanfold.server.protocol.LobbyTables`):
    ``{"type": "open_tables", "protocol": 1, "tables": [...]}``."""
    return wire(lobby_tables(lines))


Push = Callable[[str], object]


class LobbyFeed:
    """One process's push of the lobby's open tables to its lobby sockets.

    Args:
        store: the server's store (it says when the open tables change).
        gather: seconds of changes read from the store at once.
    """

    def __init__(
        self, store: Store, *, gather: float = GATHER_SECONDS, limits: LobbyLimits | None = None
    ) -> None:
        self.store = store
        self.gather = gather
        self.limits = limits if limits is not None else LobbyLimits()
        #: Open lobby sockets per client, and in all (:meth:`admit`).
        self.open: Counter[str] = Counter()
        self.subscribers: set[Push] = set()
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._listen: Subscription | None = None
        #: Whether the process hears the store's changes now (on PostgreSQL: its listening
        #: connection is open).
        self.listening = False

    async def start(self) -> None:
        """Hear the store's changes (LISTEN on PostgreSQL) and start pushing."""
        self._loop = asyncio.get_running_loop()
        self._tasks.append(self._loop.create_task(self._pushing()))
        if is_postgresql(self.store.url):
            self._tasks.append(self._loop.create_task(self._listening()))
        else:
            self.store.lobby_listeners.append(self._from_store)
            self.listening = True

    async def close(self) -> None:
        """Stop listening and pushing."""
        if self._from_store in self.store.lobby_listeners:
            self.store.lobby_listeners.remove(self._from_store)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        if self._listen is not None:
            await self._listen.close()
        self.listening = False

    # ------------------------------------------------------------ admitting
    def admit(self, client: str) -> tuple[int, str] | None:
        """Count one more lobby socket of ``client``; over a limit, the close code and the
        sentence that refuse it (nothing is counted then). Each one admitted is let go with
        :meth:`leave`."""
        if self.open[client] >= self.limits.per_client:
            return TOO_MANY, (
                f"too many lobby connections from {client} (at most "
                f"{self.limits.per_client}); close a lobby tab, the list is still shown there"
            )
        if self.open.total() >= self.limits.total:
            return FULL, (
                f"the server holds all the lobby connections it takes ({self.limits.total}); "
                "the list is shown without one, try again later"
            )
        self.open[client] += 1
        return None

    def leave(self, client: str) -> None:
        """A lobby socket of ``client`` closed."""
        self.open[client] -= 1
        if self.open[client] <= 0:
            del self.open[client]

    # ------------------------------------------------------------ subscribing
    def subscribe(self, push: Push) -> Callable[[], None]:
        """Call ``push`` with the list's message now (soon: read with the next change) and
        after every change; returns what ends it."""
        self.subscribers.add(push)
        self.changed()
        return lambda: self.subscribers.discard(push)

    def changed(self) -> None:
        """The open tables may have changed: read them again soon (in this event loop)."""
        self._wake.set()

    def _from_store(self) -> None:
        # The store calls this from whichever thread wrote.
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop stopped meanwhile
                loop.call_soon_threadsafe(self.changed)

    async def _pushing(self) -> None:
        while True:
            await self._wake.wait()
            await asyncio.sleep(self.gather)  # the rest of a burst of changes
            self._wake.clear()
            if not self.subscribers:
                continue
            try:
                lines = await asyncio.to_thread(open_table_lines, self.store, PUSHED_LINES)
            except Exception:
                log.warning("the lobby's open tables could not be read", exc_info=True)
                continue
            text = lobby_message(lines)
            for push in list(self.subscribers):
                push(text)

    # ----------------------------------------------------- PostgreSQL LISTEN
    async def _listening(self) -> None:
        """LISTEN on :data:`LOBBY_CHANNEL`; after a broken connection, connect again (and read
        the list again: changes may have been missed meanwhile)."""
        while True:
            try:
                self._listen = PgSubscription(self.store.url, LOBBY_CHANNEL, "fanfold lobby")
                await self._listen.open()
                self.listening = True
                self.changed()
                async for _note in self._listen.notes():
                    self.changed()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the lobby's listening connection broke; connecting again")
            self.listening = False
            if self._listen is not None:
                await self._listen.close()
            await asyncio.sleep(RECONNECT_SECONDS)


__all__ = [
    "FULL",
    "RENEW",
    "TOO_MANY",
    "LobbyFeed",
    "LobbyLimits",
    "LobbySender",
    "lobby_message",
    "open_table_lines",
]
