"""A client's share of the bot pool across every server process on one PostgreSQL store.

Each process's :class:`~fanfold.server.bots.BotPool` gives one client (whoever opened the
tables: an account, or one address) at most :attr:`~fanfold.server.bots.BotPool.client_share`
of its own workers. With several processes behind a router, a client whose tables are spread
over them would hold that share at each; :class:`SharedShares` bounds it over all of them: a
decision of a named client's bots first takes a **lease** in the store
(:class:`~fanfold.server.store.table_side_protocols.BotLeases`): asked for, then granted in
the order asked, over every process, while the client holds fewer than its share of granted
leases at every process together; it is given back when the decision ends. A client at its
share waits (a lease given back at this process wakes its waiters at once; others ask again
after a short, growing pause), so a process whose bots decide one after the other cannot keep
the share from the others; granted, the decision takes its place in the pool's own order
(priorities, then the clients' thinking time).

A lease ends by itself :data:`LEASE_SECONDS` after it was taken or last renewed: the process
renews its leases every :data:`RENEW_SECONDS` while it holds any, so that a process killed
mid-decision frees its share within :data:`LEASE_SECONDS`. A table that names no client counts
as a client of its own and lives at one process: it takes no lease. Should the store fail, the
decision goes on with the process's own share only (logged): bots never stop for the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from fanfold.server.store.table_side_protocols import BotLeases

log = logging.getLogger(__name__)

#: How long a lease lasts unless renewed, in seconds.
LEASE_SECONDS = 15.0
#: How often a process renews the leases it holds, in seconds.
RENEW_SECONDS = 5.0
#: The first and the longest pause before a client at its share asks again, in seconds.
FIRST_PAUSE, LONGEST_PAUSE = 0.01, 0.2


class SharedShares:
    """The leases of one process's bot pool.

    Args:
        store: where the leases are kept (every process's).
        holder: this process, as the leases name it (its server name and process id).
        share: the most leases one client holds at once, at every process together.
        clock: the wall clock (the leases' times).
    """

    def __init__(
        self,
        store: BotLeases,
        holder: str,
        share: int,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.holder = holder[:120]
        self.share = share
        self.clock = clock
        self._held: set[int] = set()
        self._freed = asyncio.Event()
        self._renewing: asyncio.Task[None] | None = None
        self._giving: set[asyncio.Task[None]] = set()

    async def hold(self, client: str) -> int | None:
        """A lease for ``client``, granted once its turn comes at every process (asked for
        first, then granted in the order asked); ``None`` when the store failed (the decision
        goes on without one)."""
        try:
            lease = await asyncio.to_thread(
                self.store.ask, client, self.holder, self.clock(), LEASE_SECONDS
            )
        except Exception:
            log.exception("the bot pool's shared shares could not be read; going on")
            return None
        self._held.add(lease)  # renewed while it waits too
        if self._renewing is None or self._renewing.done():
            self._renewing = asyncio.create_task(self._renew())
        pause = FIRST_PAUSE
        try:
            while True:
                self._freed.clear()
                granted = await asyncio.to_thread(
                    self.store.take, lease, client, self.share, self.clock()
                )
                if granted:
                    return lease
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._freed.wait(), pause)
                pause = min(LONGEST_PAUSE, pause * 2)
        except asyncio.CancelledError:
            self.release(lease)  # its table stopped waiting: its place goes
            raise
        except Exception:
            log.exception("the bot pool's shared shares could not be read; going on")
            self.release(lease)
            return None

    def release(self, lease: int) -> None:
        """Give a lease back (on the event loop; the store is written in a thread), and wake
        this process's waiters."""
        self._held.discard(lease)
        task = asyncio.get_running_loop().create_task(self._give_back(lease))
        self._giving.add(task)
        task.add_done_callback(self._giving.discard)

    async def _give_back(self, lease: int) -> None:
        try:
            await asyncio.to_thread(self.store.give_back, lease)
        except Exception:  # it ends by itself within LEASE_SECONDS
            log.exception("a bot lease could not be given back; it runs out by itself")
        self._freed.set()

    async def _renew(self) -> None:
        """Renew the leases held every :data:`RENEW_SECONDS` while there are any."""
        while self._held:
            await asyncio.sleep(RENEW_SECONDS)
            held = sorted(self._held)
            if not held:
                return
            try:
                await asyncio.to_thread(self.store.renew, held, self.clock() + LEASE_SECONDS)
            except Exception:
                log.exception("the bot leases could not be renewed; trying again")

    @property
    def held(self) -> int:
        """How many leases this process holds now."""
        return len(self._held)


__all__ = ["LEASE_SECONDS", "RENEW_SECONDS", "SharedShares"]
