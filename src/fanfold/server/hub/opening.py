"""Opening tables: :class:`Opening`.

A table opens with the seats its creator asked for (:meth:`Opening.create`: the creator's
own, a hot-seat's, a friend's with an invitation, one open to anyone from the lobby, or a
bot's), or with seats decided already (:meth:`Opening.open`: the rematch of a finished table,
:mod:`fanfold.server.hub.rematch`). Its rows are stored before it plays; one opened from a
record or a chosen position is refused while it copies a rated game still being played
(:mod:`fanfold.server.hub.records`).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace

from fanfold.core.config import GameConfig
from fanfold.core.errors import ConfigError
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame
from fanfold.play.analysis import analyses_for
from fanfold.play.setup import choose_seed, new_table
from fanfold.play.table import HUMAN, Table
from fanfold.server.budget import BotBudget
from fanfold.server.clocks import control_for, default_speed, new_clocks
from fanfold.server.hub.basics import (
    FRIEND,
    HOTSEAT,
    OPEN,
    YOU,
    bot_text,
    seats_for,
    settled,
    stored_options,
)
from fanfold.server.hub.host import TableHost
from fanfold.server.hub.records import copies_running_rated, replay
from fanfold.server.hub.residency import Residency
from fanfold.server.hub.turns import play_on
from fanfold.server.live import (
    Created,
    ForbiddenError,
    LiveTable,
    storage_failure,
)
from fanfold.server.logs import TABLE
from fanfold.server.ownership import ElsewhereError, Ownership, table_id_for
from fanfold.server.ratings import check_rated
from fanfold.server.refusals import refusal
from fanfold.server.store import SeatPlan, TablePlan, token_hash
from fanfold.server.store.protocols import TableStore
from fanfold.server.table_options import TableOptions, TimeControl

log = logging.getLogger(__name__)


class Opening:
    """New tables of ``store``, kept in memory (``residency``) and started through ``host``.

    Args:
        budget: the server's limits, within which every bot plays.
        owner: the tables this process owns, when several processes serve one PostgreSQL
            store; ``None``: this process is the only one.
        server_name: this process's name in the router's configuration, which ends the id
            of every table it opens (:func:`~fanfold.server.ownership.table_id_for`).
    """

    def __init__(
        self,
        store: TableStore,
        *,
        residency: Residency,
        budget: BotBudget,
        owner: Ownership | None,
        server_name: str | None,
        host: TableHost,
    ) -> None:
        self.store = store
        self.residency = residency
        self.budget = budget
        self.owner = owner
        self.server_name = server_name
        self.host = host

    async def create(
        self,
        game: AnyGame,
        config: GameConfig,
        seats: Sequence[str],
        *,
        seed: int | None = None,
        start_position: str | None = None,
        record: GameRecord | None = None,
        options: TableOptions | None = None,
        practice: bool = False,
        listed: bool = False,
        account: int | None = None,
        rated: bool = False,
        speed: str | None = None,
        client: str | None = None,
    ) -> Created:
        """Open a table. ``seats`` has one entry per seat: ``"you"``, ``"hotseat"``,
        ``"friend"`` or an agent text (``"mcts"``, ``"random"``...). With ``record``, the
        table starts as the record left the game (its actions replayed).

        The deal's seed is the creator's ``seed`` when given, else a fresh one from the
        operating system (:func:`~fanfold.play.setup.fresh_seed`); the bots get a stream of
        their own, drawn apart from it and never stored. A deal or position the creator chose
        (or a loaded record) is told to everyone at the table, and the game is not counted as
        a fair one (``options.fair``), nor is a ``practice`` table, the only kind where a
        game with hidden information allows undo.

        ``account`` is the creator's account when signed in (the creator's seats are held
        by it); a ``rated`` table is checked by :func:`fanfold.server.ratings.check_rated`.
        ``speed`` names the table's time control (:mod:`fanfold.server.clocks`); a rated
        table without one gets its game's default speed, unless it has a time limit per
        decision. ``client`` names who opened it, whose share of the bot pool its bots use
        (:meth:`LiveTable.bot_client`).

        Raises:
            ConfigError, FanfoldError: a wrong seat count, an unknown agent, a bad position or
                a record that does not replay; a rated table that cannot be one.
        """
        count = game.num_players(config)
        if len(seats) != count:
            raise ConfigError(
                refusal("table.seat_count", game=game.title, count=count, seats=len(seats))
            )
        table_options = options or TableOptions()
        if rated:  # ---- rated tables (fanfold.server.ratings)
            levels = check_rated(
                game,
                seats,
                account=account,
                chosen=seed is not None or start_position is not None or record is not None,
                practice=practice,
            )
            table_options = replace(table_options, rated=True, levels=levels)
        if speed is not None and table_options.time_limit is not None:
            raise ConfigError(refusal("options.limit_or_clock"))
        if speed is None and rated and table_options.time_limit is None:
            speed = default_speed(game)
        if speed is not None:
            control = TimeControl.from_json(control_for(speed))
            table_options = replace(table_options, time_control=control)
        open_seats = [n for n, wanted in enumerate(seats) if wanted.strip().lower() == OPEN]
        if open_seats:
            if not listed:
                raise ConfigError(refusal("table.open_needs_listed"))
            table_options = replace(table_options, open_seats=tuple(open_seats))
        creator = secrets.token_urlsafe(24)
        creator_hash = token_hash(creator)
        invites: dict[int, str] = {}
        plans: list[SeatPlan] = []
        for number, wanted in enumerate(seats):
            kind = wanted.strip().lower()
            if kind in (YOU, HOTSEAT, HUMAN):
                plans.append(SeatPlan(HUMAN, token_hash=creator_hash, account_id=account))
            elif kind == OPEN:  # taken by whoever joins first (Seating.join)
                plans.append(SeatPlan(HUMAN))
            elif kind == FRIEND:
                invites[number] = secrets.token_urlsafe(18)
                plans.append(SeatPlan(HUMAN, invite_hash=token_hash(invites[number])))
            else:
                plans.append(SeatPlan(bot_text(self.budget, game, wanted)))
        return await self.open(
            game,
            config,
            plans,
            creator_hash,
            invites,
            token=creator,
            seed=seed,
            start_position=start_position,
            record=record,
            options=table_options,
            practice=practice,
            listed=listed,
            client=client,
        )

    async def open(
        self,
        game: AnyGame,
        config: GameConfig,
        seats: Sequence[SeatPlan],
        creator_hash: str | None,
        invites: dict[int, str],
        *,
        token: str,
        seed: int | None = None,
        start_position: str | None = None,
        record: GameRecord | None = None,
        options: TableOptions | None = None,
        practice: bool = False,
        listed: bool = False,
        client: str | None = None,
    ) -> Created:
        """Open a table whose seats are already decided (who sits at each: its player, the
        hash of the token that holds it or of the invitation that opens it, its account),
        with the creator's hash."""
        players = [plan.player for plan in seats]
        hashes = [plan.token_hash for plan in seats]
        chosen_seed = record.seed if record is not None else choose_seed(seed, game=game)
        # Undo only where every person's seat is the creator's (solo, against bots, or
        # hot-seat): it would take back another person's move otherwise. Where cards are
        # hidden, an undo shows what was drawn and lets the bots choose again, so only a table
        # opened for practice allows it there.
        people = [held for held, player in zip(hashes, players, strict=True) if player == HUMAN]
        solo = bool(people) and creator_hash is not None and set(people) == {creator_hash}
        allow_undo = solo and (practice or not game.has_hidden_information)
        table_options = options or TableOptions()
        rated = table_options.rated
        allow_undo = allow_undo and not rated  # a rated game: never
        made = functools.partial(
            new_table,
            game,
            config,
            seats_for(game, players),
            seed=chosen_seed,
            start_position=record.start_position if record is not None else start_position,
            allow_undo=allow_undo,
        )
        if record is None:
            table = made()
        else:  # a record's replay (up to a thousand actions) in a thread, never in the loop
            table = await asyncio.get_running_loop().run_in_executor(
                None, contextvars.copy_context().run, replayed, made, record
            )
        chosen = seed is not None or start_position is not None or record is not None
        if chosen and not rated:
            try:
                copied = await asyncio.get_running_loop().run_in_executor(
                    None, copies_running_rated, self.store, table
                )
            except Exception as error:
                raise storage_failure("store.check", error) from None
            if copied:
                raise ForbiddenError(refusal("table.rated_copy"))
        control = table_options.time_control
        if control is not None:  # the clocks start with the first move
            persons = [player == HUMAN for player in players]
            clocks = new_clocks(control.to_json(), persons)
            table_options = replace(table_options, clocks=clocks)
            table_options = self.residency.beats.hold(table_options)  # this process holds them
        table_options = replace(
            table_options,
            # A rated game is played unaided: no analysis (nor undo, above) at its table.
            analysis=bool(analyses_for(game)) and solo and not rated,
            hotseat=creator_hash is not None and hashes.count(creator_hash) > 1,
            chosen_deal=chosen,
            practice=practice and game.has_hidden_information,
            listed=listed,
            fair=not chosen and not allow_undo,
        )
        table_id = table_id_for(self.server_name)
        TABLE.set(table_id)  # the rest of this request is about the new table (logs)
        log.debug("table opened: %s for %d seats", game.id, len(players))
        if self.owner is not None and not await self.owner.take(table_id, wait=0):
            raise ElsewhereError(refusal("table.not_owned"))
        # Stored in a thread, never on the event loop: on PostgreSQL a table's rows are a few
        # round trips to the database, which would hold up every table of the process; not in
        # the thread of the actions' writes (:attr:`writer`), whose commits would wait behind
        # it. A request stopped meanwhile waits for the write to end.
        try:
            stored = asyncio.get_running_loop().run_in_executor(
                None,
                contextvars.copy_context().run,  # its log lines name the new table (logs)
                functools.partial(
                    self.store.create,
                    table_id,
                    TablePlan(
                        game.id,
                        table.config.to_json(),
                        table.record.seed,
                        table.record.start_position,
                        tuple(seats),
                        table.allow_undo,
                        actions_done=tuple((played.seat, played.text) for played in table.played),
                        version=table.version,
                        creator_hash=creator_hash,
                        listed=listed,
                        outcome=table.outcome.to_json() if table.outcome is not None else None,
                    ),
                    stored_options(table, table_options),
                ),
            )
            await settled(stored)
        except asyncio.CancelledError:
            self.residency.disown_soon(table_id)  # not in memory: another process may take it
            raise
        except Exception as error:
            self.residency.disown_soon(table_id)
            raise storage_failure("store.table", error) from None
        live = LiveTable(
            table_id,
            table,
            hashes,
            table_options,
            [plan.invite_hash for plan in seats],
            creator_hash=creator_hash,
            accounts=[plan.account_id for plan in seats],
            client=client,
        )
        self.residency.live[table_id] = live
        await play_on(self.host, live)
        return Created(table_id, token, invites)


def replayed(made: Callable[[], Table], record: GameRecord) -> Table:
    """The new table ``made`` with ``record``'s actions (and ruling) played at it: the
    whole game replayed, so called in a thread (the table is nobody else's yet)."""
    table = made()
    replay(table, record.actions, record.ruling)
    return table


__all__ = ["Opening", "replayed"]
