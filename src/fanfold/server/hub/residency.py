"""The tables a process keeps in memory, and their hand-over between processes:
:class:`Residency`.

A table is in memory while someone plays or watches it; it is rebuilt from the store when
asked for again (:meth:`Residency.get`), let go once idle (:meth:`Residency.evict_idle`),
deleted once abandoned (:meth:`Residency.expire_abandoned`), and, when several processes
serve one PostgreSQL store (:mod:`fanfold.server.ownership`), owned by one process at a time:
handed over when another asks for it (:meth:`Residency.hand_over`), all let go when this
process's locks are gone (:meth:`Residency.drop_all`), taken when the process that played it
died (:meth:`Residency.take_orphans`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

from fanfold.core.errors import FanfoldError
from fanfold.core.registry import get_game
from fanfold.core.rulings import Ruling
from fanfold.play.setup import new_table
from fanfold.play.table import HUMAN
from fanfold.server.budget import BotBudget
from fanfold.server.hub.basics import MOVED, seats_for, stored_options
from fanfold.server.hub.beats import Beats
from fanfold.server.hub.host import TableHost
from fanfold.server.hub.turns import play_on
from fanfold.server.live import LiveTable, NotFoundError, storage_failure
from fanfold.server.logs import about
from fanfold.server.ownership import ElsewhereError, Ownership, opened_by
from fanfold.server.refusals import refusal
from fanfold.server.store import StoredSeat, StoredTable
from fanfold.server.store.protocols import TableStore
from fanfold.server.table_options import TableOptions

log = logging.getLogger(__name__)


class Residency:
    """The tables of ``store`` this process keeps in memory (:attr:`live`), their bots and
    timers running through ``host``.

    Args:
        budget: the server's limits, within which a stored bot plays.
        owner: the tables this process owns, when several processes serve one PostgreSQL
            store; ``None``: this process is the only one.
        keep_seconds: how long a table nobody watches and nothing plays on stays in memory
            after it was last asked for (:meth:`evict_idle`).
        keep_finished_seconds: the same for a finished game.
        expire_seconds: an unfinished table with no action for this long is abandoned and
            deleted from the store (:meth:`expire_abandoned`); ``None``: never.
        server_name: this process's name in the router's configuration, if any (its
            :attr:`beats` start with it).
    """

    def __init__(
        self,
        store: TableStore,
        *,
        budget: BotBudget,
        owner: Ownership | None,
        host: TableHost,
        keep_seconds: float,
        keep_finished_seconds: float,
        expire_seconds: float | None,
        server_name: str | None = None,
    ) -> None:
        self.store = store
        #: This process's beats, and its takes of the clocks of the tables it loads.
        self.beats = Beats(store, server_name)
        self.budget = budget
        self.owner = owner
        self.host = host
        self.keep_seconds = keep_seconds
        self.keep_finished_seconds = keep_finished_seconds
        self.expire_seconds = expire_seconds
        self.live: dict[str, LiveTable] = {}
        #: Set when the process stops (:mod:`fanfold.server.hub.draining`): no table is
        #: taken from then on.
        self.draining = False
        #: The tables asked for while a read is in flight (:meth:`_read`): read together next.
        self._to_read: dict[str, asyncio.Future[StoredTable | None]] = {}
        self._reading: asyncio.Task[None] | None = None

    async def get(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, rebuilt from the store if it is not in memory.

        Raises:
            NotFoundError: no such table.
        """
        live = self.live.get(table_id)
        if live is not None:
            live.touched = time.monotonic()
            return live
        await self._own(table_id)
        try:
            stored = await self._read(table_id)
        except Exception as error:
            await self._disown(table_id)
            raise storage_failure("store.read_table", error) from None
        live = self.live.get(table_id)  # another request for it rebuilt it meanwhile
        if live is not None:
            live.touched = time.monotonic()
            return live
        if self.owner is not None and table_id not in self.owner.held:
            # Let go while it was read (handed over to another process, its locks lost):
            # what was read may be behind the store, and this process may not play it.
            raise ElsewhereError(refusal("store.elsewhere"))
        if stored is None:
            await self._disown(table_id)
            raise NotFoundError(refusal("found.table", table=repr(table_id)))
        live = rebuild(self._within_budget(stored))
        self.live[table_id] = live
        async with live.lock:  # its clocks are this process's (not charged: no owner)
            await self.beats.take(live)
        opener = opened_by(table_id)
        if self.owner is not None and opener != getattr(self.host, "server_name", None):
            self.host.metrics.handovers.labels("taken").inc()  # another process's table
        await play_on(self.host, live)
        return live

    async def _read(self, table_id: str) -> StoredTable | None:
        """The stored table ``table_id`` (``None``: none), read off the event loop. The
        tables asked for while a read is in flight are read together in the next one
        (:meth:`Store.load_many`), as the actions of several tables are written together:
        when a process dies, its tables reach their stand-in at once, and one read each,
        one after another, kept the last of them waiting for seconds. Requests for the same
        table share its read."""
        future = self._to_read.get(table_id)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            # Its error is the requests' to raise; none is left unread if they all left.
            future.add_done_callback(lambda done: done.cancelled() or done.exception())
            self._to_read[table_id] = future
            if self._reading is None or self._reading.done():
                self._reading = asyncio.get_running_loop().create_task(self._read_asked())
        return await asyncio.shield(future)

    async def _read_asked(self) -> None:
        while self._to_read:
            asked, self._to_read = self._to_read, {}
            try:
                found = await asyncio.to_thread(self.store.load_many, list(asked))
            except Exception as error:
                for future in asked.values():
                    future.set_exception(error)
                continue
            for table_id, future in asked.items():
                future.set_result(found.get(table_id))

    def _within_budget(self, stored: StoredTable) -> StoredTable:
        """``stored`` with every bot's agent text brought within the server's limits (a text
        stored by an older server or written into the store directly): an over-budget text is
        capped, and the change logged, never played as stored."""
        seats: list[StoredSeat] = []
        for seat in stored.seats:
            if seat.player == HUMAN:
                seats.append(seat)
                continue
            text, said = self.budget.capped_text(seat.player)
            if said:
                log.warning(
                    "table %s, seat %d: the stored bot %s is over this server's limits; it "
                    "plays as %s (%s)",
                    stored.id,
                    seat.seat,
                    seat.player,
                    text,
                    ", ".join(said),
                )
            seats.append(replace(seat, player=text))
        return replace(stored, seats=tuple(seats))

    @asynccontextmanager
    async def holding(self, table_id: str) -> AsyncIterator[LiveTable]:
        """The live table ``table_id`` with its lock held: the one in memory now (asked for
        again when the one first found was let go from memory while this waited).

        Raises:
            NotFoundError: no such table.
        """
        while True:
            live = await self.get(table_id)
            async with live.lock:
                if live.evicted:
                    continue
                yield live
                return

    def _may_evict(self, live: LiveTable, now: float) -> bool:
        """Whether ``live`` is idle (:meth:`LiveTable.is_idle`) and was not asked for in the
        last ``keep_seconds`` (``keep_finished_seconds`` for a finished game)."""
        keep = self.keep_seconds if live.table.outcome is None else self.keep_finished_seconds
        return now - live.touched >= keep and live.is_idle()

    def evict_idle(self, now: float | None = None) -> int:
        """Let go from memory every idle table not asked for in the last ``keep_seconds``
        (``keep_finished_seconds`` for a finished game), all at once; returns how many.
        Finished games and games their players left stay in the store, and come back when
        asked for. The sweeper lets them go a table a turn (:meth:`evict_idle_in_turns`)."""
        now = time.monotonic() if now is None else now
        gone = [table_id for table_id, live in self.live.items() if self._may_evict(live, now)]
        for table_id in gone:
            self.live.pop(table_id).evicted = True
        self.disown_soon(*gone)
        return len(gone)

    async def evict_idle_in_turns(self, now: float | None = None) -> int:
        """As :meth:`evict_idle`, one table a turn of the event loop: freeing a long game's
        table holds the event loop (about 0.3 ms for a finished 450-move Fano game), and a
        sweep that let its tables go at once held every other table's action for 12 to 19 ms
        at 200 tables. A table asked for again, or played on, before its turn stays (each is
        judged at its turn, by ``now`` if given, else by the clock then). Returns how many
        went."""
        gone: list[str] = []
        for table_id in list(self.live):
            live = self.live.get(table_id)
            if live is None or not self._may_evict(live, time.monotonic() if now is None else now):
                continue
            del live  # the table is freed by the pop below, in this turn
            self.live.pop(table_id).evicted = True
            gone.append(table_id)
            await asyncio.sleep(0)
        self.disown_soon(*gone)
        return len(gone)

    async def resume_all(self) -> int:
        """At start-up: let abandoned tables expire (:meth:`expire_abandoned`), then load the
        unfinished tables where play goes on without a person (a bot decides next, or a
        person decides under a time limit, whose timer must run); returns how many were
        loaded. The others wait in the store for their players. A table stored before the
        store said which it is is loaded, and the store told."""
        await self.expire_abandoned()
        since = None if self.expire_seconds is None else time.time() - self.expire_seconds
        found = await asyncio.to_thread(self.store.to_resume, since)
        loaded = 0
        for table_id, resume in found:
            if resume is False:
                continue
            with about(table_id):  # its lines, and its bots' (logs)
                if self.owner is not None and not await self.owner.take(table_id, wait=0):
                    continue  # another process plays it
                try:
                    live = await self.get(table_id)
                except FanfoldError as error:  # one that cannot be rebuilt (a config out of
                    # range since) must not keep the server from starting: it says why if
                    # opened
                    log.warning("table %s was not resumed: %s", table_id, error)
                    continue
                loaded += 1
                if resume is None:
                    options = stored_options(live.table, live.options)
                    await asyncio.to_thread(self.store.set_options, table_id, options)
        return loaded

    async def take_orphans(self) -> int:
        """Take the stored tables where play goes on without a person (a bot decides next, or
        a clock or a time limit runs) that no live process holds: a process that died leaves
        them, and nobody may ask for them again (a game between bots, a player who left while
        their clock runs). Each is loaded here (:meth:`get`: its bots and its timers start, a
        clock already run out ends the game at once); one another process holds is left to
        it. The sweeper calls this every round; returns how many were taken."""
        since = None if self.expire_seconds is None else time.time() - self.expire_seconds
        if self.draining:
            return 0
        found = await asyncio.to_thread(self.store.to_resume, since)
        taken = 0
        for table_id, resume in found:
            if not resume or table_id in self.live:
                continue
            with about(table_id):
                if self.owner is not None and not await self.owner.take(table_id, wait=0):
                    continue  # a live process plays it
                try:
                    await self.get(table_id)
                except FanfoldError as error:
                    log.warning("table %s was not taken: %s", table_id, error)
                    continue
                taken += 1
        return taken

    async def expire_abandoned(self, now: float | None = None) -> list[str]:
        """Delete from the store every unfinished table with no action for
        ``expire_seconds`` (not one in memory that someone watches or that plays on), and
        let them go from memory; returns their ids. Finished games stay."""
        if self.expire_seconds is None:
            return []
        before = (time.time() if now is None else now) - self.expire_seconds
        busy = [table_id for table_id, live in self.live.items() if not live.is_idle()]
        try:
            gone = await asyncio.to_thread(self.store.expire, before, busy)
        except Exception:
            log.exception("abandoned tables could not be expired; the next sweep tries again")
            return []
        for table_id in gone:
            live = self.live.pop(table_id, None)
            if live is not None:
                live.evicted = True
        self.disown_soon(*gone)
        if gone:
            log.info("%d abandoned tables expired", len(gone))
        return gone

    async def _own(self, table_id: str) -> None:
        """Own ``table_id`` before loading it (when several processes share the store)."""
        if self.owner is not None and (self.draining or not await self.owner.take(table_id)):
            raise ElsewhereError(refusal("store.elsewhere"))

    async def _disown(self, *table_ids: str) -> None:
        """Let go this process's ownership of those of ``table_ids`` not in memory (again)."""
        if self.owner is not None:
            await self.owner.release_many(t for t in table_ids if t not in self.live)

    def disown_soon(self, *table_ids: str) -> None:
        """:meth:`_disown` in a task of its own, in one statement for all of them."""
        if self.owner is not None and table_ids:
            asyncio.get_running_loop().create_task(self._disown(*table_ids))

    def let_go(self, live: LiveTable, reason: str = MOVED, *, disown: bool = True) -> None:
        """Drop ``live`` from memory now: its bots and timer stop, its sockets are closed
        with 1012 (their browsers reconnect, through the router, to the table's owner) and
        this process's ownership is let go (unless ``disown`` is False: the caller lets it
        go). Call it with the table's lock held, or where no action can be being stored."""
        live.evicted = True
        if self.live.get(live.id) is live:
            del self.live[live.id]
            self.host.metrics.handovers.labels("let_go").inc()
        for task in (live.bots, live.clock):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        for watcher in list(live.watchers):
            if watcher.outbox is not None:
                watcher.outbox.shut(1012, reason)
        live.watchers.clear()
        if disown:
            self.disown_soon(live.id)

    async def hand_over(self, table_id: str) -> None:
        """Another process asked for ``table_id``: let it go after the action being stored,
        if any (the caller then unlocks it)."""
        live = self.live.get(table_id)
        if live is None:
            return
        async with live.lock:
            self.let_go(live)

    async def drop_all(self) -> None:
        """This process's locks are gone (its connection to the store broke): every table
        leaves memory, and is taken again from the store when asked for."""
        for live in list(self.live.values()):
            self.let_go(live)

    async def idle(self, table_id: str, timeout: float = 60.0) -> None:
        """Wait until the table's bots have nothing left to do (tests, scripts)."""
        live = await self.get(table_id)
        deadline = time.monotonic() + timeout
        while live.bots is not None and not live.bots.done():
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bots of table {table_id} are still playing")
            await asyncio.wait({live.bots}, timeout=deadline - time.monotonic())
        if live.bots is not None and not live.bots.cancelled() and live.bots.exception():
            raise RuntimeError("a bot failed") from live.bots.exception()


def rebuild(stored: StoredTable) -> LiveTable:
    """A stored table in memory again: its actions replayed, its ruling if any."""
    game = get_game(stored.game)
    config = game.config_from_json(stored.config)
    players = [seat.player for seat in stored.seats]
    table = new_table(
        game,
        config,
        seats_for(game, players),
        seed=stored.seed,
        start_position=stored.start_position,
        allow_undo=stored.allow_undo,
    )
    for seat, text in stored.actions:
        table.submit(seat, text)
    options = replace(TableOptions.from_stored(stored.options), resume=None)
    if options.ruling is not None:
        table.rule(Ruling.from_json(options.ruling), agreed=True)
    table.version = stored.version
    return LiveTable(
        stored.id,
        table,
        [seat.token_hash for seat in stored.seats],
        options,
        [seat.invite_hash for seat in stored.seats],
        creator_hash=stored.creator_hash,
        accounts=[seat.account_id for seat in stored.seats],
    )


__all__ = ["Residency", "rebuild"]
