"""The live work under way in a server process (:class:`LiveWork`): the live games' bot
decisions in flight or queued in the pool and the players' actions being handled, counted on
the event loop, so that the review worker (:mod:`fanfold.server.bots.reviewer`) computes its
steps only while none is under way (it is told when the count falls to zero; nothing polls)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator


class LiveWork:
    """A count of the live work under way, and who waits for it to fall to zero.

    Every call comes from the event loop's thread (the pool hands a decision's end to the loop
    before it counts it), so the count needs no lock.
    """

    def __init__(self) -> None:
        #: Live decisions in flight or queued, and players' actions being handled, now.
        self.count = 0
        self._quiet: list[Callable[[], object]] = []

    def begin(self) -> None:
        """A piece of live work starts (a decision asked of the pool, an action arrived)."""
        self.count += 1

    def end(self) -> None:
        """A piece of live work ended: at zero, everyone waiting is told (once each)."""
        self.count = max(0, self.count - 1)
        if not self.count and self._quiet:
            told, self._quiet = self._quiet, []
            for callback in told:
                callback()

    @contextlib.contextmanager
    def doing(self) -> Iterator[None]:
        """Count the work of the ``with`` block (a player's action, to its ok)."""
        self.begin()
        try:
            yield
        finally:
            self.end()

    def when_quiet(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once the count next falls to zero (at once if it is zero)."""
        if not self.count:
            callback()
        else:
            self._quiet.append(callback)

    def forget(self, callback: Callable[[], object]) -> None:
        """Stop waiting with ``callback`` (a hold that ended at its bound)."""
        with contextlib.suppress(ValueError):
            self._quiet.remove(callback)


__all__ = ["LiveWork"]
