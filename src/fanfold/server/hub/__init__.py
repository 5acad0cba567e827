"""The live tables of a server: each a :class:`~fanfold.play.table.Table` with its seats'
tokens, its watchers and its bots, kept in step with the store.

The hub is authoritative. A submission names the table, a seat token and the version it acts
on; the hub finds the seats that token holds, lets the :class:`Table` check turn, version,
notation and legality, commits the action to the store and only then answers and tells every
watcher (each gets its own view and the announcements it may hear). Bots choose in a pool of
workers shared fairly by the tables (:mod:`fanfold.server.bots`), off the event loop, within
the server's budget (:mod:`fanfold.server.budget`), so a slow bot never stalls another table.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import secrets
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor

from fanfold.agents.base import parse_agent
from fanfold.core.config import GameConfig, JSONObject, JSONValue
from fanfold.core.errors import ConfigError, RecordError, StaleVersionError
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame
from fanfold.core.rulings import Ruling, RulingError
from fanfold.play.analysis import analyses_for
from fanfold.play.setup import choose_seed, new_table
from fanfold.play.table import HUMAN, Played, Table
from fanfold.server.appender import Appender
from fanfold.server.bots import BotPool
from fanfold.server.budget import BotBudget
from fanfold.server.clocks import (
    CLOCK,
    CONTROL,
    DEFAULT_SPEED,
    control_for,
    new_clocks,
)
from fanfold.server.hub.basics import (
    AIDS,
    EXPIRE_SECONDS,
    FRIEND,
    HOTSEAT,
    OPEN,
    YOU,
    seats_for,
    settled,
    stored_options,
    with_aid,
)
from fanfold.server.hub.commits import Commits
from fanfold.server.hub.endings import Endings
from fanfold.server.hub.messages import broadcast
from fanfold.server.hub.outage import Outage
from fanfold.server.hub.residency import Residency
from fanfold.server.hub.seating import Seating
from fanfold.server.hub.turns import start_bots, start_clock
from fanfold.server.live import (
    GONE_SECONDS,
    REMATCH,
    REMATCH_OF,
    Acted,
    Created,
    CrowdedError,
    ForbiddenError,
    InvitationError,
    LiveTable,
    NotFoundError,
    Send,
    StorageError,
    Undone,
    Watcher,
    storage_failure,
)
from fanfold.server.logs import TABLE
from fanfold.server.metrics import Metrics
from fanfold.server.ownership import ElsewhereError, Ownership, table_id_for
from fanfold.server.protocol import game_catalogue, message_for
from fanfold.server.ratings import (
    LEVELS,
    RATED,
    check_rated,
)
from fanfold.server.store import (
    Store,
    token_hash,
)

log = logging.getLogger(__name__)


class Hub:
    """Every live table of one server.

    Args:
        store: where tables live between actions and across restarts.
        bot_seconds: the time cap per decision given to bots that take one (``None``: their
            iteration budgets alone).
        bot_pause: seconds to wait after each bot action so that people can follow the play.
        executor: where analyses run (a thread pool by default).
        pool: where bots think (:class:`~fanfold.server.bots.BotPool`; by default four
            worker threads).
        keep_seconds: how long a table nobody watches and nothing plays on stays in memory
            after it was last asked for (:meth:`evict_idle`); it is rebuilt from the store
            when asked for again.
        keep_finished_seconds: the same for a finished game, which nothing will change: a
            server finishes many games, and every object kept in memory lengthens the
            garbage collector's pauses, which every table waits for.
        expire_seconds: an unfinished table with no action for this long is abandoned and
            deleted from the store (:meth:`expire_abandoned`); ``None``: never.
        owner: the tables this process owns, when several processes serve one PostgreSQL
            store (:mod:`fanfold.server.ownership`); ``None``: this process is the only one.
        metrics: what the process counts and times (:mod:`fanfold.server.metrics`).
        server_name: this process's name in the router's configuration, which ends the id
            of every table it opens so that the router sends the table to it
            (:func:`~fanfold.server.ownership.table_id_for`); ``None``: ids without one.
    """

    def __init__(
        self,
        store: Store,
        *,
        bot_seconds: float | None = 1.0,
        bot_pause: float = 0.0,
        executor: Executor | None = None,
        keep_seconds: float = 600.0,
        keep_finished_seconds: float = 30.0,
        pool: BotPool | None = None,
        expire_seconds: float | None = EXPIRE_SECONDS,
        owner: Ownership | None = None,
        metrics: Metrics | None = None,
        server_name: str | None = None,
        appender: Appender | None = None,
    ) -> None:
        self.store = store
        self.appender = appender
        self.server_name = server_name
        # ---- several processes on one store (fanfold.server.ownership) and metrics
        self.owner = owner
        self.metrics = metrics or Metrics()
        self.bot_seconds = bot_seconds
        self.budget = BotBudget(seconds=bot_seconds)
        self.bot_pause = bot_pause
        self.executor = executor or ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot")
        self.pool = pool or BotPool()
        #: The tables in memory, their loading, eviction, expiry and hand-over.
        self.residency = Residency(
            store,
            budget=self.budget,
            owner=owner,
            host=self,
            keep_seconds=keep_seconds,
            keep_finished_seconds=keep_finished_seconds,
            expire_seconds=expire_seconds,
        )
        #: Every table in memory, by id.
        self.live = self.residency.live
        #: When the store refused writes, which the clocks are not charged.
        self.outage = Outage(self.live, self)
        #: The store's writes of actions: a group commit off the event loop.
        self.commits = Commits(
            store,
            appender=appender,
            metrics=self.metrics,
            outage=self.outage,
            let_go=self.residency.let_go,
        )
        #: The thread of the store's writes of actions.
        self.writer = self.commits.writer
        # ---- residency and hand-over (Residency)
        self.get = self.residency.get
        self.holding = self.residency.holding
        self.evict_idle = self.residency.evict_idle
        self.resume_all = self.residency.resume_all
        self.take_orphans = self.residency.take_orphans
        self.expire_abandoned = self.residency.expire_abandoned
        self.let_go = self.residency.let_go
        self.hand_over = self.residency.hand_over
        self.drop_all = self.residency.drop_all
        self.idle = self.residency.idle
        if owner is not None:
            owner.hand_over = self.hand_over
            owner.lost = self.drop_all
        # ---- seats and watchers (Seating)
        self.seating = Seating(store, residency=self.residency, budget=self.budget, host=self)
        self.invitation = self.seating.invitation
        self.claim = self.seating.claim
        self.join = self.seating.join
        self.seat_bot = self.seating.seat_bot
        self.reinvite = self.seating.reinvite
        self.watch = self.seating.watch
        self.unwatch = self.seating.unwatch
        self.tell_left = self.seating.tell_left
        # ---- endings (Endings)
        self.endings = Endings(
            store, residency=self.residency, budget=self.budget, outage=self.outage, host=self
        )
        self.end = self.endings.end

    @property
    def keep_seconds(self) -> float:
        """How long an idle table stays in memory after it was last asked for."""
        return self.residency.keep_seconds

    @property
    def keep_finished_seconds(self) -> float:
        """How long an idle finished game stays in memory after it was last asked for."""
        return self.residency.keep_finished_seconds

    @property
    def expire_seconds(self) -> float | None:
        """How long an unfinished table may go without an action before it expires."""
        return self.residency.expire_seconds

    # ------------------------------------------------------------- creating
    def bot_text(self, game: AnyGame, text: str) -> str:
        """The canonical agent text a bot seat plays with: ``text`` within the server's limits
        (:mod:`fanfold.server.budget`), the time cap added when the agent takes one and the
        text does not set it.

        Raises:
            BudgetError: the text asks for more than the server's limits allow.
            FanfoldError: not an agent, or one that does not play ``game``.
        """
        spec = parse_agent(text)
        spec.create(game)  # raises the clear error for an agent that does not play the game
        return str(self.budget.check(spec))

    async def create(
        self,
        game: AnyGame,
        config: GameConfig,
        seats: Sequence[str],
        *,
        seed: int | None = None,
        start_position: str | None = None,
        record: GameRecord | None = None,
        options: Mapping[str, JSONValue] | None = None,
        practice: bool = False,
        listed: bool = False,
        account: int | None = None,
        rated: bool = False,
        speed: str | None = None,
    ) -> Created:
        """Open a table. ``seats`` has one entry per seat: ``"you"``, ``"hotseat"``,
        ``"friend"`` or an agent text (``"mcts"``, ``"random"``...). With ``record``, the
        table starts as the record left the game (its actions replayed).

        The deal's seed is the creator's ``seed`` when given, else a fresh one from the
        operating system (:func:`~fanfold.play.setup.fresh_seed`); the bots get a stream of
        their own, drawn apart from it and never stored. A deal or position the creator chose
        (or a loaded record) is told to everyone at the table, and the game is not counted as
        a fair one (``options["fair"]``), nor is a ``practice`` table, the only kind where a
        game with hidden information allows undo.

        ``account`` is the creator's account when signed in (the creator's seats are held
        by it); a ``rated`` table is checked by :func:`fanfold.server.ratings.check_rated`.
        ``speed`` names the table's time control (:mod:`fanfold.server.clocks`); a rated
        table without one gets its game's default speed, unless it has a time limit per
        decision.

        Raises:
            ConfigError, FanfoldError: a wrong seat count, an unknown agent, a bad position or
                a record that does not replay; a rated table that cannot be one.
        """
        count = game.num_players(config)
        if len(seats) != count:
            raise ConfigError(f"{game.title} with this variant has {count} seats, not {len(seats)}")
        table_options: JSONObject = dict(options or {})
        if rated:  # ---- rated tables (issue 31)
            levels = check_rated(
                game,
                seats,
                account=account,
                chosen=seed is not None or start_position is not None or record is not None,
                practice=practice,
            )
            table_options[RATED] = True
            table_options[LEVELS] = {str(seat): level for seat, level in levels.items()}
        if speed is not None and table_options.get("time_limit"):
            raise ConfigError("a table has a time limit per decision or a clock, not both")
        if speed is None and rated and not table_options.get("time_limit"):
            speed = DEFAULT_SPEED.get(game.name)
        if speed is not None:
            table_options[CONTROL] = control_for(speed)
        account_ids: list[int | None] = []
        open_seats = [n for n, wanted in enumerate(seats) if wanted.strip().lower() == OPEN]
        if open_seats:
            if not listed:
                raise ConfigError("a seat open to anyone needs a table listed in the lobby")
            table_options[OPEN] = list[JSONValue](open_seats)
        creator = secrets.token_urlsafe(24)
        creator_hash = token_hash(creator)
        invites: dict[int, str] = {}
        players: list[str] = []
        hashes: list[str | None] = []
        invite_hashes: list[str | None] = []
        for number, wanted in enumerate(seats):
            kind = wanted.strip().lower()
            if kind in (YOU, HOTSEAT, HUMAN):
                players.append(HUMAN)
                hashes.append(creator_hash)
                invite_hashes.append(None)
                account_ids.append(account)
            elif kind == OPEN:  # taken by whoever joins first (Hub.join)
                players.append(HUMAN)
                hashes.append(None)
                invite_hashes.append(None)
                account_ids.append(None)
            elif kind == FRIEND:
                invites[number] = secrets.token_urlsafe(18)
                players.append(HUMAN)
                hashes.append(None)
                invite_hashes.append(token_hash(invites[number]))
                account_ids.append(None)
            else:
                players.append(self.bot_text(game, wanted))
                hashes.append(None)
                invite_hashes.append(None)
                account_ids.append(None)
        return await self._open(
            game,
            config,
            players,
            hashes,
            invite_hashes,
            creator_hash,
            invites,
            token=creator,
            seed=seed,
            start_position=start_position,
            record=record,
            options=table_options,
            practice=practice,
            listed=listed,
            account_ids=account_ids,
        )

    async def _open(
        self,
        game: AnyGame,
        config: GameConfig,
        players: Sequence[str],
        hashes: list[str | None],
        invite_hashes: list[str | None],
        creator_hash: str | None,
        invites: dict[int, str],
        *,
        token: str,
        seed: int | None = None,
        start_position: str | None = None,
        record: GameRecord | None = None,
        options: Mapping[str, JSONValue] | None = None,
        practice: bool = False,
        listed: bool = False,
        account_ids: Sequence[int | None] = (),
    ) -> Created:
        """Open a table whose seats are already decided: each seat's player, the hash of the
        token that holds it (or of the invitation that opens it), the creator's hash."""
        chosen_seed = record.seed if record is not None else choose_seed(seed, game=game)
        # Undo only where every person's seat is the creator's (solo, against bots, or
        # hot-seat): it would take back another person's move otherwise. Where cards are
        # hidden, an undo shows what was drawn and lets the bots choose again, so only a table
        # opened for practice allows it there.
        people = [held for held, player in zip(hashes, players, strict=True) if player == HUMAN]
        solo = bool(people) and creator_hash is not None and set(people) == {creator_hash}
        allow_undo = solo and (practice or not game.has_hidden_information)
        rated = bool((options or {}).get(RATED))
        allow_undo = allow_undo and not rated  # a rated game: never
        table = new_table(
            game,
            config,
            seats_for(game, players),
            seed=chosen_seed,
            start_position=record.start_position if record is not None else start_position,
            allow_undo=allow_undo,
        )
        if record is not None:
            _replay(table, record.actions, record.ruling)
        chosen = seed is not None or start_position is not None or record is not None
        if chosen and not rated:
            try:
                copied = await asyncio.get_running_loop().run_in_executor(
                    None, _copies_running_rated, self.store, table
                )
            except Exception as error:
                raise storage_failure("the table could not be checked", error) from None
            if copied:
                raise ForbiddenError(
                    "this game is being played at a rated table: it can be loaded, "
                    "replayed and analysed once it is over"
                )
        table_options: JSONObject = dict(options or {})
        control = table_options.get(CONTROL)
        if isinstance(control, dict):  # the clocks start with the first move
            persons = [player == HUMAN for player in players]
            table_options[CLOCK] = new_clocks(control, persons).to_json()
        # A rated game is played unaided: no analysis (nor undo, above) at its table.
        table_options["analysis"] = bool(analyses_for(game)) and solo and not rated
        table_options["hotseat"] = creator_hash is not None and hashes.count(creator_hash) > 1
        table_options["chosen_deal"] = chosen
        table_options["practice"] = practice and game.has_hidden_information
        table_options["listed"] = listed
        table_options["fair"] = not chosen and not allow_undo
        table_id = table_id_for(self.server_name)
        TABLE.set(table_id)  # the rest of this request is about the new table (logs)
        log.debug("table opened: %s for %d seats", game.id, len(players))
        if self.owner is not None and not await self.owner.take(table_id, wait=0):
            raise ElsewhereError("the new table could not be owned; try again")
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
                    game.id,
                    table.config.to_json(),
                    table.record.seed,
                    table.record.start_position,
                    players,
                    hashes,
                    allow_undo=table.allow_undo,
                    options=stored_options(table, table_options),
                    actions_done=[(played.seat, played.text) for played in table.played],
                    version=table.version,
                    invite_hashes=invite_hashes,
                    creator_hash=creator_hash,
                    listed=listed,
                    outcome=table.outcome.to_json() if table.outcome is not None else None,
                    account_ids=account_ids,
                ),
            )
            await settled(stored)
        except asyncio.CancelledError:
            self.residency.disown_soon(table_id)  # not in memory: another process may take it
            raise
        except Exception as error:
            self.residency.disown_soon(table_id)
            raise storage_failure("the table could not be stored", error) from None
        live = LiveTable(
            table_id,
            table,
            hashes,
            table_options,
            invite_hashes,
            creator_hash=creator_hash,
            accounts=list(account_ids) or [None] * len(players),
        )
        self.live[table_id] = live
        start_bots(self, live)
        start_clock(self, live)
        return Created(table_id, token, invites)

    # --------------------------------------------------------------- rematch
    async def rematch(self, table_id: str, token: str | None) -> str:
        """The rematch of a finished table, opened once (a second request gets the same
        table): the same game and variant, a new deal drawn by the server, and everyone one
        seat on (the player of seat ``n`` sits at seat ``n + 1``, the last at seat 1).

        Each seat of the new table is held by the same token as the seat it comes from, so
        every player (and the hot-seat creator, whose one token holds several seats) finds
        their own seat there with the link they hold already, and nobody is sent anyone
        else's: a seat is taken only by the token that held it. Bots stay bots. A friend's
        seat nobody had claimed is a friend's seat again, for the creator to invite someone
        to (:meth:`reinvite`). Each seat keeps its account; the rematch of a rated table is
        rated when every person's seat was held by an account (as fair as the first: a new
        deal drawn by the server, no undo), its bots rated by their levels.

        Raises:
            NotFoundError: no such table.
            ForbiddenError: ``token`` holds no seat there and is not the creator's.
            ConfigError: the game is not over.
            StorageError: the store could not keep it (nothing changed).
        """
        async with self.holding(table_id) as live:
            if not live.seats_of(token) and not live.is_creator(token):
                raise ForbiddenError("only a player at this table may ask for a rematch")
            made = live.options.get(REMATCH)
            if isinstance(made, str):
                return made
            table = live.table
            if table.outcome is None:
                raise ConfigError("the game is not over: a rematch follows a finished game")
            count = len(table.seats)
            players: list[str] = [""] * count
            hashes: list[str | None] = [None] * count
            invite_hashes: list[str | None] = [None] * count
            accounts: list[int | None] = [None] * count
            invites: dict[int, str] = {}
            # issue 31: a rated table's rematch is rated when it is as fair: every person's
            # seat held by the account that held it (the deal is drawn again, never undo).
            rated = bool(live.options.get(RATED)) and all(
                account is not None
                for entry, account in zip(table.seats, live.accounts, strict=True)
                if entry.is_human
            )
            for old, entry in enumerate(table.seats):
                new = (old + 1) % count
                players[new] = entry.player
                accounts[new] = live.accounts[old]
                if not entry.is_human:
                    continue
                held = live.seat_hashes[old]
                if held is None:  # never claimed: a friend's seat again, with a new link
                    invites[new] = secrets.token_urlsafe(18)
                    invite_hashes[new] = token_hash(invites[new])
                hashes[new] = held
            kept = ("variant", "time_limit", CONTROL)
            options: JSONObject = {
                name: live.options[name] for name in kept if name in live.options
            }
            options[REMATCH_OF] = live.id
            if rated:
                levels = live.options.get(LEVELS)
                options[RATED] = True
                options[LEVELS] = {
                    str((int(seat) + 1) % count): level
                    for seat, level in (levels if isinstance(levels, dict) else {}).items()
                }
            created = await self._open(
                table.game,
                table.config,
                players,
                hashes,
                invite_hashes,
                live.creator_hash,
                invites,
                token="",
                options=options,
                practice=bool(live.options.get("practice")),
                listed=bool(live.options.get("listed")),
                account_ids=accounts,
            )
            live.options[REMATCH] = created.id
            try:
                self.store.set_options(live.id, stored_options(table, live.options))
            except Exception as error:
                live.options.pop(REMATCH, None)
                raise storage_failure("the rematch could not be stored", error) from None
        await self.broadcast(live)
        return created.id

    # ---------------------------------------------------------- invitations

    # -------------------------------------------------------------- loading

    # ---------------------------------------------------------------- acting
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
        async with self.holding(table_id) as live:
            table = live.table
            held = live.seats_of(token)
            if not held:
                raise ForbiddenError("this link holds no seat at this table")
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
                raise ForbiddenError(f"this link does not hold {name}'s seat")
            live.seen[acting] = time.monotonic()
            played = table.submit(acting, text, version)
            log.debug("seat %d played %s (action %d)", acting, played.text, played.number)
            await self.store_played(live, played)
            produced = table.version
        start_clock(self, live)
        await self.broadcast(live)
        start_bots(self, live)
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
        async with self.holding(table_id) as live:
            table = live.table
            if not live.seats_of(token):
                raise ForbiddenError("this link holds no seat at this table")
            if version is not None and version != table.version:
                raise StaleVersionError(
                    f"the game has moved on (you saw version {version}, it is now "
                    f"{table.version}); look again"
                )
            before = table.checkpoint()
            if not table.undo():
                return Undone(False, table.version)  # the bots (if any) play on
            options = with_aid(live.options, "undo")  # issue 31: kept with the undo itself
            try:
                self.store.truncate(
                    live.id,
                    len(table.played),
                    table.version,
                    options=stored_options(table, options),
                )
            except Exception as error:
                table.restore(before)  # the store keeps the moves, so the table does too
                raise storage_failure("the moves could not be taken back", error) from None
            live.options = options
            if live.bots is not None and not live.bots.done():
                live.bots.cancel()  # a human decides now; the bots' work is moot
            produced = table.version
        start_clock(self, live)
        await self.broadcast(live)
        start_bots(self, live)
        return Undone(True, produced)

    async def note_aid(self, table_id: str, aid: str) -> None:
        """Record that a player of the table used ``aid`` (an analysis's name) before it
        is answered: the table's options keep :data:`AIDS` (the daily deal's board reads it).

        Raises:
            NotFoundError: no such table.
            StorageError: the store could not keep it (nothing changed).
        """
        async with self.holding(table_id) as live:
            options = with_aid(live.options, aid)
            if options == live.options:
                return
            try:
                self.store.set_options(live.id, stored_options(live.table, options))
            except Exception as error:
                raise storage_failure("the table could not note the analysis", error) from None
            live.options = options

    # ---- what the bots' loop and the clocks' timers use (TableHost)
    async def broadcast(self, live: LiveTable) -> None:
        """Tell every watcher about the table as it is now (:func:`messages.broadcast`)."""
        await broadcast(live)

    async def time_out(self, live: LiveTable, version: int) -> None:
        """The running clock of ``live`` ran out (:meth:`Endings.time_out`)."""
        await self.endings.time_out(live, version)

    async def store_played(self, live: LiveTable, played: Played) -> None:
        """Store ``played`` (just submitted to ``live``): :meth:`Commits.store_played`."""
        await self.commits.store_played(live, played)

    async def flush(self, timeout: float = 10.0) -> None:
        """Wait (at most ``timeout`` seconds) for the actions being stored (the server
        stops)."""
        await self.commits.flush(timeout)

    # ------------------------------------- ownership (fanfold.server.ownership)

    # ------------------------------------------------------------- watching


def _replay(table: Table, texts: Sequence[str], ruling: JSONValue = None) -> None:
    """Play a record's ``texts`` at ``table``, then its table-level ``ruling`` if any."""
    for text in texts:
        decider = table.decider
        if decider is None:
            raise RecordError("the record goes on after the game ended")
        table.submit(decider, text)
    if ruling is not None:
        try:
            table.rule(Ruling.from_json(ruling), agreed=True)
        except RulingError as error:
            raise RecordError(f"the record's ruling does not stand: {error}") from None


def _copies_running_rated(store: Store, table: Table) -> bool:
    """Whether ``table`` (a table opened from a record or a chosen position, not stored yet)
    copies a rated game that is still being played: its actions are a prefix of that game's
    (at least one of them), from the same start, or its position is that game's position
    now. Such a table would let a rated player ask the analysis for the running game. In the
    store's thread: the running rated games are read from the store, so those of every
    process count."""
    record = table.record
    position = table.game.format_position(table.state)
    for running in store.running_rated(record.game):
        if running.config != record.config or not running.actions:
            continue
        texts = tuple(text for _, text in running.actions)
        same_deal = running.seed == record.seed or not table.game.has_hidden_information
        if (
            record.actions
            and same_deal
            and running.start_position == record.start_position
            and texts[: len(record.actions)] == record.actions
        ):
            return True
        now = GameRecord(
            running.game, running.config, running.seed, texts, running.start_position
        ).replay()
        if table.game.format_position(now) == position:
            return True
    return False


__all__ = [
    "AIDS",
    "EXPIRE_SECONDS",
    "FRIEND",
    "GONE_SECONDS",
    "HOTSEAT",
    "OPEN",
    "REMATCH",
    "REMATCH_OF",
    "YOU",
    "Created",
    "CrowdedError",
    "ForbiddenError",
    "Hub",
    "InvitationError",
    "LiveTable",
    "NotFoundError",
    "Send",
    "StorageError",
    "Watcher",
    "game_catalogue",
    "message_for",
    "storage_failure",
]
