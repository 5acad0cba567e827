"""The timing of Fano's ``hard`` by its budget (``benchmarks/hard_decision.py``)."""

from __future__ import annotations

import pytest
from benchmarks import hard_decision


def test_a_row_gives_the_means_the_cost_a_continuation_and_the_ranks() -> None:
    """The row's arithmetic on known figures (playing a game compiles the counting twin,
    which takes a minute on a fresh checkout: the benchmark's own run shows it works)."""
    tally = hard_decision.Tally(
        seconds=[0.2, 0.6], legal=[10, 30], deals=[24, 24], ranks=[0, 5], replay=0.004
    )
    tally.counts[:] = [80, 800, 400, 8, 4]
    row = tally.row(4)
    assert len(row) == len(hard_decision.HEADER)
    assert row[:6] == ["4", "2", "0.400", "0.600", "20.0", "24.0"]
    assert row[6] == "833"  # 0.8 s over 24 x 40 continuations
    assert row[7:12] == ["10.0", "5.0", "10.0%", "5.0%", "10"]
    assert row[12:] == ["1", "0", "0"]  # rank 5 is outside the best 4 only


def test_a_player_count_outside_two_to_four_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        hard_decision.main(["--players", "2,5"])
    assert "players must be 2, 3 or 4" in capsys.readouterr().err
