"""The application's life span (:func:`lifespan`): what a server process starts around its
tables, and stops again, in order, when it ends."""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI

from fanfold.agents.strategy import compiled
from fanfold.server.accounts import Accounts
from fanfold.server.bot_shares import SharedShares
from fanfold.server.bots import BotPool
from fanfold.server.checks import HealthServer, Readiness
from fanfold.server.hub import Hub
from fanfold.server.lobby_feed import LobbyFeed
from fanfold.server.metrics import Metrics
from fanfold.server.ownership import Ownership, is_postgresql
from fanfold.server.runtime.memory import NO_AUTOMATIC_FULL_COLLECTION, set_aside
from fanfold.server.runtime.sweeper import sweep
from fanfold.server.runtime.warm_up import report_warm_up, start_compiling, stopping, warm_fast
from fanfold.server.settings import Settings
from fanfold.server.store import Store
from fanfold.server.store.appender import Appender
from fanfold.server.store.checkpoints import Checkpointer
from fanfold.server.store.engine import sqlite_file
from fanfold.server.store.lease_store import SqlBotLeases
from fanfold.server.throttle import QuietMemoryStorage


def lifespan(settings: Settings) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The application's life span: open the store, start the hub (its bot pool, the tables
    to resume), set the garbage collector's policy and the sweeper going; undo all of it at
    the end. The hub is ``app.state.hub`` while the application runs."""

    @asynccontextmanager
    async def running(app: FastAPI) -> AsyncIterator[None]:
        # The store fanfold serve opened to check it, else (a later run) one of its own.
        store: Store | None = getattr(app.state, "opened_store", None)
        app.state.opened_store = None
        if store is None:
            store = await asyncio.to_thread(Store, settings.store_url)
        # Several processes may serve one PostgreSQL store: each owns its tables there.
        owner = Ownership(settings.store_url) if is_postgresql(settings.store_url) else None
        if owner is not None:
            await owner.start()
        # There, most moves are stored from the event loop (fanfold.server.store.appender).
        appender = Appender(settings.store_url) if owner is not None else None
        metrics = Metrics()
        # A SQLite file's log copied into it beside the writer, not by the writer's commits.
        checkpoints = _checkpointer(settings.store_url, store, metrics)
        hub = Hub(
            store,
            bot_seconds=settings.bot_seconds,
            bot_pause=settings.bot_pause,
            keep_seconds=settings.keep_seconds,
            keep_finished_seconds=settings.keep_finished_seconds,
            pool=BotPool(
                settings.bot_workers,
                processes=settings.bot_processes,
                warm=warm_fast if settings.warm_fast else None,
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
            start_compiling()
        # A worker thread's warm-up sets what it loads aside once loaded; /ready does not wait
        # for it (fanfold.server.checks): a bot's decision waits for its worker.
        warming = hub.pool.start()
        report_warm_up(warming, metrics)
        if settings.resume:
            await hub.resume_all()
        if not settings.warm_fast or settings.bot_processes:
            set_aside()
        thresholds = gc.get_threshold()
        gc.set_threshold(thresholds[0], thresholds[1], NO_AUTOMATIC_FULL_COLLECTION)
        sweeper = asyncio.get_running_loop().create_task(sweep(hub, app.state.accounts, counters))
        readiness = Readiness(
            store,
            owner,
            lambda: len(hub.live),
            warm=lambda: all(f.done() for f in warming),
            listening=not getattr(app.state, "opens_port_later", False),
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
            if checkpoints is not None:
                await asyncio.to_thread(checkpoints.stop)
            if appender is not None:
                await appender.close()
            hub.pool.shutdown()
            await lobby.close()
            if owner is not None:
                await owner.close()
            store.close()

    return running


def _checkpointer(url: str, store: Store, metrics: Metrics) -> Checkpointer | None:
    """The store's checkpointer, started (:mod:`fanfold.server.store.checkpoints`), its
    connections leaving the log to it: a SQLite file's only."""
    path = sqlite_file(url)
    if path is None:
        return None
    Checkpointer.adopt(store.engine)
    checkpoints = Checkpointer(path, timed=metrics.store_checkpoint_seconds.observe)
    checkpoints.start()
    return checkpoints


__all__ = ["lifespan"]
