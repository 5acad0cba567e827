"""The review worker yields to live play (:class:`fanfold.server.bots.ReviewWorker`'s hold): a step
does not start while a live bot decision is in flight or queued in the pool (or a player's
action is handled), it starts when the live work ends, or after the hold's limit on a server
that is never quiet; the pool counts its live decisions, not its background work, and the server
a player's action from its arrival; a review made with holds is the review made without; the
review page's answer says while its review waits, and the metrics count the holds."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from pathlib import Path

import httpx
import pytest

from fanfold.core.config import JSONObject
from fanfold.core.phrases import Phrase
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play.review import REVIEW_VERSION
from fanfold.play.setup import play_game
from fanfold.server.app import create_app
from fanfold.server.bots import BotPool, LiveWork, Priority, ReviewWorker, hold_limit
from fanfold.server.bots.reviewer import HOLD_ENVIRONMENT, HOLD_LIMIT
from fanfold.server.reviews import DEALS_ENVIRONMENT, Reviews
from fanfold.server.routes.reviews import review_compute, review_worker
from fanfold.server.store.review_memory import MemoryReviews
from tests.server.support import ROOMY, serve, sqlite_url

#: The steps computed so far, in order.
RAN: list[str] = []


def step(name: str) -> str:
    RAN.append(name)
    return name


def test_a_step_waits_while_live_work_is_under_way_and_starts_when_it_ends() -> None:
    RAN.clear()
    live = LiveWork()
    worker = ReviewWorker(processes=False, live=live, hold=60.0)
    holds: list[float] = []
    worker.held = holds.append

    async def main() -> None:
        live.begin()  # a live decision in flight
        task = asyncio.create_task(worker.run(step, "first"))
        await asyncio.sleep(0.1)
        assert RAN == []
        assert worker.holding
        live.begin()  # another queued behind it
        live.end()
        await asyncio.sleep(0.05)
        assert RAN == []  # one still under way
        live.end()
        assert await task == "first"
        assert not worker.holding
        assert await worker.run(step, "quiet") == "quiet"  # nothing live: no hold

    try:
        asyncio.run(main())
    finally:
        worker.shutdown()
    assert RAN == ["first", "quiet"]
    assert len(holds) == 2
    assert 0.1 <= holds[0] < 30
    assert holds[1] == 0.0  # the quiet step: not held
    assert worker.held_to_limit == 0
    assert worker.held_seconds == holds[0]


def test_a_server_never_quiet_still_reviews_a_step_per_hold_limit() -> None:
    RAN.clear()
    live = LiveWork()
    worker = ReviewWorker(processes=False, live=live, hold=0.1)
    holds: list[float] = []
    worker.held = holds.append

    async def main() -> list[str]:
        live.begin()  # never ends
        return [await worker.run(step, "one"), await worker.run(step, "two")]

    try:
        assert asyncio.run(main()) == ["one", "two"]
    finally:
        worker.shutdown()
    assert RAN == ["one", "two"]
    assert worker.held_to_limit == 2
    assert len(holds) == 2
    assert all(0.1 <= held < 30 for held in holds)


def test_a_hold_cancelled_hands_the_worker_on() -> None:
    RAN.clear()
    live = LiveWork()
    worker = ReviewWorker(processes=False, live=live, hold=60.0)

    async def main() -> str:
        live.begin()
        held = asyncio.create_task(worker.run(step, "gone"))
        await asyncio.sleep(0.05)
        held.cancel()  # its review stopped (the server's end)
        with pytest.raises(asyncio.CancelledError):
            await held
        live.end()
        return await worker.run(step, "next")

    try:
        assert asyncio.run(main()) == "next"
    finally:
        worker.shutdown()
    assert RAN == ["next"]


#: Holds the pool's decisions until set.
GATE = threading.Event()


def decide(name: str) -> str:
    assert GATE.wait(10)
    return name


def test_the_pool_counts_its_live_decisions_in_flight_and_queued() -> None:
    GATE.clear()
    pool = BotPool(1)
    told: list[int] = []

    async def main() -> list[str]:
        first = asyncio.create_task(pool.run(decide, "first", table="t1"))
        queued = asyncio.create_task(pool.run(decide, "queued", table="t2"))
        background = asyncio.create_task(
            pool.run(decide, "background", table="t3", priority=Priority.BACKGROUND)
        )
        await asyncio.sleep(0.05)
        assert (pool.busy, pool.waiting) == (1, 2)
        assert pool.live.count == 2  # the live ones: in flight and queued
        pool.live.when_quiet(lambda: told.append(pool.busy))
        GATE.set()
        done = list(await asyncio.gather(first, queued))
        await asyncio.sleep(0)  # the hand-back of the last one
        assert pool.live.count == 0
        done.append(await background)
        return done

    try:
        assert asyncio.run(main()) == ["first", "queued", "background"]
    finally:
        pool.shutdown()
    assert len(told) == 1  # told once, when the live decisions ended
    assert pool.live.count == 0


def test_the_hold_limit_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HOLD_ENVIRONMENT, "")
    monkeypatch.delenv(HOLD_ENVIRONMENT)
    assert hold_limit() == HOLD_LIMIT
    monkeypatch.setenv(HOLD_ENVIRONMENT, "0")
    assert hold_limit() == 0.0  # off
    monkeypatch.setenv(HOLD_ENVIRONMENT, "0.5")
    assert hold_limit() == 0.5
    for bad in ("-1", "soon", "1e9", "nan"):
        monkeypatch.setenv(HOLD_ENVIRONMENT, bad)
        assert hold_limit() == HOLD_LIMIT


def fano_record() -> GameRecord:
    """The first 30 moves of a two-player Fano game, both seats a person's."""
    played = play_game(get_game("fano"), None, ["random"] * 2, seed=3, agent_seed=3)
    record = played.finish()
    return dataclasses.replace(
        record, actions=record.actions[:30], outcome=None, ruling=None, players=("human", "human")
    )


def test_a_review_made_with_holds_is_the_review_made_without(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FANFOLD_REVIEW_DEALS", "2")
    record = fano_record()

    async def review(
        worker: ReviewWorker, busy: LiveWork | None
    ) -> tuple[JSONObject, list[JSONObject]]:
        store = MemoryReviews()
        reviews = Reviews(store, review_compute(worker), owner="one")
        flicker = None
        if busy is not None:

            async def play() -> None:  # live work starting and ending all along
                while True:
                    busy.begin()
                    await asyncio.sleep(0.003)
                    busy.end()
                    await asyncio.sleep(0.001)

            flicker = asyncio.create_task(play())
        await reviews.open("t1", record)
        await reviews.tasks[("t1", REVIEW_VERSION)]
        if flicker is not None:
            flicker.cancel()
        job = store.job("t1", REVIEW_VERSION)
        assert job is not None
        assert job.state == "done"
        return {"summary": job.summary, "engine": job.engine}, store.moves("t1", REVIEW_VERSION)

    plain = ReviewWorker(processes=False)
    live = LiveWork()
    held = ReviewWorker(processes=False, live=live, hold=0.02)
    try:
        without = asyncio.run(review(plain, None))
        with_holds = asyncio.run(review(held, live))
    finally:
        plain.shutdown()
        held.shutdown()
    assert held.held_seconds > 0
    assert with_holds == without
    assert len(without[1]) == 30
    assert sum(entry["judged"] == "yes" for entry in without[1]) >= 20  # decisions judged


def test_the_review_page_says_its_review_waits_for_the_tables_in_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOLD_ENVIRONMENT, "60")
    record = play_game(get_game("fan"), None, ["random"], seed=4, agent_seed=0).finish()
    with serve(tmp_path) as client:
        live = client.app.state.hub.pool.live  # type: ignore[attr-defined]
        assert client.portal is not None
        client.portal.call(live.begin)  # a live decision in flight, all along
        answer = client.post("/api/records", json={"record": record.to_json(), "seats": ["random"]})
        assert answer.status_code == 200, answer.text
        table = answer.json()["table"]
        deadline = time.monotonic() + 30
        while True:
            body = client.get(f"/api/tables/{table}/review?seen=0").json()
            if "held" in body:
                break
            assert time.monotonic() < deadline, body
            time.sleep(0.05)
        assert body["state"] in ("pending", "running")
        said = Phrase.from_json(body["held"])
        assert said.code == "review.held"
        total = len(record.actions)
        assert said == f"Reviewing: 0 of {total} moves so far, waiting for the tables in play…"
        client.portal.call(live.end)  # quiet: the step runs
        while body["state"] not in ("done", "failed"):
            assert time.monotonic() < deadline, body
            time.sleep(0.05)
            body = client.get(f"/api/tables/{table}/review").json()
        metrics = client.get("/metrics").text
    assert body["state"] == "done"
    assert "held" not in body
    assert "fanfold_review_hold_seconds_count 1.0" in metrics  # Fan: one step, held


def test_the_review_page_says_its_review_waits_while_a_step_pauses_inside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOLD_ENVIRONMENT, "60")
    monkeypatch.setenv(DEALS_ENVIRONMENT, "2")
    record = play_game(get_game("fano"), None, ["random"] * 2, seed=3, agent_seed=3).finish()
    with serve(tmp_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        shared = hub.pool.live.shared()
        # Live work as the step reads it, not as the event loop counts it: no wait before the
        # step, which starts and pauses inside, at its first pause point.
        shared.value = 1
        body = {"record": record.to_json(), "seats": ["you", "random"]}
        answer = client.post("/api/records", json=body)
        assert answer.status_code == 200, answer.text
        table = answer.json()["table"]
        deadline = time.monotonic() + 60
        review = client.get(f"/api/tables/{table}/review?seen=0").json()
        while "held" not in review:
            assert time.monotonic() < deadline, review
            time.sleep(0.05)
            review = client.get(f"/api/tables/{table}/review?seen=0").json()
        worker = review_worker(client.app.state, hub)  # type: ignore[attr-defined]
        inside = worker._holding_since is None  # paused inside its step, not before it
        said = Phrase.from_json(review["held"])
        assert review["state"] == "running"
        total = len(record.actions)
        assert said == f"Reviewing: 0 of {total} moves so far, waiting for the tables in play…"
        shared.value = 0  # the tables are quiet: the step goes on
        while "held" in review or review["judged"] == 0:
            assert time.monotonic() < deadline, review
            time.sleep(0.05)
            review = client.get(f"/api/tables/{table}/review?seen=0").json()
        pauses = client.get("/metrics").text
    assert inside
    assert review["judged"] >= 6  # the paused step went on and was stored
    assert "held" not in review
    assert "fanfold_review_pauses_total 0.0" not in pauses


async def _an_action_against_a_bot(tmp_path: Path, bot: str = "easy") -> tuple[list[int], int]:
    app = create_app(sqlite_url(tmp_path), bot_seconds=None, limits=ROOMY)
    async with app.router.lifespan_context(app):
        live: LiveWork = app.state.hub.pool.live
        counts: list[int] = []
        begin = live.begin

        def counted() -> None:
            begin()
            counts.append(live.count)

        live.begin = counted  # type: ignore[method-assign]
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://fanfold") as client:
            body = {"game": "morris", "seats": ["you", bot], "seed": 1}
            created = (await client.post("/api/tables", json=body)).json()
            act = {"token": created["token"], "action": "C1"}
            answer = await client.post(f"/api/tables/{created['table']}/act", json=act)
            assert answer.status_code == 200, answer.text
            for _ in range(100):  # the bot's reply, handed back on the loop
                if live.count == 0 and len(counts) >= 2:
                    break
                await asyncio.sleep(0.02)
        return counts, live.count


def test_a_players_action_and_the_bots_reply_count_as_live_work(tmp_path: Path) -> None:
    counts, after = asyncio.run(_an_action_against_a_bot(tmp_path))
    assert counts[0] == 1  # the player's action, from its arrival
    assert len(counts) >= 2  # then the bot's decision
    assert after == 0


def test_an_instant_bot_s_move_counts_as_live_work_to_its_watchers_told(tmp_path: Path) -> None:
    """A ``random`` bot chooses on the event loop, never asking the pool: its move, from its
    choice to its store and its watchers told, is counted all the same (the bots' reply a
    player waits for)."""
    counts, after = asyncio.run(_an_action_against_a_bot(tmp_path, "random"))
    assert counts[0] == 1  # the player's action, from its arrival
    assert len(counts) >= 2  # then the bot's move, though no pool was asked
    assert after == 0
