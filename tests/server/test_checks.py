"""Health checks answered beside the event loop (:mod:`fanfold.server.checks`): a loop busy
with play does not make ``/ready`` late or failing, a loop stuck for good does, and so does a
store that does not answer; the health port is a port of its own, refused with a sentence
when taken."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette

from fanfold.server.checks import (
    CHECK_HEADER,
    HealthPortError,
    HealthServer,
    Readiness,
    bound_sockets,
    reserve_health_port,
)
from fanfold.server.stopping import DrainingServer
from fanfold.server.store import Store
from tests.server.support import sqlite_url

#: Generous: the machine running the tests may be busy.
WAIT = 30.0


@contextmanager
def checks(tmp_path: Path, **options: Any) -> Iterator[tuple[Readiness, str]]:
    """A store, its readiness and a health server on a port the system chooses; yields the
    readiness and the server's address."""
    store = Store(sqlite_url(tmp_path))
    readiness = Readiness(store, None, lambda: 3, **options)
    server = HealthServer("127.0.0.1", 0, readiness)
    server.start()
    try:
        yield readiness, f"http://127.0.0.1:{server.port}"
    finally:
        server.close()
        readiness.close()
        store.close()


def _until(answer: Callable[[], httpx.Response], status: int) -> httpx.Response:
    """Ask until the answer has ``status`` (a router's checks, every so often)."""
    deadline = time.monotonic() + WAIT
    while True:
        got = answer()
        if got.status_code == status or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


def test_a_busy_loop_is_ready(tmp_path: Path) -> None:
    """The checks are answered while the event loop is held by other work: here the loop
    itself is blocked, inside the very call that asks."""

    async def scenario() -> None:
        with checks(tmp_path) as (readiness, address):
            readiness.start()
            await asyncio.sleep(0)  # the loop turned once
            # Blocking calls on the loop: nothing else runs on it until they return.
            ready = httpx.get(f"{address}/ready", timeout=WAIT)
            health = httpx.get(f"{address}/health", timeout=WAIT)
            assert (ready.status_code, ready.json()) == (
                200,
                {"status": "ready", "tables": 3, "bots": "ready"},
            )
            assert (health.status_code, health.json()) == (200, {"status": "ok"})
            other = httpx.get(f"{address}/api/games", timeout=WAIT)
            assert other.status_code == 404

    asyncio.run(scenario())


def test_a_stuck_loop_is_not_ready_and_ready_again_once_it_runs(tmp_path: Path) -> None:
    async def scenario() -> None:
        with checks(tmp_path, stuck_seconds=0.5) as (readiness, address):
            readiness.start()
            await asyncio.sleep(0)

            def ask() -> httpx.Response:
                return httpx.get(f"{address}/ready", timeout=WAIT)

            stuck = _until(ask, 503)  # the loop is held here, for longer than 0.5 s
            assert stuck.status_code == 503
            reason = stuck.json()["reason"]
            assert reason.startswith("the event loop has not run for"), reason
            assert httpx.get(f"{address}/health", timeout=WAIT).status_code == 200
            again = await asyncio.to_thread(_until, ask, 200)  # the loop runs meanwhile
            assert again.status_code == 200

    asyncio.run(scenario())


def test_ready_while_the_bots_warm_up_and_not_while_draining(tmp_path: Path) -> None:
    warm = False
    with checks(tmp_path, stuck_seconds=3600) as (readiness, address):  # no loop here
        readiness.warm = lambda: warm
        answer = httpx.get(f"{address}/ready", timeout=WAIT)
        assert answer.status_code == 200  # a person's action needs no bot
        assert answer.json() == {"status": "ready", "tables": 3, "bots": "warming"}
        warm = True
        assert httpx.get(f"{address}/ready", timeout=WAIT).json()["bots"] == "ready"
        readiness.draining = True
        answer = httpx.get(f"{address}/ready", timeout=WAIT)
        assert answer.status_code == 503
        assert answer.json() == {
            "status": "unready",
            "reason": "the process is stopping (draining)",
        }
        assert httpx.get(f"{address}/health", timeout=WAIT).status_code == 200


def test_not_ready_while_the_store_does_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        with checks(tmp_path) as (readiness, address):
            readiness.start()
            await asyncio.sleep(0)

            def refuse(*args: Any, **kwargs: Any) -> Any:
                raise OSError("connection refused")

            monkeypatch.setattr(readiness.store.engine, "connect", refuse)
            answer = await asyncio.to_thread(httpx.get, f"{address}/ready", timeout=WAIT)
            assert answer.status_code == 503
            assert answer.json() == {"status": "unready", "reason": "the store does not answer"}
            monkeypatch.undo()
            answer = await asyncio.to_thread(httpx.get, f"{address}/ready", timeout=WAIT)
            assert answer.status_code == 200

    asyncio.run(scenario())


def test_a_health_port_in_use_is_refused_with_a_sentence(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    readiness = Readiness(store, None, lambda: 0)
    try:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            with pytest.raises(HealthPortError, match=f"the health port 127.0.0.1:{port} cannot"):
                HealthServer("127.0.0.1", port, readiness)
    finally:
        readiness.close()
        store.close()


def test_a_health_port_bound_ahead_is_the_one_served(tmp_path: Path) -> None:
    """``fanfold serve`` binds the health port before it opens the store
    (:func:`bound_sockets`) and keeps it for the health server: nothing can take it meanwhile,
    and it answers ``/health``, ``/ready`` and ``/metrics`` there."""
    store = Store(sqlite_url(tmp_path))
    readiness = Readiness(store, None, lambda: 0)
    (bound,) = bound_sockets("127.0.0.1", 0)
    port = bound.getsockname()[1]
    reserve_health_port("127.0.0.1", port, bound)
    server = HealthServer("127.0.0.1", port, readiness, lambda: b"fanfold_up 1\n")
    server.start()
    try:
        assert server.port == port
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{base}/health", timeout=WAIT).json() == {"status": "ok"}
        assert httpx.get(f"{base}/metrics", timeout=WAIT).text == "fanfold_up 1\n"
    finally:
        server.close()
        readiness.close()
        store.close()


def test_a_stopping_process_waits_until_its_router_was_refused_twice(tmp_path: Path) -> None:
    """:meth:`Readiness.out_of_service`: at once where no router checks (a poller of
    ``/ready`` without the router's header is never waited for); else unready, and done once
    the router that checked lately was refused twice (HAProxy's ``fall 2``): it has taken the
    process out of service; at most its limit when the router went quiet."""
    with checks(tmp_path, stuck_seconds=3600) as (readiness, address):
        assert httpx.get(f"{address}/ready", timeout=WAIT).status_code == 200  # a poller
        began = time.monotonic()
        assert asyncio.run(readiness.out_of_service(limit=10)) is True  # no router checks
        assert time.monotonic() - began < 1
        readiness.draining = False
        router = {CHECK_HEADER: "haproxy"}
        assert httpx.get(f"{address}/ready", headers=router, timeout=WAIT).status_code == 200

        refused: list[int] = []

        async def stop_while_checked() -> bool:
            waiting = asyncio.ensure_future(readiness.out_of_service(limit=WAIT))
            for _ in range(3):
                await asyncio.sleep(0.2)
                assert not waiting.done()  # not before the second refusal
                polled = await asyncio.to_thread(httpx.get, f"{address}/ready", timeout=WAIT)
                assert polled.status_code == 503  # a poller: refused, not counted
                answer = await asyncio.to_thread(
                    httpx.get, f"{address}/ready", headers=router, timeout=WAIT
                )
                refused.append(answer.status_code)
                if len(refused) == 2:
                    return await asyncio.wait_for(waiting, 5)
            raise AssertionError("out of service before the router saw it")

        assert asyncio.run(stop_while_checked()) is True
        assert refused == [503, 503]
        # The router went quiet: the wait ends at its limit.
        began = time.monotonic()
        assert asyncio.run(readiness.out_of_service(limit=0.5)) is False
        assert 0.4 < time.monotonic() - began < 3


def test_not_ready_until_the_games_port_is_open(tmp_path: Path) -> None:
    with checks(tmp_path, stuck_seconds=3600, listening=False) as (readiness, address):
        answer = httpx.get(f"{address}/ready", timeout=WAIT)
        assert answer.status_code == 503
        assert answer.json() == {"status": "unready", "reason": "the game's port is not open yet"}
        assert httpx.get(f"{address}/health", timeout=WAIT).status_code == 200
        readiness.listening = True
        assert httpx.get(f"{address}/ready", timeout=WAIT).status_code == 200


def test_the_served_process_is_ready_only_once_its_games_port_is_open(tmp_path: Path) -> None:
    """uvicorn opens the game's port after the application's start-up, where the health port
    already answers: a router told "ready" in between would meet a closed port."""
    store = Store(sqlite_url(tmp_path))
    seen: dict[str, bool] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        readiness = Readiness(
            store, None, lambda: 0, listening=not getattr(app.state, "opens_port_later", False)
        )
        app.state.readiness = readiness
        seen["at the start-up"] = readiness.check()[0] == 200
        yield
        readiness.close()

    app = Starlette(lifespan=lifespan)
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = DrainingServer(config, app.state)
    serving = threading.Thread(target=server.run, daemon=True)
    serving.start()
    try:
        deadline = time.monotonic() + WAIT
        while not server.started:
            assert serving.is_alive()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert seen == {"at the start-up": False}
        assert app.state.readiness.listening
        assert app.state.readiness.check()[0] == 200
        socket.create_connection(("127.0.0.1", port), timeout=WAIT).close()
    finally:
        server.should_exit = True
        serving.join(timeout=WAIT)
        store.close()
