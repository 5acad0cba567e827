"""The vectorised Gymnasium environment: each table steps exactly as a single environment
seeded alike, finished tables are dealt again in the same step, and bad input is refused."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from fanfold.envs.gymnasium_env import FanfoldGymEnv
from fanfold.envs.vector_env import FanfoldVectorEnv


@pytest.mark.parametrize(
    ("game", "options"),
    [("fantan", {"players": 3}), ("fano", {"turns_per_player": 8}), ("morris", {})],
)
def test_each_table_steps_as_a_single_env_seed_for_seed(game: str, options: dict[str, Any]) -> None:
    tables = 3
    vector = FanfoldVectorEnv(game, num_envs=tables, **options)
    singles = [FanfoldGymEnv(game, **options) for _ in range(tables)]
    batch, _ = vector.reset(seed=20)
    observed = [env.reset(seed=20 + index)[0] for index, env in enumerate(singles)]
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(120):
        for index, single in enumerate(observed):
            assert np.array_equal(batch["observation"][index], single["observation"])
            assert np.array_equal(batch["action_mask"][index], single["action_mask"])
        actions = [int(rng.choice(np.flatnonzero(mask))) for mask in batch["action_mask"]]
        batch, rewards, terminated, truncated, infos = vector.step(actions)
        for index, env in enumerate(singles):
            observation, reward, done, cut, _ = env.step(actions[index])
            assert rewards[index] == reward
            assert (terminated[index], truncated[index]) == (done, cut)
            if done or cut:
                ended += 1
                assert infos["_final_obs"][index]
                final = infos["final_obs"][index]
                assert np.array_equal(final["observation"], observation["observation"])
                observation, _ = env.reset()  # the vector env deals again at once
            observed[index] = observation
    assert ended > 0  # the autoreset was exercised


def test_the_batch_has_the_spaces_shapes() -> None:
    vector = FanfoldVectorEnv("fantan", num_envs=5)
    batch, _ = vector.reset(seed=1)
    assert batch["observation"].shape == (5, vector.encoding.layout.size)
    assert batch["action_mask"].shape == (5, 53)
    assert batch in vector.observation_space
    assert vector.single_action_space.n == 53  # type: ignore[attr-defined]


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="num_envs must be a whole number of at least 1"):
        FanfoldVectorEnv("fantan", num_envs=0)
    vector = FanfoldVectorEnv("fantan", num_envs=2)
    with pytest.raises(ValueError, match="3 seeds for 2 tables"):
        vector.reset(seed=[1, 2, 3])
    vector.reset(seed=[1, 2])
    with pytest.raises(ValueError, match=r"one action per table \(2\)"):
        vector.step([0])


def test_gymnasium_makes_it_from_an_id() -> None:
    import gymnasium

    import fanfold.envs

    vector = gymnasium.make_vec(
        "fanfold/fantan-v1", num_envs=3, vectorization_mode="vector_entry_point", players=5
    )
    assert isinstance(vector.unwrapped, FanfoldVectorEnv)
    batch, _ = vector.reset(seed=0)
    assert batch["action_mask"].shape == (3, 53)
    assert fanfold.envs.gym_vector_env("morris", num_envs=2).num_envs == 2
