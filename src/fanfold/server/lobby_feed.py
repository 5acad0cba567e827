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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable

import psycopg

from fanfold.core.config import JSONObject
from fanfold.server.ownership import is_postgresql, libpq_url
from fanfold.server.protocol import PROTOCOL
from fanfold.server.ratings import RATED
from fanfold.server.store import LOBBY_CHANNEL, Store

log = logging.getLogger(__name__)

#: Changes arriving within this many seconds are read from the store once.
GATHER_SECONDS = 0.1
#: Seconds between tries to open the listening connection again after it broke.
RECONNECT_SECONDS = 1.0
#: Lines of the pushed list (as ``/api/open-tables?limit=20``, what the lobby shows).
PUSHED_LINES = 20
#: The table option naming its seats open to anyone (``fanfold.server.hub.OPEN``).
OPEN = "open"
#: The type of the pushed message.
MESSAGE_TYPE = "open_tables"


def open_table_lines(store: Store, limit: int) -> list[JSONObject]:
    """The lobby's open tables (``OpenTable``), newest first: listed unfinished tables with a
    seat open to anyone still free; friends' seats are never listed."""
    lines: list[JSONObject] = []
    for table_id, game, options, count, free in store.open_tables(limit):
        if not options.get(OPEN):
            continue  # a friend's seat nobody claimed: reached by its link only
        lines.append(
            {
                "table": table_id,
                "game": game.split(".")[0],
                "variant": options.get("variant"),
                "players": count,
                "free": free,
                "rated": bool(options.get(RATED)),
                "time_limit": options.get("time_limit"),
            }
        )
    return lines


def lobby_message(lines: list[JSONObject]) -> str:
    """The pushed message (``LobbyTables``): ``{"type": "open_tables", "tables": [...]}``."""
    return json.dumps({"type": MESSAGE_TYPE, "protocol": PROTOCOL, "tables": lines})


Push = Callable[[str], object]


class LobbyFeed:
    """One process's push of the lobby's open tables to its lobby sockets.

    Args:
        store: the server's store (it says when the open tables change).
        gather: seconds of changes read from the store at once.
    """

    def __init__(self, store: Store, *, gather: float = GATHER_SECONDS) -> None:
        self.store = store
        self.gather = gather
        self.subscribers: set[Push] = set()
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._listen: psycopg.AsyncConnection[tuple[object, ...]] | None = None
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
            with contextlib.suppress(Exception):
                await self._listen.close()
        self.listening = False

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
                self._listen = await psycopg.AsyncConnection.connect(
                    libpq_url(self.store.url), autocommit=True, application_name="fanfold lobby"
                )
                await self._listen.execute(f"LISTEN {LOBBY_CHANNEL}")
                self.listening = True
                self.changed()
                async for _note in self._listen.notifies():
                    self.changed()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the lobby's listening connection broke; connecting again")
            self.listening = False
            if self._listen is not None:
                with contextlib.suppress(Exception):
                    await self._listen.close()
            await asyncio.sleep(RECONNECT_SECONDS)


__all__ = ["LobbyFeed", "lobby_message", "open_table_lines"]
