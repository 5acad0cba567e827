"""How a game ends before its last move, and who leaves it: :class:`Endings`.

A seat resigns, aborts, claims the win once the other side left, or offers a draw, which a
seat of another side accepts by asking for one too while it stands and a move by another side
withdraws (:meth:`Endings.end`); a running clock runs out (:meth:`Endings.time_out`); a person
leaves a game of three or more sides (``leave``), a bot playing on at the seat.
Each ending is stored with its ratings in one transaction, or changes nothing.
"""

from __future__ import annotations

import asyncio
import functools
import time
from dataclasses import replace

import fanfold.server.refusals  # noqa: F401  (registers the refusals' templates)
from fanfold.agents.levels import LEVELS as LEVEL_NAMES
from fanfold.core.errors import Refusal, StaleVersionError
from fanfold.core.rulings import Ending, Ruling, RulingError
from fanfold.server.budget import BotBudget
from fanfold.server.clocks import Clocks, credited, expired, stopped
from fanfold.server.hub.basics import (
    LEAVE,
    bot_text,
    other_side,
    rating_of,
    seats_for,
    stored_options,
)
from fanfold.server.hub.host import TableHost
from fanfold.server.hub.outage import Outage
from fanfold.server.hub.residency import Residency
from fanfold.server.hub.turns import play_on, start_clock
from fanfold.server.live import (
    GONE_SECONDS,
    Ended,
    ForbiddenError,
    LiveTable,
    storage_failure,
)
from fanfold.server.ratings import rated_game
from fanfold.server.store.protocols import TableStore


class Endings:
    """The endings of the tables of ``store`` in memory (``residency``): a bot that takes a
    leaver's seat plays within ``budget``; no clock runs out while the store refuses writes
    (``outage``); every ending is told through ``host``."""

    def __init__(
        self,
        store: TableStore,
        *,
        residency: Residency,
        budget: BotBudget,
        outage: Outage,
        host: TableHost,
    ) -> None:
        self.store = store
        self.residency = residency
        self.budget = budget
        self.outage = outage
        self.host = host

    async def end(
        self, table_id: str, token: str | None, version: int | None, ending: str, seat: int | None
    ) -> Ended:
        """A table-level ending asked for by a seat the token holds (:mod:`fanfold.core.rulings`):
        ``resign``, ``abort``, ``claim`` (the win, once the other side left:
        :meth:`LiveTable.claim_wait`), or ``draw`` (an offer, which a seat of another side
        accepts by asking for a draw too while it stands; a move by another side withdraws it).
        Returns whether the game ended and the table's version then.

        Raises:
            ForbiddenError: the token holds no seat here, or not ``seat``.
            StaleVersionError: ``version`` is not the table's.
            RulingError: the ending is not open to that seat here (nothing changed).
            StorageError: the store could not keep it (nothing changed).
        """
        if ending == LEAVE:
            return await self._leave(table_id, token, seat)
        try:
            wanted = Ending(ending)
        except ValueError:
            known = ", ".join(member.value for member in Ending)
            raise RulingError(f"a table ends by {known}, not {ending!r}") from None
        async with self.residency.holding(table_id) as live:
            table = live.table
            acting = _acting_seat(live, token, seat)
            if version is not None and version != table.version:
                raise StaleVersionError(Refusal("server.stale", version=version, now=table.version))
            if table.is_over:
                raise RulingError(Refusal("server.over_already"))
            ruling = Ruling(wanted, acting, len(table.played))
            if wanted is Ending.CLAIM:
                wait = live.claim_wait(acting)
                if wait is None or wait > 0:
                    seconds = f"{GONE_SECONDS:g}"
                    raise RulingError(
                        Refusal("server.claim_wait_left", seconds=seconds, left=f"{wait:.0f}")
                        if wait
                        else Refusal("server.claim_wait", seconds=seconds)
                    )
            offered = live.options.draw_offer
            if wanted is Ending.DRAW and not other_side(table, offered, acting):
                # An offer: kept with the table until another side answers or plays.
                if not table.game.has_draws:
                    raise RulingError(Refusal("server.no_draws", game=table.game.title))
                options = replace(live.options, draw_offer=acting)
                try:
                    await asyncio.get_running_loop().run_in_executor(
                        None, self.store.set_options, live.id, stored_options(table, options)
                    )
                except Exception as error:
                    raise storage_failure("store.offer", error) from None
                live.options = options
                offering = True
            else:
                await self._store_ruling(live, ruling, offered)
                offering = False
            produced = table.version
        await play_on(self.host, live)
        return Ended(not offering, produced)

    async def _store_ruling(self, live: LiveTable, ruling: Ruling, offered: int | None) -> None:
        """Under the table's lock: end the game by ``ruling`` and store it (its ratings in
        the same transaction), the clocks stopped; or change nothing and raise.

        Raises:
            RulingError: the ending may not be made here.
            StorageError: the store could not keep it.
        """
        table = live.table
        table.rule(ruling, offered=offered)
        options = replace(live.options, draw_offer=None)
        clocks = options.clocks
        if clocks is not None:
            options = replace(options, clocks=stopped(clocks, time.time()))
        outcome = table.outcome
        assert outcome is not None  # ruled just now
        live_options = live.options
        live.options = options  # what the ratings read
        try:
            await asyncio.get_running_loop().run_in_executor(
                None,
                functools.partial(
                    self.store.rule,
                    live.id,
                    table.version,
                    outcome.to_json(),
                    stored_options(table, options),
                    rating_of(live),
                ),
            )
        except Exception as error:
            table.unrule()
            live.options = live_options
            self.outage.refused()
            raise storage_failure("store.ending", error) from None
        if live.bots is not None and not live.bots.done():
            live.bots.cancel()  # the game is over; the bots' work is moot

    async def time_out(self, live: LiveTable, version: int) -> None:
        """The running clock of ``live`` ran out (its timer fired at version ``version``): the
        decider loses (a game of two sides), leaves with a bot playing on (three or more), or,
        if its side never moved, the game is called off (never rated). Nothing is stored
        while the store refuses writes: the timer tries again."""
        async with live.lock:
            table = live.table
            if self.outage.since is not None:
                # No time-out while the store refuses writes; once it answers, the time it
                # refused them is given back first.
                try:
                    await asyncio.get_running_loop().run_in_executor(None, self.store.ping)
                except Exception as error:
                    raise storage_failure("store.clock", error) from None
                given = self.outage.answers(skip=live)  # not this timer's own task
                own = live.options.clocks
                if own is not None:
                    live.options = replace(live.options, clocks=credited(own, given))
            clocks = live.options.clocks
            if live.evicted or table.version != version or table.is_over or clocks is None:
                return
            seat = expired(clocks)
            if seat is None:  # given time back meanwhile: its timer runs again
                live.clock, live.deadline = None, None
                start_clock(self.host, live)
                return
            teams = table.game.teams(table.config)
            side = next(team for team in teams if seat in team)
            moved = any(played.seat in side for played in table.played)
            if not moved:
                await self._store_ruling(live, Ruling(Ending.ABORT, seat, len(table.played)), None)
            elif len(teams) > 2:
                await self._seat_leaves(live, seat)
            else:
                await self._store_ruling(
                    live, Ruling(Ending.TIMEOUT, seat, len(table.played)), None
                )
            live.clock, live.deadline = None, None  # this timer is done
        await play_on(self.host, live)

    async def _leave(self, table_id: str, token: str | None, seat: int | None) -> Ended:
        """A person leaves a game of three or more sides before its end (one leaving does not
        end it for the others): a bot of the table's level (else ``medium``) plays on at the
        seat, the token holds it no more, and at a rated table the leaver is rated now,
        ranked last, in the same transaction (:meth:`RatedGame.apply_leaver`); the game stays
        rated for those who stayed, the leaver ranked last among them at its end."""
        async with self.residency.holding(table_id) as live:
            table = live.table
            acting = _acting_seat(live, token, seat)
            if table.is_over:
                raise RulingError(Refusal("server.over_already"))
            sides = len(table.game.teams(table.config))
            if sides <= 2:
                raise RulingError(Refusal("server.leave_by_resigning"))
            if not table.seats[acting].is_human:
                raise RulingError(Refusal("server.bot_seat", name=table.seat_name(acting)))
            await self._seat_leaves(live, acting)
            produced = table.version
        await play_on(self.host, live)
        return Ended(False, produced)

    async def _seat_leaves(self, live: LiveTable, acting: int) -> None:
        """Under the table's lock: ``acting``'s person leaves (see :meth:`_leave`)."""
        table = live.table
        named = list(live.options.levels.values())
        level = next((v for v in named if v in LEVEL_NAMES), "medium")
        text = bot_text(self.budget, table.game, level)
        left = {**(live.options.left or {}), acting: live.accounts[acting]}
        offer = live.options.draw_offer
        options = replace(live.options, left=left, draw_offer=None if offer == acting else offer)
        clocks = options.clocks
        if clocks is not None:  # a bot has no clock
            lefts = list(clocks.left)
            lefts[acting] = None
            running = None if clocks.running == acting else clocks.running
            since = clocks.since if running is not None else None
            options = replace(options, clocks=Clocks(tuple(lefts), running, since))
        rating = None
        if options.rated:
            rated = rated_game(
                live.id,
                table.game,
                table.config,
                options,
                [entry.player for entry in table.seats],
                live.accounts,
                {"returns": [0.0] * len(table.seats)},
            )
            if rated is not None:
                rating = functools.partial(rated.apply_leaver, seat=acting)
        try:
            await asyncio.get_running_loop().run_in_executor(
                None,
                functools.partial(
                    self.store.set_player,
                    live.id,
                    acting,
                    text,
                    stored_options(table, options),
                    let_go=True,
                    also=rating,
                ),
            )
        except Exception as error:
            raise storage_failure("store.leave", error) from None
        new_seats = list(table.seats)
        new_seats[acting] = seats_for(table.game, [text])[0]
        table.seats = tuple(new_seats)
        live.seat_hashes[acting] = None
        live.options = options
        for watcher in live.watchers:  # the leaver's connections see it no more
            if acting in watcher.seats:
                watcher.seats = watcher.seats - {acting}
                if watcher.seat == acting:
                    watcher.seat = min(watcher.seats) if watcher.seats else None


__all__ = ["Endings"]


def _acting_seat(live: LiveTable, token: str | None, seat: int | None) -> int:
    """The seat ``token`` acts for at ``live``: ``seat``, or its first when none is named.

    Raises:
        ForbiddenError: the token holds no seat here, or not ``seat``.
    """
    held = live.seats_of(token)
    if not held:
        raise ForbiddenError(Refusal("server.no_seat_held"))
    acting = min(held) if seat is None else seat
    if acting not in held:
        raise ForbiddenError(Refusal("server.not_that_seat"))
    return acting
