"""The paired comparison of arena runs (``benchmarks/arena_pairs.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import arena_pairs


def _write(path: Path, wins: dict[str, int]) -> Path:
    """A results file of two-player games: job -> the seat that won."""
    rows = []
    for job, winner in wins.items():
        rotation = int(job.split(":")[-1])
        seats = ["first", "second"] if rotation == 0 else ["second", "first"]
        rows.append(
            {
                "job": job,
                "winners": [winner],
                "decisions": [10, 20],
                "seconds": [1.0, 2.0],
                "slowest": [0.5, 0.1],
                "seats": seats,
            }
        )
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
    other = _write(tmp_path / "other.jsonl", {"0:0:0": 0, "0:0:1": 0, "0:1:0": 0, "0:1:1": 1})
    arena_pairs.main([str(base), str(other)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{base}: 3 games, won 2:")
    assert lines[1].endswith(
        "on the 3 games of base.jsonl: won by both 1, only this 1, only base.jsonl 1"
    )
    assert lines[2].startswith("all files: 7 games, won 5:")
