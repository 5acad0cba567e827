"""What plays on at a table without a person needs of the server around it: the
:class:`TableHost`.

The bots' loop and the timers of the clocks (:mod:`fanfold.server.hub.turns`) store their
moves, tell the table's watchers and rule on a clock run out through it, like any action; they
see nothing else of the hub (:class:`~fanfold.server.hub.Hub` is one such host).
"""

from __future__ import annotations

from typing import Protocol

from fanfold.play.table import Played
from fanfold.server.bots import BotPool
from fanfold.server.live import LiveTable
from fanfold.server.metrics import Metrics


class TableHost(Protocol):
    """What the bots' loop and the clocks' timers use of the server: the pool where bots
    think, what the process counts, the pause after each bot move, and three steps of any
    action (store it, tell it, rule on a clock run out)."""

    @property
    def pool(self) -> BotPool:
        """Where bots think (:class:`~fanfold.server.bots.BotPool`)."""
        ...

    @property
    def metrics(self) -> Metrics:
        """What the process counts and times (:mod:`fanfold.server.metrics`)."""
        ...

    @property
    def bot_pause(self) -> float:
        """Seconds to wait after each bot action so that people can follow the play."""
        ...

    async def store_played(self, live: LiveTable, played: Played) -> None:
        """Store ``played`` (just submitted to ``live``), or take it back from the table and
        raise :class:`~fanfold.server.live.StorageError` when the store fails."""
        ...

    async def broadcast(self, live: LiveTable) -> None:
        """Tell every watcher of ``live`` about the table as it is now."""
        ...

    async def time_out(self, live: LiveTable, version: int) -> None:
        """The running clock of ``live`` ran out (its timer fired at version ``version``):
        rule on it, or raise :class:`~fanfold.server.live.StorageError` while the store
        refuses the ruling."""
        ...


__all__ = ["TableHost"]
