"""Where the server's bots think: a pool of workers shared fairly by every table.

``fanfold serve`` runs the pool in worker processes (``processes=True``), each a process of its
own at a lower CPU priority than the server (:data:`NICENESS`): a search holds its own
process's interpreter lock, never the server's, so people's actions are answered while every
worker thinks. Tests may use threads (the same code, without the processes' start-up).

Each decision travels as a :class:`Decision`: the table, the seat, the game, the agent text
(already within the server's budget, :mod:`fanfold.server.budget`), a seed drawn from the
table's own bot stream, the seat's view and the legal actions; nothing more of the game. A
worker keeps the agents it made (by table, seat and text, :data:`CACHE`) so that an agent that
is costly to make or that follows a plan (the Fan solver) is made once, and reseeds it for
each decision; the pool sends a table's decisions to the worker that had its last one when
that worker is free.

Fairness: each table has one decision at a time (the hub plays its bots in turn), and when
more decisions wait than there are free workers the pool starts the decision of the client
that has used the least thinking time (start-time fair queuing: a client's tag grows by the
seconds its decisions took), so a client whose bots think at the server's cap waits behind
clients whose bots answer at once, never the other way round. A client is whoever opened the
tables (an account, or one address: :attr:`Decision`'s caller names it); one with thirty
tables counts once, and holds at most :attr:`BotPool.client_share` workers at once, so its
tables cannot fill the pool while another client's table waits (at every process on one
PostgreSQL store together: :attr:`BotPool.shared`, :mod:`fanfold.server.bot_shares`).
Decisions also come in :class:`Priority` classes: a waiting live decision (a game being
played) always starts before a review's, and a review's before background work.
"""

from __future__ import annotations

import asyncio
import copyreg
import dataclasses
import enum
import heapq
import io
import itertools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from typing import Any, ParamSpec, TypeVar

from fanfold.agents.base import AnyAgent, parse_agent
from fanfold.agents.levels import fallback_agent
from fanfold.agents.strategy import compiled, has_compiled_code
from fanfold.core.registry import get_game
from fanfold.server.bot_shares import SharedShares
from fanfold.server.logs import about, configure_from_environment

log = logging.getLogger(__name__)

#: How much lower the worker processes' CPU priority is than the server's (``os.nice``).
NICENESS = 10
#: Agents a worker keeps (the most recently used).
CACHE = 64


class Priority(enum.IntEnum):
    """Which waiting decisions start first: lower first, whatever their clients' tags."""

    #: A bot's move in a game being played.
    LIVE = 0
    #: An engine review of a finished game.
    REVIEW = 1
    #: Work nobody waits for (measurements, warming a cache).
    BACKGROUND = 2


@dataclass(frozen=True)
class Decision:
    """One bot decision: what a worker needs and nothing more.

    Attributes:
        table: the table's id (with ``seat``, which agent of the worker's cache decides).
        seat: the deciding seat.
        game: the game's id.
        agent: the agent text the seat plays with.
        seed: seeds the agent's generator for this decision (from the table's bot stream).
        view: the seat's view.
        legal: the legal actions.
    """

    table: str
    seat: int
    game: str
    agent: str
    seed: int
    view: Any
    legal: tuple[Any, ...]


_local = threading.local()


def _agent(decision: Decision, text: str) -> AnyAgent:
    """The worker's agent of ``text`` for the decision's table and seat (made once)."""
    cache: OrderedDict[tuple[str, int, str, str], AnyAgent] | None = getattr(_local, "agents", None)
    if cache is None:
        cache = _local.agents = OrderedDict()
    key = (decision.table, decision.seat, decision.game, text)
    agent = cache.pop(key, None)
    if agent is None:
        agent = parse_agent(text).create(get_game(decision.game), decision.seed)
    cache[key] = agent
    while len(cache) > CACHE:
        cache.popitem(last=False)
    agent.rng.seed(decision.seed)
    return agent


def _ready(agent: AnyAgent, decision: Decision) -> bool:
    """Whether ``agent`` can decide now: it needs no compiled code, or its game's compiled
    code is loaded in this worker, or in Numba's cache to be loaded now (a second or two).
    False while the server still compiles it (:func:`fanfold.server.runtime._compile_ahead`)."""
    game = agent.game
    if not has_compiled_code(game) or compiled.is_loaded(game.name):
        return True
    config = getattr(decision.view, "config", None) or game.default_config()
    try:
        with compiled.without_compiling():
            agent.prepare(config, _quiet)
    except compiled.NotCompiledError:
        return False
    return True


def _quiet(message: str) -> None:
    del message


def decide(decision: Decision) -> Any:
    """The action the seat's agent chooses (run in a worker). A bot whose compiled code is
    not compiled yet plays its game's fallback level meanwhile
    (:func:`fanfold.agents.levels.fallback_agent`: never compiled code), well within any time
    cap."""
    return decide_counted(decision)[0]


def decide_counted(decision: Decision) -> tuple[Any, bool]:
    """:func:`decide`'s action, and whether the agent's time cap cut its budget
    (``Agent.budget_cut``: the pool counts it, :attr:`BotPool.cut`)."""
    with about(decision.table):
        agent = _agent(decision, decision.agent)
        if not _ready(agent, decision):
            fallback = fallback_agent(agent.game)
            log.info("seat %d's bot plays %s until it is compiled", decision.seat, fallback)
            agent = _agent(decision, fallback)
        agent.budget_cut = False
        action = agent.choose(decision.view, list(decision.legal))
        return action, agent.budget_cut


#: Seconds between a worker process's looks at whether the server that started it still runs.
PARENT_CHECK_SECONDS = 1.0


def _leave_with_parent(parent: int) -> None:
    """End this worker process once the process that started it has gone (killed, or ended
    without stopping its workers): a bot worker never outlives its server."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def _start_process(warm: Callable[[], object] | None) -> None:
    """A worker process starts: watch for its server's end, lower its priority, leave a
    terminal's Ctrl-C to the server (which stops its workers itself), then warm up (compiled
    kernels)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    configure_from_environment()  # its lines as its server's (fanfold.server.logs)
    threading.Thread(
        target=_leave_with_parent, args=(os.getppid(),), name="parent-watch", daemon=True
    ).start()
    os.nice(NICENESS)
    if warm is not None:
        warm()


def _nothing() -> None:
    """Submitted to make a worker start now."""


def _serve(connection: Connection, warm: Callable[[], object] | None) -> None:
    """A worker process's life: start (:func:`_start_process`), then run each call that comes
    through ``connection`` and send back its result or its exception, until the server's end
    of the pipe closes."""
    _start_process(warm)
    while True:
        try:
            number, function, args = connection.recv()
        except (EOFError, OSError):
            os._exit(0)  # the server closed the pipe, or is gone
        try:
            answer: tuple[int, bool, Any] = (number, True, function(*args))
        except BaseException as error:
            answer = (number, False, error)
        try:
            connection.send(answer)
        except Exception as error:  # a result or an error that does not pickle
            connection.send((number, False, RuntimeError(f"{answer[2]!r}: {error}")))


#: How Python's own reduction makes an object again without ``__init__`` (``cls.__new__(cls)``).
_NEW_OBJECT = copyreg.__newobj__  # type: ignore[attr-defined]  # not in the stubs
#: The field names of each class whose instances :class:`_Pickler` pickles itself (``None``:
#: a class it leaves to pickle).
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _slotted_fields(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass made with ``slots=True`` that pickles through the
    ``__getstate__`` that :mod:`dataclasses` gives it, else ``None``."""
    getstate = getattr(kind, "__getstate__", None)
    if (
        not dataclasses.is_dataclass(kind)
        or "__slots__" not in vars(kind)
        or getattr(getstate, "__module__", None) != "dataclasses"
    ):
        return None
    return tuple(field.name for field in dataclasses.fields(kind))


class _Pickler(ForkingPickler):
    """Pickles a decision to the very bytes :class:`ForkingPickler` gives, but faster: the
    seat's view and the legal actions are mostly small dataclasses with slots (cards, moves),
    whose own ``__getstate__`` looks up the class's fields for every instance (up to two
    thirds of a decision's pickling); here the names are looked up once per class and the
    instance is reduced as Python reduces it (``copyreg.__newobj__`` and the list of its
    fields' values, read back by the class's ``__setstate__``)."""

    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        try:
            names = _FIELDS[kind]
        except KeyError:
            names = _FIELDS[kind] = _slotted_fields(kind)
        if names is None:
            return NotImplemented
        return _NEW_OBJECT, (kind,), [getattr(obj, name) for name in names]


def _dumps(value: object) -> bytes:
    """``value`` pickled by :class:`_Pickler`."""
    buffer = io.BytesIO()
    _Pickler(buffer).dump(value)
    return buffer.getvalue()


_P = ParamSpec("_P")
_T = TypeVar("_T")


class WorkerProcess(Executor):
    """One bot worker process, fed through a pipe of its own.

    The server pickles each call and writes it to the pipe itself, and one thread reads the
    answers, so a decision crosses between threads once, when its answer comes back (a
    :class:`~concurrent.futures.ProcessPoolExecutor` hands each call to a thread that queues it
    for a second, which pickles and writes it, and its answer to the first again: three
    hand-overs of the interpreter lock, with a wake-up pipe besides, for every decision). The
    pool gives a worker one decision at a time, so the pipe never holds more than one call.

    A worker that dies (killed, out of memory) fails every call it was given, and every later
    one, with :class:`BrokenProcessPool`, as a process pool would; the pool starts another.

    Args:
        warm: run in the process once it has started, before its first call.
    """

    def __init__(self, warm: Callable[[], object] | None = None) -> None:
        context = multiprocessing.get_context("spawn")
        self._connection, child = context.Pipe()
        self._process = context.Process(
            target=_serve, args=(child, warm), name="fanfold-bot", daemon=True
        )
        self._child = child
        self._lock = threading.Lock()
        self._calls: dict[int, Future[Any]] = {}
        self._numbers = itertools.count()
        self._started = False
        self._broken: str | None = None
        self._reader: threading.Thread | None = None

    @property
    def pid(self) -> int | None:
        """The worker process's id (``None`` before it starts)."""
        return self._process.pid

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        if kwargs:
            raise TypeError("a worker process takes positional arguments only")
        future: Future[_T] = Future()
        with self._lock:
            if self._broken is not None:
                raise BrokenProcessPool(self._broken)
            if not self._started:
                self._start()
            number = next(self._numbers)
            try:
                self._connection.send_bytes(_dumps((number, fn, args)))
            except OSError as error:
                raise BrokenProcessPool(f"the bot worker process is gone: {error}") from None
            # Running from now on: it cannot be cancelled, so whoever gave the worker a call
            # holds it until the call ends (the pool hands the worker back then).
            future.set_running_or_notify_cancel()
            self._calls[number] = future
        return future

    def _start(self) -> None:
        self._process.start()
        self._child.close()  # the worker's end lives in the worker now
        self._started = True
        self._reader = threading.Thread(
            target=self._read, name=f"bot-answers-{self._process.pid}", daemon=True
        )
        self._reader.start()

    def _read(self) -> None:
        """The answers' thread: each answer to its call's future, until the pipe closes."""
        while True:
            try:
                number, ok, value = self._connection.recv()
            except (EOFError, OSError):
                self._break("the bot worker process stopped")
                return
            with self._lock:
                future = self._calls.pop(number, None)
            if future is None:
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def _break(self, reason: str) -> None:
        with self._lock:
            if self._broken is None:
                self._broken = reason
            calls, self._calls = self._calls, {}
        for future in calls.values():
            future.set_exception(BrokenProcessPool(reason))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the worker now (a call under way is abandoned, its future failed); with
        ``wait``, until the process has ended."""
        del cancel_futures  # every call still waiting is failed
        with self._lock:
            started = self._started
            if self._broken is None:
                self._broken = "the bot worker process was stopped"
        if started:
            if self._process.is_alive():
                self._process.terminate()
            self._connection.close()
            if wait:
                self._process.join()
        else:
            self._child.close()
            self._connection.close()
        self._break("the bot worker process was stopped")


def default_client_share(workers: int) -> int:
    """The most workers one client holds at once by default: half the pool (at least one),
    so that with two or more workers another client's table always finds one soon."""
    return max(1, workers // 2)


@dataclass(order=True)
class _Waiter:
    """A decision waiting for a worker, ordered by priority, then tag, then arrival."""

    priority: int
    tag: float
    order: int
    table: str = dataclasses.field(compare=False)
    client: str = dataclasses.field(compare=False)
    future: asyncio.Future[tuple[int, float]] = dataclasses.field(compare=False)


class BotPool:
    """``workers`` workers where bots think, shared fairly by the clients (see the module).

    Args:
        workers: how many decisions may run at once.
        processes: think in worker processes (``fanfold serve``); otherwise in threads.
        warm: run where the bots think before the first decision: in every worker process,
            or once in a worker thread (e.g. loading the compiled kernels).
        client_share: the most workers one client's decisions hold at once (default
            :func:`default_client_share`).
    """

    def __init__(
        self,
        workers: int = 4,
        *,
        processes: bool = False,
        warm: Callable[[], object] | None = None,
        client_share: int | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError(f"the bot pool needs at least one worker, not {workers}")
        share = default_client_share(workers) if client_share is None else client_share
        if not 1 <= share <= workers:
            raise ValueError(
                f"one client's share of the bot pool is 1 to {workers} workers, not {share}"
            )
        self.processes = processes
        self.warm = warm
        self.client_share = share
        self.executors: list[Executor] = [self._executor(n) for n in range(workers)]
        self._free: list[int] = list(range(workers))
        self._waiting: list[_Waiter] = []
        self._finish: dict[str, float] = {}
        self._running: dict[str, int] = {}
        self._clock = 0.0
        self._order = itertools.count()
        self._last: dict[str, int] = {}
        #: Told how long each decision waited for a worker, in seconds (the metrics).
        self.waited: Callable[[float], object] | None = None
        #: The clients' shares across processes (``None``: this process's share only).
        self.shared: SharedShares | None = None
        #: Told each decision whose time cap cut its agent's budget (the metrics).
        self.cut: Callable[[Decision], object] | None = None

    def _executor(self, number: int) -> Executor:
        if self.processes:
            # Only the first worker warms up: the others play at once the bots that need no
            # compiled kernels (a fresh installation compiles for minutes), and load the
            # kernels from the cache when a bot first needs them.
            return WorkerProcess(self.warm if number == 0 else None)
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"bot-{number}")

    def start(self) -> list[Future[Any]]:
        """Start every worker now rather than at the first decision, the first warming up
        (:attr:`warm`) as it starts. Returns a future per worker (or for the warm-up) that
        ends when it is ready."""
        if self.processes:
            # The processes start now, ignoring a terminal's Ctrl-C from their first moment
            # (they inherit that): the server stops them itself.
            main = threading.current_thread() is threading.main_thread()
            before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
            try:
                return [executor.submit(_nothing) for executor in self.executors]
            finally:
                if main:
                    signal.signal(signal.SIGINT, before)
        if self.warm is not None:
            return [self.executors[0].submit(self.warm)]
        return []

    def shutdown(self) -> None:
        """Stop the workers now: a decision under way is abandoned (the server is stopping,
        and an unfinished decision is asked again after a restart)."""
        for executor in self.executors:
            # A worker busy warming up is stopped too: it would hold the server's exit until
            # it finished.
            executor.shutdown(wait=False, cancel_futures=True)

    @property
    def busy(self) -> int:
        """How many workers are deciding now."""
        return len(self.executors) - len(self._free)

    @property
    def waiting(self) -> int:
        """How many decisions wait for a worker now."""
        return sum(not waiter.future.done() for waiter in self._waiting)

    async def decide(
        self, decision: Decision, *, client: str | None = None, priority: Priority = Priority.LIVE
    ) -> Any:
        """The agent's choice, computed in a worker once the turn of ``client`` (who opened
        the table; ``None``: the table counts as a client of its own) comes in the pool, at
        ``priority``."""
        action, cut = await self.run(
            decide_counted, decision, table=decision.table, client=client, priority=priority
        )
        if cut and self.cut is not None:
            self.cut(decision)
        return action

    async def run(
        self,
        fn: Callable[..., _T],
        *args: Any,
        table: str,
        client: str | None = None,
        priority: Priority = Priority.LIVE,
    ) -> _T:
        """``fn(*args)`` (a module-level function, and arguments that pickle: it may run in a
        worker process) computed in a worker once the turn of ``client`` comes, for ``table``,
        at ``priority``: how a decision runs (:meth:`decide`), and an engine review's steps at
        :attr:`Priority.REVIEW`."""
        who = client if client is not None else f"table:{table}"
        asked = time.monotonic()
        shared = self.shared if client is not None else None
        lease = None if shared is None else await shared.hold(who)
        try:
            slot, tag = await self._acquire(table, who, int(priority))
        except BaseException:
            if shared is not None and lease is not None:
                shared.release(lease)
            raise
        loop = asyncio.get_running_loop()
        began = time.monotonic()
        if self.waited is not None:
            self.waited(began - asked)
        executor = self.executors[slot]
        try:
            try:
                future = executor.submit(fn, *args)
            except BrokenProcessPool:  # its process stopped while it had nothing to do
                self._replace(slot, executor)
                executor = self.executors[slot]
                future = executor.submit(fn, *args)
        except BaseException:
            self._release(slot, who, tag, 0.0)
            if shared is not None and lease is not None:
                shared.release(lease)
            raise

        def done(_: Future[Any]) -> None:
            used = time.monotonic() - began
            loop.call_soon_threadsafe(self._release, slot, who, tag, used)
            if shared is not None and lease is not None:
                loop.call_soon_threadsafe(shared.release, lease)

        # The worker is handed back when the work ends, not when the table stops waiting for
        # it (an undo, a shutdown): a table cannot hold more than one worker by cancelling.
        future.add_done_callback(done)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            self._replace(slot, executor)
            raise

    def _replace(self, slot: int, broken: Executor) -> None:
        """A worker process died (killed, out of memory): the slot gets a new one (once:
        nothing changes when the slot has a new one already)."""
        if self.executors[slot] is not broken:
            return
        log.error("a bot worker process stopped; starting another")
        if isinstance(broken, WorkerProcess):
            self.executors[slot] = self._executor(slot)
            broken.shutdown(wait=False, cancel_futures=True)

    async def _acquire(self, table: str, client: str, priority: int) -> tuple[int, float]:
        tag = max(self._clock, self._finish.get(client, 0.0))
        if self._free and not self._waiting and self._running.get(client, 0) < self.client_share:
            self._clock = tag
            return self._take(table, client), tag
        future: asyncio.Future[tuple[int, float]] = asyncio.get_running_loop().create_future()
        heapq.heappush(
            self._waiting,
            _Waiter(priority, tag, next(self._order), table, client, future),
        )
        self._start_waiting()  # a free worker another client may use at once
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # given a worker as it was cancelled
                slot, given = future.result()
                self._release(slot, client, given, 0.0)
            raise

    def _take(self, table: str, client: str) -> int:
        last = self._last.get(table)
        slot = last if last in self._free else self._free[0]
        self._free.remove(slot)
        self._last[table] = slot
        self._running[client] = self._running.get(client, 0) + 1
        return slot

    def _start_waiting(self) -> None:
        """Give free workers to the waiting decisions, first by priority, then by their
        clients' tags, skipping a client that holds its whole share already."""
        held: list[_Waiter] = []
        while self._free and self._waiting:
            waiter = heapq.heappop(self._waiting)
            if waiter.future.done():
                continue  # its table stopped waiting
            if self._running.get(waiter.client, 0) >= self.client_share:
                held.append(waiter)
                continue
            self._clock = max(self._clock, waiter.tag)
            waiter.future.set_result((self._take(waiter.table, waiter.client), waiter.tag))
        for waiter in held:
            heapq.heappush(self._waiting, waiter)

    def _release(self, slot: int, client: str, tag: float, used: float) -> None:
        self._finish[client] = max(self._finish.get(client, 0.0), tag + used)
        self._running[client] -= 1
        if not self._running[client]:
            del self._running[client]
        self._free.append(slot)
        self._start_waiting()
        if len(self._finish) > 4 * len(self.executors):  # forget clients with no credit left
            for name in [name for name, end in self._finish.items() if end <= self._clock]:
                del self._finish[name]
        if len(self._last) > 64 * len(self.executors):
            self._last.clear()  # only a preference: which worker had a table's last decision


def decision_for(
    table: str, seat: int, game: str, agent: AnyAgent, view: Any, legal: Sequence[Any]
) -> Decision:
    """The decision of ``seat``'s ``agent`` (the table's own agent object, whose generator is
    the table's bot stream and gives the decision's seed)."""
    return Decision(table, seat, game, agent.name, agent.rng.getrandbits(64), view, tuple(legal))


__all__ = [
    "CACHE",
    "NICENESS",
    "BotPool",
    "Decision",
    "Priority",
    "WorkerProcess",
    "decide",
    "decide_counted",
    "decision_for",
    "default_client_share",
]
