"""PettingZoo AEC environments for every fanfold game and variant.

>>> env = FanfoldAECEnv("morris")
>>> env.reset(seed=1)
>>> env.agent_selection, int(env.action_space("player_0").n)
('player_0', 44)
>>> observation, reward, terminated, truncated, info = env.last()
>>> sorted(observation), int(observation["action_mask"].sum())
(['action_mask', 'observation'], 14)

Every seat is an agent (``player_0`` ...). ``agent_selection`` is always the seat that decides
next, which in Fano's Trionfey edition is the defender during a counter window. The
observation of an agent is built from its own view; its action mask is all 0 when it does not
decide. At the end every agent is terminated with its return as reward; ``max_steps``
truncates a game that goes on too long.

There is no parallel-API wrapper: every game here is turn-based (one decider at a time), and
PettingZoo's AEC-to-parallel conversion is only for games whose agents all act each cycle.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from fanfold.envs.encodings import encoding_for, resolve
from fanfold.envs.episode import Episode, default_max_steps, draw_seed
from fanfold.envs.registration import VERSIONS
from fanfold.play.table import HUMAN

UNSET: Any = object()


class FanfoldAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """A fanfold game as a PettingZoo AEC environment.

    Args:
        game: the game's name (``fano``, ``morris``, ``fantan``, ``fan``).
        variant: a preset name (the game's default when ``None``).
        render_mode: ``None``, ``"ansi"`` (render returns the acting seat's view as text) or
            ``"human"`` (prints it).
        max_steps: actions after which the game is truncated (default per game; ``None``:
            never).
        **options: config options on top of the preset (``players=4``,
            ``turns_per_player=20``).

    Raises:
        UnknownGameError: an unknown game or variant.
        ConfigError: an unknown option or an inconsistent config.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo reads it from the class
        "name": "fanfold_v1",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        variant: str | None = None,
        *,
        render_mode: str | None = None,
        max_steps: int | None = UNSET,
        **options: Any,
    ) -> None:
        super().__init__()
        found, config = resolve(game, variant, options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.game = found
        self.config = config
        self.encoding = encoding_for(found, config)
        self.render_mode = render_mode
        self.max_steps = default_max_steps(found) if max_steps is UNSET else max_steps
        self.metadata = {
            **self.metadata,
            "name": f"fanfold_{found.name}_v{VERSIONS.get(found.name, 1)}",
        }
        players = self.encoding.players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = self.encoding.layout.bounds
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.encoding.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {
            agent: spaces.Discrete(self.encoding.num_actions) for agent in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self.episode: Episode | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----------------------------------------------------------------- the loop
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; with ``seed`` the deal (and every later one) is reproducible."""
        del options
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        players = self.encoding.players
        self.episode = Episode(
            self.game,
            self.config,
            self.encoding,
            [HUMAN] * players,
            seed=draw_seed(self._rng),
            max_steps=self.max_steps,
        )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        if self._end_if_over():  # a deal over before any decision (a Fan deal with no move)
            self._accumulate_rewards()
        self._select()

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (an index whose mask entry is 1).

        Raises:
            IllegalActionError: an index out of range or masked out (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self._require_episode()
        episode.act(self._seat_of[agent], action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._end_if_over()
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def _end_if_over(self) -> bool:
        """When the game has ended (or reached the step limit): every agent terminated (or
        truncated) with its return as reward and the reason in its info; whether it has."""
        episode = self._require_episode()
        if not (episode.is_terminal or episode.is_truncated):
            return False
        ended = episode.is_terminal
        for name, value in zip(self.possible_agents, episode.returns(), strict=True):
            self.rewards[name] = float(value)
            self.terminations[name] = ended
            self.truncations[name] = not ended
        outcome = episode.table.outcome
        reason = outcome.reason if outcome is not None else "cut short at the step limit"
        for name in self.agents:
            self.infos[name] = {"outcome": reason}
        return True

    def _select(self) -> None:
        episode = self._require_episode()
        seat = episode.decider
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        else:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation tensor (from its view) and action mask."""
        episode = self._require_episode()
        seat = self._seat_of[agent]
        return {"observation": episode.observation(seat), "action_mask": episode.mask(seat)}

    def render(self) -> str | None:
        """The acting seat's view as text (``ansi``), or printed (``human``)."""
        if self.render_mode is None:
            return None
        episode = self._require_episode()
        seat = self._seat_of.get(self.agent_selection, 0)
        text = self.game.render(episode.table.view(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def _require_episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self.episode
