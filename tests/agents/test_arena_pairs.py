"""The paired comparison of arena runs (``benchmarks/arena_pairs.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import arena_pairs


def _write(path: Path, wins: dict[str, int], agent: str = "first", seed: int | None = None) -> Path:
    """A results file of two-player games of ``agent`` against ``second``: job -> the seat
    that won; with ``seed``, each row names its deal (round r: ``seed + r``) as the arena's
    rows do."""
    rows = []
    for job, winner in wins.items():
        _, round_, rotation = (int(part) for part in job.split(":"))
        seats = [agent, "second"] if rotation == 0 else ["second", agent]
        row: dict[str, object] = {
            "job": job,
            "winners": [winner],
            "decisions": [10, 20],
            "seconds": [1.0, 2.0],
            "slowest": [0.5, 0.1],
            "seats": seats,
            "digest": f"{job} won by {winner}",
        }
        if seed is not None:
            row["deal"] = seed + round_
            row["digest"] = f"deal {seed + round_}, rotation {rotation}, won by {winner}"
        rows.append(row)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_each_games_first_agent_is_the_seat_of_its_rotation(tmp_path: Path) -> None:
    games = arena_pairs.load(_write(tmp_path / "a.jsonl", {"0:0:0": 0, "0:0:1": 0}))
    assert games["0:0:0"].won
    assert not games["0:0:1"].won  # seat 0 won, the first agent sat in seat 1
    assert games["0:0:1"].seconds == 2.0
    summary = arena_pairs.summary(list(games.values()))
    # Seat 0's 1 s over 10 decisions and seat 1's 2 s over 20; the slowest 0.5 s.
    assert summary == "2 games, won 1: 50.0% (9.5-90.5), s/decision 0.100 / 0.50"


def test_runs_are_paired_on_the_games_both_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _write(tmp_path / "base.jsonl", {"0:0:0": 0, "0:0:1": 1, "0:1:0": 1})
    other = _write(
        tmp_path / "other.jsonl", {"0:0:0": 0, "0:0:1": 0, "0:1:0": 0, "0:1:1": 1}, "other"
    )
    arena_pairs.main([str(base), str(other)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{base}: 3 games, won 2:")
    assert lines[1].endswith(
        "on the 3 games of base.jsonl (by job: a file without deals): won by both 1, "
        "only this 1, only base.jsonl 1 (sign test p = 1.00)"
    )
    assert lines[2].startswith("all files: 7 games, won 5:")


def test_runs_of_different_seeds_pair_on_the_deals_they_share(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 1's rounds deal 1 and 2, seed 2's deal 2 and 3: deal 2 is round 1 of the first
    # run and round 0 of the second.
    base = _write(tmp_path / "base.jsonl", {"0:0:0": 0, "0:1:0": 0, "0:1:1": 0}, seed=1)
    other = _write(tmp_path / "other.jsonl", {"0:0:0": 1, "0:0:1": 1, "0:1:0": 0}, "other", seed=2)
    arena_pairs.main([str(base), str(other)])
    lines = capsys.readouterr().out.splitlines()
    # Deal 2: rotation 0 won by the first run only, rotation 1 by the second only.
    assert lines[1].endswith(
        "on the 2 games of base.jsonl: won by both 0, only this 1, only base.jsonl 1 "
        "(sign test p = 1.00)"
    )


def test_a_game_repeated_by_runs_of_near_seeds_is_counted_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _write(tmp_path / "s1.jsonl", {"0:0:0": 0, "0:1:0": 0}, seed=1)
    second = _write(tmp_path / "s2.jsonl", {"0:0:0": 0, "0:1:0": 1}, seed=2)
    arena_pairs.main([str(first), str(second)])
    lines = capsys.readouterr().out.splitlines()
    # Deals 1, 2 and 3 in rotation 0: deal 2 played by both runs, counted once.
    assert lines[2].startswith("all files: 3 games, won 2:")
    assert lines[2].endswith("; 1 repeats of a game left out")


def test_rows_without_their_deal_are_repeats_only_when_played_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _write(tmp_path / "s1.jsonl", {"0:0:0": 0, "0:1:0": 0})
    second = _write(tmp_path / "s2.jsonl", {"0:0:0": 0, "0:1:0": 1})
    arena_pairs.main([str(first), str(second)])
    lines = capsys.readouterr().out.splitlines()
    # Job 0:0:0 was played alike by both files (a repeat); job 0:1:0 differently.
    assert (
        lines[2] == "all files: 3 games, won 2: 66.7% (20.8-93.9), s/decision 0.100 / 0.50; "
        "1 repeats of a game left out"
    )


def test_the_sign_test() -> None:
    assert arena_pairs.sign_test(0, 0) == 1.0
    assert arena_pairs.sign_test(5, 5) == 1.0
    assert arena_pairs.sign_test(10, 0) == pytest.approx(2 / 1024)
    assert arena_pairs.sign_test(0, 10) == pytest.approx(2 / 1024)
    assert arena_pairs.sign_test(17, 11) == pytest.approx(0.3449, abs=1e-4)


def test_a_file_without_deals_is_paired_by_job_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _write(tmp_path / "base.jsonl", {"0:0:0": 0, "0:0:1": 1})
    other = _write(tmp_path / "other.jsonl", {"0:0:0": 1, "0:0:1": 1}, "other", seed=1)
    arena_pairs.main([str(base), str(other)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith(
        "on the 2 games of base.jsonl (by job: a file without deals): won by both 1, "
        "only this 0, only base.jsonl 1 (sign test p = 1.00)"
    )
