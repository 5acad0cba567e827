"""Coordinating several server processes on one PostgreSQL store: session-level advisory locks
on a connection of the process's own (who owns a table, :mod:`fanfold.server.ownership`) and
LISTEN/NOTIFY (hand-overs; the lobby's changes, :mod:`fanfold.server.lobby_feed`): the
PostgreSQL :class:`~fanfold.server.store.protocols.Coordination` and
:class:`~fanfold.server.store.protocols.Subscription`.

An advisory lock belongs to the connection that took it: a process that dies loses its
connection, and with it every lock it held, at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, TypeAlias

from fanfold.server.store.engine import libpq_url
from fanfold.server.store.sql_common import lock_key

if TYPE_CHECKING:  # the driver is imported where a process serves PostgreSQL, not at start
    import psycopg

Connection: TypeAlias = "psycopg.AsyncConnection[tuple[object, ...]]"


async def _connect(url: str, application_name: str) -> Connection:
    import psycopg

    # The application name tells an operator (pg_stat_activity, pg_locks) whose connection
    # (and locks) it is.
    return await psycopg.AsyncConnection.connect(
        url, autocommit=True, application_name=application_name[:63]
    )


class PgSubscription:
    """The notifications of one channel, heard on a connection of the process's own.

    Args:
        url: the store's SQLAlchemy URL (PostgreSQL).
        channel: the channel listened to.
        application_name: how ``pg_stat_activity`` names the connection.
    """

    def __init__(self, url: str, channel: str, application_name: str) -> None:
        self.url = libpq_url(url)
        self.channel = channel
        self.application_name = application_name
        #: The listening connection, while one is open.
        self.connection: Connection | None = None

    async def open(self) -> None:
        """Connect and LISTEN."""
        self.connection = await _connect(self.url, self.application_name)
        await self.connection.execute(f"LISTEN {self.channel}")

    async def notes(self) -> AsyncIterator[str]:
        """The payloads heard, as they come (until the connection breaks: then it raises)."""
        assert self.connection is not None, "open the subscription first"
        async for note in self.connection.notifies():
            yield note.payload

    async def close(self) -> None:
        """Close the connection (nothing raised)."""
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()


class PgCoordination:
    """One process's advisory locks and its notifications on one channel, on two
    connections of its own.

    Args:
        url: the store's SQLAlchemy URL (PostgreSQL).
        channel: the channel notified and listened to.
        application_name: how ``pg_stat_activity`` names both connections.
        closed: the error raised when the lock connection is closed.
    """

    def __init__(
        self, url: str, channel: str, application_name: str, closed: Callable[[], Exception]
    ) -> None:
        self.url = libpq_url(url)
        self.channel = channel
        self.application_name = application_name
        self.closed = closed
        #: The connection that holds the locks, while one is open.
        self.locks: Connection | None = None
        self.subscription = PgSubscription(url, channel, application_name)

    async def start(self) -> None:
        """Connect (the lock connection and the listening one) and LISTEN."""
        self.locks = await _connect(self.url, self.application_name)
        await self.subscription.open()

    async def close(self) -> None:
        """Close both connections (every lock is let go; nothing raised)."""
        locks, self.locks = self.locks, None
        if locks is not None:
            with contextlib.suppress(Exception):
                await locks.close()
        await self.subscription.close()

    @property
    def healthy(self) -> bool:
        """Whether the lock connection is open."""
        return self.locks is not None and not self.locks.closed

    def connection(self) -> Connection:
        """The lock connection.

        Raises:
            Exception: :attr:`closed`'s, when it is closed.
        """
        if self.locks is None or self.locks.closed:
            raise self.closed()
        return self.locks

    async def try_locks(self, names: Sequence[str]) -> list[bool]:
        """Try the lock of each of ``names`` once, in one statement: whether each was
        taken (held by this connection now)."""
        cursor = await self.connection().execute(
            "SELECT pg_try_advisory_lock(k) FROM unnest(%s::bigint[]) "
            "WITH ORDINALITY AS u(k, n) ORDER BY n",
            ([lock_key(name) for name in names],),
        )
        rows = await cursor.fetchall()
        return [took is True for (took,) in rows]

    async def unlock(self, names: Sequence[str]) -> None:
        """Let the locks of ``names`` go, in one statement."""
        if len(names) == 1:
            await self.connection().execute("SELECT pg_advisory_unlock(%s)", (lock_key(names[0]),))
            return
        await self.connection().execute(
            "SELECT pg_advisory_unlock(k) FROM unnest(%s::bigint[]) AS u(k)",
            ([lock_key(name) for name in names],),
        )

    async def publish(self, payload: str) -> None:
        """Notify the channel (every process listening hears it, this one too)."""
        await self.connection().execute("SELECT pg_notify(%s, %s)", (self.channel, payload))

    def notes(self) -> AsyncIterator[str]:
        """The payloads heard on the channel."""
        return self.subscription.notes()

    async def ping(self) -> None:
        """A round trip on the lock connection: raises when it is broken."""
        await self.connection().execute("SELECT 1")
