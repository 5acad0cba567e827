"""Spectators' writes and new connections come a few per turn of the event loop, and the
limits' counters run without a thread of their own: nothing a crowd does holds up the loop
that reads the players' actions."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import fastapi.dependencies.utils
import pytest
from limits import RateLimitItemPerMinute
from limits.strategies import MovingWindowRateLimiter

from fanfold.server.outbox import SPECTATOR_BURST, Outbox, Pacer
from fanfold.server.throttle import QuietMemoryStorage
from tests.server.support import hello, open_table, receive_until, serve


def test_a_burst_of_spectators_writes_is_spread_over_turns_of_the_loop() -> None:
    async def scenario() -> list[int]:
        turn = 0
        written: list[int] = []

        async def count_turns() -> None:
            nonlocal turn
            while True:
                turn += 1
                await asyncio.sleep(0)

        async def write(text: str) -> None:
            del text
            written.append(turn)

        async def close(code: int, reason: str) -> None:
            del code, reason

        ticker = asyncio.get_running_loop().create_task(count_turns())
        pacer = Pacer()
        boxes = [Outbox(write, close) for _ in range(5 * SPECTATOR_BURST)]
        for box in boxes:
            box.pacer = pacer
            box.post("state")
        while len(written) < len(boxes):
            await asyncio.sleep(0)
        ticker.cancel()
        for box in boxes:
            await box.stop()
        return written

    written = asyncio.run(scenario())
    per_turn = [written.count(turn) for turn in sorted(set(written))]
    assert max(per_turn) <= SPECTATOR_BURST
    assert len(per_turn) >= 5  # forty writes, at most eight a turn


def test_paced_writes_go_out_in_the_order_they_came_and_no_waiting_writer_polls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    polls = 0
    sleep = asyncio.sleep

    async def counted_sleep(delay: float, result: object = None) -> object:
        nonlocal polls
        polls += 1
        return await sleep(delay, result)

    async def scenario() -> list[int]:
        order: list[int] = []
        everything = asyncio.Event()
        count = 6 * SPECTATOR_BURST

        def writer(number: int) -> Callable[[str], Awaitable[None]]:
            async def write(text: str) -> None:
                del text
                order.append(number)
                if len(order) == count:
                    everything.set()

            return write

        async def close(code: int, reason: str) -> None:
            del code, reason

        pacer = Pacer()
        boxes = [Outbox(writer(number), close) for number in range(count)]
        for box in boxes:
            box.pacer = pacer
            box.post("state")
        monkeypatch.setattr(asyncio, "sleep", counted_sleep)
        await everything.wait()
        monkeypatch.setattr(asyncio, "sleep", sleep)
        for box in boxes:
            await box.stop()
        return order

    order = asyncio.run(scenario())
    assert order == sorted(order)  # first come, first written
    assert polls == 0  # a waiting writer sleeps until its turn wakes it


def test_a_players_outbox_is_not_paced() -> None:
    async def scenario() -> int:
        written: list[str] = []

        async def write(text: str) -> None:
            written.append(text)

        async def close(code: int, reason: str) -> None:
            del code, reason

        box = Outbox(write, close)
        for number in range(3 * SPECTATOR_BURST):
            box.post(str(number))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        done = len(written)
        await box.stop()
        return done

    assert asyncio.run(scenario()) == 3 * SPECTATOR_BURST  # all at once, in its own turn


def test_the_limits_count_without_starting_threads_and_forget_passed_windows() -> None:
    storage = QuietMemoryStorage()
    limiter = MovingWindowRateLimiter(storage)
    item = RateLimitItemPerMinute(3)
    time.sleep(0.05)  # the storage's one start-up timer has run
    threads = threading.active_count()
    hits = [limiter.hit(item, "requests", f"127.0.0.{n % 50}") for n in range(500)]
    assert threading.active_count() == threads  # the stock storage starts a timer per 10 ms
    assert hits[:150] == [True] * 150  # three for each of the fifty clients
    assert not any(hits[150:])  # the fourth of each is refused
    assert len(storage.events) == storage.clients == 50
    assert dict(storage.locks) == {}  # one lock for all, not one kept for each client
    for entries in storage.events.values():  # their minute has passed
        for entry in entries:
            entry.expiry = time.time() - 1
    assert storage.sweep() == 50
    assert storage.events == {}
    assert storage.clients == 0


def test_the_routes_dependencies_run_on_the_event_loop_not_in_worker_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every request and every WebSocket gets the hub (and the accounts) from a dependency: a
    plain function would run in a worker thread each time (FastAPI's ``run_in_threadpool``),
    two hand-overs of the interpreter lock for each of a crowd of spectators."""
    threaded: list[str] = []
    run_in_threadpool = vars(fastapi.dependencies.utils)["run_in_threadpool"]

    async def counted(call: Callable[..., object], *args: object, **kwargs: object) -> object:
        threaded.append(getattr(call, "__name__", repr(call)))
        return await run_in_threadpool(call, *args, **kwargs)

    monkeypatch.setattr(fastapi.dependencies.utils, "run_in_threadpool", counted)
    with serve(tmp_path) as client:
        created = open_table(client, game="fantan", seats=["you", "random", "random", "random"])
        with client.websocket_connect(f"/ws/tables/{created['table']}") as socket:
            assert hello(socket)["type"] == "state"  # a spectator
        with client.websocket_connect(f"/ws/tables/{created['table']}") as socket:
            before = hello(socket, created["token"])
            socket.send_json(
                {"type": "act", "version": before["version"], "action": before["legal"][0]}
            )
            receive_until(socket, lambda m: m["type"] == "ok")
    assert threaded == []
