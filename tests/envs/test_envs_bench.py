"""The environments' benchmark's random learner (``benchmarks/envs.py``)."""

from __future__ import annotations

import numpy as np
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
