"""A process that stops hands its tables to the others at once: :class:`Draining`.

On ``SIGTERM`` (:class:`fanfold.server.stopping.DrainingServer`) a process serving one
PostgreSQL store with others stops taking tables, lets go every table it holds after the
action it is storing, if any (its bots and timers stop; its sockets are closed with 1012
"restarting", and the browsers reconnect at once, through the router, to another process),
unlocks them all in one statement and says so on the coordination channel
(:meth:`fanfold.server.ownership.Ownership.announce_let_go`). Every other process takes
those where play goes on without a person from the store as soon as it hears it
(:meth:`Draining.take`): a game between bots, a clock running, none waits for a request or for
a sweeper's round. A table with sockets open on it is left for a moment to the process they
reconnect to (the router's choice), so that it moves once. The others (a finished game, a
person's turn with nobody connected) wait in the store until asked for, as at start-up.

In a full stop of a group (every process stops together: :data:`FULL_STOP_SIGNAL
<fanfold.server.stopping.FULL_STOP_SIGNAL>`), ``drain(hand_over=False)`` lets the tables go
into the store without announcing them: no process that is stopping too takes them, and the
next start resumes them.

Before a planned restart (``fanfold restart``), every process tells every socket of its
tables when it comes (:meth:`Draining.notice`, heard on the same channel).
The locks decide which process takes each (the first to ask); a request that reaches
another then asks it to hand the table over, as usual (:mod:`fanfold.server.ownership`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence

from fanfold.core.errors import FanfoldError, Refusal
from fanfold.server.hub.basics import plays_on_alone
from fanfold.server.hub.messages import unwatch
from fanfold.server.hub.residency import Residency
from fanfold.server.live import LiveTable
from fanfold.server.logs import about
from fanfold.server.ownership import Ownership
from fanfold.server.protocol import as_json, restarting, wire

log = logging.getLogger(__name__)

#: What the players of a table are told (the close reason of code 1012) when its process stops:
#: a refusal's code, which the page words from its catalogue, as :data:`~.basics.MOVED`.
RESTARTING = Refusal("close.restarting").code
#: What they are told when every process stops together (a full stop: no hand-over).
STOPPING = Refusal("close.stopping").code
#: How long a stopping process waits for the actions being stored before it lets go anyway
#: (the store refuses an action stored twice: nothing is lost or applied twice).
DRAIN_SECONDS = 5.0
#: How long the other processes leave a let-go table with sockets open on it to the process
#: those sockets reconnect to (the router's choice, which takes it on their first request)
#: before taking it themselves. Taken at once, the first process to hear took them all, and
#: the router sent half their players to another, which asked for a second hand-over
#: (``benchmarks/rolling_restart.py``, 200 tables: 123 such hand-overs, 16 with this wait;
#: the reconnects of a machine at load 20 took up to 8 s, hence so long).
WATCHED_SECONDS = 10.0


class Draining:
    """Hands ``residency``'s tables to the other processes when this one stops (:meth:`drain`),
    and takes the tables another stopping process let go (:meth:`take`).

    Args:
        residency: the tables this process keeps in memory.
        owner: its ownership of tables on PostgreSQL (``None``: the only process: its tables
            are let go, and wait in the store for the next start).
    """

    def __init__(self, residency: Residency, owner: Ownership | None) -> None:
        self.residency = residency
        self.owner = owner

    async def drain(self, *, hand_over: bool = True) -> int:
        """Stop taking tables and let every one in memory go: to the other processes, told
        at once, or with ``hand_over`` False (a full stop) into the store, told to no one;
        returns how many were let go."""
        residency = self.residency
        residency.draining = True
        started = time.monotonic()
        tables = list(residency.live.values())
        watched = [live.id for live in tables if live.watchers]  # before their sockets close
        reason = RESTARTING if hand_over else STOPPING

        async def let_go(live: LiveTable) -> None:
            async with live.lock:  # after the action being stored, if any
                residency.let_go(live, reason, disown=False)

        waiting = [asyncio.ensure_future(let_go(live)) for live in tables]
        if waiting:
            _, late = await asyncio.wait(waiting, timeout=DRAIN_SECONDS)
            for task in late:
                task.cancel()
        storing = {live.id for live in tables if not live.evicted}
        for live in tables:
            if not live.evicted:  # its action still being stored after DRAIN_SECONDS
                residency.let_go(live, reason, disown=False)
        if self.owner is not None:
            ids = [live.id for live in tables]
            # The others take at once only the tables that play on without a person (as they
            # are once the actions being stored are; one still being stored, they take): the
            # rest (a finished game, a person's turn with nobody connected) wait in the store
            # until asked for, as at start-up. Hundreds of finished games, read and replayed by
            # the others in the instant the players reconnect, held up their new sockets.
            seen = set(watched)
            alone = [
                live.id
                for live in tables
                if live.id not in seen
                and (live.id in storing or plays_on_alone(live.table, live.options))
            ]
            loading = [table_id for table_id in self.owner.held if table_id not in ids]
            await self.owner.release_many(ids + loading)
            if hand_over:  # (a table being loaded as the process stopped: its state unknown)
                await self.owner.announce_let_go(alone + watched + loading, watched)
        seconds = time.monotonic() - started
        if self.owner is None:  # the only process on its store: nobody to hand them to
            kept = "table" if len(tables) == 1 else "tables"
            log.info(
                "stopping: %d %s kept in the store for the next start (%.2f s)",
                *(len(tables), kept, seconds),
            )
            return len(tables)
        log.info(
            "stopping: %d tables let go %s in %.2f s",
            len(tables),
            "to the other processes" if hand_over else "into the store (a full stop)",
            seconds,
        )
        return len(tables)

    async def notice(self, seconds: int) -> int:
        """Tell every socket of every table in memory that the server restarts in
        ``seconds`` (:class:`~fanfold.server.protocol.Restarting`, a banner in the browser);
        returns how many were told."""
        message = restarting(seconds)
        text = wire(message)
        told = 0
        for live in list(self.residency.live.values()):
            for watcher in list(live.watchers):
                if watcher.outbox is not None:
                    told += watcher.outbox.post(text)
                    continue
                try:
                    await watcher.send(as_json(message))
                except Exception:
                    unwatch(live, watcher)
                    continue
                told += 1
        log.info("a restart in %d s was told to %d connections", seconds, told)
        return told

    async def take(self, table_ids: Sequence[str], watched: bool = False) -> int:
        """Another process stopped and let ``table_ids`` go: take each no other process took
        first, and play on (its bots and timers start); returns how many were taken. Tables
        ``watched`` (sockets were open on them) are left :data:`WATCHED_SECONDS` first to the
        process their sockets reconnect to."""
        if watched:
            await asyncio.sleep(WATCHED_SECONDS)
        if self.residency.draining or self.owner is None:
            return 0
        taken = await asyncio.gather(*(self._take_one(table_id) for table_id in table_ids))
        count = sum(taken)
        if count:
            log.info("%d tables taken from a process that stopped", count)
        return count

    async def _take_one(self, table_id: str) -> bool:
        assert self.owner is not None
        if table_id in self.residency.live:
            return False
        with about(table_id):
            try:
                if not await self.owner.take(table_id, wait=0):
                    return False  # another process took it first
                await self.residency.get(table_id)
            except FanfoldError as error:  # gone, or the store away: a request takes it
                log.warning("table %s was not taken: %s", table_id, error)
                return False
        return True


__all__ = ["DRAIN_SECONDS", "RESTARTING", "STOPPING", "WATCHED_SECONDS", "Draining"]
