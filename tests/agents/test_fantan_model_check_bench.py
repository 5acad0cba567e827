"""The check of ``hard``'s model of Fan Tan's heuristic seats
(``benchmarks/fantan_model_check.py``)."""

from __future__ import annotations

import pytest
from benchmarks import fantan_model_check as bench

from fanfold.agents.strategy import fantan_fast as fast
from fanfold.agents.strategy.fantan_scoring import Weights
from fanfold.games.fantan import FanTanConfig


def test_the_playouts_model_of_the_heuristic_seats_matches_them_move_by_move() -> None:
    found = bench.check(4, 1, "heuristic")
    assert found.choices >= 40
    assert found.decisions >= 10
    assert found.hidden > 0
    assert (found.differ, found.outside, found.broken, found.impossible) == (0, 0, 0, 0)
    assert 0 < found.read <= found.hidden
    assert 0 < found.uniform <= found.hidden


def test_a_playout_policy_other_than_the_heuristic_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Kernels scoring with other weights than the arena's ``heuristic`` show as differences."""
    original = fast.tables
    other = Weights(own_opened=0.0, others_opened=0.5, own_beyond=2.0, gap=1.0, blocked=0.0)

    def tables(config: FanTanConfig) -> fast.Tables:
        return original(config, other)

    monkeypatch.setattr(fast, "tables", tables)
    found = bench.check(4, 1, "heuristic")
    assert found.differ > 0
    assert found.outside > 0


def test_fewer_than_one_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--games", "0"])
    assert "--games must be at least 1" in capsys.readouterr().err
