"""Who sits where at a table, and who watches it: :class:`Seating`.

A friend claims the seat an invitation opens (:meth:`Seating.claim`), anyone takes an open
seat from the lobby (:meth:`Seating.join`), the creator gives an open seat nobody took to a
bot (:meth:`Seating.seat_bot`) or invites someone again to a seat nobody claimed or whose
player left (:meth:`Seating.reinvite`); a connection watches the table as a seat or a
spectator (:meth:`Seating.watch`) until it leaves (:meth:`Seating.tell_left`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import replace

from fanfold.agents.levels import LEVELS as LEVEL_NAMES
from fanfold.core.errors import ConfigError, Refusal
from fanfold.server.budget import BotBudget
from fanfold.server.clocks import Clocks
from fanfold.server.hub.basics import USED_INVITATION, bot_text, seats_for, stored_options
from fanfold.server.hub.host import TableHost
from fanfold.server.hub.messages import message_of, unwatch
from fanfold.server.hub.residency import Residency
from fanfold.server.hub.turns import play_on
from fanfold.server.live import (
    GONE_SECONDS,
    CrowdedError,
    ForbiddenError,
    InvitationError,
    LiveTable,
    Watcher,
    storage_failure,
)
from fanfold.server.outbox import spectators_pacer
from fanfold.server.protocol import as_json
from fanfold.server.ratings import check_rated_seat
from fanfold.server.store import token_hash
from fanfold.server.store.protocols import TableStore

#: Seconds an open seat waits for a player before the creator may give it to a bot.
OPEN_WAIT_SECONDS = 60.0

log = logging.getLogger(__name__)


class Seating:
    """The seats and watchers of the tables of ``store`` in memory (``residency``); a seat
    given to a bot plays within ``budget``; every change is told through ``host``."""

    def __init__(
        self, store: TableStore, *, residency: Residency, budget: BotBudget, host: TableHost
    ) -> None:
        self.store = store
        self.residency = residency
        self.budget = budget
        self.host = host

    async def invitation(self, table_id: str, invite: str) -> int:
        """The seat ``invite`` opens at ``table_id`` (nothing changes).

        Raises:
            NotFoundError: no such table.
            InvitationError: the invitation opens no seat (used already, or replaced).
        """
        live = await self.residency.get(table_id)
        return invited_seat(live, invite)

    async def claim(
        self, table_id: str, invite: str, account: int | None = None
    ) -> tuple[int, str]:
        """Take the seat ``invite`` opens: returns the seat and a new token that holds it. The
        invitation is spent: the link claims nothing again. ``account``: the claimant's, when
        signed in (a rated table's seats take only signed-in players, each at one seat).

        Raises:
            NotFoundError: no such table.
            InvitationError: the invitation opens no seat (used already, or replaced).
            SignInError: a rated table, and no account or one seated already.
            StorageError: the store could not keep the claim (nothing changed).
        """
        async with self.residency.holding(table_id) as live:
            seat = invited_seat(live, invite)
            if live.options.rated:
                check_rated_seat(live.accounts, account)
            token = secrets.token_urlsafe(24)
            hashed = token_hash(token)
            try:
                claimed = self.store.claim(live.id, seat, token_hash(invite), hashed, account)
            except Exception as error:
                raise storage_failure("store.seat", error) from None
            if not claimed:
                raise InvitationError(USED_INVITATION)
            live.invite_hashes[seat] = None
            live.seat_hashes[seat] = hashed
            live.accounts[seat] = account
            live.seen[seat] = time.monotonic()
            live.arriving.add(seat)  # not left: not come yet
            await self._start_seated_clock(live)
        await play_on(self.host, live)
        return seat, token

    async def join(self, table_id: str, account: int | None) -> tuple[int, str]:
        """Take the first open seat of a table (opened with ``"open"`` seats, listed in the
        lobby) nobody has taken: returns the seat and a new token that holds it.

        Raises:
            NotFoundError: no such table.
            ConfigError: no open seat is left, or the game is over.
            SignInError: a rated table, and no account or one seated already.
            StorageError: the store could not keep it (nothing changed).
        """
        async with self.residency.holding(table_id) as live:
            if live.table.outcome is not None:
                raise ConfigError(Refusal("seat.over"))
            free = live.free_lobby_seats()
            if not free:
                raise ConfigError(Refusal("seat.none_open"))
            if live.options.rated:
                check_rated_seat(live.accounts, account)
            seat = free[0]
            token = secrets.token_urlsafe(24)
            hashed = token_hash(token)
            try:
                taken = self.store.take_open(live.id, seat, hashed, account)
            except Exception as error:
                raise storage_failure("store.seat", error) from None
            if not taken:
                raise ConfigError(Refusal("seat.taken"))
            live.seat_hashes[seat] = hashed
            live.accounts[seat] = account
            live.seen[seat] = time.monotonic()
            live.arriving.add(seat)  # not left: not come yet
            await self._start_seated_clock(live)
        await play_on(self.host, live)
        return seat, token

    async def _start_seated_clock(self, live: LiveTable) -> None:
        """Under the table's lock, once a person sat down: the decider's clock starts if it
        waited for that seat (a clock never runs for a seat nobody holds). Kept in the
        table's options; a store that refuses leaves the clock stopped until the next move."""
        table = live.table
        clocks = live.options.clocks
        decider = table.decider
        if clocks is None or clocks.running is not None or decider is None or not table.played:
            return
        if not table.seats[decider].is_human or live.seat_hashes[decider] is None:
            return
        options = replace(live.options, clocks=Clocks(clocks.left, decider, time.time()))
        try:
            await asyncio.get_running_loop().run_in_executor(
                None, self.store.set_options, live.id, stored_options(table, options)
            )
        except Exception:
            log.warning(
                "table %s: the clock could not be started; it starts at the next move", live.id
            )
            return
        live.options = options

    async def seat_bot(self, table_id: str, token: str | None, seat: int, level: str) -> None:
        """Give an open seat nobody took to a bot of ``level`` (``easy``, ``medium``,
        ``hard``), for the table's creator, once the seat has waited
        :data:`OPEN_WAIT_SECONDS` (since the table came into this server's memory).

        Raises:
            ForbiddenError: ``token`` is not the creator's.
            ConfigError: not an open seat still free, not waited long enough, not a level, or
                the game is over.
            StorageError: the store could not keep it (nothing changed).
        """
        async with self.residency.holding(table_id) as live:
            table = live.table
            if not live.is_creator(token):
                raise ForbiddenError(Refusal("seat.creator_gives"))
            seats = list(live.options.open_seats or ())
            if seat not in seats or live.seat_hashes[seat] is not None:
                raise ConfigError(Refusal("seat.not_open", seat=seat + 1))
            if table.outcome is not None:
                raise ConfigError(Refusal("seat.game_over"))
            if level not in LEVEL_NAMES:
                raise ConfigError(Refusal("seat.bot_level", levels=", ".join(LEVEL_NAMES)))
            waited = time.monotonic() - live.loaded
            if waited < OPEN_WAIT_SECONDS:
                left = f"{OPEN_WAIT_SECONDS - waited:.0f}"
                seconds = f"{OPEN_WAIT_SECONDS:g}"
                raise ConfigError(Refusal("seat.open_wait", seconds=seconds, left=left))
            text = bot_text(self.budget, table.game, level)
            options = replace(live.options, open_seats=tuple(n for n in seats if n != seat))
            if options.rated:
                options = replace(options, levels={**options.levels, seat: level})
            try:
                self.store.set_player(live.id, seat, text, stored_options(table, options))
            except Exception as error:
                raise storage_failure("store.bot_seat", error) from None
            new_seats = list(table.seats)
            new_seats[seat] = seats_for(table.game, [text])[0]
            table.seats = tuple(new_seats)
            live.options = options
        await play_on(self.host, live)

    async def reinvite(self, table_id: str, token: str | None, seat: int) -> str:
        """A new invitation to ``seat``, for the table's creator: to a seat nobody has claimed
        (the old link stops working) or whose player is gone (:meth:`LiveTable.is_gone`: that
        player's token stops holding it), except at a rated table, where a claimed seat is
        never given again.

        Raises:
            ForbiddenError: ``token`` is not the creator's, the seat is not a friend's, or
                the seat is claimed at a rated table.
            ConfigError: no such seat, the seat's player is still there, or the game is over.
            StorageError: the store could not keep it (nothing changed).
        """
        async with self.residency.holding(table_id) as live:
            table = live.table
            if not live.is_creator(token):
                raise ForbiddenError(Refusal("seat.creator_invites"))
            if not 0 <= seat < len(table.seats):
                count = len(table.seats)
                raise ConfigError(Refusal("seat.no_such_seat", count=count, seat=seat + 1))
            name = table.seat_name(seat)
            held = live.seat_hashes[seat]
            if not table.seats[seat].is_human or held == live.creator_hash:
                raise ForbiddenError(Refusal("seat.not_friends", name=name))
            if table.outcome is not None:
                raise ConfigError(Refusal("seat.over"))
            if held is not None and live.options.rated:
                # A rated seat stays its player's: given to another account, the creator
                # could finish the game against a second account of their own.
                raise ForbiddenError(Refusal("seat.rated_stays", name=name))
            if held is not None and not live.is_gone(seat):
                seconds = f"{GONE_SECONDS:g}"
                raise ConfigError(Refusal("seat.still_here", name=name, seconds=seconds))
            invite = secrets.token_urlsafe(18)
            try:
                self.store.invite(live.id, seat, token_hash(invite))
            except Exception as error:
                raise storage_failure("store.link", error) from None
            live.invite_hashes[seat] = token_hash(invite)
            live.seat_hashes[seat] = None
            live.accounts[seat] = None
        await play_on(self.host, live)
        return invite

    async def watch(
        self, live: LiveTable, watcher: Watcher, *, spectators: int | None = None
    ) -> LiveTable:
        """Add a watcher and send it the table as it is now; returns the live table it watches
        (``live``, or the table in memory now if ``live`` was let go meanwhile).

        Raises:
            CrowdedError: ``watcher`` holds no seat and the table has ``spectators`` already.
        """
        async with self.residency.holding(live.id) as held:  # never an action being stored
            if spectators is not None and watcher.spectating:
                watching = sum(1 for other in held.watchers if other.spectating)
                if watching >= spectators:
                    raise CrowdedError(Refusal("seat.crowded", count=spectators))
            message, text = message_of(held, watcher)
            # a seat's holder arriving ends another seat's countdown to claim the win: they
            # are told again (their countdown stops)
            counting = bool(watcher.seats) and any(
                held.claim_wait(seat) is not None for other in held.watchers for seat in other.seats
            )
            held.watchers.add(watcher)
            held.arriving -= watcher.seats
        if watcher.outbox is not None and watcher.spectating:
            watcher.outbox.pacer = spectators_pacer()
        if watcher.outbox is not None:  # queued before any later broadcast can queue
            assert text is not None  # serialised for its outbox
            if not watcher.outbox.post(text):
                unwatch(held, watcher)
        else:
            await watcher.send(as_json(message))
        if counting:
            await self.host.broadcast(held)
        return held

    async def tell_left(self, live: LiveTable, watcher: Watcher) -> None:
        """After ``watcher`` left (:meth:`unwatch`): when it was the last connection of a seat
        in a game still going on, the others are told (the seat is no longer present, and the
        win may be claimed once its side has been gone long enough)."""
        if live.evicted or live.table.is_over or not watcher.seats:
            return
        if any(live.is_present(seat) for seat in watcher.seats) or not live.watchers:
            return
        await self.host.broadcast(live)

    def unwatch(self, live: LiveTable, watcher: Watcher) -> None:
        """A watcher leaves the table (its seats were held until now)."""
        unwatch(live, watcher)


def invited_seat(live: LiveTable, invite: str) -> int:
    """The seat whose pending invitation is ``invite``."""
    hashed = token_hash(invite)
    for seat, pending in enumerate(live.invite_hashes):
        if pending is not None and secrets.compare_digest(pending, hashed):
            return seat
    raise InvitationError(USED_INVITATION)


__all__ = ["OPEN_WAIT_SECONDS", "Seating", "invited_seat"]
