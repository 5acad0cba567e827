"""Group commits from the event loop: the hub's commits of one action a table on PostgreSQL,
on a connection of the process's own.

A group commit that holds one action a table and no game's end (nearly all of them, at a
busy server) is one statement (:data:`~.quick_append.QUICK_APPEND`). Sent from the event
loop on a connection kept open for it, it costs one round trip to PostgreSQL and no thread:
through the store's thread and its pool it took a second round trip (the pool's check of the
connection), and the event loop waited for the interpreter's lock while that thread prepared
the statement. The rest (game ends with their ratings and the lobby's news, SQLite) still
goes through the store's thread (:meth:`fanfold.server.hub.commits.Commits._write`).

A connection that broke is noticed by the commit that uses it: that commit fails (its
players are told the move could not be stored, and may send it again) and the next one
opens a new connection. A connection that has been idle for :data:`IDLE_CHECK_SECONDS` is
checked before it is used, so a database restarted while the server was quiet costs no
move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from fanfold.server.store.engine import libpq_url
from fanfold.server.store.quick_append import QUICK_APPEND, not_stored, quick_append_parameters
from fanfold.server.store.records import AppendRow

if TYPE_CHECKING:  # the driver is imported where a process serves PostgreSQL, not at start
    import psycopg

log = logging.getLogger(__name__)

#: A connection idle for this long is checked (``SELECT 1``) before a commit uses it.
IDLE_CHECK_SECONDS = 5.0


class Appender:
    """Stores group commits of one action a table (:func:`~.quick_append.fits_one_statement`) on
    a PostgreSQL connection of its own, from the event loop, one commit at a time.

    Args:
        url: the store's SQLAlchemy URL (PostgreSQL).
        name: this process, as ``pg_stat_activity`` names the connection.
    """

    def __init__(self, url: str, *, name: str | None = None) -> None:
        self.url = libpq_url(url)
        self.name = name or f"{socket.gethostname()}:{os.getpid()}"
        self._connection: psycopg.AsyncConnection[tuple[object, ...]] | None = None
        self._used = 0.0
        self._lock = asyncio.Lock()

    async def append(self, rows: Sequence[AppendRow]) -> set[str]:
        """Store ``rows`` (one a table, no game's end); returns the tables refused, whose
        action number was stored already (another process stored it: the table moved on).

        Raises:
            psycopg.Error: the commit failed (nothing of it is stored, unless the connection
                broke after PostgreSQL committed it: the table then finds its action stored
                when it next commits, and is taken again from the store).
        """
        async with self._lock:
            connection = await self._ready()
            try:
                cursor = await connection.execute(QUICK_APPEND, quick_append_parameters(rows))
                stored = await cursor.fetchall()
            except BaseException:
                await self._forget()
                raise
            self._used = time.monotonic()
        return not_stored(rows, stored)

    async def _ready(self) -> psycopg.AsyncConnection[tuple[object, ...]]:
        """The connection, opened if there is none and checked if it was idle."""
        import psycopg

        connection = self._connection
        if connection is not None and not connection.closed:
            if time.monotonic() - self._used < IDLE_CHECK_SECONDS:
                return connection
            try:
                await connection.execute("SELECT 1")
                return connection
            except psycopg.Error:
                log.warning("the store's connection for moves broke; opening another")
                await self._forget()
        self._connection = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, application_name=f"fanfold {self.name} moves"[:63]
        )
        return self._connection

    async def _forget(self) -> None:
        """Close the connection (after a failure: its state is unknown); the next commit
        opens a new one."""
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()

    async def close(self) -> None:
        """Close the connection, after the commit in flight if any."""
        async with self._lock:
            await self._forget()


__all__ = ["IDLE_CHECK_SECONDS", "Appender"]
