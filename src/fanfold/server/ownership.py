"""Which server process plays a table: ownership in PostgreSQL, for several ``fanfold serve``
processes on one store.

Each live table is owned by one process at a time. Ownership is a PostgreSQL session-level
advisory lock on the table's key (:func:`lock_key`), taken on a connection of the process's
own, never one of the pool's (an advisory lock belongs to the connection that took it). A
process that dies loses its connection, and with it every lock it held, at once: another
process takes the table from the store on the next request, at its last stored action (or,
where play goes on without a person, at the next round of its sweeper:
:meth:`fanfold.server.hub.residency.Residency.take_orphans`).

Who owns what, and when ownership moves:

* A process takes a table when it needs it in memory (a request for it, a new table, a table
  resumed at start-up) and lets it go when the table leaves memory (idle, expired).
* A process given a server name (``fanfold serve --server-name``: the name of its ``server``
  line in the router's configuration) writes it at the end of the id of every table it opens
  (:func:`table_id_for`), and the router (HAProxy, ``docs/deploy.md``) sends the requests of
  a new table to the process so named while it is up: the process that opened a table keeps
  it, with no hand-over, until it goes down. A table whose id names no process, or one the
  router marks down, goes by a consistent hash of its id to another process (its stand-in).
* A request that arrives at a process while another owns the table (a table opened by a
  process with no server name; one the router sends elsewhere than its owner) asks the owner
  to hand it over, by a notification on :data:`CHANNEL`. The owner lets it go after the
  action it is storing, if any, closes its sockets with code 1012 (the browsers reconnect,
  through the router, to the new owner) and unlocks it; the asking process then takes it.
  The router remembers where each table went last (HAProxy's stick table) and sends it there
  while that process is up, so a process that comes back after a failure or a restart gets
  new tables, not its old ones back from their stand-ins. An owner that does not let go in
  :data:`HAND_OVER_SECONDS` leaves the request refused with 503 (:class:`ElsewhereError`).
* A process that stops (``SIGTERM``) lets every table go at once and says so ("these
  tables were let go": :meth:`Ownership.announce_let_go`); the others take them from the
  store as soon as they hear it (:mod:`fanfold.server.hub.draining`), the first to ask
  each, so that play goes on where nobody asks for the table.
* What crosses processes goes through PostgreSQL's LISTEN/NOTIFY, on a second connection of
  the process's own: "hand table X over", "table X was let go" and "tables X, Y... were let
  go" (a few bytes each, delivered at commit), never a game message. The lobby and the JSON
  API read the store, which every process shares.

Two processes never store actions for one table: the lock says who may, and the store's key
on (table, action number) refuses a second action of the same number from a process that lost
its lock without noticing (:meth:`fanfold.server.store.Store.append_many`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import secrets
import socket
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any

from fanfold.server.live import StorageError
from fanfold.server.logs import TABLE
from fanfold.server.refusals import refusal
from fanfold.server.store.coordination import PgCoordination
from fanfold.server.store.engine import is_postgresql, libpq_url
from fanfold.server.store.protocols import Coordination
from fanfold.server.store.sql_common import lock_key

log = logging.getLogger(__name__)

#: The notification channel of hand-overs.
CHANNEL = "fanfold_tables"
#: How long a process waits for a table's owner to hand it over before refusing the request.
HAND_OVER_SECONDS = 3.0
#: How often a process checks that its ownership connection still holds its locks.
CHECK_SECONDS = 1.0
#: How often a waiting process tries the lock again while the owner hands a table over.
RETRY_SECONDS = 0.05
#: The most table ids one "let go" notification names (PostgreSQL's payloads are at most
#: 8000 bytes; an id is at most 33 characters).
ANNOUNCED_IDS = 150


#: The longest notice of a restart (``fanfold restart --in``), in seconds.
MAX_NOTICE_SECONDS = 3600


#: What a server name may be: it ends the ids of the tables its process opens (after
#: :data:`NAME_SEPARATOR`) and names the process's ``server`` line in the router.
SERVER_NAME = re.compile(r"[A-Za-z0-9_-]{1,20}")
#: What a table id may be (its own part, and the opener's name if any): what a "let go"
#: notification's ids are checked against.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}(\.[A-Za-z0-9_-]{1,20})?")
#: Between a table id's own part and the server name that ends it (never in the own part,
#: which is URL-safe base64).
NAME_SEPARATOR = "."


def check_server_name(name: str) -> str:
    """``name`` if it may be a server name (:data:`SERVER_NAME`).

    Raises:
        ValueError: it may not, said in a sentence.
    """
    if SERVER_NAME.fullmatch(name) is None:
        raise ValueError(
            f"the server name {name!r} must be 1 to 20 letters, digits, '_' or '-' (the name "
            "of the process's server line in the router's configuration)"
        )
    return name


def table_id_for(server_name: str | None) -> str:
    """A new table's id: 12 random URL-safe characters, then ``.NAME`` when the process
    that opens it has a server name, so that the router sends the table to it."""
    own = secrets.token_urlsafe(9)
    return own if server_name is None else f"{own}{NAME_SEPARATOR}{server_name}"


def opened_by(table_id: str) -> str | None:
    """The server name a table's id ends with (the process that opened it), if any: what
    the router reads (``deploy/haproxy.cfg``)."""
    _, separator, name = table_id.partition(NAME_SEPARATOR)
    return name if separator and SERVER_NAME.fullmatch(name) else None


class ElsewhereError(StorageError):
    """Another server process plays the table (it did not hand it over in time, or it stored
    the table's next action first): answered with 503, nothing changed here."""


HandOver = Callable[[str], Awaitable[None]]
Lost = Callable[[], Awaitable[None]]
Stopped = Callable[[list[str], bool], Coroutine[Any, Any, int]]
Notice = Callable[[int], Coroutine[Any, Any, int]]


class Ownership:
    """One process's tables in PostgreSQL: the locks it holds, and the hand-overs it asks for
    and answers.

    Args:
        url: the store's SQLAlchemy URL (PostgreSQL).
        name: this process, as the log and the notifications name it.
        coordination: the locks and notifications (``None``: PostgreSQL's, on two
            connections of the process's own, :class:`PgCoordination`).
    """

    def __init__(
        self, url: str, *, name: str | None = None, coordination: Coordination | None = None
    ) -> None:
        self.url = libpq_url(url)
        self.name = name or f"{socket.gethostname()}:{os.getpid()}"
        self.coordination: Coordination = coordination or PgCoordination(
            url,
            CHANNEL,
            f"fanfold {self.name}",
            lambda: ElsewhereError(refusal("store.ownership_closed")),
        )
        #: The tables this process owns now.
        self.held: set[str] = set()
        #: Lets a table go from memory when another process asks for it (set by the hub).
        self.hand_over: HandOver | None = None
        #: Drops every table from memory when the locks were lost (set by the hub).
        self.lost: Lost | None = None
        #: Takes the tables another process let go as it stopped (set by the hub).
        self.stopped: Stopped | None = None
        #: Tells every table's sockets of a restart in so many seconds (set by the hub).
        self.restarting: Notice | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._released: dict[str, asyncio.Event] = {}
        self._taking: dict[str, asyncio.Lock] = {}
        #: Tables waiting for their lock to be tried (:meth:`_try`), tried together.
        self._asking: list[tuple[str, asyncio.Future[bool]]] = []
        self._trying: asyncio.Task[None] | None = None

    # -------------------------------------------------------------- running
    @property
    def _locks(self) -> Any:
        """The lock connection (PostgreSQL's), if open: what an operator's tools see."""
        return getattr(self.coordination, "locks", None)

    def _connection(self) -> Any:
        """The open lock connection (PostgreSQL's).

        Raises:
            ElsewhereError: it is closed.
        """
        return getattr(self.coordination, "connection", lambda: None)()

    async def start(self) -> None:
        """Connect (the lock connection and the listening one) and start listening."""
        await self.coordination.start()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listening()), loop.create_task(self._checking())]

    async def close(self) -> None:
        """Stop listening and close both connections (every lock is let go)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.coordination.close()
        self.held.clear()

    @property
    def healthy(self) -> bool:
        """Whether the lock connection is open (``/ready``)."""
        return self.coordination.healthy

    # ------------------------------------------------------------ the locks
    async def take(self, table_id: str, *, wait: float = HAND_OVER_SECONDS) -> bool:
        """Own ``table_id``: True once this process holds its lock. When another process
        holds it and ``wait`` is more than 0, ask that process to hand it over and try again
        until ``wait`` seconds have passed; False if it did not let go."""
        if table_id in self.held:
            return True
        guard = self._taking.setdefault(table_id, asyncio.Lock())
        try:
            async with guard:
                if table_id in self.held:
                    return True
                if await self._try(table_id):
                    return True
                if wait <= 0:
                    return False
                released = self._released.setdefault(table_id, asyncio.Event())
                await self._notify({"hand_over": table_id, "by": self.name})
                loop = asyncio.get_running_loop()
                deadline = loop.time() + wait
                while loop.time() < deadline:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(released.wait(), RETRY_SECONDS * 4)
                    released.clear()
                    if await self._try(table_id):
                        return True
                log.warning("table %s: its owner did not hand it over in %.1f s", table_id, wait)
                return False
        finally:
            if not guard.locked():
                self._taking.pop(table_id, None)
                self._released.pop(table_id, None)

    async def _try(self, table_id: str) -> bool:
        """Try ``table_id``'s lock once. The tables tried while a try is in flight are tried
        together in the next one, in one statement on the lock connection: after a process
        dies, its hundreds of tables reach their stand-in at once, and one round trip each
        on the one connection queued them for seconds."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._asking.append((table_id, future))
        if self._trying is None or self._trying.done():
            self._trying = asyncio.get_running_loop().create_task(self._try_asked())
        return await future

    async def _try_asked(self) -> None:
        while self._asking:
            asked, self._asking = self._asking, []
            try:
                rows = await self.coordination.try_locks([table_id for table_id, _ in asked])
            except Exception as error:  # the connection is gone: so are the locks
                for _, future in asked:
                    if not future.done():
                        future.set_exception(error)
                continue
            for (table_id, future), took in zip(asked, rows, strict=True):
                if not took:
                    if not future.done():
                        future.set_result(False)
                    continue
                if future.done():  # its asker gave up (a request cancelled): let it go
                    with contextlib.suppress(Exception):
                        await self.coordination.unlock([table_id])
                    continue
                self.held.add(table_id)
                future.set_result(True)

    async def release(self, table_id: str, *, told: bool = False) -> None:
        """Let ``table_id`` go (nothing if this process does not own it); with ``told``,
        notify the process that asked for it."""
        if table_id not in self.held:
            return
        await self.release_many([table_id])
        if told:
            try:
                await self._notify({"released": table_id, "by": self.name})
            except Exception:  # the connection is gone: so is the lock
                log.warning("table %s: its release could not be told", table_id, exc_info=True)

    async def release_many(self, table_ids: Iterable[str]) -> None:
        """Let go every one of ``table_ids`` this process owns, in one statement: when a
        crowd's tables leave memory together, a round trip each queued them for seconds on
        the one lock connection."""
        letting = [table_id for table_id in dict.fromkeys(table_ids) if table_id in self.held]
        if not letting:
            return
        self.held.difference_update(letting)
        try:
            await self.coordination.unlock(letting)
        except Exception:  # the connection is gone: so are the locks
            log.warning(
                "%d tables' locks could not be let go (%s...)",
                len(letting),
                letting[0],
                exc_info=True,
            )

    async def announce_let_go(self, table_ids: Iterable[str], watched: Iterable[str] = ()) -> None:
        """Tell the other processes that this one stopped and let ``table_ids`` go (they
        take them at once), in notifications of :data:`ANNOUNCED_IDS` ids at most; those of
        ``watched`` (sockets open on them) in notes of their own, ``"watched": true``."""
        ids, seen = list(table_ids), set(watched)
        for flag in (False, True):
            group = [table_id for table_id in ids if (table_id in seen) is flag]
            for start in range(0, len(group), ANNOUNCED_IDS):
                note = {"let_go": group[start : start + ANNOUNCED_IDS], "by": self.name}
                try:
                    await self._notify({**note, "watched": True} if flag else note)
                except Exception:  # the connection is gone: the sweepers take them instead
                    log.warning("%d let-go tables could not be told", len(ids), exc_info=True)
                    return

    async def _notify(self, payload: dict[str, Any]) -> None:
        await self.coordination.publish(json.dumps(payload))

    # ----------------------------------------------------- notifications
    async def _listening(self) -> None:
        async for payload in self.coordination.notes():
            try:
                message = json.loads(payload)
            except ValueError:
                continue
            if not isinstance(message, dict) or message.get("by") == self.name:
                continue
            wanted = message.get("hand_over")
            if isinstance(wanted, str) and wanted in self.held:
                asyncio.get_running_loop().create_task(self._hand_over(wanted))
            gone = message.get("released")
            if isinstance(gone, str) and gone in self._released:
                self._released[gone].set()
            seconds = message.get("restarting")
            if type(seconds) is int and 0 <= seconds <= MAX_NOTICE_SECONDS and self.restarting:
                asyncio.get_running_loop().create_task(self.restarting(seconds))
            let_go = message.get("let_go")
            if isinstance(let_go, list):
                ids = [t for t in let_go if isinstance(t, str) and TABLE_ID.fullmatch(t)]
                for table_id in ids:
                    if table_id in self._released:
                        self._released[table_id].set()
                if ids and self.stopped is not None:
                    taking = self.stopped(ids, message.get("watched") is True)
                    asyncio.get_running_loop().create_task(taking)

    async def _hand_over(self, table_id: str) -> None:
        TABLE.set(table_id)  # this task's lines are about the table (fanfold.server.logs)
        log.info("table %s: handed over on request", table_id)
        if self.hand_over is not None:
            await self.hand_over(table_id)
        await self.release(table_id, told=True)

    async def _checking(self) -> None:
        """Every :data:`CHECK_SECONDS`, check the lock connection; when it is broken, every
        lock is gone: the hub drops its tables, and a new connection is opened."""
        while True:
            await asyncio.sleep(CHECK_SECONDS)
            try:
                await self.coordination.ping()
                continue
            except Exception:
                log.error("the ownership connection to the store broke: every table is let go")
            self.held.clear()
            if self.lost is not None:
                await self.lost()
            await self.coordination.close()
            for task in self._tasks:
                if task is not asyncio.current_task():
                    task.cancel()
            try:
                await self.coordination.start()
            except Exception:
                log.error("the store cannot be reached; trying again", exc_info=True)
                continue
            current = asyncio.current_task()
            assert current is not None
            self._tasks = [asyncio.get_running_loop().create_task(self._listening()), current]


__all__ = [
    "CHANNEL",
    "HAND_OVER_SECONDS",
    "NAME_SEPARATOR",
    "SERVER_NAME",
    "ElsewhereError",
    "Ownership",
    "check_server_name",
    "is_postgresql",
    "libpq_url",
    "lock_key",
    "opened_by",
    "table_id_for",
]
