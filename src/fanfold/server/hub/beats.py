"""Each process's sign of life, and the time a table had no live owner, which its clocks are
not charged: :class:`Beats`.

A process that holds a table with a clock says every :data:`BEAT_SECONDS` that it lives (its
``server_beats`` row, :class:`~fanfold.server.store.protocols.BeatStore`), and the table's
options name it (:data:`~fanfold.server.clocks.HOLDER`). Whoever loads the table next (another
process after this one was killed, or this server's restart) reads the holder's last beat:
silent for more than :data:`SILENT_SECONDS`, it is gone, and the running clock is given back
the time since that beat (:func:`~fanfold.server.clocks.unowned`); the clock is then stored at
once with its new holder, so that a later take does not give back the time this process held
it. A holder that still beats handed the table over (or let it go idle): nothing is given back.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from dataclasses import replace

from fanfold.server.clocks import credited, unowned
from fanfold.server.hub.basics import stored_options
from fanfold.server.live import LiveTable
from fanfold.server.store.protocols import TableStore
from fanfold.server.table_options import TableOptions

log = logging.getLogger(__name__)

#: How often a process holding clocks says it lives.
BEAT_SECONDS = 2.0
#: A holder silent for longer than this is gone (three beats: a busy loop may beat late).
SILENT_SECONDS = 3 * BEAT_SECONDS
#: A process silent for this long is forgotten (its tables expired long since, or were taken).
FORGET_SECONDS = 7 * 86400.0


class Beats:
    """This process's beats in ``store``, and its takes of the clocks it finds.

    Args:
        store: the tables' store, which keeps the beats.
        server_name: the process's name in the router's configuration, if any: its beats'
            name starts with it (and goes on with the process id and a random part, so that a
            restart under the same name is another process).
    """

    def __init__(self, store: TableStore, server_name: str | None) -> None:
        self.store = store
        #: This process's name in the beats and in :data:`HOLDER`.
        self.name = f"{server_name or 'fanfold'}.{os.getpid()}.{secrets.token_hex(4)}"
        self._beating: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Beat from now on (call on the event loop; a second call does nothing)."""
        if self._beating is None or self._beating.done():
            self._beating = asyncio.get_running_loop().create_task(self._beat())

    def stop(self) -> None:
        """Beat no more."""
        if self._beating is not None:
            self._beating.cancel()

    async def _beat(self) -> None:
        failing = False
        while True:
            now = time.time()
            try:
                await asyncio.to_thread(self.store.beat, self.name, now, now - FORGET_SECONDS)
            except Exception as error:  # the store away: the clocks' outage covers it
                if not failing:
                    log.warning("this process's beat could not be stored: %s", error)
                failing = True
            else:
                failing = False
            await asyncio.sleep(BEAT_SECONDS)

    def hold(self, options: TableOptions) -> TableOptions:
        """A new table's ``options`` naming this process the holder of its clocks, if it has a
        time control (and beat); else ``options``."""
        if options.time_control is None:
            return options
        self.start()
        return replace(options, clock_holder=self.name)

    async def take(self, live: LiveTable) -> float:
        """``live`` was just loaded from the store (call with its lock held): this process
        holds its clocks from now, its running clock given back the time the table had no
        live owner, and stored so; returns that time (seconds)."""
        clocks = live.options.clocks
        holder = live.options.clock_holder
        if clocks is None or holder == self.name:
            return 0.0
        self.start()
        live.options = replace(live.options, clock_holder=self.name)
        if clocks.running is None:
            return 0.0  # stored with the write that starts it
        seconds = 0.0
        if holder is not None:
            try:
                last = await asyncio.to_thread(self.store.last_beat, holder)
            except Exception as error:
                log.warning("the last beat of %s could not be read: %s", holder, error)
                last = None
            seconds = unowned(clocks, last, time.time(), SILENT_SECONDS)
        if seconds:
            live.options = replace(live.options, clocks=credited(clocks, seconds))
            log.info("%.1f s without a live owner are not charged to the clock", seconds)
        options = stored_options(live.table, live.options)
        try:
            await asyncio.to_thread(self.store.set_options, live.id, options)
        except Exception as error:  # kept in memory: its next move stores it
            log.warning("the clock taken over could not be stored yet: %s", error)
        return seconds


__all__ = ["BEAT_SECONDS", "FORGET_SECONDS", "SILENT_SECONDS", "Beats"]
