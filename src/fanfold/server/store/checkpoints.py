"""The write-ahead log of a SQLite store moved into its file from a thread of its own
(:class:`Checkpointer`), so that no player's move waits for it.

In write-ahead-log mode SQLite appends each commit to the ``-wal`` file, and the connection
whose commit takes the log past a thousand pages copies the log into the database file then
and there (its automatic checkpoint), syncing both files to the disk: the server's group
commits ran that copy in the store's writer thread about twice a second under load, and every
move queued behind it waited for the two syncs (a few milliseconds each on a disk, longer while
another process writes to the same disk). A :class:`Checkpointer` runs SQLite's *passive*
checkpoint from a connection of its own every :data:`CHECKPOINT_SECONDS`: it copies what the
log holds while the writer goes on committing (a passive checkpoint takes no lock a writer or a
reader waits for), so the log stays far below the thousand pages and the writer's own
checkpoint is only a backstop (a checkpointer that falls behind). The commits' durability is
unchanged (``synchronous=NORMAL``: a commit survives the process being killed; a checkpoint
syncs what it copied).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

log = logging.getLogger(__name__)

#: Seconds between two checkpoints of the write-ahead log (a passive checkpoint of an empty or
#: already copied log costs no sync). Each one that copies lets the writer start the log
#: again, and the writer syncs the log's new first page when it does (one short sync), so
#: checkpoints are not made more often than this.
CHECKPOINT_SECONDS = 1.0
#: The log's pages at which the store's own connections still checkpoint themselves
#: (:meth:`Checkpointer.adopt`; SQLite's default is 1,000, about 4 MB): a backstop for a
#: checkpointer that falls behind, far above what a second of a busy server writes.
BACKSTOP_PAGES = 10_000


class Checkpointer:
    """Passive checkpoints of the SQLite file ``path``'s write-ahead log every ``seconds``, in a
    daemon thread (:meth:`start`, :meth:`stop`).

    Args:
        path: the database file (its log is ``path`` with ``-wal`` after it).
        seconds: the pause between two checkpoints.
        timed: told the seconds of each checkpoint that copied pages (the metrics).

    Attributes:
        checkpoints: checkpoints that copied pages, since the start.
        pages: pages copied into the file, since the start.
        failures: checkpoints that raised (logged; the next one tries again).
    """

    def __init__(
        self,
        path: Path,
        seconds: float = CHECKPOINT_SECONDS,
        timed: Callable[[float], object] | None = None,
    ) -> None:
        self.path = path
        self.seconds = seconds
        self.timed = timed
        self.checkpoints = 0
        self.pages = 0
        self.failures = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._connection: sqlite3.Connection | None = None
        # the log's pages, those copied and its salt, at the last checkpoint
        self._last: tuple[int, int, bytes] = (0, 0, b"")

    @staticmethod
    def adopt(engine: Engine, pages: int = BACKSTOP_PAGES) -> None:
        """Make ``engine``'s connections leave the log to the checkpointer: each checkpoints
        itself only once the log holds ``pages`` pages. The connections pooled so far are let
        go (the next ones are opened with it): call it before other threads use the engine."""

        @sa.event.listens_for(engine, "connect")
        def _backstop(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute(f"PRAGMA wal_autocheckpoint={int(pages)}")
            cursor.close()

        engine.dispose()

    def checkpoint(self) -> tuple[int, int]:
        """One passive checkpoint now (from the calling thread): the pages the log holds and
        the pages of it copied into the file (``-1, -1`` where the file is not in
        write-ahead-log mode)."""
        if self._connection is None:
            # autocommit; a passive checkpoint never waits for a lock, so no busy timeout
            self._connection = sqlite3.connect(
                self.path, timeout=0, isolation_level=None, check_same_thread=False
            )
        started = time.perf_counter()
        _, logged, copied = self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        fresh = copied - self._copied_before(logged, copied, self._salt())
        if copied > 0 and logged >= 0 and fresh > 0:
            self.checkpoints += 1
            self.pages += fresh
            if self.timed is not None:
                self.timed(time.perf_counter() - started)
        return int(logged), int(copied)

    def _salt(self) -> bytes:
        """The log's first salt (its header's bytes 16 to 19), which SQLite draws anew each time
        a writer starts the log again from its first page (empty where there is no log)."""
        try:
            with open(f"{self.path}-wal", "rb") as log:
                return log.read(24)[16:20]
        except OSError:
            return b""

    def _copied_before(self, logged: int, copied: int, salt: bytes) -> int:
        """Of the ``copied`` pages a checkpoint reports, those an earlier checkpoint had copied
        already: none where the log started again since (a new salt, or fewer pages), even if
        it has grown past the last checkpoint's figures meanwhile."""
        last_logged, last_copied, last_salt = self._last
        self._last = (logged, copied, salt)
        if salt != last_salt or logged < last_logged or copied < last_copied:
            return 0  # the log started again
        return last_copied

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            try:
                self.checkpoint()
            except sqlite3.Error as error:
                self.failures += 1
                if self.failures in (1, 10, 100) or self.failures % 1000 == 0:
                    log.warning(
                        "checkpoint of %s failed (%d so far): %s", self.path, self.failures, error
                    )

    def start(self) -> None:
        """Checkpoint every :attr:`seconds` from now on, in a thread of its own."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="checkpoints", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop checkpointing (a checkpoint under way ends first) and close the connection."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._stop.set()
            thread.join()
        if self._connection is not None:
            self._connection.close()
            self._connection = None


__all__ = ["BACKSTOP_PAGES", "CHECKPOINT_SECONDS", "Checkpointer"]
