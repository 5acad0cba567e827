"""The answers to a router's health checks, given beside the event loop.

A process that plays many tables keeps its event loop busy, and a request to ``/ready`` on the
game's port waits in line behind the game's work: a lone saturated process answered late by
seconds, and HAProxy took it out of service (503 for every table) although it was playing on.
So ``fanfold serve --health-port P`` also answers ``/health`` and ``/ready`` on a port of their
own, from a thread of the process (:class:`HealthServer`), never queued behind a table, and
``/metrics`` too (a scrape reads values the process holds, :mod:`fanfold.server.metrics`).

What ``/ready`` means: the process can take requests for tables. It is ready once its start-up
is done and its game's port is open (the health port opens first, during the start-up, and
says 503 until then), without waiting for its bots' workers to
warm up: they load the compiled searches in the background (the answer says ``"bots":
"warming"`` until they have, then ``"ready"``; the time it took is logged and is the metric
``fanfold_bots_warm_up_seconds``), a person's action is taken at once, and a bot's decision
waits for its worker. It is not ready while it drains (:attr:`Readiness.draining`: it stops,
and hands its tables to the other processes), nor unless

* its event loop runs: it has turned within :data:`STUCK_SECONDS` (a loop busy with play turns
  many times a second; one that has not turned for that long is stuck, and no request it
  holds will be answered). Busy is not unready: taking a saturated process out of service
  moves its tables and their load to the others, or refuses them all when it is the only one;
* its store answers a query within :data:`STORE_SECONDS`;
* with several processes on PostgreSQL, its ownership connection is open (the locks that say
  which tables it plays: :mod:`fanfold.server.ownership`).

A process that stops (``SIGTERM``) first answers ``/ready`` with 503 and waits until every
router that was checking it has been refused :data:`ROUTER_FALLS` times, HAProxy's ``fall``
(:meth:`Readiness.out_of_service`, :data:`OUT_OF_SERVICE_SECONDS` at most): the router has
taken it out of service and sends its tables' requests to the others before its port closes,
so that no request meets a closed port or a table let go. A router is a checker that says so
in a :data:`CHECK_HEADER` header (``fanfold deploy haproxy``'s checks send ``X-Fanfold-Check:
haproxy``); anything else that asks ``/ready`` (a monitor, a person with ``curl``) is answered
alike and never waited for.

``/health`` answers 200 while the process runs. The game's port answers both too
(:mod:`fanfold.server.routes.health`), with the same meaning.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from prometheus_client.exposition import CONTENT_TYPE_LATEST

from fanfold.core.errors import FanfoldError
from fanfold.server.ownership import Ownership
from fanfold.server.store import Store

log = logging.getLogger(__name__)

#: A loop that has not turned for this long is stuck: the process is not ready.
STUCK_SECONDS = 10.0
#: How often the loop says it turns.
BEAT_SECONDS = 0.25
#: How long ``/ready`` waits for the store's answer.
STORE_SECONDS = 2.0
#: How many refused checks take a process out of a router's service (HAProxy's ``fall`` in
#: ``fanfold deploy haproxy``'s configuration).
ROUTER_FALLS = 2
#: The header of a router's checks (its value names the router: ``haproxy``): only those are
#: waited for by :meth:`Readiness.out_of_service`.
CHECK_HEADER = "X-Fanfold-Check"
#: A router that checked within this long before the process began to stop is still
#: checking it, waited for by :meth:`Readiness.out_of_service`.
ROUTER_SECONDS = 5.0
#: The longest a stopping process waits for its routers to take it out of service.
OUT_OF_SERVICE_SECONDS = 3.0
#: The ``Content-Type`` of ``/metrics`` (Prometheus's text format), as the game's port says it.
METRICS_TYPE = CONTENT_TYPE_LATEST

JSONBody = dict[str, Any]


class HealthPortError(FanfoldError, OSError):
    """The health port cannot be listened on (taken, or not this machine's address)."""


def bound_sockets(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to ``port`` on every address ``host`` names, as asyncio's server binds
    them (``SO_REUSEADDR``; an IPv6 socket for IPv6 only), not listening yet: ``fanfold
    serve`` binds its ports before it opens the store or says it serves, and hands them to
    uvicorn.

    Raises:
        OSError: one cannot be bound (``errno.EADDRINUSE``: taken; ``socket.gaierror``:
            ``host`` is no address).
    """
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    bound: list[socket.socket] = []
    try:
        for family, kind, protocol, _, address in dict.fromkeys(found):
            made = socket.socket(family, kind, protocol)
            bound.append(made)
            made.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                made.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            made.bind(address)
    except OSError:
        for made in bound:
            made.close()
        raise
    return bound


#: Health ports bound ahead (:func:`reserve_health_port`), by the address asked for: the
#: :class:`HealthServer` of that address serves on the socket.
_RESERVED: dict[tuple[str, int], socket.socket] = {}


def reserve_health_port(host: str, port: int, bound: socket.socket) -> None:
    """Keep ``bound``, a socket bound to the health port ``host:port`` ahead
    (:func:`bound_sockets`: ``fanfold serve`` binds it before it opens the store, so that a
    port taken stops it with a sentence), for the :class:`HealthServer` made for that
    address."""
    _RESERVED[(host, port)] = bound


def _cannot_listen(host: str, port: int, error: OSError) -> str:
    return f"the health port {host}:{port} cannot be listened on: {error.strerror or error}"


class Readiness:
    """Whether a process is ready (see the module), asked from any thread.

    Args:
        store: the process's store.
        owner: its ownership of tables on PostgreSQL (``None``: one process on its store).
        tables: how many tables it has in memory now (said in the answer).
        warm: whether the bots' workers have warmed up (``None``: nothing to wait for); said
            in the answer, never waited for.
        stuck_seconds: how long the loop may go without turning.
        listening: whether the game's port is open already (``False`` where the server opens
            it after the start-up: :class:`fanfold.server.stopping.DrainingServer` sets
            :attr:`listening` once it has).
    """

    def __init__(
        self,
        store: Store,
        owner: Ownership | None,
        tables: Callable[[], int],
        *,
        warm: Callable[[], bool] | None = None,
        stuck_seconds: float = STUCK_SECONDS,
        listening: bool = True,
    ) -> None:
        self.store = store
        #: Whether the game's port is open: unready until it is (a router would meet a
        #: closed port).
        self.listening = listening
        self.warm = warm
        self.owner = owner
        self.tables = tables
        self.stuck_seconds = stuck_seconds
        #: Set when the process starts to stop: unready from then on (the router sends the
        #: tables' requests to the other processes).
        self.draining = False
        #: When the loop last turned (``time.monotonic()``), written by :meth:`beat`.
        self.turned = time.monotonic()
        #: When each router (its address, asking with :data:`CHECK_HEADER`) last asked, and
        #: how often it was refused since the process began to stop: what
        #: :meth:`out_of_service` waits on.
        self._asked: dict[str, float] = {}
        self._refused: dict[str, int] = {}
        self._counting = threading.Lock()
        # The store's pings, one at a time: a ping that hangs holds this one thread only.
        self._pings = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ready")
        self._beating: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Note the loop's turns (call on the loop)."""
        self._beating = asyncio.get_running_loop().create_task(self.beat())

    async def beat(self) -> None:
        while True:
            self.turned = time.monotonic()
            await asyncio.sleep(BEAT_SECONDS)

    def close(self) -> None:
        if self._beating is not None:
            self._beating.cancel()
        self._pings.shutdown(wait=False, cancel_futures=True)

    async def out_of_service(
        self, *, falls: int = ROUTER_FALLS, limit: float = OUT_OF_SERVICE_SECONDS
    ) -> bool:
        """Become unready (:attr:`draining`) and wait until each router that checked within
        :data:`ROUTER_SECONDS` has been refused ``falls`` times since (it has taken the
        process out of service), ``limit`` seconds at most; True if all were. Nothing to wait
        for where no router checks."""
        began = time.monotonic()
        with self._counting:
            self.draining = True
            self._refused.clear()
            routers = [a for a, when in self._asked.items() if began - when <= ROUTER_SECONDS]
        while any(self._refused.get(router, 0) < falls for router in routers):
            if time.monotonic() - began >= limit:
                log.warning(
                    "stopping: not every router took the process out of service in %.1f s",
                    limit,
                )
                return False
            await asyncio.sleep(0.02)
        return True

    def _ping(self) -> None:
        self.store.ping()

    def check(self, asker: str = "", router: str | None = None) -> tuple[int, JSONBody]:
        """The answer to ``/ready`` asked by ``asker`` (its address), a router's check when
        ``router`` (its :data:`CHECK_HEADER`) is given: 200 and the tables in memory, or 503
        and the reason. Blocks up to :data:`STORE_SECONDS`: call it off the event loop."""
        if router:  # counted by address only: a forged header adds no entry of its own
            with self._counting:
                self._asked[asker] = time.monotonic()
                if self.draining:
                    self._refused[asker] = self._refused.get(asker, 0) + 1
        if self.draining:
            return 503, {"status": "unready", "reason": "the process is stopping (draining)"}
        if not self.listening:
            return 503, {"status": "unready", "reason": "the game's port is not open yet"}
        late = time.monotonic() - self.turned
        if late > self.stuck_seconds:
            return 503, {
                "status": "unready",
                "reason": f"the event loop has not run for {late:.0f} s",
            }
        try:
            self._pings.submit(self._ping).result(timeout=STORE_SECONDS)
        except Exception:  # the ping's own error, or no answer in time
            return 503, {"status": "unready", "reason": "the store does not answer"}
        if self.owner is not None and not self.owner.healthy:
            return 503, {
                "status": "unready",
                "reason": "the ownership connection to the store is closed",
            }
        bots = "ready" if self.warm is None or self.warm() else "warming"
        return 200, {"status": "ready", "tables": self.tables(), "bots": bots}


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:
        if self.path == "/health":
            self._answer(200, {"status": "ok"})
        elif self.path == "/ready":
            router = self.headers.get(CHECK_HEADER)
            self._answer(*self.server.readiness.check(self.client_address[0], router))
        elif self.path == "/metrics" and self.server.metrics is not None:
            self._send(200, METRICS_TYPE, self.server.metrics())
        else:
            self._answer(404, {"error": "this port answers /health, /ready and /metrics only"})

    def _answer(self, status: int, body: JSONBody) -> None:
        self._send(status, "application/json", json.dumps(body).encode())

    def _send(self, status: int, content_type: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        del format, args  # a check twice a second from each router: not worth a line


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A checker may hang up as soon as it has the status (HAProxy does): not an error."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):
            return
        log.warning("a health check from %s failed", client_address, exc_info=True)

    def __init__(
        self,
        address: tuple[str, int],
        readiness: Readiness,
        metrics: Callable[[], bytes] | None = None,
        bound: socket.socket | None = None,
    ) -> None:
        self.readiness = readiness
        self.metrics = metrics
        super().__init__(address, _Handler, bind_and_activate=bound is None)
        if bound is not None:  # bound ahead (reserve_health_port): listen on it
            self.socket.close()
            self.socket = bound
            self.server_address = bound.getsockname()
            self.server_name, self.server_port = address
            self.server_activate()


class HealthServer:
    """``/health``, ``/ready`` and ``/metrics`` on a port of their own, answered by threads of
    the process.

    Args:
        host: the address to listen on.
        port: the port (0: one the system chooses, :attr:`port` then says which); the socket
            :func:`reserve_health_port` bound for ``host:port``, where it did.
        readiness: what ``/ready`` answers.
        metrics: what ``/metrics`` answers (Prometheus's text format, read from values the
            process holds: :meth:`fanfold.server.metrics.Metrics.exposition`); ``None``: 404.

    Raises:
        HealthPortError: the port cannot be listened on.
    """

    def __init__(
        self,
        host: str,
        port: int,
        readiness: Readiness,
        metrics: Callable[[], bytes] | None = None,
    ) -> None:
        bound = _RESERVED.pop((host, port), None)
        try:
            self._server = _Server((host, port), readiness, metrics, bound)
        except OSError as error:
            if bound is not None:
                bound.close()
            raise HealthPortError(_cannot_listen(host, port, error)) from None
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="health", kwargs={"poll_interval": 0.2}
        )
        self._thread.daemon = True

    def start(self) -> None:
        self._thread.start()
        log.info("health checks answered on port %d", self.port)

    def close(self) -> None:
        """Stop answering (a router then takes the process out of service)."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


__all__ = [
    "CHECK_HEADER",
    "OUT_OF_SERVICE_SECONDS",
    "ROUTER_FALLS",
    "STORE_SECONDS",
    "STUCK_SECONDS",
    "HealthPortError",
    "HealthServer",
    "Readiness",
    "bound_sockets",
    "reserve_health_port",
]
