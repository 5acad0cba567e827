"""A vectorised Gymnasium environment: many tables of one game stepped as a batch.

>>> env = FanfoldVectorEnv("fantan", num_envs=4)
>>> observations, infos = env.reset(seed=7)
>>> observations["observation"].shape[0], observations["action_mask"].shape[0]
(4, 4)
>>> actions = [int(row.nonzero()[0][0]) for row in observations["action_mask"]]
>>> observations, rewards, terminated, truncated, infos = env.step(actions)
>>> rewards.shape
(4,)

Each of the ``num_envs`` tables is a :class:`~fanfold.envs.gymnasium_env.FanfoldGymEnv` (one
learner seat, bots in the others), so table ``i`` plays exactly the steps a single environment
reset with seed ``seed + i`` plays. The tables share one encoding, and their observations and
action masks are written into one preallocated batch (``observation``: ``num_envs x size``
float32; ``action_mask``: ``num_envs x actions`` int8) instead of being built per table and
concatenated.

A table whose game ends is dealt again in the same step (Gymnasium's ``SAME_STEP`` autoreset),
so every row of the returned batch, mask included, is ready for the next action; the last
observation of the finished game is in ``infos["final_obs"]`` (with ``infos["_final_obs"]``
marking the tables) and its info in ``infos["final_info"]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from fanfold.envs.gymnasium_env import UNSET, FanfoldGymEnv


class FanfoldVectorEnv(VectorEnv[dict[str, Any], NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` tables of a fanfold game for one learner seat each, as one Gymnasium
    vector environment.

    Args:
        game, variant, opponents, seat, illegal_action, illegal_reward, max_steps, options:
            as :class:`~fanfold.envs.gymnasium_env.FanfoldGymEnv`, for every table.
        num_envs: how many tables.

    Raises:
        ValueError: ``num_envs`` below 1, or what a single environment refuses.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # read from the class
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game: str,
        variant: str | None = None,
        opponents: str | Sequence[str] | None = None,
        *,
        num_envs: int = 8,
        seat: int = 0,
        illegal_action: str = "end",
        illegal_reward: float = -1.0,
        max_steps: int | None = UNSET,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        first = FanfoldGymEnv(
            game,
            variant,
            opponents,
            seat=seat,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            max_steps=max_steps,
            **options,
        )
        self.envs = [first]
        for _ in range(num_envs - 1):
            # same settings; the encoding (the action table) is shared, not rebuilt
            env = object.__new__(FanfoldGymEnv)
            env.__dict__.update(first.__dict__)
            env.episode = None
            env._np_random = None  # its own generator, made at its reset
            env._np_random_seed = None
            self.envs.append(env)
        self.num_envs = num_envs
        self.encoding = first.encoding
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self._observation = np.zeros((num_envs, self.encoding.layout.size), dtype=np.float32)
        self._mask = np.zeros((num_envs, self.encoding.num_actions), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)

    def _write(self, index: int, observation: dict[str, Any]) -> None:
        self._observation[index] = observation["observation"]
        self._mask[index] = observation["action_mask"]

    def _batch(self) -> dict[str, Any]:
        return {"observation": self._observation.copy(), "action_mask": self._mask.copy()}

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal every table; ``seed`` (an int: table ``i`` gets ``seed + i``; or one per
        table) makes the deals, and every later one, reproducible.

        Raises:
            ValueError: a list of seeds not one per table.
        """
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [
                None if seed is None else seed + index for index in range(self.num_envs)
            ]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} tables")
        infos: dict[str, Any] = {}
        for index, (env, table_seed) in enumerate(zip(self.envs, seeds, strict=True)):
            observation, info = env.reset(seed=table_seed, options=options)
            self._write(index, observation)
            infos = self._add_info(infos, info, index)
        self._rewards[:] = 0.0
        self._terminations[:] = False
        self._truncations[:] = False
        return self._batch(), infos

    def step(
        self, actions: Any
    ) -> tuple[dict[str, Any], NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        """One action per table (an index whose mask entry is 1), then the bots of each table
        until its learner decides again; a finished table is dealt again at once.

        Raises:
            ValueError: not one action per table.
        """
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"step needs one action per table ({self.num_envs}), not {actions!r}")
        infos: dict[str, Any] = {}
        for index, env in enumerate(self.envs):
            observation, reward, terminated, truncated, info = env.step(chosen[index])
            self._rewards[index] = float(reward)
            self._terminations[index] = terminated
            self._truncations[index] = truncated
            if terminated or truncated:
                infos = self._add_info(infos, {"final_obs": observation, "final_info": info}, index)
                observation, info = env.reset()
            self._write(index, observation)
            infos = self._add_info(infos, info, index)
        return (
            self._batch(),
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            infos,
        )

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
        del kwargs
