"""The environments' benchmark's random learner (``benchmarks/envs.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from benchmarks import envs


def test_the_random_learner_draws_a_legal_index_of_every_row() -> None:
    rng = np.random.default_rng(5)
    masks = (rng.random((64, 566)) < 0.02).astype(np.int8)
    masks[:, 7] = 1
    masks[0] = 0
    masks[0, 0] = 1  # a row's only legal index first
    masks[-1] = 0
    masks[-1, -1] = 1  # and last
    for _ in range(50):
        chosen = envs.random_legal(rng, masks)
        assert chosen.shape == (64,)
        assert (masks[np.arange(64), chosen] == 1).all()
        assert chosen[0] == 0
        assert chosen[-1] == 565


def test_the_random_learner_draws_each_legal_index_alike() -> None:
    rng = np.random.default_rng(6)
    masks = np.zeros((3, 6), np.int8)
    masks[0, [1, 4]] = 1
    masks[1, [0, 2, 5]] = 1
    masks[2, :] = 1
    counts = np.zeros((3, 6))
    draws = 6000
    for _ in range(draws):
        counts[np.arange(3), envs.random_legal(rng, masks)] += 1
    for row in range(3):
        legal = masks[row] == 1
        assert counts[row, ~legal].sum() == 0
        share = counts[row, legal] / draws
        assert np.all(np.abs(share - 1 / legal.sum()) < 0.03), share
    # a boolean mask draws as its 0/1 twin
    assert (masks[np.arange(3), envs.random_legal(rng, masks.astype(bool))] == 1).all()


def test_an_opponent_row_is_checked_before_any_row_runs() -> None:
    row = envs.opponent_row("fano", "trionfey", "ladder(style=rush,nodes=30)")
    assert row == ("fano", "trionfey", {"turns_per_player": 30}, "ladder(style=rush,nodes=30)")
    assert envs.opponent_row("fantan", "standard", "heuristic")[2] == {}
    for game, preset, agent, said in (
        ("chess", "x", "ladder", "names a game of fan, fano, fantan, morris"),
        ("fano", "nope", "ladder", "no variant 'nope'"),
        ("fano", "trionfey", "ladder(style=bogus)", "style must be one of"),
    ):
        with pytest.raises(ValueError, match=re.escape(said)):
            envs.opponent_row(game, preset, agent)


def test_opponent_rows_alone_run_without_self_play_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    def stepper(make: Callable[[], Any]) -> Callable[[float], tuple[int, float]]:
        env = make()
        made.append(type(env).__name__)
        env.close()
        return lambda seconds: (10, 0.5)

    monkeypatch.setattr(envs, "_cpu_stepper", stepper)
    monkeypatch.setattr(envs, "_hearts_cpu", lambda hearts, seconds: 40.0)
    rows = envs.self_play_rows(
        0.01, 2, 1, (), (envs.opponent_row("fano", "trionfey", "ladder(nodes=30)"),)
    )
    assert made == ["FanfoldVectorEnv"]
    assert [(ours, theirs) for _, ours, theirs in rows] == [(20.0, 40.0)]
    assert "ladder(nodes=30) opponents" in rows[0][0]
