"""What the compiled stepping tests share: comparing a vector env on the compiled engine with
the same env on the Python engine, step by step, infos included."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fanfold.envs.vector_env import FanfoldVectorEnv


def compare_infos(compiled: dict[str, Any], python: dict[str, Any]) -> None:
    """The compiled engine's infos are the Python engine's: the same keys in the same order,
    equal arrays of the same dtypes, the final observations alike."""
    assert list(compiled) == list(python)
    for key, value in python.items():
        if key == "final_obs":
            for mine, theirs in zip(compiled[key], value, strict=True):
                assert (mine is None) == (theirs is None)
                if theirs is not None:
                    assert list(mine) == list(theirs)
                    for name in theirs:
                        assert np.array_equal(mine[name], theirs[name])
                        assert mine[name].dtype == theirs[name].dtype
        elif isinstance(value, dict):
            compare_infos(compiled[key], value)
        else:
            assert np.array_equal(compiled[key], value), key
            assert compiled[key].dtype == value.dtype


@dataclass
class Compared:
    """What a comparison of the two engines went through."""

    steps: int = 0
    ended: int = 0  # games ended by the rules (or by an illegal action)
    cut: int = 0  # games cut at the step limit
    refused: int = 0  # illegal actions sent


def step_both_engines(
    game: str,
    preset: str,
    options: dict[str, Any],
    *,
    tables: int,
    seed: int | Sequence[int],
    steps: int,
    illegal: float = 0.0,
    rng_seed: int = 0,
    out_of_range: int | None = None,
) -> Compared:
    """Step ``tables`` tables on both engines with the same actions (random legal ones; with
    probability ``illegal`` a masked-out one, or ``out_of_range`` where given) and check that
    observations, masks, rewards, episode ends and infos agree at every step."""
    fast = FanfoldVectorEnv(game, preset, num_envs=tables, **options)
    slow = FanfoldVectorEnv(game, preset, num_envs=tables, engine="python", **options)
    assert (fast.engine, slow.engine) == ("compiled", "python")
    mine, my_infos = fast.reset(seed=seed)
    theirs, their_infos = slow.reset(seed=seed)
    compare_infos(my_infos, their_infos)
    rng = np.random.default_rng(rng_seed)
    compared = Compared()
    for _ in range(steps):
        for name in ("observation", "action_mask"):
            assert np.array_equal(mine[name], theirs[name])
        actions = [int(rng.choice(np.flatnonzero(mask))) for mask in mine["action_mask"]]
        for index in range(tables):
            if rng.random() < illegal:  # a masked-out action, or one out of range
                wrong = np.flatnonzero(mine["action_mask"][index] == 0).tolist()
                if out_of_range is not None:
                    wrong.append(out_of_range)
                actions[index] = int(rng.choice(wrong))
                compared.refused += 1
        mine, rewards, terminated, truncated, my_infos = fast.step(actions)
        theirs, their_rewards, their_terminated, their_truncated, their_infos = slow.step(actions)
        assert np.array_equal(rewards, their_rewards)
        assert np.array_equal(terminated, their_terminated)
        assert np.array_equal(truncated, their_truncated)
        compare_infos(my_infos, their_infos)
        compared.steps += 1
        compared.ended += int(terminated.sum())
        compared.cut += int(truncated.sum())
    return compared
