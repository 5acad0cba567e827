"""``benchmarks/review.py --impact``'s readers stay within the server's limits per client: each
review is asked for by a reader from a loopback address of its own, so more records are loaded
in a minute than one client may open (30) without a refusal; a refusal (HTTP 429) is said in a
line with the server's reason and asked again after ``Retry-After``, and refusals in a row stop
the run with a message, not a traceback."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from benchmarks import review, review_impact
from benchmarks.review_impact import REFUSALS_IN_A_ROW, Reader, RefusedError, Reviewing, sent

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
