"""The live tables of a server: each a :class:`~fanfold.play.table.Table` with its seats'
tokens, its watchers and its bots, kept in step with the store.

The hub is authoritative. A submission names the table, a seat token and the version it acts
on; the hub finds the seats that token holds, lets the :class:`Table` check turn, version,
notation and legality, commits the action to the store and only then answers and tells every
watcher (each gets its own view and the announcements it may hear). Bots choose in worker
threads, off the event loop, with a time cap, so a slow bot never stalls another table.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from fanfold.agents.base import AgentSpec, parse_agent, registered_agents
from fanfold.agents.levels import LEVELS, level_agent
from fanfold.core.config import GameConfig, JSONObject, JSONValue
from fanfold.core.errors import ConfigError, FanfoldError, RecordError, StaleVersionError
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame, all_games, get_game
from fanfold.play.analysis import analyses_for
from fanfold.play.setup import choose_seed, make_seats, new_table
from fanfold.play.table import ENDLESS, HUMAN, Played, Table
from fanfold.server.outbox import Outbox
from fanfold.server.store import AppendRow, Store, StoredTable, token_hash

#: A seat the creator plays.
YOU = "you"
#: A seat the creator hands to someone at the same screen (the creator's token holds it).
HOTSEAT = "hotseat"
#: A seat for a friend, who joins with its own link.
FRIEND = "friend"

Send = Callable[[JSONObject], Awaitable[None]]


log = logging.getLogger(__name__)


class NotFoundError(FanfoldError, KeyError):
    """No table by that id."""


class ForbiddenError(FanfoldError, PermissionError):
    """A token that holds no seat the request needs."""


class StorageError(FanfoldError, RuntimeError):
    """The store refused a write; nothing was changed."""


class CrowdedError(FanfoldError, RuntimeError):
    """The table has as many spectators as it takes."""


@dataclass(eq=False)
class Watcher:
    """A connection that hears about a table: as a seat (a token holding it) or a spectator."""

    seat: int | None
    seats: frozenset[int]
    send: Send
    #: The token the connection said hello with (kept in memory, never sent back).
    token: str | None = field(default=None, repr=False)
    #: Where the connection's messages queue, serialised, for its own writer (a socket);
    #: without one, ``send`` is awaited for each message.
    outbox: Outbox | None = field(default=None, repr=False)

    @property
    def spectating(self) -> bool:
        """A connection that holds no seat here."""
        return not self.seats


@dataclass(eq=False)
class LiveTable:
    """A table in memory with what the server adds around it."""

    id: str
    table: Table
    seat_hashes: list[str | None]
    options: JSONObject
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    bots: asyncio.Task[None] | None = None
    #: Seats whose next decision a bot is computing (shown to players as "thinking").
    thinking: int | None = None
    #: The time limit's timer for the decision now (tables with ``time_limit``).
    clock: asyncio.Task[None] | None = None
    #: When the decision now runs out of time (``time.monotonic()``), and the version it is for.
    deadline: tuple[int, float] | None = None
    #: When the table was last asked for (``time.monotonic()``).
    touched: float = field(default_factory=time.monotonic)
    #: True once the hub has let the table go from memory: whoever still holds this object
    #: asks the hub again (the table is rebuilt from the store).
    evicted: bool = False

    def is_idle(self) -> bool:
        """Nobody watches, no bot thinks or plays on, no timer runs and nothing holds the
        lock: the table may leave memory, nothing of it lost (every action is stored)."""
        return (
            not self.watchers
            and self.thinking is None
            and (self.bots is None or self.bots.done())
            and (self.clock is None or self.clock.done())
            and not self.lock.locked()
        )

    @property
    def time_limit(self) -> float:
        """Seconds a person has for each decision (0: no limit)."""
        limit = self.options.get("time_limit")
        return float(limit) if isinstance(limit, int | float) else 0.0

    def seats_of(self, token: str | None) -> frozenset[int]:
        """The seats ``token`` holds here (none for a missing or forged token)."""
        if not token:
            return frozenset()
        hashed = token_hash(token)
        return frozenset(n for n, held in enumerate(self.seat_hashes) if held == hashed)


@dataclass(frozen=True)
class Created:
    """A new table: its id, the creator's token and a token per friend's seat."""

    id: str
    token: str
    friends: dict[int, str]


def _new_id() -> str:
    return secrets.token_urlsafe(9)


class Hub:
    """Every live table of one server.

    Args:
        store: where tables live between actions and across restarts.
        bot_seconds: the time cap per decision given to bots that take one (``None``: their
            iteration budgets alone).
        bot_pause: seconds to wait after each bot action so that people can follow the play.
        executor: where bots think (a thread pool by default).
        keep_seconds: how long a table nobody watches and nothing plays on stays in memory
            after it was last asked for (:meth:`evict_idle`); it is rebuilt from the store
            when asked for again.
        keep_finished_seconds: the same for a finished game, which nothing will change: a
            server finishes many games, and every object kept in memory lengthens the
            garbage collector's pauses, which every table waits for.
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
    ) -> None:
        self.store = store
        self.keep_seconds = keep_seconds
        self.keep_finished_seconds = keep_finished_seconds
        self.bot_seconds = bot_seconds
        self.bot_pause = bot_pause
        self.executor = executor or ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot")
        self.live: dict[str, LiveTable] = {}
        self._pending: list[tuple[AppendRow, asyncio.Future[None]]] = []
        self._loading = asyncio.Lock()

    # ------------------------------------------------------------- creating
    def bot_text(self, game: AnyGame, text: str) -> str:
        """The canonical agent text a bot seat plays with: ``text`` with the server's time cap
        added when the agent takes one and the text does not set it.

        Raises:
            FanfoldError: not an agent, or one that does not play ``game``.
        """
        spec = parse_agent(text)
        spec.create(game)  # raises the clear error for an agent that does not play the game
        if (
            self.bot_seconds is not None
            and "seconds" in spec.config.option_texts()
            and getattr(spec.config, "seconds", None) is None
        ):
            config = spec.config.with_options({"seconds": f"{self.bot_seconds:g}"})
            spec = AgentSpec(spec.name, config)
        return str(spec)

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
    ) -> Created:
        """Open a table. ``seats`` has one entry per seat: ``"you"``, ``"hotseat"``,
        ``"friend"`` or an agent text (``"mcts"``, ``"random"``...). With ``record``, the
        table starts as the record left the game (its actions replayed).

        Raises:
            ConfigError, FanfoldError: a wrong seat count, an unknown agent, a bad position or
                a record that does not replay.
        """
        count = game.num_players(config)
        if len(seats) != count:
            raise ConfigError(f"{game.title} with this variant has {count} seats, not {len(seats)}")
        creator = secrets.token_urlsafe(24)
        friends: dict[int, str] = {}
        players: list[str] = []
        hashes: list[str | None] = []
        for number, wanted in enumerate(seats):
            kind = wanted.strip().lower()
            if kind in (YOU, HOTSEAT, HUMAN):
                players.append(HUMAN)
                hashes.append(token_hash(creator))
            elif kind == FRIEND:
                friends[number] = secrets.token_urlsafe(24)
                players.append(HUMAN)
                hashes.append(token_hash(friends[number]))
            else:
                players.append(self.bot_text(game, wanted))
                hashes.append(None)
        chosen_seed = record.seed if record is not None else choose_seed(seed)
        table = new_table(
            game,
            config,
            make_seats(game, players, chosen_seed),
            seed=chosen_seed,
            start_position=record.start_position if record is not None else start_position,
            allow_undo=self._undo_allowed(hashes),
        )
        if record is not None:
            _replay(table, record.actions)
        table_options: JSONObject = dict(options or {})
        humans = {hashed for hashed in hashes if hashed is not None}
        table_options["analysis"] = bool(analyses_for(game)) and len(humans) <= 1
        table_options["hotseat"] = sum(1 for h in hashes if h == token_hash(creator)) > 1
        table_id = _new_id()
        self.store.create(
            table_id,
            game.id,
            table.config.to_json(),
            table.record.seed,
            table.record.start_position,
            players,
            hashes,
            allow_undo=table.allow_undo,
            options=table_options,
            actions_done=[(played.seat, played.text) for played in table.played],
            version=table.version,
        )
        live = LiveTable(table_id, table, hashes, table_options)
        self.live[table_id] = live
        self._start_bots(live)
        self._start_clock(live)
        return Created(table_id, creator, friends)

    @staticmethod
    def _undo_allowed(hashes: Sequence[str | None]) -> bool:
        """Undo only where every human seat belongs to one person (solo, against bots, or
        hot-seat): it would take back another person's move otherwise."""
        humans = {hashed for hashed in hashes if hashed is not None}
        return len(humans) == 1

    # -------------------------------------------------------------- loading
    async def get(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, rebuilt from the store if it is not in memory.

        Raises:
            NotFoundError: no such table.
        """
        live = self.live.get(table_id)
        if live is not None:
            live.touched = time.monotonic()
            return live
        async with self._loading:
            live = self.live.get(table_id)
            if live is not None:
                live.touched = time.monotonic()
                return live
            stored = await asyncio.to_thread(self.store.load, table_id)
            if stored is None:
                raise NotFoundError(f"there is no table {table_id!r}")
            live = _rebuild(stored)
            self.live[table_id] = live
        self._start_bots(live)
        self._start_clock(live)
        return live

    @asynccontextmanager
    async def holding(self, table_id: str) -> AsyncIterator[LiveTable]:
        """The live table ``table_id`` with its lock held: the one in memory now (asked for
        again when the one first found was let go from memory while this waited).

        Raises:
            NotFoundError: no such table.
        """
        while True:
            live = await self.get(table_id)
            async with live.lock:
                if live.evicted:
                    continue
                yield live
                return

    def evict_idle(self, now: float | None = None) -> int:
        """Let go from memory every idle table (:meth:`LiveTable.is_idle`) not asked for in
        the last ``keep_seconds`` (``keep_finished_seconds`` for a finished game); returns how
        many. Finished games and games their players left stay in the store, and come back
        when asked for."""
        now = time.monotonic() if now is None else now
        gone = [
            table_id
            for table_id, live in self.live.items()
            if now - live.touched
            >= (self.keep_seconds if live.table.outcome is None else self.keep_finished_seconds)
            and live.is_idle()
        ]
        for table_id in gone:
            self.live.pop(table_id).evicted = True
        return len(gone)

    async def resume_all(self) -> int:
        """Load every unfinished table (at start-up) so that bots go on playing; returns how
        many were loaded."""
        ids = await asyncio.to_thread(self.store.unfinished)
        for table_id in ids:
            await self.get(table_id)
        return len(ids)

    # ---------------------------------------------------------------- acting
    async def act(
        self, table_id: str, token: str | None, version: int | None, text: str, seat: int | None
    ) -> Played:
        """Apply ``text`` for the deciding seat, if ``token`` holds it.

        Args:
            seat: the seat the submitter acts for (``None``: the decider, when the token holds
                it; hot-seat players hold several seats).

        Raises:
            ForbiddenError: the token holds no seat here, or not ``seat``.
            StaleVersionError, TurnError, NotationError, IllegalActionError: from the table.
            StorageError: the store could not keep the action (nothing changed).
        """
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
            played = table.submit(acting, text, version)
            await self._store_played(live, played)
        self._start_clock(live)
        await self.broadcast(live)
        self._start_bots(live)
        return played

    async def undo(self, table_id: str, token: str | None, version: int | None) -> bool:
        """Take moves back to the holder's last decision (see :meth:`Table.undo`).

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
                return False  # the bots (if any) play on: nothing was taken back
            try:
                self.store.truncate(live.id, len(table.played), table.version)
            except Exception as error:
                table.restore(before)  # the store keeps the moves, so the table does too
                raise StorageError(
                    f"the moves could not be taken back ({error}); try again"
                ) from None
            if live.bots is not None and not live.bots.done():
                live.bots.cancel()  # a human decides now; the bots' work is moot
        self._start_clock(live)
        await self.broadcast(live)
        self._start_bots(live)
        return True

    async def _store_played(self, live: LiveTable, played: Played) -> None:
        table = live.table
        outcome = table.outcome
        row = AppendRow(
            live.id,
            played.number,
            played.seat,
            played.text,
            table.version,
            outcome.to_json() if outcome is not None else None,
        )
        try:
            await self._commit(row)
        except Exception as error:
            table.take_back()
            raise StorageError(f"the move could not be stored ({error}); try again") from None

    async def _commit(self, row: AppendRow) -> None:
        """Store ``row``; returns once it is committed. Rows from every table that arrive in
        the same turn of the event loop are committed together in one transaction (a group
        commit), on the loop itself: a commit takes about a millisecond, less than handing
        the work to a thread and back."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((row, future))
        if len(self._pending) == 1:
            asyncio.get_running_loop().call_soon(self._flush)
        await future

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        try:
            self.store.append_many([row for row, _ in batch])
        except Exception as error:
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        for _, future in batch:
            if not future.done():
                future.set_result(None)

    # ------------------------------------------------------------------ bots
    def _start_bots(self, live: LiveTable) -> None:
        if live.table.agent_to_move() is None:
            return
        if live.bots is None or live.bots.done():
            live.bots = asyncio.get_running_loop().create_task(self._run_bots(live))

    async def _run_bots(self, live: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        table = live.table
        while True:
            async with live.lock:
                seat = table.agent_to_move()
                agent = table.seats[seat].agent if seat is not None else None
                if seat is None or agent is None:
                    return  # a human decides, or the game is over
                if len(table.played) >= ENDLESS:
                    log.warning("table %s: the bots stop after %d actions", live.id, ENDLESS)
                    return  # play went round in circles (see ENDLESS): nothing more is stored
                # The view and the legal actions now, so that the bot thinks off the loop
                # without the lock; its choice is applied only on the version it was asked on.
                view, legal, version = table.view(seat), table.legal_actions(), table.version
                live.thinking = seat
            try:
                action = await loop.run_in_executor(self.executor, agent.choose, view, legal)
            finally:
                live.thinking = None
            async with live.lock:
                if table.version != version:
                    continue  # an undo came in while the bot thought
                played = table.submit_action(seat, action, version)
                try:
                    await self._store_played(live, played)
                except StorageError:
                    stored = False
                else:
                    stored = True
            if not stored:  # taken back: the bot decides again once the store recovers
                await asyncio.sleep(1.0)
                continue
            self._start_clock(live)
            await self.broadcast(live)
            if self.bot_pause:
                await asyncio.sleep(self.bot_pause)

    # ------------------------------------------------------------ time limit
    def _start_clock(self, live: LiveTable) -> None:
        """Start the timer of the decision now when a person decides at a table with a time
        limit; a timer left from an earlier decision stops (it would find the version moved
        on anyway)."""
        limit = live.time_limit
        table = live.table
        if not limit:
            return
        if live.deadline is not None and live.deadline[0] == table.version:
            return  # this decision's timer runs already
        if live.clock is not None and not live.clock.done():
            live.clock.cancel()
        live.clock, live.deadline = None, None
        if table.decider is None or table.agent_to_move() is not None:
            return  # the game is over, or a bot decides
        version = table.version
        live.deadline = (version, time.monotonic() + limit)
        live.clock = asyncio.get_running_loop().create_task(self._run_clock(live, version, limit))

    async def _run_clock(self, live: LiveTable, version: int, limit: float) -> None:
        """When the time runs out, play the game's passive choice for the decider (``allow``,
        ``keep``, ``shuffle``, ``pass`` in Fano), through the same checks as any action."""
        await asyncio.sleep(limit)
        async with live.lock:
            table = live.table
            seat = table.decider
            if table.version != version or seat is None:
                return  # decided in time (or undone): nothing to do
            action = table.game.passive_action(table.state)
            if action is None:
                return
            played = table.submit_action(seat, action, version)
            try:
                await self._store_played(live, played)
            except StorageError:
                live.deadline = None  # taken back: the decision gets a new timer
            live.clock = None  # this timer is done: the next decision gets its own
        self._start_clock(live)
        await self.broadcast(live)
        self._start_bots(live)

    async def idle(self, table_id: str, timeout: float = 60.0) -> None:
        """Wait until the table's bots have nothing left to do (tests, scripts)."""
        live = await self.get(table_id)
        deadline = time.monotonic() + timeout
        while live.bots is not None and not live.bots.done():
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bots of table {table_id} are still playing")
            await asyncio.wait({live.bots}, timeout=deadline - time.monotonic())
        if live.bots is not None and not live.bots.cancelled() and live.bots.exception():
            raise RuntimeError("a bot failed") from live.bots.exception()

    # ------------------------------------------------------------- watching
    async def watch(
        self, live: LiveTable, watcher: Watcher, *, spectators: int | None = None
    ) -> LiveTable:
        """Add a watcher and send it the table as it is now; returns the live table it watches
        (``live``, or the table in memory now if ``live`` was let go meanwhile).

        Raises:
            CrowdedError: ``watcher`` holds no seat and the table has ``spectators`` already.
        """
        async with self.holding(live.id) as held:  # never an action still being stored
            if spectators is not None and watcher.spectating:
                watching = sum(1 for other in held.watchers if other.spectating)
                if watching >= spectators:
                    raise CrowdedError(
                        f"this table has as many spectators as it takes ({spectators}); "
                        "try again later"
                    )
            message = message_for(held, watcher.seat, watcher.seats)
            held.watchers.add(watcher)
        if watcher.outbox is not None:  # queued before any later broadcast can queue
            if not watcher.outbox.post(json.dumps(message)):
                held.watchers.discard(watcher)
        else:
            await watcher.send(message)
        return held

    async def broadcast(self, live: LiveTable) -> None:
        """Tell every watcher about the table as it is now: each seat its own view, every
        spectator the same public message, built and serialised once.

        A connection's message is queued (:class:`~fanfold.server.outbox.Outbox`), never
        awaited: nobody waits while the table's other connections are written to, and a
        connection whose queue is full is dropped.
        """
        async with live.lock:  # every message first: while one is sent, another action may
            # be submitted and wait for its commit, and no watcher may hear of it before that
            watchers = sorted(live.watchers, key=lambda watcher: watcher.spectating)
            built: dict[tuple[int | None, frozenset[int]], JSONObject] = {}
            for watcher in watchers:
                key = (watcher.seat, watcher.seats)
                if key not in built:
                    built[key] = message_for(live, watcher.seat, watcher.seats)
        # Serialised and queued outside the lock, but with no await before every queue has
        # its message: a later broadcast cannot queue its version ahead of this one.
        texts: dict[tuple[int | None, frozenset[int]], str] = {}
        awaited: list[tuple[Watcher, JSONObject]] = []
        for watcher in watchers:  # seats first: the player who acted hears first
            key = (watcher.seat, watcher.seats)
            if watcher.outbox is None:
                awaited.append((watcher, built[key]))
                continue
            text = texts.get(key)
            if text is None:
                text = texts[key] = json.dumps(built[key])
            if not watcher.outbox.post(text):
                live.watchers.discard(watcher)
        for watcher, message in awaited:
            try:
                await watcher.send(message)
            except Exception:
                live.watchers.discard(watcher)


def _replay(table: Table, texts: Sequence[str]) -> None:
    for text in texts:
        decider = table.decider
        if decider is None:
            raise RecordError("the record goes on after the game ended")
        table.submit(decider, text)


def _rebuild(stored: StoredTable) -> LiveTable:
    game = get_game(stored.game)
    config = game.config_from_json(stored.config)
    players = [seat.player for seat in stored.seats]
    table = new_table(
        game,
        config,
        make_seats(game, players, stored.seed),
        seed=stored.seed,
        start_position=stored.start_position,
        allow_undo=stored.allow_undo,
    )
    for seat, text in stored.actions:
        table.submit(seat, text)
    table.version = stored.version
    return LiveTable(
        stored.id, table, [seat.token_hash for seat in stored.seats], dict(stored.options)
    )


# ------------------------------------------------------------------ messages


def message_for(live: LiveTable, seat: int | None, held: frozenset[int]) -> JSONObject:
    """What one watcher is told about a table: the view of ``seat`` (``None``: a spectator's
    public view), the legal moves when that seat decides, and the announcements it may hear.

    Nothing here comes from the full state except through the game's views and public
    announcements, so no hidden card reaches a watcher who may not see it.
    """
    table = live.table
    game = table.game
    view: JSONValue
    if seat is None:
        view = game.public_view(table.state)
        text = ""
    else:
        seat_view = table.view(seat)
        view = seat_view.to_json()
        text = game.render(seat_view)
    decider = table.decider
    deciding = seat is not None and decider == seat
    outcome = table.outcome
    analyses = analyses_for(game) if live.options.get("analysis") else {}
    seats: list[JSONValue] = [
        {
            "seat": number,
            "name": table.seat_name(number),
            "player": entry.player,
            "bot": not entry.is_human,
            "yours": number in held,
        }
        for number, entry in enumerate(table.seats)
    ]
    log: list[JSONValue] = [
        {"number": played.number, "seat": played.seat, "text": told}
        for played in table.played
        if (told := table.announcement(played, seat))  # an action it is not told of: no entry
    ]
    return {
        "type": "state",
        "table": live.id,
        "version": table.version,
        "game": {"name": game.name, "id": game.id, "title": game.title},
        "config": table.config.to_json(),
        "options": live.options,
        "seats": seats,
        "seat": seat,
        "yours": list[JSONValue](sorted(held)),
        "decider": decider,
        "thinking": live.thinking,
        "view": view,
        "text": text,
        "legal": list[JSONValue](table.legal_texts() if deciding else []),
        "log": log,
        "outcome": outcome.to_json() if outcome is not None else None,
        "can_undo": table.allow_undo and bool(held) and bool(table.played),
        "analyses": [{"name": a.name, "help": a.help} for a in analyses.values()],
        "clock": _clock(live),
        "hidden_information": game.has_hidden_information,
    }


def _clock(live: LiveTable) -> JSONValue:
    """The time limit of the decision now: ``{"limit": seconds, "left": seconds}``, or None
    (no limit, or a bot decides)."""
    deadline = live.deadline
    if deadline is None or deadline[0] != live.table.version:
        return None
    left = max(0.0, deadline[1] - time.monotonic())
    return {"limit": live.time_limit, "left": round(left, 1)}


def game_catalogue() -> list[JSONValue]:
    """Every game with its presets (and their player counts) and the bots that play it."""
    games: list[JSONValue] = []
    for game in all_games():
        presets: list[JSONValue] = []
        for preset in game.presets():
            counts = list(preset.player_counts) or [game.num_players(preset.config)]
            presets.append(
                {
                    "name": preset.name,
                    "description": preset.description,
                    "players": list[JSONValue](counts),
                    "default_players": game.num_players(preset.config),
                }
            )
        bots: list[JSONValue] = [
            {
                "name": entry.name,
                "description": entry.description,
                "strength": entry.strength,
                "level": entry.name in LEVELS,
                "agent": level_agent(game, entry.name) if entry.name in LEVELS else entry.name,
            }
            for entry in sorted(registered_agents(game), key=lambda e: e.strength)
        ]
        games.append(
            {
                "name": game.name,
                "id": game.id,
                "title": game.title,
                "summary": game.summary,
                "hidden_information": game.has_hidden_information,
                "time_limit": game.has_passive_action,
                "presets": presets,
                "bots": bots,
                "analyses": list[JSONValue](sorted(analyses_for(game))),
            }
        )
    return games


__all__ = [
    "FRIEND",
    "HOTSEAT",
    "YOU",
    "Created",
    "CrowdedError",
    "ForbiddenError",
    "Hub",
    "LiveTable",
    "NotFoundError",
    "StorageError",
    "Watcher",
    "game_catalogue",
    "message_for",
]
