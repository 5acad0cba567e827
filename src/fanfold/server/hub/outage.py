"""The time the store refused writes, which no clock is charged: :class:`Outage`.

While the store refuses writes nobody can move, so the running clocks stop being charged from
its first refusal; once it takes a write again, every running clock in memory is given that
time back (in memory until its table's next write stores it) and its timer set again.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace

from fanfold.server.clocks import credited
from fanfold.server.hub.host import TableHost
from fanfold.server.hub.turns import start_clock
from fanfold.server.live import LiveTable


class Outage:
    """When the store first refused a write since it last took one, for the tables in memory
    (``live``), whose timers run through ``host``."""

    def __init__(self, live: Mapping[str, LiveTable], host: TableHost) -> None:
        self.live = live
        self.host = host
        #: When the store first refused a write since it last took one (``time.time()``):
        #: the clocks are not charged for that time (:meth:`answers`).
        self.since: float | None = None

    def refused(self) -> None:
        """The store refused a write: the clocks stop being charged from now (the first
        refusal since it last took one)."""
        if self.since is None:
            self.since = time.time()

    def answers(self, skip: LiveTable | None = None) -> float:
        """The store takes writes again: every running clock in memory is given back the time
        since it first refused (``skip``: a table the caller gives it to itself), in memory
        until its next write stores it, and its timer set again; returns that time."""
        outage = self.since
        self.since = None
        if outage is None:
            return 0.0
        seconds = time.time() - outage
        for live in list(self.live.values()):
            clocks = live.options.clocks
            if live is skip or clocks is None or clocks.running is None:
                continue
            live.options = replace(live.options, clocks=credited(clocks, seconds))
            start_clock(self.host, live)
        return seconds


__all__ = ["Outage"]
