"""The Fan Tan examples' shared measurement (examples/_fantan_eval.py): greedy play on the
legal cards, win rates with their Wilson interval, the deal-by-deal difference, and greedy
play on the same deals as one environment reset seed by seed."""

from __future__ import annotations

import argparse
import importlib.util
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fanfold.envs.gymnasium_env import FanfoldGymEnv

SHARED = Path(__file__).resolve().parents[2] / "examples" / "_fantan_eval.py"


@pytest.fixture(scope="module")
def shared() -> Any:
    spec = importlib.util.spec_from_file_location("fantan_eval_example", SHARED)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_interval_holds_the_rate(shared: Any) -> None:
    low, high = shared.wilson(485, 1000)
    assert low < 0.485 < high
    assert round(low, 3) == 0.454
    assert round(high, 3) == 0.516
    assert all(math.isnan(bound) for bound in shared.wilson(0, 0))
    assert shared.rate([True, False, False, True]) == (0.5, *shared.wilson(2, 4))


def test_a_paired_difference_counts_deal_by_deal(shared: Any) -> None:
    mean, low, high = shared.paired_difference(
        [True, True, False, True], [False, True, False, False]
    )
    assert mean == 50.0
    assert low < 0 < 50 < high  # two deals in four: a wide interval
    assert shared.paired_difference([True, False], [True, False]) == (0.0, 0.0, 0.0)


def test_greedy_play_picks_the_best_legal_card_or_passes(shared: Any) -> None:
    scores = np.array([[5.0] + [0.0] * 51, [1.0] * 52])
    masks = np.zeros((2, 53), dtype=np.int8)
    masks[0, [3, 9]] = 1  # card 0 scores best but is not legal
    masks[1, 52] = 1  # no card: the pass
    assert shared.best_legal(scores, masks).tolist() == [3, 52]


def test_the_batched_games_are_the_deals_of_one_env_reset_seed_by_seed(shared: Any) -> None:
    def highest(observations: Any, masks: Any) -> Any:
        return shared.best_legal(np.arange(52.0)[None, :].repeat(len(masks), 0), masks)

    batched = shared.greedy_results(highest, 3, "random", 7, 500)
    env = FanfoldGymEnv("fantan", opponents="random", players=3)
    one_by_one = []
    for seed in range(500, 507):
        obs, _ = env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            action = int(highest(None, obs["action_mask"][None, :])[0])
            obs, step_reward, terminated, truncated, _ = env.step(action)
            reward, done = float(step_reward), terminated or truncated
        one_by_one.append(reward > 0)
    assert batched == one_by_one
    assert 0 < sum(batched) < 7  # the deals differ: some won, some lost


@pytest.mark.parametrize(
    ("parse", "text", "message"),
    [
        ("positive", "0", "must be a number above 0, not 0"),
        ("positive", "inf", "must be a number above 0, not inf"),
        ("positive", "soon", "'soon' is not a number"),
        ("count", "9", "must be 1 to 8, not 9"),
        ("count", "2.5", "'2.5' is not a whole number"),
    ],
)
def test_bad_numbers_are_refused_with_a_sentence(
    shared: Any, parse: str, text: str, message: str
) -> None:
    check = shared.positive_float if parse == "positive" else shared.count(1, 8)
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        check(text)
