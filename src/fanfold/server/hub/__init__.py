"""The live tables of a server: each a :class:`~fanfold.play.table.Table` with its seats'
tokens, its watchers and its bots, kept in step with the store.

The hub is authoritative. A submission names the table, a seat token and the version it acts
on; the hub finds the seats that token holds, lets the :class:`Table` check turn, version,
notation and legality, commits the action to the store and only then answers and tells every
watcher (each gets its own view and the announcements it may hear). Bots choose in a pool of
workers shared fairly by the tables (:mod:`fanfold.server.bots`), off the event loop, within
the server's budget (:mod:`fanfold.server.budget`), so a slow bot never stalls another table.

:class:`Hub` puts together one small class a job, each handed only what it uses:

* :mod:`~fanfold.server.hub.opening` opens tables (:mod:`~fanfold.server.hub.records`: one
  from a record, and the check that it copies no running rated game), and
  :mod:`~fanfold.server.hub.rematch` a finished table's rematch;
* :mod:`~fanfold.server.hub.seating` seats people and bots, and adds and drops watchers;
* :mod:`~fanfold.server.hub.residency` keeps tables in memory, loads, evicts and expires
  them, and hands them over between processes;
* :mod:`~fanfold.server.hub.moves` takes a person's moves and undoes them;
* :mod:`~fanfold.server.hub.commits` stores every action (a group commit off the event loop),
  and :mod:`~fanfold.server.hub.outage` keeps the time the store refused writes;
* :mod:`~fanfold.server.hub.endings` ends games before their last move (resign, abort, claim,
  draw offers, a clock run out, a person leaving);
* :mod:`~fanfold.server.hub.turns` plays on without a person (the bots' loop, the clocks'
  timers), seeing the hub only as a :class:`~fanfold.server.hub.host.TableHost`;
* :mod:`~fanfold.server.hub.messages` tells the watchers.

No module of the package imports this one; what they share is in
:mod:`~fanfold.server.hub.basics`.
"""

from __future__ import annotations

from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Generic

from typing_extensions import TypeVar

from fanfold.core.registry import AnyGame
from fanfold.play.table import Played
from fanfold.server.bots import BotPool
from fanfold.server.budget import BotBudget
from fanfold.server.hub.basics import AIDS, EXPIRE_SECONDS, FRIEND, HOTSEAT, OPEN, YOU, bot_text
from fanfold.server.hub.commits import Commits
from fanfold.server.hub.draining import Draining
from fanfold.server.hub.endings import Endings
from fanfold.server.hub.messages import broadcast
from fanfold.server.hub.moves import Moves
from fanfold.server.hub.opening import Opening
from fanfold.server.hub.outage import Outage
from fanfold.server.hub.rematch import Rematch
from fanfold.server.hub.residency import Residency
from fanfold.server.hub.seating import Seating
from fanfold.server.hub.takebacks import Takebacks
from fanfold.server.live import (
    GONE_SECONDS,
    REMATCH,
    REMATCH_OF,
    Created,
    CrowdedError,
    ForbiddenError,
    InvitationError,
    LiveTable,
    NotFoundError,
    Send,
    StorageError,
    Watcher,
    storage_failure,
)
from fanfold.server.metrics import Metrics
from fanfold.server.ownership import Ownership
from fanfold.server.protocol import game_catalogue, message_for
from fanfold.server.store import Store
from fanfold.server.store.appender import Appender
from fanfold.server.store.protocols import TableStore

#: The store a hub keeps its tables in: the SQL :class:`Store` unless said otherwise (an
#: in-memory one, :class:`~fanfold.server.store.memory.MemoryTables`, for one process).
S = TypeVar("S", bound=TableStore, default=Store)


class Hub(Generic[S]):
    """Every live table of one server.

    Args:
        store: where tables live between actions and across restarts (any
            :class:`~fanfold.server.store.protocols.TableStore`: SQL, or in memory for one
            process).
        bot_seconds: the time cap per decision given to bots that take one (``None``: their
            iteration budgets alone).
        bot_pause: seconds to wait after each bot action so that people can follow the play.
        executor: where analyses run (a thread pool by default).
        pool: where bots think (:class:`~fanfold.server.bots.BotPool`; by default four
            worker threads).
        keep_seconds: how long a table nobody watches and nothing plays on stays in memory
            after it was last asked for (:meth:`Residency.evict_idle`); it is rebuilt from
            the store when asked for again.
        keep_finished_seconds: the same for a finished game, which nothing will change: a
            server finishes many games, and every object kept in memory lengthens the
            garbage collector's pauses, which every table waits for.
        expire_seconds: an unfinished table with no action for this long is abandoned and
            deleted from the store (:meth:`Residency.expire_abandoned`); ``None``: never.
        owner: the tables this process owns, when several processes serve one PostgreSQL
            store (:mod:`fanfold.server.ownership`); ``None``: this process is the only one.
        metrics: what the process counts and times (:mod:`fanfold.server.metrics`).
        server_name: this process's name in the router's configuration, which ends the id
            of every table it opens so that the router sends the table to it
            (:func:`~fanfold.server.ownership.table_id_for`); ``None``: ids without one.
        appender: stores most group commits from the event loop, on PostgreSQL
            (:mod:`fanfold.server.store.appender`).

    Each of its methods is one of its jobs' (see the package's documentation): the hub is a
    :class:`~fanfold.server.hub.host.TableHost` for the bots' loop and the clocks' timers.
    """

    def __init__(
        self,
        store: S,
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
        self.owner = owner
        self.metrics = metrics or Metrics()
        self.bot_seconds = bot_seconds
        self.budget = BotBudget(seconds=bot_seconds)
        self.bot_pause = bot_pause
        self.executor = executor or ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot")
        self.pool = pool or BotPool()

        # ---- the tables in memory, their loading, eviction, expiry and hand-over
        self.residency = Residency(
            store,
            budget=self.budget,
            owner=owner,
            host=self,
            keep_seconds=keep_seconds,
            keep_finished_seconds=keep_finished_seconds,
            expire_seconds=expire_seconds,
            server_name=server_name,
        )
        #: Every table in memory, by id.
        self.live = self.residency.live
        self.get = self.residency.get
        self.holding = self.residency.holding
        self.idle = self.residency.idle
        self.evict_idle = self.residency.evict_idle
        self.evict_idle_in_turns = self.residency.evict_idle_in_turns
        self.resume_all = self.residency.resume_all
        self.take_orphans = self.residency.take_orphans
        self.expire_abandoned = self.residency.expire_abandoned
        self.let_go = self.residency.let_go
        self.hand_over = self.residency.hand_over
        self.drop_all = self.residency.drop_all
        #: Hands the tables to the other processes when this one stops, and takes theirs.
        self.draining = Draining(self.residency, owner)
        self.drain = self.draining.drain
        if owner is not None:
            owner.hand_over = self.hand_over
            owner.lost = self.drop_all
            owner.stopped = self.draining.take
            owner.restarting = self.draining.notice

        # ---- the store's writes of actions, and the time it refused them
        #: When the store refused writes, which the clocks are not charged.
        self.outage = Outage(self.live, self)
        self.commits = Commits(
            store,
            appender=appender,
            metrics=self.metrics,
            outage=self.outage,
            let_go=self.let_go,
        )
        #: The thread of the store's writes of actions.
        self.writer = self.commits.writer
        self.flush = self.commits.flush

        # ---- opening tables
        self.opening = Opening(
            store,
            residency=self.residency,
            budget=self.budget,
            owner=owner,
            server_name=server_name,
            host=self,
        )
        self.create = self.opening.create
        self.rematches = Rematch(store, residency=self.residency, opening=self.opening, host=self)
        self.rematch = self.rematches.rematch

        # ---- seats and watchers
        self.seating = Seating(store, residency=self.residency, budget=self.budget, host=self)
        self.invitation = self.seating.invitation
        self.claim = self.seating.claim
        self.join = self.seating.join
        self.seat_bot = self.seating.seat_bot
        self.reinvite = self.seating.reinvite
        self.watch = self.seating.watch
        self.unwatch = self.seating.unwatch
        self.tell_left = self.seating.tell_left

        # ---- moves, and the endings before the last one
        self.moves = Moves(store, residency=self.residency, metrics=self.metrics, host=self)
        self.act = self.moves.act
        self.undo = self.moves.undo
        self.note_aid = self.moves.note_aid
        self.endings = Endings(
            store, residency=self.residency, budget=self.budget, outage=self.outage, host=self
        )
        self.end = self.endings.end
        self.takebacks = Takebacks(store, residency=self.residency, host=self)
        self.takeback = self.takebacks.answer

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

    def bot_text(self, game: AnyGame, text: str) -> str:
        """The canonical agent text a bot seat plays with: ``text`` within the server's
        limits (:func:`~fanfold.server.hub.basics.bot_text`)."""
        return bot_text(self.budget, game, text)

    # ---- what the bots' loop and the clocks' timers use of the hub (TableHost)
    async def store_played(self, live: LiveTable, played: Played) -> None:
        """Store ``played`` (just submitted to ``live``), or take it back from the table and
        raise :class:`StorageError` when the store fails (:meth:`Commits.store_played`)."""
        await self.commits.store_played(live, played)

    async def broadcast(self, live: LiveTable) -> None:
        """Tell every watcher about the table as it is now
        (:func:`~fanfold.server.hub.messages.broadcast`)."""
        await broadcast(live)

    async def time_out(self, live: LiveTable, version: int) -> None:
        """The running clock of ``live`` ran out at version ``version``
        (:meth:`Endings.time_out`)."""
        await self.endings.time_out(live, version)


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
