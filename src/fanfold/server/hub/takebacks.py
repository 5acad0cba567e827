"""Takebacks at casual tables between two people: :class:`Takebacks`.

A player asks to take back their last move; the other player accepts or declines. Accepted,
the asker's last move and every move after it are taken back (:meth:`Table.rewind`), stored
as an undo is (:meth:`TableStore.truncate`), and told to both. Against a bot there is undo
instead (a solo table's own), and a rated game never takes one back.

Where it may be asked: a casual table (not rated) of two seats, each held by a person through
their own link (not one link holding both: a hot-seat table has undo), in a game without
hidden cards (a move taken back after cards were shown would be played again knowing them),
while the game runs, by a player who has moved. On the clock, as lichess does, no time goes
back: the seat whose clock ran is charged its time so far, and the asker's clock runs from
what it has left (:func:`fanfold.server.clocks.handed`). One request waits at a time, and
each player may ask :data:`LIMIT` times a game.

The request is kept in the table's options (``takeback``: the asker's seat and the version
asked at; ``takebacks``: each seat's requests so far), so every watcher's state message
carries it in ``options`` only at a table where one was asked. A request is answered at the
version it was asked at: once a move is played it lapses, and the asker may ask again.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Literal

import fanfold.server.refusals  # noqa: F401  (registers the refusals' templates)
from fanfold.core.errors import FanfoldError, Refusal
from fanfold.server.clocks import handed
from fanfold.server.hub.basics import stored_options
from fanfold.server.hub.host import TableHost
from fanfold.server.hub.residency import Residency
from fanfold.server.hub.turns import play_on
from fanfold.server.live import ForbiddenError, LiveTable, Undone, storage_failure
from fanfold.server.store.protocols import TableStore
from fanfold.server.table_options import TableOptions, Takeback

#: Takebacks each player may ask for in one game.
LIMIT = 3

Answer = Literal["ask", "accept", "decline"]


class TakebackError(FanfoldError, ValueError):
    """A takeback that may not be asked or answered now, said with the reason."""


def pending(options: TableOptions, version: int) -> int | None:
    """The seat that asked for the takeback waiting at ``version``, if one waits."""
    asked = options.takeback
    if asked is None or asked.version != version:
        return None
    return asked.seat


def _check_table(live: LiveTable) -> None:
    """Raise :class:`TakebackError` unless the table takes takebacks (see the module)."""
    table = live.table
    if live.options.rated:
        raise TakebackError(Refusal("takeback.rated"))
    if table.is_over:
        raise TakebackError(Refusal("takeback.over"))
    if table.game.has_hidden_information:
        raise TakebackError(Refusal("takeback.hidden", game=table.game.title))
    people = [entry.is_human for entry in table.seats]
    if len(people) != 2 or not all(people):
        raise TakebackError(Refusal("takeback.two_people"))
    first, second = live.seat_hashes
    if first is None or second is None or first == second:
        raise TakebackError(Refusal("takeback.one_link"))


class Takebacks:
    """The takebacks at the tables of ``store`` (in memory: ``residency``), told through
    ``host``."""

    def __init__(self, store: TableStore, *, residency: Residency, host: TableHost) -> None:
        self.store = store
        self.residency = residency
        self.host = host

    async def answer(self, table_id: str, token: str | None, answer: Answer) -> Undone:
        """Ask for a takeback (``ask``), or answer the other player's (``accept``,
        ``decline``); returns whether moves were taken back and the table's version then.

        Raises:
            NotFoundError: no such table.
            ForbiddenError: ``token`` holds no seat there.
            TakebackError: it may not be asked or answered now (nothing changed).
            StorageError: the store could not keep it (nothing changed).
        """
        async with self.residency.holding(table_id) as live:
            held = live.seats_of(token)
            if not held:
                raise ForbiddenError("only a player at this table may ask for a takeback")
            _check_table(live)
            (seat,) = held  # two seats, each its own link: one seat
            if answer == "ask":
                self._ask(live, seat)
                moved = False
            else:
                moved = self._answer(live, seat, accept=answer == "accept")
            version = live.table.version
        await play_on(self.host, live)
        return Undone(moved, version)

    def _ask(self, live: LiveTable, seat: int) -> None:
        table = live.table
        waiting = pending(live.options, table.version)
        if waiting is not None:
            if waiting == seat:
                raise TakebackError(Refusal("takeback.yours_waiting"))
            raise TakebackError(Refusal("takeback.waiting", name=table.seat_name(waiting)))
        if not any(played.seat == seat for played in table.played):
            raise TakebackError(Refusal("takeback.no_move"))
        counts = dict(live.options.takebacks)
        asked = counts.get(seat, 0)
        if asked >= LIMIT:
            raise TakebackError(Refusal("takeback.used", limit=LIMIT))
        counts[seat] = asked + 1
        options = replace(live.options, takeback=Takeback(seat, table.version), takebacks=counts)
        self._keep(live, options, "store.takeback_ask")

    def _answer(self, live: LiveTable, seat: int, *, accept: bool) -> bool:
        table = live.table
        asker = pending(live.options, table.version)
        if asker is None:
            raise TakebackError(Refusal("takeback.none_waiting"))
        if asker == seat:
            raise TakebackError(Refusal("takeback.not_yours"))
        options = replace(live.options, takeback=None)
        if not accept:
            self._keep(live, options, "store.takeback_answer")
            return False
        keep = max(n for n, played in enumerate(table.played) if played.seat == asker)
        first = table.played[keep].number
        before = table.checkpoint()
        if not table.rewind(keep):
            raise TakebackError(Refusal("takeback.asker_no_move"))
        options = replace(options, draw_offer=None)  # offered in a position that is gone
        if options.clocks is not None:  # no time goes back: the asker's clock runs now
            held = [seat is not None for seat in live.seat_hashes]
            now = time.time()
            options = replace(options, clocks=handed(options.clocks, table.decider, held, now))
        try:
            self.store.truncate(
                live.id, first - 1, table.version, options=stored_options(table, options)
            )
        except Exception as error:
            table.restore(before)  # the store keeps the moves, so the table does too
            raise storage_failure("store.takeback", error) from None
        live.options = options
        return True

    def _keep(self, live: LiveTable, options: TableOptions, failure: str) -> None:
        try:
            self.store.set_options(live.id, stored_options(live.table, options))
        except Exception as error:
            raise storage_failure(failure, error) from None
        live.options = options


__all__ = ["LIMIT", "Answer", "TakebackError", "Takebacks", "pending"]
