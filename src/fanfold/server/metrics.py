"""What one server process counts and times, for Prometheus (``GET /metrics``): the tables
live, the actions stored (a counter: actions per second is its rate), the act-to-ok latency,
the bots' decision time, the store's write time (one group commit), the WebSocket
connections open and the clients' rate-limit counters held.

Each application has a registry of its own (several applications may run in one process, as
in the tests), so the names never clash.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

#: Latency buckets, in seconds: a millisecond to ten seconds.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

#: The ``Content-Type`` of :meth:`Metrics.exposition`.
CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    """One process's metrics, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.tables_live = Gauge(
            "fanfold_tables_live", "Tables in this process's memory.", registry=self.registry
        )
        self.tables_owned = Gauge(
            "fanfold_tables_owned",
            "Tables this process owns in the shared store (several processes only).",
            registry=self.registry,
        )
        self.actions = Counter(
            "fanfold_actions",
            "Actions stored (people's, bots' and timers').",
            registry=self.registry,
        )
        self.act_seconds = Histogram(
            "fanfold_act_seconds",
            "From a person's action arriving to its ok (checked, stored, told).",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.bot_seconds = Histogram(
            "fanfold_bot_decision_seconds",
            "A bot's decision, from asking the pool to its answer.",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.store_seconds = Histogram(
            "fanfold_store_write_seconds",
            "One group commit of actions to the store.",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.sockets = Gauge(
            "fanfold_websockets", "WebSocket connections open.", registry=self.registry
        )
        self.rate_counters = Gauge(
            "fanfold_rate_counters",
            "Clients' rate-limit counters held (one per client and kind of limit, kept a "
            "minute after the client's last request).",
            registry=self.registry,
        )

    def watch_tables(self, live: Callable[[], float], owned: Callable[[], float]) -> None:
        """Read the tables live and owned from these functions at each scrape."""
        self.tables_live.set_function(live)
        self.tables_owned.set_function(owned)

    def watch_counters(self, held: Callable[[], float]) -> None:
        """Read the rate-limit counters held from this function at each scrape."""
        self.rate_counters.set_function(held)

    def exposition(self) -> bytes:
        """The metrics in Prometheus's text format."""
        return generate_latest(self.registry)


__all__ = ["BUCKETS", "CONTENT_TYPE", "Metrics"]
