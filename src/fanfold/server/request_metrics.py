"""Each HTTP request counted and timed by its route's template (``/api/tables/{table_id}``,
never the path itself) and status, its access log line written, and the WebSockets open
counted by kind (:class:`RequestObserver`), into the application's :class:`Metrics`."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

import fastapi.routing
from prometheus_client import Gauge
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fanfold.server import logs
from fanfold.server.metrics import SOCKET_KINDS, UNMATCHED, Metrics

#: Paths whose requests are counted but not written to the access log: a router's checks and
#: a scraper come every few seconds from every checker.
QUIET_PATHS = frozenset({"/health", "/ready", "/metrics"})


#: A route as :func:`route_of` looks it up: its path's pattern, its template, its methods
#: (``None``: any).
RouteTemplate = tuple[re.Pattern[str], str, frozenset[str] | None]


def route_templates(app: object) -> list[RouteTemplate]:
    """The routes of ``app`` (a Starlette or FastAPI application), each as a pattern, its
    template and its methods, the routers it includes flattened, in the order they match."""
    routes: Sequence[Any] = getattr(getattr(app, "router", None), "routes", ())
    flatten = getattr(fastapi.routing, "iter_route_contexts", None)  # FastAPI 0.13x and up
    found: list[RouteTemplate] = []
    for route in flatten(routes) if flatten is not None else routes:
        pattern = getattr(route, "path_regex", None)
        template = getattr(route, "path", None)
        if isinstance(pattern, re.Pattern) and isinstance(template, str):
            methods = getattr(route, "methods", None)
            found.append((pattern, template, frozenset(methods) if methods else None))
    return found


def route_of(scope: Scope, routes: Sequence[RouteTemplate] = ()) -> str:
    """The template of the route that ``scope`` matched (``/api/tables/{table_id}``); for a
    request answered before routing (refused by a limit, too large), the first of ``routes``
    (:func:`route_templates`) that matches its path and method, else the first that matches
    its path; :data:`UNMATCHED` when none does."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    asked = str(scope.get("path", ""))
    method = scope.get("method")
    partial: str | None = None
    for pattern, template, methods in routes:
        if pattern.match(asked):
            if methods is None or method is None or method in methods:
                return template
            partial = partial or template
    return partial if partial is not None else UNMATCHED


class RequestObserver:
    """Count and time each HTTP request by its route's template and status, write its access
    log line (:func:`fanfold.server.logs.access`), and count the WebSockets open by kind.

    Put it inside the middleware that resolves the client (its line names the client the
    trusted proxy forwarded) and outside every middleware that may refuse a request (a limit's
    429 is counted too). The metrics are the application's hub's (``app.state.hub``), once
    it runs.

    Args:
        app: the ASGI application behind it.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        #: The application's routes (:func:`route_templates`), once a request needed them.
        self.routes: list[RouteTemplate] | None = None

    def route(self, scope: Scope) -> str:
        """The template of the request's route (:func:`route_of`)."""
        if "route" not in scope and self.routes is None:
            self.routes = route_templates(scope.get("app"))
        return route_of(scope, self.routes or ())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        hub = getattr(getattr(scope.get("app"), "state", None), "hub", None)
        metrics: Metrics | None = getattr(hub, "metrics", None)
        if metrics is None or kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            await self._socket(metrics, scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # unless an answer starts
        sent = 0

        async def observed_send(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, observed_send)
        finally:
            took = time.perf_counter() - started
            route = self.route(scope)
            method = str(scope.get("method", ""))
            metrics.requests.labels(route, method, str(status)).inc()
            metrics.request_seconds.labels(route).observe(took)
            path = str(scope.get("path", ""))
            if path not in QUIET_PATHS:
                client = scope.get("client")
                logs.access(
                    method=method,
                    path=path,
                    route=route,
                    status=status,
                    seconds=took,
                    sent=sent,
                    client=str(client[0]) if client else None,
                )

    async def _socket(self, metrics: Metrics, scope: Scope, receive: Receive, send: Send) -> None:
        counted: Gauge | None = None

        async def observed_send(message: Message) -> None:
            nonlocal counted
            if message["type"] == "websocket.accept" and counted is None:
                route = self.route(scope)
                counted = metrics.sockets_by_kind.labels(SOCKET_KINDS.get(route, route))
                counted.inc()
            await send(message)

        try:
            await self.app(scope, receive, observed_send)
        finally:
            if counted is not None:
                counted.dec()


__all__ = [
    "QUIET_PATHS",
    "UNMATCHED",
    "RequestObserver",
    "RouteTemplate",
    "route_of",
    "route_templates",
]
