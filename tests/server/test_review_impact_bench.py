"""``benchmarks/review.py --impact``'s readers stay within the server's limits per client: each
review is asked for by a reader from a loopback address of its own, so more records are loaded
in a minute than one client may open (30) without a refusal; a refusal (HTTP 429) is said in a
line with the server's reason and asked again after ``Retry-After``, and refusals in a row stop
the run with a message, not a traceback."""

from __future__ import annotations

import asyncio
import collections
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from benchmarks import review, review_impact, review_interleave
from benchmarks.review_impact import REFUSALS_IN_A_ROW, Reader, RefusedError, Reviewing, sent
from benchmarks.server import Slot

from fanfold.core.registry import get_game
from fanfold.play.setup import play_game
from fanfold.server.app import create_app
from fanfold.server.throttle import ClientLimits
from tests.server.support import sqlite_url, uvicorn_thread


def test_readers_load_more_records_than_one_client_may_without_a_refusal(
    tmp_path: Path,
) -> None:
    limits = ClientLimits()
    loads = limits.tables_per_minute + 5
    record = play_game(get_game("fan"), None, ["random"], seed=2, agent_seed=2).finish()
    app = create_app(sqlite_url(tmp_path), bot_seconds=None, limits=limits)

    async def main(base: str) -> tuple[Reviewing, list[str], int]:
        seen = Reviewing()
        readers = [Reader(base, number) for number in range(loads)]
        try:
            for reader in readers:
                await reader.load(record, ["you"], seen)
            # One client loading them all meets the limit (what the readers avoid).
            one = readers[0].client
            body = {"record": record.to_json(), "seats": ["you"]}
            statuses = [
                (await one.post("/api/records", json=body)).status_code for _ in range(loads)
            ]
        finally:
            for reader in readers:
                await reader.client.aclose()
        return seen, [reader.address for reader in readers], statuses.count(429)

    with uvicorn_thread(app) as port:
        seen, addresses, refused_alone = asyncio.run(main(f"http://127.0.0.1:{port}"))
    assert seen.refused == 0
    assert len(set(addresses)) == loads
    assert all(address.startswith("127.3.") for address in addresses)
    assert refused_alone >= 1


def refusing(times: int) -> httpx.AsyncClient:
    """A client of a server that refuses its first ``times`` requests (HTTP 429), then
    answers."""
    asked: list[int] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(1)
        if len(asked) <= times:
            return httpx.Response(
                429,
                headers={"Retry-After": "0"},
                json={"error": "too many tables opened this minute", "kind": "RateLimited"},
            )
        return httpx.Response(200, json={"table": "T1"})

    return httpx.AsyncClient(base_url="http://fanfold", transport=httpx.MockTransport(answer))


def test_a_refusal_is_said_and_asked_again(capsys: pytest.CaptureFixture[str]) -> None:
    seen = Reviewing()

    async def main() -> httpx.Response:
        async with refusing(2) as client:
            return await sent(lambda: client.post("/api/records"), "a record's load", seen)

    answer = asyncio.run(main())
    assert answer.json() == {"table": "T1"}
    assert seen.refused == 2
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert "the server refused a record's load (HTTP 429" in lines[0]
    assert "too many tables opened this minute" in lines[0]
    assert "Traceback" not in "\n".join(lines)


def test_refusals_in_a_row_stop_the_run_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    seen = Reviewing()

    async def main() -> None:
        async with refusing(REFUSALS_IN_A_ROW) as client:
            await sent(lambda: client.get("/api/tables/T1/review"), "a review's poll", seen)

    with pytest.raises(RefusedError, match="refused a review's poll 5 times in a row"):
        asyncio.run(main())
    assert seen.refused == REFUSALS_IN_A_ROW
    assert capsys.readouterr().out.count("HTTP 429") == REFUSALS_IN_A_ROW
    assert review_impact.READERS == 3  # the readers' own loopback group


def test_pairs_alternate_a_noise_pair_and_a_pair_with_reviews() -> None:
    assert review_impact.pair_order(3, 4) == [
        ("1 noise", 0),
        ("1 reviews", 4),
        ("2 reviews", 4),  # in turn first: the machine's drift weighs on both alike
        ("2 noise", 0),
        ("3 noise", 0),
        ("3 reviews", 4),
    ]


def test_pairs_print_the_reviews_changes_beside_the_noise(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each run's p99s, in the order run: (act, bot) ms.
    p99s = iter(
        [
            *[(10, 20), (10, 20), (10, 20), (12, 30)],  # round 1: noise 0%, reviews +20%/+50%
            *[(10, 20), (11, 24), (10, 20), (9, 22)],  # round 2: reviews +10%/+20%, noise -10%/+10%
        ]
    )
    asked: list[int] = []

    def measured(
        folder: Path, number: int, tables: int, seconds: float, think: float, reviews: int
    ) -> review_impact.Measured:
        act, bot = next(p99s)
        asked.append(reviews)
        return review_impact.Measured(
            reviews, 100, 1.0, act, 2.0, bot, 0, 5.0, "0.5-0.6", 0, 0, 0, 0, "-", 0, 0, []
        )

    monkeypatch.setattr(review_impact, "measure", measured)
    review_impact.impact_main(2, 1.0, 1.0, 4, None, pairs=2)
    assert asked == [0, 0, 0, 4, 0, 4, 0, 0]
    lines = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("| 1 noise |") for line in lines) == 2
    assert sum(line.startswith("| 2 reviews |") for line in lines) == 2
    assert "| with 4 reviews | 2 | +15% (+10% to +20%) | +35% (+20% to +50%) |" in lines
    assert "| noise | 2 | -5% (-10% to +0%) | +5% (+0% to +10%) |" in lines


def test_no_reviews_makes_every_pair_a_noise_pair(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asked: list[int] = []

    def measured(
        folder: Path, number: int, tables: int, seconds: float, think: float, reviews: int
    ) -> review_impact.Measured:
        asked.append(reviews)
        return review_impact.Measured(
            reviews, 100, 1.0, 10, 2.0, 20, 0, 5.0, "0.5-0.6", 0, 0, 0, 0, "-", 0, 0, []
        )

    monkeypatch.setattr(review_impact, "measure", measured)
    review.main(["--impact", "--reviews", "0", "--tables", "2", "--seconds", "1"])
    assert asked == [0, 0]  # --reviews 0: both runs without reviews
    out = capsys.readouterr().out
    assert "| 1 | 0 | 100 | 1.0 | 10.0 | 2.0 | 20.0 | 0 | 5 | +0% | +0% |" in out


@pytest.mark.parametrize(
    ("given", "said"),
    [(["--pairs", "0"], "--pairs must be at least 1"), (["--reviews", "-1"], "--reviews must")],
)
def test_bad_impact_options_are_refused_with_a_message(
    given: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        review.main(["--impact", *given])
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err


# ------------------------------------------------ --interleave: one server, windows on and off


def test_a_stamped_list_keeps_when_each_latency_started() -> None:
    stamped = review_interleave.Stamped()
    before = time.perf_counter()
    stamped.append(0.25)
    after = time.perf_counter()
    assert stamped == [0.25]
    assert before - 0.25 <= stamped.starts[0] <= after - 0.25
    tally = review_interleave.stamped_tally()
    assert isinstance(tally.latencies, review_interleave.Stamped)
    assert isinstance(tally.bot_replies, review_interleave.Stamped)


def test_the_schedule_alternates_test_and_control_pairs_each_in_a_drawn_order() -> None:
    order = review_interleave.schedule(6, random.Random(1))
    assert [pair for pair, _ in order] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    for pair in range(6):
        kinds = sorted(kind for number, kind in order if number == pair)
        assert kinds == (["off", "on"] if pair % 2 == 0 else ["A", "B"])
    firsts = {order[2 * pair][1] for pair in range(0, 6, 2)}
    assert len(firsts) == 2 or review_interleave.schedule(6, random.Random(2)) != order


def test_each_sample_goes_to_the_window_it_started_in_past_the_guard() -> None:

    windows = [
        review_interleave.Window(-1, "warm", 0.0, 10.0),
        review_interleave.Window(0, "on", 10.0, 15.0),
        review_interleave.Window(0, "off", 15.0, 20.0),
        review_interleave.Window(1, "A", 20.0, 25.0),
    ]
    starts = [5.0, 10.2, 10.6, 14.9, 15.4, 15.5, 22.0, 25.0, 30.0]
    values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]
    found = review_interleave.attribute(starts, values, windows, guard=0.5)
    # The warm-up's sample, those in a window's first 0.5 s, and those after the last are out;
    # a sample belongs to the window it started in, whatever its length.
    assert found == {(0, "on"): [3.0, 4.0], (0, "off"): [6.0], (1, "A"): [7.0]}


def test_the_bootstrap_change_compares_pooled_p99s_over_the_pairs() -> None:
    found: dict[tuple[int, str], list[float]] = {}
    for pair in range(0, 8, 2):
        found[(pair, "off")] = [0.010] * 99 + [0.020]
        found[(pair, "on")] = [0.010] * 99 + [0.030]
    change = review_interleave.bootstrap_change(found, ("on", "off"), random.Random(3), 200)
    assert change.count == (400, 400)
    assert change.p99 == pytest.approx((20.0, 30.0))
    assert change.change == pytest.approx(50.0)
    assert change.low == pytest.approx(50.0)  # every pair alike: no spread
    assert change.high == pytest.approx(50.0)
    # One pair unlike the others widens the interval around the pooled change.
    found[(0, "on")] = [0.010] * 90 + [0.100] * 10
    wide = review_interleave.bootstrap_change(found, ("on", "off"), random.Random(3), 200)
    assert wide.change == pytest.approx(400.0)
    assert wide.low == pytest.approx(50.0)  # resamples without that pair
    assert wide.high >= wide.change
    with pytest.raises(ValueError, match="no pair of windows holds samples of both A and B"):
        review_interleave.bootstrap_change(found, ("B", "A"), random.Random(3))


def test_the_switch_stops_the_review_worker_and_starts_it_again() -> None:
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from fanfold.server.bots.worker import name_process, "
            "REVIEW_PROCESS_NAME; name_process(REVIEW_PROCESS_NAME); print('ready', "
            "flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"ready"
        assert review_interleave.worker_pid(os.getpid()) == child.pid

        def state() -> str:
            return review_interleave.state_of(child.pid)

        async def main() -> list[str]:
            switch = review_interleave.Switch(os.getpid())
            states = []
            await switch.off()
            states.append(state())  # at once: off() returns once the process has stopped
            assert not switch.gate.is_set()
            await switch.on()
            await asyncio.sleep(0.05)
            states.append(state())
            assert switch.gate.is_set()
            return states

        stopped, going = asyncio.run(main())
        assert stopped == "T"  # stopped: no review work while off
        assert going in ("S", "R")
    finally:
        child.kill()
        child.wait()
    assert review_interleave.worker_pid(os.getpid()) is None


def test_the_switch_refuses_an_off_window_without_a_review_worker() -> None:
    async def main() -> None:
        await review_interleave.Switch(os.getpid()).off()

    with pytest.raises(RuntimeError, match="review worker process is not running"):
        asyncio.run(main())


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--interleave", "5"], "--interleave goes with --impact"),
        (["--impact", "--interleave", "5", "--pairs", "2"], "two protocols"),
        (["--impact", "--interleave", "5", "--reviews", "0"], "--reviews of 1 or more"),
        (["--impact", "--interleave", "0.5"], "from 1 to 600 seconds"),
        (["--impact", "--interleave", "5", "--guard", "5"], "shorter than a window"),
        (["--impact", "--interleave", "5", "--seconds", "9"], "at least one pair"),
        (["--impact", "--played"], "--played goes with --interleave"),
    ],
)
def test_bad_interleave_options_are_refused_with_a_message(
    given: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        review.main(given)
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err


def test_the_interleaved_verdict_prints_both_comparisons_and_the_cpu_per_window(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:

    windows = [review_interleave.Window(-1, "warm", 0.0, 5.0, 1.0, 2.0)]
    acts: dict[tuple[int, str], list[float]] = {}
    for pair in range(4):
        kinds = ("on", "off") if pair % 2 == 0 else ("A", "B")
        for number, kind in enumerate(kinds):
            begin = 5.0 + pair * 10 + number * 5
            windows.append(
                review_interleave.Window(
                    pair, kind, begin, begin + 5, 0.5, 1.0 if kind == "on" else 0
                )
            )
            acts[(pair, kind)] = [0.010] * 99 + [0.011 if kind in ("on", "B") else 0.010]
    asked: list[tuple[int, int, float]] = []

    async def run(
        base: str,
        server: int,
        tables: int,
        pairs: int,
        window: float,
        think: float,
        reviews: int,
        guard: float,
        rng: random.Random,
        played: bool,
    ) -> review_interleave.Interleaved:
        assert not played
        asked.append((tables, pairs, window))
        return review_interleave.Interleaved(windows, acts, acts, review_impact.Reviewing(), [])

    class Server:
        pid = 1

        def kill(self) -> None:
            pass

        def wait(self) -> None:
            pass

    monkeypatch.setattr(review_interleave, "interleaved_run", run)
    monkeypatch.setattr(review_interleave, "start_server", lambda *_: Server())
    review.main(["--impact", "--interleave", "5", "--seconds", "20", "--tables", "3"])
    assert asked == [(3, 2, 5.0)]
    out = capsys.readouterr().out
    assert "| act-to-ok: reviews on vs off | 200, 200 | 10.0 → 11.0 | +10% |" in out
    assert "| act-to-ok: A/A control, A vs B | 200, 200 | 11.0 → 10.0 | -9% |" in out
    assert "| on | 0.100 | 0.200 |" in out
    assert "| off | 0.100 | 0.000 |" in out


def test_the_tables_the_players_finish_are_gathered_in_the_order_finished() -> None:
    slots = [Slot(0, table="t0"), Slot(1, table="t1")]

    async def main() -> list[str]:
        finished: collections.deque[str] = collections.deque()
        stop = asyncio.Event()
        watcher = asyncio.create_task(review_interleave.finished_tables(slots, finished, stop))
        await asyncio.sleep(0.05)
        slots[1].table = "t1b"  # its game ended: the player opened the next table
        await asyncio.sleep(0.4)
        slots[0].table = "t0b"
        await asyncio.sleep(0.4)
        slots[0].table = "t0c"
        await asyncio.sleep(0.4)
        stop.set()
        await watcher
        return list(finished)

    assert asyncio.run(main()) == ["t1", "t0", "t0b"]  # the tables still in play are not
