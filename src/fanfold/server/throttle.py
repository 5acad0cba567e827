"""Limits per client: requests and new tables a minute, open WebSockets at once.

A client is the address it connects from or, when it connects through one of the server's
trusted proxies (``fanfold serve --trusted-proxy``), the address the proxies forwarded: the
right-most entry of ``X-Forwarded-For`` that is not itself a trusted proxy. A forwarded
address from anywhere else is ignored (anyone can write the header). The header is read in
one place, :mod:`fanfold.server.forwarded`, whose middleware resolves the scope's client
before this one runs (:func:`client_address` reads it). No address is exempt, loopback
included.

The counting is done by the ``limits`` library (a moving window, in memory: one server
process). A refused request gets 429 with ``{"error": sentence, "kind": "RateLimited"}`` and
``Retry-After``; a refused WebSocket is accepted, told why in an error message and closed with
code 1008 (policy violation).
"""

from __future__ import annotations

import bisect
import math
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

# The forwarded address is read in one place; these names stay importable from here.
from fanfold.server.forwarded import Network, client_address, trusted_networks
from fanfold.server.protocol import ErrorBody, refusal_text, wire

#: Requests that open a table (each also counts as a request).
CREATING = frozenset({("POST", "/api/tables"), ("POST", "/api/records")})
#: Paths no client's limits count: a router's health checks and a metrics scraper, which ask
#: every second or so from one address.
UNCOUNTED = frozenset({"/health", "/ready", "/metrics"})
#: Where the pages' own files are (scripts, styles, pictures, the language catalogues): not
#: counted against a client's requests, so that a page's dozen files (and, behind one shared
#: address, many people's) never use up the minute's requests that the site's work needs.
#: They are files read from the package, as cheap as an answer gets; a flood of them is the
#: proxy's to limit (``fanfold deploy haproxy`` counts every request).
FILES = ("/static/", "/i18n/")
#: WebSockets with limits of their own (the lobby's: :class:`fanfold.server.lobby_feed.
#: LobbyLimits`): counted as requests, but not against a client's open sockets.
OWN_SOCKET_LIMITS = frozenset({"/ws/lobby"})
#: The WebSocket close code for a connection refused by a limit (policy violation).
POLICY = 1008


@dataclass(frozen=True)
class ClientLimits:
    """What one client may do. The defaults are far above what a person at a browser does
    (the lobby and a table page make a few dozen requests; a person opens a table or two a
    minute and watches a handful), and far below what a script flooding the server does.

    Attributes:
        tables_per_minute: tables a client may open a minute (``POST /api/tables`` and
            ``POST /api/records``).
        requests_per_minute: HTTP requests and WebSocket connections a client may make a
            minute, pages and scripts included.
        sockets: WebSockets a client may hold open at once (the lobby's have limits of
            their own: :class:`fanfold.server.lobby_feed.LobbyLimits`).
        spectators: spectators (sockets without a seat) a table takes at once; its players
            are never refused.
    """

    tables_per_minute: int = 30
    requests_per_minute: int = 600
    sockets: int = 20
    spectators: int = 200

    def __post_init__(self) -> None:
        for name in ("tables_per_minute", "requests_per_minute", "sockets", "spectators"):
            if getattr(self, name) < 1:
                raise ValueError(f"the limit {name} must be at least 1, not {getattr(self, name)}")


class _OneLock(defaultdict[str, threading.RLock]):
    """The storage's lock of every client: one lock, never stored per client. The counters
    are only used from the event loop's thread, so a lock each (what the stock storage makes,
    one object per client until its window passes) guards nothing, and on a busy server the
    thousands of them outlive the load for a minute and keep the memory around them."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.RLock()

    def __missing__(self, key: str) -> threading.RLock:
        return self.lock


class QuietMemoryStorage(MemoryStorage):
    """``limits``' memory storage without its expiry thread and without a lock per client.

    The stock storage starts a timer thread every 10 ms while requests come, each walking
    every client's counters, and on a busy server those threads take the interpreter lock from
    the event loop. The counts do not need it (a moving window compares its entries' times
    when it is hit); only memory does, so :meth:`sweep` lets the passed windows go, called by
    the server's sweeper (``fanfold.server.runtime``) every few seconds."""

    def __init__(self) -> None:
        super().__init__()
        self.locks = _OneLock()

    def _MemoryStorage__schedule_expiry(self) -> None:  # noqa: N802 (the stock private hook)
        """No timer: see :meth:`sweep`."""

    @property
    def clients(self) -> int:
        """The counters held: one per client and kind of limit (requests, new tables)
        counted in the last minute."""
        return len(self.events)

    def sweep(self, now: float | None = None) -> int:
        """Forget the entries whose windows have passed (at ``now``, a time as
        :func:`time.time`), and the counters left with none; returns how many counters were
        forgotten. A counter's entries are newest first, so most are settled by one look at
        an end."""
        now = time.time() if now is None else now
        gone = 0
        for key, entries in list(self.events.items()):
            if not entries or entries[0].expiry <= now:  # its newest passed: all did
                del self.events[key]
                gone += 1
            elif entries[-1].expiry <= now:
                del entries[bisect.bisect_left(entries, -now, key=lambda e: -e.expiry) :]
        return gone


class Throttle:
    """ASGI middleware that applies :class:`ClientLimits` to every HTTP request and WebSocket.

    Args:
        app: the application behind it.
        limits: what a client may do.
        trusted_proxies: the proxies whose ``X-Forwarded-For`` is believed, on a scope that
            :class:`~fanfold.server.forwarded.ForwardedHeaders` did not resolve (the
            application's is always resolved: it gives none).
        counters: where the counts are kept (the application's, which its sweeper sweeps:
            ``app.state.rate_counters``); a storage of its own if left out.
    """

    def __init__(
        self,
        app: ASGIApp,
        limits: ClientLimits,
        trusted_proxies: Sequence[Network] = (),
        counters: QuietMemoryStorage | None = None,
    ) -> None:
        self.app = app
        self.limits = limits
        self.trusted = tuple(trusted_proxies)
        self.storage = QuietMemoryStorage() if counters is None else counters
        self.limiter = MovingWindowRateLimiter(self.storage)
        self.requests: RateLimitItem = RateLimitItemPerMinute(limits.requests_per_minute)
        self.tables: RateLimitItem = RateLimitItemPerMinute(limits.tables_per_minute)
        #: Open WebSockets per client.
        self.open: Counter[str] = Counter()

    def _wait(self, item: RateLimitItem, namespace: str, client: str) -> int:
        """Whole seconds until ``client`` may try ``item`` (counted under ``namespace``)
        again."""
        reset = self.limiter.get_window_stats(item, namespace, client).reset_time
        return max(1, math.ceil(reset - time.time()))

    def _over(self, item: RateLimitItem, what: str, client: str) -> tuple[str, int] | None:
        """Count one of ``what`` for ``client``; over the limit, the sentence and the wait in
        seconds (nothing is counted then)."""
        namespace = what.split()[-1]
        if self.limiter.hit(item, namespace, client):
            return None
        wait = self._wait(item, namespace, client)
        return (
            f"too many {what} from {client} (at most {item.amount} a minute); "
            f"try again in {wait} s",
            wait,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        if path in UNCOUNTED or (kind == "http" and path.startswith(FILES)):
            await self.app(scope, receive, send)
            return
        client = client_address(scope, self.trusted)
        scope.setdefault("state", {})["client"] = client
        refusal = self._over(self.requests, "requests", client)
        creating = kind == "http" and (scope.get("method"), scope.get("path")) in CREATING
        if refusal is None and creating:
            refusal = self._over(self.tables, "new tables", client)
        if refusal is not None:
            await self._refuse(kind, *refusal, receive, send)
            return
        if kind == "http" or scope.get("path") in OWN_SOCKET_LIMITS:
            await self.app(scope, receive, send)
            return
        if self.open[client] >= self.limits.sockets:
            sentence = (
                f"too many open connections from {client} (at most {self.limits.sockets}); "
                "close a table's tab and try again"
            )
            await self._refuse(kind, sentence, 0, receive, send)
            return
        self.open[client] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[client] -= 1
            if self.open[client] <= 0:
                del self.open[client]

    @staticmethod
    async def _refuse(kind: str, sentence: str, wait: int, receive: Receive, send: Send) -> None:
        if kind == "http":
            data = wire(ErrorBody(error=sentence, kind="RateLimited")).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
            ]
            if wait:
                headers.append((b"retry-after", str(wait).encode()))
            await send({"type": "http.response.start", "status": 429, "headers": headers})
            await send({"type": "http.response.body", "body": data})
            return
        message = await receive()
        if message["type"] != "websocket.connect":
            return  # the client went away first
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": refusal_text(sentence, "RateLimited")})
        await send({"type": "websocket.close", "code": POLICY, "reason": sentence[:120]})


__all__ = [
    "CREATING",
    "POLICY",
    "ClientLimits",
    "Network",
    "QuietMemoryStorage",
    "Throttle",
    "client_address",
    "trusted_networks",
]
