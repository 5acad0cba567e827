"""The batch runner: order, resumption, worker-count independence, clear errors; the census."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError
from fanfold.core.registry import get_game
from fanfold.games.fan import FanConfig
from fanfold.play import Job, play_game, rotate_seats, run_batch
from fanfold.play.batch import read_results, square
from fanfold.play.census import census_summary, parse_deal_ranges, run_census


def match_job(payload: JSONObject) -> JSONObject:
    """A seeded game between agents, seats rotated by game number (module level: picklable)."""
    number = payload["game"]
    assert isinstance(number, int)
    names = rotate_seats(["mcts(iterations=30, rollout_limit=80)", "random", "random"], number)
    table = play_game(get_game("fantan"), None, names, seed=number, agent_seed=number)
    outcome = table.outcome
    assert outcome is not None
    return {"actions": list(table.record.actions), "returns": list(outcome.returns)}


def test_rows_come_back_in_job_order_and_are_stored(tmp_path: Path) -> None:
    results = tmp_path / "rows.jsonl"
    seen: list[tuple[int, int]] = []
    jobs = [Job(f"n{n}", {"n": n}) for n in (3, 1, 2)]
    rows = run_batch(square, jobs, results=results, progress=lambda d, t: seen.append((d, t)))
    assert [row["square"] for row in rows] == [9, 1, 4]
    assert [row["job"] for row in rows] == ["n3", "n1", "n2"]
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert set(read_results(results)) == {"n1", "n2", "n3"}


def test_a_rerun_resumes_from_the_results_file(tmp_path: Path) -> None:
    results = tmp_path / "rows.jsonl"
    run_batch(square, [Job("a", {"n": 2})], results=results)
    # a stored row is trusted: a changed payload under the same key is not run again
    rows = run_batch(square, [Job("a", {"n": 5}), Job("b", {"n": 3})], results=results)
    assert [row["square"] for row in rows] == [4, 9]
    assert len(results.read_text().splitlines()) == 2
    rows = run_batch(
        square, [Job("a", {"n": 5})], results=results, is_done=lambda row: row["square"] != 4
    )
    assert rows[0]["square"] == 25  # the stored row was not accepted: run again


def test_a_seeded_match_is_identical_with_one_and_two_workers() -> None:
    jobs = [Job(f"game{n}", {"game": n}) for n in range(4)]
    one = run_batch(match_job, jobs, workers=1)
    two = run_batch(match_job, jobs, workers=2)
    assert one == two
    assert len({json.dumps(row["actions"]) for row in one}) == 4


def test_bad_batches_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FanfoldError, match="own key"):
        run_batch(square, [Job("a", {"n": 1}), Job("a", {"n": 2})])
    with pytest.raises(FanfoldError, match="at least 1"):
        run_batch(square, [Job("a", {"n": 1})], workers=0)
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"job": "a", "square": 1}\n[1, 2]\n')
    with pytest.raises(FanfoldError, match="line 2 is not a result row"):
        run_batch(square, [Job("a", {"n": 1})], results=broken)
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b'{"job": "a"}\n\xff\xfe\n')
    with pytest.raises(
        FanfoldError, match=r"cannot read .*binary.jsonl: it is not UTF-8 text \(byte 14 is not\)"
    ):
        run_batch(square, [Job("a", {"n": 1})], results=binary)


def test_a_results_file_of_another_tool_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    results = tmp_path / "rows.jsonl"
    run_batch(square, [Job("a", {"n": 2})], results=results)
    before = results.read_text()
    with pytest.raises(
        FanfoldError, match=r"line 1 was written by another kind of run .*no verdict"
    ):
        run_batch(square, [Job("b", {"n": 3})], results=results, fields=("verdict",))
    assert results.read_text() == before
    with pytest.raises(FanfoldError, match="no returns"):
        read_results(results, ("square", "returns"))
    assert read_results(results, ("square",))["a"]["square"] == 4


def test_the_census_decides_deals_on_the_batch_runner(tmp_path: Path) -> None:
    results = tmp_path / "census.jsonl"
    rows = run_census([1, 3], FanConfig(), results=results)
    assert [(row["deal"], row["verdict"]) for row in rows] == [(1, "unsolvable"), (3, "solved")]
    assert [row["job"] for row in rows] == ["classic:1", "classic:3"]
    limited = run_census([2], FanConfig(), results=results, max_states=1)
    assert limited[0]["verdict"] == "unknown"
    again = run_census([2], FanConfig(), results=results)  # unknown rows are tried again
    assert again[0]["verdict"] in ("solved", "unsolvable")
    summary = census_summary([*rows, *limited])
    assert (summary["solved"], summary["unsolvable"], summary["unknown"]) == (1, 1, 1)
    assert summary["winnable_fraction"] == 0.5


def test_deal_ranges() -> None:
    assert parse_deal_ranges("1-3,7") == [1, 2, 3, 7]
    for bad in ("x", "5-2", "", "-3"):
        with pytest.raises(FanfoldError):
            parse_deal_ranges(bad)
