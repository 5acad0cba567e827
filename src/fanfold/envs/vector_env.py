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

Where a compiled engine covers the environment (``engine="auto"``, the default, or
``"compiled"``), the tables live in arrays and one kernel call steps them all: Fan Tan with
``random`` bots in the other seats, or ``heuristic`` ones where the starting rank is fixed
(:mod:`fanfold.envs.fantan_stepping`), Fano with
``random`` bots or members of the ladder (``ladder(style=rush)``: their compiled decision,
without look-ahead) in them (every variant the compiled engine plays,
:mod:`fanfold.envs.fano_stepping`), both with or without a step limit, Fan patience
(:mod:`fanfold.envs.fan_stepping`) and Morris against a ``random`` bot with a step limit (the
default 1,000; :mod:`fanfold.envs.morris_stepping`).
It plays exactly what the Python path (``engine="python"``) plays for the same seeds:
observations, masks, rewards, episode ends, infos and autoresets
(``tests/envs/test_fantan_stepping.py``). The compiled code is prepared as the bots' is
(:func:`fanfold.agents.strategy.compiled.prepare`: an installation carries it ready). On that
path the tables' :class:`~fanfold.envs.gymnasium_env.FanfoldGymEnv` objects in :attr:`envs`
hold only each table's generator: their ``episode`` is not the table's game.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from fanfold.core.errors import IllegalActionError
from fanfold.envs.encodings import ENCODINGS
from fanfold.envs.episode import apply_index, draw_seed, table_seeds
from fanfold.envs.gymnasium_env import MAX_SKIPPED, UNSET, FanfoldGymEnv, no_first_decision

if TYPE_CHECKING:
    from fanfold.envs.compiled_tables import CompiledTables

#: The engines a vector environment may step on.
ENGINES = ("auto", "python", "compiled")
#: The compiled environment code's name among the build's warm-ups, by game
#: (:data:`fanfold.agents.strategy.compiled.ENVIRONMENT_WARM_UPS`).
COMPILED_NAMES = {
    "fantan": "fantan-env",
    "fano": "fano-env",
    "fan": "fan-env",
    "morris": "morris-env",
}
#: The module of each game's compiled stepping (its ``supports(seats, max_steps, config)`` and
#: ``tables``).
STEPPING = {
    "fantan": "fanfold.envs.fantan_stepping",
    "fano": "fanfold.envs.fano_stepping",
    "fan": "fanfold.envs.fan_stepping",
    "morris": "fanfold.envs.morris_stepping",
}


class FanfoldVectorEnv(VectorEnv[dict[str, Any], NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` tables of a fanfold game for one learner seat each, as one Gymnasium
    vector environment.

    Args:
        game, variant, opponents, seat, illegal_action, illegal_reward, max_steps, options:
            as :class:`~fanfold.envs.gymnasium_env.FanfoldGymEnv`, for every table (``reward``
            among the options: ``"cards"`` is stepped by both engines alike).
        num_envs: how many tables.
        engine: ``"auto"`` (the compiled engine where one covers the environment, else
            Python), ``"python"`` or ``"compiled"`` (refused where none covers it).

    Raises:
        ValueError: ``num_envs`` below 1, an unknown engine, ``"compiled"`` where no compiled
            engine covers the environment, or what a single environment refuses.
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
        engine: str = "auto",
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        if engine not in ENGINES:
            raise ValueError(f"engine must be 'auto', 'python' or 'compiled', not {engine!r}")
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
        self._fast = self._compiled_tables(first, engine)
        self._all = np.arange(num_envs, dtype=np.int64)

    def _compiled_tables(self, first: FanfoldGymEnv, engine: str) -> CompiledTables | None:
        """The compiled engine's tables for this environment, or ``None`` for Python."""
        if engine == "python":
            return None
        name = first.game.name
        module = STEPPING.get(name)
        stepping = importlib.import_module(module) if module is not None else None
        covered = stepping is not None and stepping.supports(
            first.seats, first.max_steps, first.config
        )
        # the kernels write the game's own encoding: another (a learner's own observation)
        # steps in Python
        covered = covered and type(self.encoding) is ENCODINGS.get(name)
        if not covered:
            if engine == "compiled":
                raise ValueError(
                    "no compiled engine covers this environment: it steps Fan Tan with "
                    "'random' bots (or 'heuristic' ones, with a fixed starting rank) in the "
                    "other seats, Fano with 'random' bots or ladder "
                    "members (compiled, no look-ahead) in them, both with any step limit, "
                    "Fan patience, and Morris against a 'random' bot with a step limit of 1 "
                    "to 4096"
                )
            return None
        from fanfold.agents.strategy import compiled

        compiled.prepare(COMPILED_NAMES[name])
        assert stepping is not None
        made: CompiledTables = stepping.tables(first, self.num_envs, self.encoding)
        return made

    @property
    def engine(self) -> str:
        """``"compiled"`` or ``"python"``: what steps the tables."""
        return "python" if self._fast is None else "compiled"

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
        seeds = table_seeds(seed, self.num_envs)
        infos: dict[str, Any] = {}
        if self._fast is None:
            for index, (env, table_seed) in enumerate(zip(self.envs, seeds, strict=True)):
                observation, info = env.reset(seed=table_seed, options=options)
                self._write(index, observation)
                infos = self._add_info(infos, info, index)
        else:
            for env, table_seed in zip(self.envs, seeds, strict=True):
                gymnasium.Env.reset(env, seed=table_seed, options=options)  # its generator
            for index, info in zip(self._all.tolist(), self._deal(self._all), strict=True):
                infos = self._add_info(infos, info, index)
            self._fast.observe(self._all, self._all, self._observation, self._mask)
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
        if self._fast is not None:
            return self._step_compiled(chosen)
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

    def _deal(self, which: NDArray[np.int64]) -> list[dict[str, Any]]:
        """Deal a new game at each table of ``which`` from its generator, as a single
        environment's ``reset`` does (a game over, or cut by the step limit, before the
        learner decides is passed over); returns each table's reset info."""
        fast = self._fast
        assert fast is not None
        skipped = [0] * len(which)
        waiting = list(range(len(which)))
        while waiting:
            tables = which[waiting]
            fast.start(tables, [draw_seed(self.envs[table].np_random) for table in tables])
            over = fast.is_over(tables) | fast.is_cut(tables)
            waiting = [number for number, done in zip(waiting, over, strict=True) if done]
            for number in waiting:
                skipped[number] += 1
                if skipped[number] >= MAX_SKIPPED:
                    raise RuntimeError(no_first_decision(self.envs[0].max_steps))
        return [{"skipped_deals": count} if count else {} for count in skipped]

    def _step_compiled(
        self, chosen: NDArray[Any]
    ) -> tuple[dict[str, Any], NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        """:meth:`step` on the compiled engine: every legal action at once, the same results
        as the Python path's, table for table."""
        fast = self._fast
        assert fast is not None
        count = self.num_envs
        legal = np.zeros(count, dtype=np.bool_)
        if chosen.dtype.kind in "iu":
            inside = (chosen >= 0) & (chosen < self.encoding.num_actions)
            rows = np.flatnonzero(inside)
            legal[rows] = self._mask[rows, chosen[rows]] == 1
        refused: dict[int, str] = {}
        for index in np.flatnonzero(~legal).tolist():
            env = self.envs[index]
            try:  # the sentence the Python path says; it raises here
                apply_index(env.game, self.encoding, fast.state(index), env.seat, chosen[index])
            except IllegalActionError as error:
                if env.illegal_action == "raise":
                    raise
                refused[index] = str(error)
        margin = self.envs[0].margin  # reward="cards": the margins before the step
        before = None if margin is None else margin(self._observation)
        playing = np.flatnonzero(legal).astype(np.int64)
        fast.act(playing, chosen[playing].astype(np.int64))
        self._rewards[:] = 0.0
        self._terminations[:] = fast.is_over(self._all)
        self._truncations[:] = fast.is_cut(self._all)
        finals: dict[int, dict[str, Any]] = {}
        for index, reason in refused.items():
            self._terminations[index] = True
            self._rewards[index] = self.envs[index].illegal_reward
            final = {"observation": self._observation[index].copy()}
            final["action_mask"] = self._mask[index].copy()
            finals[index] = {"final_obs": final, "final_info": {"illegal_action": reason}}
        ended = np.flatnonzero(self._terminations | self._truncations).astype(np.int64)
        if len(ended):
            observations = np.zeros((len(ended), self._observation.shape[1]), dtype=np.float32)
            masks = np.zeros((len(ended), self._mask.shape[1]), dtype=np.int8)
            fast.observe(ended, np.arange(len(ended), dtype=np.int64), observations, masks)
            for row, index in enumerate(ended.tolist()):
                if index in refused:
                    continue
                final = {"observation": observations[row], "action_mask": masks[row]}
                if not self._terminations[index]:  # cut at the step limit
                    finals[index] = {"final_obs": final, "final_info": {}}
                    continue
                outcome = fast.outcome(index, self.envs[index].game)
                assert outcome is not None  # the match is over
                self._rewards[index] = float(outcome.returns[self.envs[index].seat])
                finals[index] = {"final_obs": final, "final_info": {"outcome": outcome.reason}}
            dealt = self._deal(ended)
        infos: dict[str, Any] = {}
        for number, index in enumerate(ended.tolist()):
            infos = self._add_info(infos, finals[index], index)
            infos = self._add_info(infos, dealt[number], index)
        fast.observe(self._all, self._all, self._observation, self._mask)
        if margin is not None and before is not None:
            after = margin(self._observation)
            for index in ended.tolist():
                after[index] = margin(finals[index]["final_obs"]["observation"])
            self._rewards += after - before
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
