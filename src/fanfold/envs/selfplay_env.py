"""Batched self-play: many tables of one game, every seat of every table played by the caller.

>>> env = SelfPlayVectorEnv("fantan", num_envs=3, engine="python")
>>> batch, infos = env.reset(seed=7)
>>> batch["observation"].shape[0], infos["seat"].shape
(3, (3,))
>>> actions = [int(row.nonzero()[0][0]) for row in batch["action_mask"]]
>>> batch, rewards, terminated, truncated, infos = env.step(actions)
>>> rewards.shape
(3, 4)

Each step takes one action per table, for the seat that decides there now
(``infos["seat"]``), so one policy call acts for every seat of every table at once: the batch
holds each table's deciding seat's observation (its own view, seat-relative as every
encoding's) and legal mask, and every seat's action is a step. Nothing is played between the
caller's actions (no bots). The rewards are one row per table and one column per seat: every
seat's return on the step its table's game ends, 0 before.

A table whose game ends, or that the step limit cuts, is dealt again in the same step (as
:class:`~fanfold.envs.vector_env.FanfoldVectorEnv`'s ``SAME_STEP`` autoreset): the finished
game's last observation, for the seat that acted last, is in ``infos["final_obs"]``
(``infos["_final_obs"]`` marks the tables) and its info (``outcome``) in
``infos["final_info"]``. ``reset(seed=S)`` seeds table ``i`` with ``S + i`` (or one seed per
table): every deal is drawn from that table's generator, as a single environment's.

``flatten=True`` gives each table's observation as one float32 vector,
:func:`gymnasium.spaces.flatten` of its ``{"action_mask", "observation"}`` (the mask first):
``env.mask_columns`` and ``env.observation_columns`` are where each part lies.

An action the deciding seat may not take (masked out, out of range, not an integer) is refused
with :class:`~fanfold.core.errors.IllegalActionError` naming the table and the action, before
any table moves.

Where a compiled engine covers the game (``engine="auto"``, the default, or ``"compiled"``)
the tables live in arrays and one kernel call steps them all: Fano (every variant the compiled
engine plays), Fan Tan and Fan patience (one seat, so self-play is its single-player
environment), with or without a step limit, and Morris with a step limit of 1 to 4,096 (the
default 1,000). It plays exactly what the Python path
(``engine="python"``: a :class:`~fanfold.envs.episode.Episode` per table, every seat a
learner) plays for the same seeds and actions, state by state
(``tests/envs/test_selfplay_env.py``).

None of these games has simultaneous moves, so PettingZoo's parallel API would only fake them:
for PettingZoo, use the AEC environment (:func:`fanfold.envs.aec_env`).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray

from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.errors import IllegalActionError, Refusal, reason_of
from fanfold.envs.compiled_tables import SelfPlayTables
from fanfold.envs.encodings import ENCODINGS, encoding_for, resolve
from fanfold.envs.episode import (
    Episode,
    apply_index,
    default_max_steps,
    draw_seed,
    table_seeds,
)
from fanfold.envs.gymnasium_env import MAX_SKIPPED, UNSET, no_first_decision
from fanfold.envs.vector_env import COMPILED_NAMES, ENGINES, STEPPING

#: The games whose compiled stepping plays self-play (``supports_self_play`` and
#: ``self_play_tables`` in their :data:`~fanfold.envs.vector_env.STEPPING` module).
SELF_PLAY_COMPILED = ("fano", "fantan", "fan", "morris")


class SelfPlayVectorEnv:
    """``num_envs`` tables of a fanfold game in self-play, stepped as one batch.

    Args:
        game: the game's name.
        variant: a preset (the default when ``None``).
        num_envs: how many tables.
        max_steps: actions (every seat's) after which a game is cut (default per game, as
            :class:`~fanfold.envs.gymnasium_env.FanfoldGymEnv`; ``None``: never).
        engine: ``"auto"``, ``"python"`` or ``"compiled"`` (refused where none covers it).
        flatten: each table's observation as one vector (see the module text).
        **options: config options on top of the preset (``players=5``).

    Raises:
        ValueError: ``num_envs`` below 1, an unknown engine, ``"compiled"`` where no compiled
            engine covers the game, a negative ``max_steps``.
        UnknownGameError, ConfigError: a bad game or option.
    """

    def __init__(
        self,
        game: str,
        variant: str | None = None,
        *,
        num_envs: int = 8,
        max_steps: int | None = UNSET,
        engine: str = "auto",
        flatten: bool = False,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        if engine not in ENGINES:
            raise ValueError(f"engine must be 'auto', 'python' or 'compiled', not {engine!r}")
        found, config = resolve(game, variant, options)
        self.game = found
        self.config = config
        self.encoding = encoding_for(found, config)
        self.players = found.num_players(config)
        self.max_steps = default_max_steps(found) if max_steps is UNSET else max_steps
        if self.max_steps is not None and (
            isinstance(self.max_steps, bool)
            or not isinstance(self.max_steps, int)
            or self.max_steps < 0
        ):
            raise ValueError(
                f"max_steps must be None or a whole number of at least 0, not {max_steps!r}"
            )
        self.num_envs = num_envs
        self.flatten = bool(flatten)
        low, high = self.encoding.layout.bounds
        self.single_observation_space: spaces.Space[Any] = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.encoding.num_actions,), dtype=np.int8),
            }
        )
        actions = self.encoding.num_actions
        #: Where the mask and the observation lie in a flattened observation.
        self.mask_columns = slice(0, actions)
        self.observation_columns = slice(actions, actions + self.encoding.layout.size)
        if self.flatten:
            self.single_observation_space = spaces.flatten_space(self.single_observation_space)
        self.single_action_space = spaces.Discrete(actions)
        self._observation = np.zeros((num_envs, self.encoding.layout.size), dtype=np.float32)
        self._mask = np.zeros((num_envs, actions), dtype=np.int8)
        self._seat = np.zeros(num_envs, dtype=np.int64)
        self._all = np.arange(num_envs, dtype=np.int64)
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self.episodes: list[Episode | None] = [None] * num_envs
        self._fast = self._compiled_tables(engine)

    def _compiled_tables(self, engine: str) -> SelfPlayTables | None:
        """The compiled engine's self-play tables, or ``None`` for Python."""
        if engine == "python":
            return None
        name = self.game.name
        stepping = importlib.import_module(STEPPING[name]) if name in SELF_PLAY_COMPILED else None
        covered = (
            stepping is not None
            and stepping.supports_self_play(self.config, self.max_steps)
            and type(self.encoding) is ENCODINGS.get(name)
        )
        if not covered:
            if engine == "compiled":
                raise ValueError(
                    "no compiled engine covers this self-play: it steps Fano (the variants "
                    "its compiled engine plays), Fan Tan, Fan patience, and Morris with a "
                    "step limit of 1 to 4096"
                )
            return None
        from fanfold.agents.strategy import compiled

        compiled.prepare(COMPILED_NAMES[name])
        assert stepping is not None
        made: SelfPlayTables = stepping.self_play_tables(
            self.encoding, self.num_envs, self.max_steps
        )
        return made

    @property
    def engine(self) -> str:
        """``"compiled"`` or ``"python"``: what steps the tables."""
        return "python" if self._fast is None else "compiled"

    # ------------------------------------------------------------------------ the batch
    def _batch(self) -> Any:
        if self.flatten:
            return np.concatenate([self._mask.astype(np.float32), self._observation], axis=1)
        return {"observation": self._observation.copy(), "action_mask": self._mask.copy()}

    def _final(self, observation: NDArray[np.float32], mask: NDArray[np.int8]) -> Any:
        if self.flatten:
            return np.concatenate([mask.astype(np.float32), observation])
        return {"observation": observation, "action_mask": mask}

    def _write(self, index: int) -> None:
        """Table ``index``'s deciding seat, observation and mask (Python engine)."""
        episode = self.episodes[index]
        assert episode is not None
        seat = episode.decider
        assert seat is not None  # dealt and stepped only while someone decides
        self._seat[index] = seat
        self._observation[index] = episode.observation(seat)
        self._mask[index] = episode.mask(seat)

    def _observe(self, which: NDArray[np.int64]) -> None:
        """The deciding seats, observations and masks of the tables ``which`` (compiled)."""
        fast = self._fast
        assert fast is not None
        seats = fast.deciders(which)
        self._seat[which] = seats
        fast.observe(which, which, self._observation, self._mask, seats)

    # ------------------------------------------------------------------------- reset
    def reset(
        self, *, seed: int | Sequence[int | None] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal every table; ``seed`` (an int: table ``i`` gets ``seed + i``; or one per
        table) makes the deals, and every later one, reproducible.

        Raises:
            ValueError: a list of seeds not one per table.
        """
        seeds = table_seeds(seed, self.num_envs)
        for index, table_seed in enumerate(seeds):
            self._rngs[index] = seeding.np_random(table_seed)[0]
        skipped = self._deal(self._all)
        infos: dict[str, Any] = {}
        if any(skipped):
            infos["skipped_deals"] = np.array(skipped, dtype=np.int64)
        infos["seat"] = self._seat.copy()
        return self._batch(), infos

    def _rng(self, index: int) -> np.random.Generator:
        rng = self._rngs[index]
        if rng is None:
            raise RuntimeError("call reset() before using the environment")
        return rng

    def _deal(self, which: NDArray[np.int64]) -> list[int]:
        """Deal a new game at each table of ``which`` from its generator (a game over, or cut
        by the step limit, before anyone decides is passed over) and write its batch row;
        returns the deals passed over at each."""
        skipped = [0] * len(which)
        waiting = list(range(len(which)))
        while waiting:
            tables = which[waiting]
            seeds = [draw_seed(self._rng(int(table))) for table in tables]
            if self._fast is not None:
                self._fast.start(tables, seeds)
                over = self._fast.is_over(tables) | self._fast.is_cut(tables)
            else:
                over = np.zeros(len(tables), dtype=np.bool_)
                for number, (table, table_seed) in enumerate(zip(tables, seeds, strict=True)):
                    episode = Episode(
                        self.game,
                        self.config,
                        self.encoding,
                        ["human"] * self.players,
                        seed=table_seed,
                        agent_seed=table_seed,
                        max_steps=self.max_steps,
                    )
                    self.episodes[int(table)] = episode
                    over[number] = episode.decider is None
            waiting = [number for number, done in zip(waiting, over, strict=True) if done]
            for number in waiting:
                skipped[number] += 1
                if skipped[number] >= MAX_SKIPPED:
                    raise RuntimeError(no_first_decision(self.max_steps))
        if self._fast is not None:
            self._observe(which)
        else:
            for table in which.tolist():
                self._write(table)
        return skipped

    # -------------------------------------------------------------------------- step
    def _check(self, chosen: NDArray[Any]) -> None:
        """Refuse the batch where a table's action is not its deciding seat's to take.

        Raises:
            IllegalActionError: the first such table's, with the Python path's sentence.
        """
        legal = np.zeros(self.num_envs, dtype=np.bool_)
        if chosen.dtype.kind in "iu":
            inside = (chosen >= 0) & (chosen < self.encoding.num_actions)
            rows = np.flatnonzero(inside)
            legal[rows] = self._mask[rows, chosen[rows]] == 1
        for index in np.flatnonzero(~legal).tolist():
            seat = int(self._seat[index])
            state = (
                self._fast.state(index)
                if self._fast is not None
                else self.episodes[index].table.state  # type: ignore[union-attr]
            )
            try:
                apply_index(self.game, self.encoding, state, seat, chosen[index].item())
            except IllegalActionError as error:
                raise IllegalActionError(
                    Refusal("envs.at_table", table=index, seat=seat, reason=reason_of(error))
                ) from None
            raise IllegalActionError(  # pragma: no cover - a legal action is in the mask
                Refusal("envs.not_in_mask", table=index, seat=seat, action=str(chosen[index]))
            )

    def step(
        self, actions: Any
    ) -> tuple[Any, NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        """One action per table, for its deciding seat; a finished table is dealt again.

        Returns:
            the batch, rewards (``num_envs x players``: each seat's return where a game
            ended), terminated, truncated (cut by the step limit) and infos (``seat``: who
            decides each table now; ``final_obs``/``final_info`` where a game ended).

        Raises:
            ValueError: not one action per table.
            IllegalActionError: an action its table's deciding seat may not take (no table
                moves).
        """
        if self._rngs[0] is None:
            raise RuntimeError("call reset() before using the environment")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"step needs one action per table ({self.num_envs}), not {actions!r}")
        self._check(chosen)
        actors = self._seat.copy()
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float64)
        if self._fast is not None:
            fast = self._fast
            fast.act(self._all, chosen.astype(np.int64))
            terminated = fast.is_over(self._all)
            truncated = fast.is_cut(self._all)
        else:
            terminated = np.zeros(self.num_envs, dtype=np.bool_)
            truncated = np.zeros(self.num_envs, dtype=np.bool_)
            for index, episode in enumerate(self.episodes):
                assert episode is not None
                episode.act(int(actors[index]), int(chosen[index]))
                terminated[index] = episode.is_terminal
                truncated[index] = episode.is_truncated
        ended = np.flatnonzero(terminated | truncated).astype(np.int64)
        finals: list[dict[str, Any]] = []
        if len(ended):
            observations = np.zeros((len(ended), self._observation.shape[1]), dtype=np.float32)
            masks = np.zeros((len(ended), self._mask.shape[1]), dtype=np.int8)
            if self._fast is not None:
                rows = np.arange(len(ended), dtype=np.int64)
                self._fast.observe(ended, rows, observations, masks, actors[ended])
            for row, index in enumerate(ended.tolist()):
                actor = int(actors[index])
                episode = self.episodes[index]
                if self._fast is None:
                    assert episode is not None
                    observations[row] = episode.observation(actor)
                    masks[row] = episode.mask(actor)
                info: dict[str, Any] = {}
                if terminated[index]:
                    outcome = (
                        self._fast.outcome(index, self.game)
                        if self._fast is not None
                        else self.game.outcome(episode.table.state)  # type: ignore[union-attr]
                    )
                    assert outcome is not None  # the game is over
                    rewards[index] = outcome.returns
                    info["outcome"] = outcome.reason
                finals.append(
                    {"final_obs": self._final(observations[row], masks[row]), "final_info": info}
                )
        live = np.flatnonzero(~(terminated | truncated)).astype(np.int64)
        if self._fast is not None:
            self._observe(live)
        else:
            for index in live.tolist():
                self._write(index)
        infos: dict[str, Any] = {}
        if len(ended):
            skipped = self._deal(ended)
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info = np.full(self.num_envs, None, dtype=object)
            marked = np.zeros(self.num_envs, dtype=np.bool_)
            for row, index in enumerate(ended.tolist()):
                final_obs[index] = finals[row]["final_obs"]
                final_info[index] = finals[row]["final_info"]
                marked[index] = True
            infos["final_obs"] = final_obs
            infos["_final_obs"] = marked
            infos["final_info"] = final_info
            infos["_final_info"] = marked.copy()
            if any(skipped):
                counts = np.zeros(self.num_envs, dtype=np.int64)
                counts[ended] = skipped
                infos["skipped_deals"] = counts
        infos["seat"] = self._seat.copy()
        return self._batch(), rewards, terminated.copy(), truncated.copy(), infos

    def state(self, index: int) -> Any:
        """Table ``index``'s game as a rules state (for tests and inspection; it holds every
        seat's cards)."""
        if self._fast is not None:
            return self._fast.state(index)
        episode = self.episodes[index]
        if episode is None:
            raise RuntimeError("call reset() before using the environment")
        return episode.table.state
