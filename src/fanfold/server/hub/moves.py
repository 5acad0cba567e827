"""A person's moves: :class:`Moves`.

A submission names the table, a seat token and the version it acts on; the seats that token
holds are found, the :class:`~fanfold.play.table.Table` checks turn, version, notation and
legality, the action is committed to the store and only then answered and told to every
watcher (:meth:`Moves.act`). A solo or hot-seat table takes moves back (:meth:`Moves.undo`);
an analysis asked for is noted with the table before it is answered (:meth:`Moves.note_aid`).
"""

from __future__ import annotations

import logging
import time

import fanfold.server.refusals  # noqa: F401  (registers the refusals' templates)
from fanfold.core.errors import Refusal, StaleVersionError
from fanfold.server.hub.basics import stored_options, with_aid
from fanfold.server.hub.host import TableHost
from fanfold.server.hub.residency import Residency
from fanfold.server.hub.turns import play_on
from fanfold.server.live import Acted, ForbiddenError, Undone, storage_failure
from fanfold.server.metrics import Metrics, since_ns
from fanfold.server.store.protocols import TableStore

log = logging.getLogger(__name__)


class Moves:
    """The moves at the tables of ``store`` in memory (``residency``), each stored and told
    through ``host`` and timed in ``metrics``."""

    def __init__(
        self, store: TableStore, *, residency: Residency, metrics: Metrics, host: TableHost
    ) -> None:
        self.store = store
        self.residency = residency
        self.metrics = metrics
        self.host = host

    async def act(
        self, table_id: str, token: str | None, version: int | None, text: str, seat: int | None
    ) -> Acted:
        """Apply ``text`` for the deciding seat, if ``token`` holds it; returns the action and
        the version it produced (read before the lock is let go: a bot may act at once).

        Args:
            seat: the seat the submitter acts for (``None``: the decider, when the token holds
                it; hot-seat players hold several seats).

        Raises:
            ForbiddenError: the token holds no seat here, or not ``seat``.
            StaleVersionError, TurnError, NotationError, IllegalActionError: from the table.
            StorageError: the store could not keep the action (nothing changed).
        """
        started = time.perf_counter()
        stage = self.metrics.act_stage_seconds
        began = time.perf_counter_ns()
        with self.host.pool.live.doing():  # the review worker waits for it (LiveWork)
            async with self.residency.holding(table_id) as live:
                stage.labels("lock").observe(since_ns(began))
                table = live.table
                held = live.seats_of(token)
                if not held:
                    raise ForbiddenError(Refusal("server.no_seat_held"))
                acting = seat
                if acting is None:
                    # The decider when held (hot-seat), else the holder's own seat, so that acting
                    # out of turn is told it is not its turn (409), not that it holds no seat.
                    acting = table.decider if table.decider in held else min(held)
                if acting not in held:
                    name = (
                        table.seat_name(acting)
                        if 0 <= acting < len(table.seats)
                        else f"Seat {acting + 1}"
                    )
                    raise ForbiddenError(Refusal("server.not_seat_of", name=name))
                live.seen[acting] = time.monotonic()
                began = time.perf_counter_ns()
                played = table.submit(acting, text, version)
                stage.labels("rules").observe(since_ns(began))
                log.debug("seat %d played %s (action %d)", acting, played.text, played.number)
                began = time.perf_counter_ns()
                await self.host.store_played(live, played)
                stage.labels("store").observe(since_ns(began))
                produced = table.version
            began = time.perf_counter_ns()
            await play_on(self.host, live)
            stage.labels("tell").observe(since_ns(began))
            self.metrics.act_seconds.observe(time.perf_counter() - started)
        return Acted(played, produced)

    async def undo(self, table_id: str, token: str | None, version: int | None) -> Undone:
        """Take moves back to the holder's last decision (see :meth:`Table.undo`); returns
        whether anything was taken back and the table's version then (read under the lock).

        Raises:
            ForbiddenError: the token holds no seat here.
            StaleVersionError: ``version`` is not the table's.
            StorageError: the store could not take the moves back (nothing changed).
        """
        async with self.residency.holding(table_id) as live:
            table = live.table
            if not live.seats_of(token):
                raise ForbiddenError(Refusal("server.no_seat_held"))
            if version is not None and version != table.version:
                raise StaleVersionError(Refusal("server.stale", version=version, now=table.version))
            before = table.checkpoint()
            if not table.undo():
                return Undone(False, table.version)  # the bots (if any) play on
            options = with_aid(live.options, "undo")  # kept with the undo itself
            try:
                self.store.truncate(
                    live.id,
                    len(table.played),
                    table.version,
                    options=stored_options(table, options),
                )
            except Exception as error:
                table.restore(before)  # the store keeps the moves, so the table does too
                raise storage_failure("store.takeback", error) from None
            live.options = options
            if live.bots is not None and not live.bots.done():
                live.bots.cancel()  # a human decides now; the bots' work is moot
            produced = table.version
        await play_on(self.host, live)
        return Undone(True, produced)

    async def note_aid(self, table_id: str, aid: str) -> None:
        """Record that a player of the table used ``aid`` (an analysis's name) before it
        is answered: the table's options keep :data:`AIDS` (the daily deal's board reads it).

        Raises:
            NotFoundError: no such table.
            StorageError: the store could not keep it (nothing changed).
        """
        async with self.residency.holding(table_id) as live:
            options = with_aid(live.options, aid)
            if options == live.options:
                return
            try:
                self.store.set_options(live.id, stored_options(live.table, options))
            except Exception as error:
                raise storage_failure("store.analysis", error) from None
            live.options = options


__all__ = ["Moves"]
