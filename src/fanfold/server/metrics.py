"""What one server process counts and times, for Prometheus (``GET /metrics``, and on the
health port from a thread of its own, :mod:`fanfold.server.checks`).

* The tables: live in memory, owned in the shared store, and their hand-overs between
  processes (taken from another process, let go to one).
* The actions stored (a counter: actions per second is its rate), the act-to-ok latency,
  the store's write time (one group commit).
* The bots: each decision's time, the decisions waiting for a worker and how long they waited,
  the workers busy, and the decisions whose time cap cut their budget (by game and agent).
* The engines' reviews: how long each step waited for the live work to end
  (:mod:`fanfold.server.bots.reviewer`).
* HTTP requests by route template (``/api/tables/{table_id}``, never the path itself, so a
  table's id never becomes a series), method and status, and their time
  (:class:`fanfold.server.request_metrics.RequestObserver`, which also writes the access
  log, :func:`fanfold.server.logs.access`).
* The WebSockets open, in all and by kind (``table``, ``lobby``).
* The event loop's lag (how late a timer that should wake it every quarter second runs) and its
  stall (how long since it last ran: high while the loop is blocked, when the lag cannot be
  measured), from a small task of the loop's own (:meth:`Metrics.start`).
* The log lines at ERROR or above, by logger: the server's own errors (a store that refused a
  write, a bot worker that died, an exception no handler expected).
* The process's CPU, memory and file descriptors (``process_*``, prometheus_client's process
  collector) and the version (``fanfold_info``).

Each application has a registry of its own (several applications may run in one process, as
in the tests), so the names never clash. A scrape reads values already held (gauges read
lengths of the process's own collections), never waiting for the event loop: the health
port's ``/metrics`` answers while the loop is busy or blocked.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from fanfold import __version__

if TYPE_CHECKING:
    from fanfold.server.bots import BotPool, Decision

#: The route label of a request that matches no route (a 404): never its path.
UNMATCHED = "unmatched"
#: The kind of socket each WebSocket route is (``fanfold_websockets_open{kind}``); another
#: WebSocket route's kind is its template.
SOCKET_KINDS = {"/ws/tables/{table_id}": "table", "/ws/lobby": "lobby"}

#: Latency buckets, in seconds: a millisecond to ten seconds.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

#: The ``Content-Type`` of :meth:`Metrics.exposition`.
CONTENT_TYPE = CONTENT_TYPE_LATEST

#: How often the loop's probe wakes (:meth:`Metrics.start`): its lag is how late it wakes.
PROBE_SECONDS = 0.25


class _ErrorLines(logging.Handler):
    """Counts the log lines at ERROR or above, by logger, from the root logger. A process
    whose logging is Python's default (no handler anywhere: plain text) printed its warnings
    and errors through Python's last resort, which a handler on the root logger turns off:
    this one prints them there itself then, so that counting changes nothing of the log."""

    def __init__(self, counter: Counter) -> None:
        super().__init__(level=logging.WARNING)
        self.counter = counter

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            self.counter.labels(record.name).inc()
        last = logging.lastResort
        if last is not None and record.levelno >= last.level and self._alone(record):
            last.handle(record)

    @staticmethod
    def _alone(record: logging.LogRecord) -> bool:
        """Whether no other handler took ``record`` on its way to the root logger."""
        logger: logging.Logger | None = (
            logging.getLogger(record.name) if record.name != "root" else logging.getLogger()
        )
        while logger is not None:
            if any(not isinstance(handler, _ErrorLines) for handler in logger.handlers):
                return False
            if not logger.propagate:
                break
            logger = logger.parent
        return True


#: The stages of an action timed in ``fanfold_act_stage_seconds``, in their order.
ACT_STAGES = ("parse", "lock", "rules", "store", "queue", "commit", "tell")


def since_ns(started_ns: int) -> float:
    """Seconds from ``started_ns`` (a :func:`time.perf_counter_ns`) to now."""
    return (time.perf_counter_ns() - started_ns) / 1e9


class Metrics:
    """One process's metrics, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.tables_live = Gauge(
            "fanfold_tables_live", "Tables in this process's memory.", registry=registry
        )
        self.tables_owned = Gauge(
            "fanfold_tables_owned",
            "Tables this process owns in the shared store (several processes only).",
            registry=registry,
        )
        self.handovers = Counter(
            "fanfold_table_handovers",
            "Tables handed between processes: taken (a table another process opened, loaded "
            "here: a hand-over, or its opener is down) and let go (to another process that "
            "asked for it, that stored its next action first, or because this process lost "
            "its locks).",
            ["direction"],
            registry=registry,
        )
        for direction in ("taken", "let_go"):
            self.handovers.labels(direction)
        self.warm_up_seconds = Gauge(
            "fanfold_bots_warm_up_seconds",
            "How long the bots' workers took to warm up (load the compiled searches) after "
            "the process started serving; 0 until they have (the process is ready before).",
            registry=registry,
        )
        self.actions = Counter(
            "fanfold_actions",
            "Actions stored (people's, bots' and timers').",
            registry=registry,
        )
        self.act_seconds = Histogram(
            "fanfold_act_seconds",
            "From a person's action arriving to its ok (checked, stored, told).",
            buckets=BUCKETS,
            registry=registry,
        )
        self.act_stage_seconds = Histogram(
            "fanfold_act_stage_seconds",
            "The stages of an action in the server, by stage: parse (a socket's message read "
            "to its action handed on), lock (a person's action: waiting for its table's lock), "
            "rules (checked and applied by the table), store (its row queued and committed), "
            "tell (its table's watchers told), queue (any action's row, a bot's or a timer's "
            "too: waiting for its group commit to start) and commit (that group commit's "
            "write, to the action's table hearing of it).",
            ["stage"],
            buckets=BUCKETS,
            registry=registry,
        )
        for stage in ACT_STAGES:
            self.act_stage_seconds.labels(stage)
        self.bot_seconds = Histogram(
            "fanfold_bot_decision_seconds",
            "A bot's decision, from asking the pool to its answer.",
            buckets=BUCKETS,
            registry=registry,
        )
        self.bot_queue = Gauge(
            "fanfold_bot_queue",
            "Bot decisions waiting for a free worker.",
            registry=registry,
        )
        self.bot_workers_busy = Gauge(
            "fanfold_bot_workers_busy", "Bot workers deciding now.", registry=registry
        )
        self.bot_workers = Gauge("fanfold_bot_workers", "Bot workers in all.", registry=registry)
        self.bot_wait_seconds = Histogram(
            "fanfold_bot_queue_wait_seconds",
            "How long a bot decision waited for a free worker.",
            buckets=BUCKETS,
            registry=registry,
        )
        self.bot_budget_cuts = Counter(
            "fanfold_bot_budget_cut",
            "Bot decisions whose time cap (a level's 5 s wall-clock guard, another agent's "
            "--bot-seconds) stopped them before their budget was spent (a machine far too "
            "busy: the bot played weaker), by game and agent.",
            ["game", "level"],
            registry=registry,
        )
        self.review_hold_seconds = Histogram(
            "fanfold_review_hold_seconds",
            "How long each engine review's step waited for the live work (live bots' "
            "decisions, players' actions) to end, before it started and paused inside it (0: "
            "it did not wait; at most the hold's limit or so).",
            buckets=BUCKETS,
            registry=registry,
        )
        self.review_idle_seconds = Histogram(
            "fanfold_review_idle_seconds",
            "How long each engine review's step computed in Linux's idle class (0: none; it "
            "computed in the normal class at nice 19, where live play's processes wait for it).",
            buckets=BUCKETS,
            registry=registry,
        )
        self.review_pauses = Counter(
            "fanfold_review_pauses",
            "Pauses inside engine review steps: a step under way that waited, between two "
            "units of work, for the live work to end.",
            registry=registry,
        )
        self.store_seconds = Histogram(
            "fanfold_store_write_seconds",
            "One group commit of actions to the store.",
            buckets=BUCKETS,
            registry=registry,
        )
        self.review_write_seconds = Histogram(
            "fanfold_review_write_seconds",
            "One write of an engine review by the server's process (SQLite: a lease's renewal "
            "or a failed review's end, in the reviews' file's own writer thread; in memory its "
            "claim, moves and end too, in the store's thread after the live commits).",
            buckets=BUCKETS,
            registry=registry,
        )
        self.review_write_wait_seconds = Histogram(
            "fanfold_review_write_wait_seconds",
            "How long one write of an engine review waited for its writer thread (SQLite: the "
            "reviews' file's; in memory, the live commits queued or in flight first).",
            buckets=BUCKETS,
            registry=registry,
        )
        self.review_worker_write_seconds = Histogram(
            "fanfold_review_worker_write_seconds",
            "One transaction of the review worker's process itself in the reviews' file "
            "(SQLite): a review's claim, or a step's moves (the lease extended, the last step's "
            "closing the review).",
            buckets=BUCKETS,
            registry=registry,
        )
        self.review_worker_write_wait_seconds = Histogram(
            "fanfold_review_worker_write_wait_seconds",
            "How long such a transaction of the review worker waited for the reviews' file's "
            "write lock (the server's opening, renewal or end of a review holding it).",
            buckets=BUCKETS,
            registry=registry,
        )
        self.store_checkpoint_seconds = Histogram(
            "fanfold_store_checkpoint_seconds",
            "One checkpoint of the SQLite store's write-ahead log that copied pages into its "
            "file, in the checkpoints' own thread (the commits go on meanwhile).",
            buckets=BUCKETS,
            registry=registry,
        )
        self.sockets = Gauge("fanfold_websockets", "WebSocket connections open.", registry=registry)
        self.sockets_by_kind = Gauge(
            "fanfold_websockets_open",
            "WebSocket connections open, by kind (table: players and spectators of a table; "
            "lobby: the lobby's live list).",
            ["kind"],
            registry=registry,
        )
        for kind in SOCKET_KINDS.values():
            self.sockets_by_kind.labels(kind)
        self.rate_counters = Gauge(
            "fanfold_rate_counters",
            "Clients' rate-limit counters held (one per client and kind of limit, kept a "
            "minute after the client's last request).",
            registry=registry,
        )
        self.requests = Counter(
            "fanfold_http_requests",
            "HTTP requests answered, by route template (never the path), method and status.",
            ["route", "method", "status"],
            registry=registry,
        )
        self.request_seconds = Histogram(
            "fanfold_http_request_seconds",
            "From an HTTP request arriving to its answer's end, by route template.",
            ["route"],
            buckets=BUCKETS,
            registry=registry,
        )
        self.error_lines = Counter(
            "fanfold_log_errors",
            "Log lines at ERROR or above, by logger: the server's own errors.",
            ["logger"],
            registry=registry,
        )
        self.loop_lag = Histogram(
            "fanfold_event_loop_lag_seconds",
            f"How late the event loop ran a timer due every {PROBE_SECONDS} s: what every "
            "table's work waits behind.",
            buckets=BUCKETS,
            registry=registry,
        )
        self.loop_stall = Gauge(
            "fanfold_event_loop_stall_seconds",
            f"Seconds since the event loop last ran its probe (due every {PROBE_SECONDS} s): "
            "above a second, the loop is blocked now.",
            registry=registry,
        )
        self._turned = time.monotonic()
        self.loop_stall.set_function(lambda: max(0.0, time.monotonic() - self._turned))
        Info("fanfold", "This process's fanfold.", registry=registry).info({"version": __version__})
        ProcessCollector(registry=registry)

    def watch_tables(self, live: Callable[[], float], owned: Callable[[], float]) -> None:
        """Read the tables live and owned from these functions at each scrape."""
        self.tables_live.set_function(live)
        self.tables_owned.set_function(owned)

    def watch_counters(self, held: Callable[[], float]) -> None:
        """Read the rate-limit counters held from this function at each scrape."""
        self.rate_counters.set_function(held)

    def watch_pool(self, pool: BotPool) -> None:
        """Read the bot pool's queue and busy workers at each scrape, and time each decision's
        wait for a worker."""
        self.bot_queue.set_function(lambda: pool.waiting)
        self.bot_workers_busy.set_function(lambda: pool.busy)
        self.bot_workers.set_function(lambda: len(pool.executors))
        pool.waited = self.bot_wait_seconds.observe
        pool.cut = self._count_cut

    def _count_cut(self, decision: Decision) -> None:
        """Count a decision whose time cap cut its budget, by its game and its agent's name
        (``hard`` for ``hard(seconds=1)``)."""
        level = decision.agent.split("(", 1)[0].strip()
        self.bot_budget_cuts.labels(decision.game, level).inc()

    def start(self, pool: BotPool | None = None) -> Callable[[], None]:
        """Start what runs beside the process's work (call on its event loop): the loop's
        probe (:data:`PROBE_SECONDS`), the count of error lines, and, given ``pool``,
        :meth:`watch_pool`. Returns the function that stops them."""
        if pool is not None:
            self.watch_pool(pool)
        probe = asyncio.get_running_loop().create_task(self._probe(), name="loop-probe")
        errors = _ErrorLines(self.error_lines)
        root = logging.getLogger()
        root.addHandler(errors)

        def stop() -> None:
            probe.cancel()
            root.removeHandler(errors)

        return stop

    async def _probe(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asleep = loop.time()
            self._turned = time.monotonic()
            await asyncio.sleep(PROBE_SECONDS)
            self.loop_lag.observe(max(0.0, loop.time() - asleep - PROBE_SECONDS))

    def exposition(self) -> bytes:
        """The metrics in Prometheus's text format (from any thread)."""
        return generate_latest(self.registry)


__all__ = [
    "ACT_STAGES",
    "BUCKETS",
    "CONTENT_TYPE",
    "PROBE_SECONDS",
    "SOCKET_KINDS",
    "UNMATCHED",
    "Metrics",
    "since_ns",
]
