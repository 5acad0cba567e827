"""What a server process does around its tables: the bots' warm-up (:func:`_warm_fast`), the
garbage collector's policy (:func:`_set_aside`, :data:`FULL_COLLECTION_SECONDS`), the sweeper
that lets idle tables go and abandoned ones expire (:func:`_sweep`), the request body limit
(:class:`BodyLimit`), and the application's life span (:func:`lifespan`) that starts and stops
all of it with the :class:`~fanfold.server.hub.Hub`.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import os
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fanfold.agents import prepare
from fanfold.agents.strategy import compiled, has_compiled_code
from fanfold.core.registry import all_games
from fanfold.server import allocator
from fanfold.server.accounts import Accounts
from fanfold.server.bot_shares import SharedShares
from fanfold.server.bots import BotPool
from fanfold.server.checks import HealthServer, Readiness
from fanfold.server.fairplay import ORIGIN_DAYS, delete_old_origins
from fanfold.server.hub import Hub
from fanfold.server.lobby_feed import LobbyFeed
from fanfold.server.metrics import Metrics
from fanfold.server.ownership import Ownership, is_postgresql
from fanfold.server.protocol import PROTOCOL, PROTOCOL_HEADER, ErrorBody, wire
from fanfold.server.settings import Settings
from fanfold.server.store import Store
from fanfold.server.store.appender import Appender
from fanfold.server.store.lease_store import SqlBotLeases
from fanfold.server.throttle import QuietMemoryStorage

log = logging.getLogger(__name__)


#: Where the server says what it prepares (``fanfold serve`` prints it in the terminal).
progress = logging.getLogger("fanfold.server.progress")


def _warm_fast() -> None:
    """Load every game's compiled search that is in Numba's cache already (a bot worker's
    warm-up: it never compiles, :func:`_compile_ahead` does that in the background), then set
    aside what that loaded (:func:`_set_aside`)."""
    for game in all_games():
        if has_compiled_code(game):
            started = time.monotonic()
            try:
                with compiled.without_compiling():
                    prepare(game, say=log.info)
            except compiled.NotCompiledError:
                continue
            log.info("%s's compiled search ready in %.1f s", game.title, time.monotonic() - started)
    _set_aside()


def _compile_ahead() -> None:
    """Compile every game's compiled search that Numba's cache lacks, one subprocess at a time
    (:func:`fanfold.agents.strategy.compiled.compile_ahead`), saying what and how long it took
    last time; the bots play their fallback meanwhile (see :mod:`fanfold.server.bots`)."""
    for name in compiled.WARM_UPS:
        try:
            took = compiled.compile_ahead(name, say=progress.warning)
        except RuntimeError as error:
            if not stopping.is_set():
                progress.error("%s; its bots play the %s level", error, compiled.FALLBACK_LEVEL)
            return
        if took is not None:
            progress.warning(
                "%s is ready: hard bots play at full strength from their next move.",
                compiled.WHAT[name],
            )


def _report_warm_up(warming: list[Future[Any]], metrics: Metrics) -> None:
    """Log how long the bots' workers took to warm up, and set the metric, once every one of
    ``warming`` is done (in the background: the process serves meanwhile)."""
    if not warming:
        return
    started = time.monotonic()
    left = len(warming)
    lock = threading.Lock()

    def done(_: Future[Any]) -> None:
        nonlocal left
        with lock:
            left -= 1
            if left:
                return
        took = time.monotonic() - started
        metrics.warm_up_seconds.set(took)
        log.info("the bots' workers warmed up in %.1f s, in the background", took)

    for future in warming:
        future.add_done_callback(done)


#: Set while the server stops (a compile ended then is no failure).
stopping = threading.Event()


def _start_compiling() -> threading.Thread | None:
    """Start :func:`_compile_ahead` in a thread of its own when anything needs compiling,
    telling the players that the bots play their fallback until it is done."""
    missing = [name for name in compiled.WARM_UPS if not compiled.is_compiled(name)]
    if not missing:
        return None
    progress.warning(
        "Until it is compiled, the bots of %s play the %s level's moves.",
        " and ".join(compiled.WHAT[name].removesuffix("'s compiled search") for name in missing),
        compiled.FALLBACK_LEVEL,
    )
    stopping.clear()
    thread = threading.Thread(target=_compile_ahead, name="compile-ahead", daemon=True)
    thread.start()
    return thread


def _set_aside() -> None:
    """Move every object alive now (the modules, Numba's compiled kernels and their types,
    the tables loaded at start-up) out of the garbage collector's reach, for the life of the
    process (see :data:`FULL_COLLECTION_SECONDS`)."""
    gc.collect()
    gc.freeze()
    log.info("%d objects set aside from garbage collection", gc.get_freeze_count())


#: How often the server runs the garbage collector's full collection itself (its sweeper does,
#: :func:`_sweep`), instead of letting Python start one whenever enough objects have grown old.
#:
#: Python's cycle collector walks every object it tracks in a full collection, and every
#: table waits while it does: after the warm-up that was about two hundred thousand objects
#: (set aside by :func:`_set_aside`), and a busy server adds one or two hundred thousand more
#: (its tables, their moves, the connections), each walk about 0.2 s. Young objects are still
#: collected as usual (a few milliseconds), and finished games leave memory soon
#: (``keep_finished_seconds``). Measured with ``benchmarks/server.py`` in ``docs/server.md``.
FULL_COLLECTION_SECONDS = 600.0
#: The third generation's threshold that keeps Python from starting full collections itself.
NO_AUTOMATIC_FULL_COLLECTION = 1 << 30


class ProtocolHeader:
    """Name the protocol's number (:data:`~fanfold.server.protocol.PROTOCOL`) in a header of
    every HTTP answer, the pages', the API's and the refusals' alike.

    Args:
        app: the ASGI application behind it.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.header = (PROTOCOL_HEADER.lower().encode(), str(PROTOCOL).encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def named_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), self.header]}
            await send(message)

        await self.app(scope, receive, named_send)


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413: by their ``Content-Length`` before
    reading them, and, for a body sent in chunks without one, as soon as what arrived passes
    the limit (the application is then told the client went away, and what it answers is
    dropped), so no request body larger than the limit is ever held in memory.

    Args:
        app: the ASGI application behind it.
        limit: the most bytes a request body may have.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def _refuse(self, send: Send) -> None:
        sentence = f"request too large (at most {self.limit} bytes)"
        body = wire(ErrorBody(error=sentence, kind="TooLarge")).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(send)
            return
        refused = started = False
        received = 0

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        async def limited_receive() -> Message:
            nonlocal refused, received
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    if not started:
                        await self._refuse(send)
                    refused = True
                    return {"type": "http.disconnect"}
            return message

        await self.app(scope, limited_receive, guarded_send)


#: How often the sweeper lets abandoned tables expire (:meth:`Hub.expire_abandoned`).
EXPIRY_SWEEP_SECONDS = 3600.0


#: When the tables in memory fall to half of their peak since the last full collection, and
#: at least this many left, the sweeper runs the full collection at once (:func:`_give_back`)
#: rather than at its ten minutes: the tables that left hold their memory until it runs.
GIVE_BACK_TABLES = 50

#: The same for the rate limits' counters (:class:`fanfold.server.throttle.QuietMemoryStorage`,
#: one per client and kind of limit, kept a minute after the client's last request): a crowd
#: that came and went leaves thousands of them, made during the load and spread over the
#: memory it took, which they keep until they go and the collection hands it back. Only
#: once the tables left too (at most :data:`GIVE_BACK_TABLES` in memory): a full collection
#: among a thousand tables in play holds them all for a few tenths of a second, and the
#: counters of a crowd that moved on go a minute later, in the middle of the next one's play.
GIVE_BACK_COUNTERS = 1000


def _halved(peak: int, now: int, least: int) -> bool:
    """Whether a count fell to half of its ``peak`` or below, by ``least`` at least."""
    return peak - now >= least and now <= peak / 2


def bounded_caches() -> list[Any]:
    """fanfold's bounded memo caches (``functools.lru_cache`` with a ``maxsize``), found in
    its loaded modules: the games' and the bots' caches of moves and values, filled by the
    positions of the tables in play. A cache without a bound (``functools.cache``) may hold
    what must stay one object, and is left alone."""
    found: dict[int, Any] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "fanfold" or name.startswith("fanfold.")):
            continue
        for value in list(vars(module).values()):
            info = getattr(value, "cache_info", None)
            if (
                callable(info)
                and callable(getattr(value, "cache_clear", None))
                and str(getattr(value, "__module__", "")).startswith("fanfold.")
                and info().maxsize is not None
            ):
                found[id(value)] = value
    return list(found.values())


def _give_back() -> tuple[int, bool]:
    """Empty fanfold's bounded caches (:func:`bounded_caches`: what the tables that left
    filled them with would pin the memory around it), collect every unreachable object now
    (a full collection) and hand the heap that frees back to the operating system (jemalloc's
    purge where the process runs on it, :func:`fanfold.server.allocator.purge`; else glibc's
    ``malloc_trim``, where there is one): the memory a busy process took is returned once its
    tables leave. Returns the objects collected and whether the heap was trimmed."""
    for cache in bounded_caches():
        cache.cache_clear()
    found = gc.collect()
    if allocator.purge():
        return found, True
    try:
        trimmed = bool(ctypes.CDLL("libc.so.6").malloc_trim(0))
    except (OSError, AttributeError):  # not glibc: the collection alone
        trimmed = False
    return found, trimmed


async def _delete_expired(accounts: Accounts | None) -> None:
    """Delete the ended sessions and the passed sign-in attempts (:meth:`Accounts.delete_expired`)
    and the seats' origins past their days (:func:`fanfold.server.fairplay.delete_old_origins`);
    a failure is logged, and the next sweep tries again."""
    if accounts is None:
        return
    try:
        gone = await asyncio.to_thread(accounts.delete_expired)
    except Exception:
        log.exception("ended sessions could not be deleted; the next sweep tries again")
        return
    if gone:
        log.info("%d ended sessions deleted", gone)
    try:
        old = await asyncio.to_thread(delete_old_origins, accounts.store)
    except Exception:
        log.exception("old seat origins could not be deleted; the next sweep tries again")
        return
    if old:
        log.info("%d seat origins older than %d days deleted", old, ORIGIN_DAYS)


async def _sweep(
    hub: Hub, accounts: Accounts | None = None, counters: QuietMemoryStorage | None = None
) -> None:
    """Let idle tables go from memory now and then (:meth:`Hub.evict_idle`), take the tables
    no live process plays where play goes on without a person (:meth:`Hub.take_orphans`), let
    the rate limits' counters whose minute has passed (:meth:`QuietMemoryStorage.sweep`), run a full
    garbage collection every :data:`FULL_COLLECTION_SECONDS`, or as soon as half the tables
    left memory (:data:`GIVE_BACK_TABLES`) or, once the tables left, half the counters went
    (:data:`GIVE_BACK_COUNTERS`), and every :data:`EXPIRY_SWEEP_SECONDS` let abandoned tables
    expire and delete the ended sessions (at start-up too)."""
    collected = time.monotonic()
    await _delete_expired(accounts)
    expired = time.monotonic()
    peak = len(hub.live)
    peak_counters = counters.clients if counters is not None else 0
    while True:
        if time.monotonic() - expired >= EXPIRY_SWEEP_SECONDS:
            await hub.expire_abandoned()
            await _delete_expired(accounts)
            expired = time.monotonic()
        keep = min(hub.keep_seconds, hub.keep_finished_seconds)
        await asyncio.sleep(max(1.0, min(60.0, keep / 2)))
        peak = max(peak, len(hub.live))
        gone = hub.evict_idle()
        if gone:
            log.info("%d idle tables left memory (%d remain)", gone, len(hub.live))
        try:
            taken = await hub.take_orphans()
        except Exception as error:  # the store away: the next round tries again
            log.warning("the tables nobody plays could not be looked for: %s", error)
        else:
            if taken:
                log.info("%d tables nobody played were taken", taken)
        held = 0
        if counters is not None:
            peak_counters = max(peak_counters, counters.clients)
            counters.sweep()
            held = counters.clients
        if (
            time.monotonic() - collected >= FULL_COLLECTION_SECONDS
            or _halved(peak, len(hub.live), GIVE_BACK_TABLES)
            or (
                _halved(peak_counters, held, GIVE_BACK_COUNTERS)
                and len(hub.live) <= GIVE_BACK_TABLES
            )
        ):
            started = time.monotonic()
            found, trimmed = _give_back()
            collected = time.monotonic()
            peak = len(hub.live)
            peak_counters = held
            log.info(
                "full collection: %d objects in %.3f s%s",
                found,
                collected - started,
                ", heap trimmed" if trimmed else "",
            )


def lifespan(settings: Settings) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The application's life span: open the store, start the hub (its bot pool, the tables
    to resume), set the garbage collector's policy and the sweeper going; undo all of it at
    the end. The hub is ``app.state.hub`` while the application runs."""

    @asynccontextmanager
    async def running(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, settings.store_url)
        # Several processes may serve one PostgreSQL store: each owns its tables there.
        owner = Ownership(settings.store_url) if is_postgresql(settings.store_url) else None
        if owner is not None:
            await owner.start()
        # There, most moves are stored from the event loop (fanfold.server.store.appender).
        appender = Appender(settings.store_url) if owner is not None else None
        metrics = Metrics()
        hub = Hub(
            store,
            bot_seconds=settings.bot_seconds,
            bot_pause=settings.bot_pause,
            keep_seconds=settings.keep_seconds,
            keep_finished_seconds=settings.keep_finished_seconds,
            pool=BotPool(
                settings.bot_workers,
                processes=settings.bot_processes,
                warm=_warm_fast if settings.warm_fast else None,
            ),
            expire_seconds=settings.expire_seconds,
            owner=owner,
            metrics=metrics,
            server_name=settings.server_name,
            appender=appender,
        )
        if owner is not None:  # several processes may share the store: so do the clients
            holder = f"{settings.server_name or 'server'}:{os.getpid()}"
            leases = SqlBotLeases(store.engine)
            hub.pool.shared = SharedShares(leases, holder, hub.pool.client_share)
        metrics.watch_tables(
            lambda: len(hub.live), lambda: len(owner.held) if owner is not None else 0
        )
        counters: QuietMemoryStorage = app.state.rate_counters  # made by create_app
        metrics.watch_counters(lambda: counters.clients)
        stop_watching = metrics.start(hub.pool)  # the loop's lag, the bot queue, error lines
        app.state.hub = hub
        app.state.accounts = await asyncio.to_thread(Accounts, store)
        lobby = LobbyFeed(store, limits=settings.lobby)  # pushed on /ws/lobby
        await lobby.start()
        app.state.lobby = lobby
        if settings.warm_fast:
            _start_compiling()
        # A worker thread's warm-up sets what it loads aside once loaded; /ready does not wait
        # for it (fanfold.server.checks): a bot's decision waits for its worker.
        warming = hub.pool.start()
        _report_warm_up(warming, metrics)
        if settings.resume:
            await hub.resume_all()
        if not settings.warm_fast or settings.bot_processes:
            _set_aside()
        thresholds = gc.get_threshold()
        gc.set_threshold(thresholds[0], thresholds[1], NO_AUTOMATIC_FULL_COLLECTION)
        sweeper = asyncio.get_running_loop().create_task(_sweep(hub, app.state.accounts, counters))
        readiness = Readiness(
            store, owner, lambda: len(hub.live), warm=lambda: all(f.done() for f in warming)
        )
        readiness.start()
        app.state.readiness = readiness

        async def drain(hand_over: bool = True) -> None:  # on SIGTERM (server.stopping)
            readiness.draining = True
            await hub.drain(hand_over=hand_over)

        def stop_taking() -> None:  # a full stop of the group: no table taken from now on
            readiness.draining = True
            hub.residency.draining = True

        app.state.drain = drain
        app.state.stop_taking = stop_taking
        checks: HealthServer | None = None
        try:
            if settings.health_port is not None:
                checks = HealthServer(
                    settings.health_host, settings.health_port, readiness, metrics.exposition
                )
                checks.start()
            yield
        finally:
            if checks is not None:
                checks.close()
            readiness.close()
            stop_watching()
            stopping.set()
            compiled.stop_compiling()
            sweeper.cancel()
            hub.residency.beats.stop()
            gc.set_threshold(*thresholds)
            for live in hub.live.values():
                for task in (live.bots, live.clock):
                    if task is not None:
                        task.cancel()
            hub.executor.shutdown(wait=False, cancel_futures=True)
            await hub.flush()  # the actions being written first
            await asyncio.to_thread(hub.writer.shutdown)
            if appender is not None:
                await appender.close()
            hub.pool.shutdown()
            await lobby.close()
            if owner is not None:
                await owner.close()
            store.close()

    return running
