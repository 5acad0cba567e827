"""Gymnasium environments: one seat of a fanfold game, bots in the others.

>>> env = FanfoldGymEnv("fan")
>>> observation, info = env.reset(seed=3)
>>> sorted(observation), int(env.action_space.n)
(['action_mask', 'observation'], 324)

The learner plays seat ``seat`` (default 0); every other seat is a bot given as an agent text
(``random``, ``mcts(iterations=50)``, any text :func:`fanfold.agents.create_agent` reads).
The bots play through the play layer's table between the learner's decisions, so a step is
the learner's action and everything the bots do until the learner decides again (in Fano's
Trionfey edition that can be a counter during another seat's turn). The reward is the
learner's return when the game ends, 0 before; for Fan Tan, ``reward="cards"`` adds the change
of the learner's card margin at every step (:mod:`fanfold.envs.rewards`).

Gymnasium's contract is that ``step`` accepts any element of the action space, so by default an
action whose mask entry is 0 ends the episode with reward ``illegal_reward`` (-1) and
``info["illegal_action"]`` saying why, the game left as it was; ``illegal_action="raise"``
raises :class:`~fanfold.core.errors.IllegalActionError` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from fanfold.core.errors import IllegalActionError
from fanfold.envs.encodings import encoding_for, resolve
from fanfold.envs.episode import Episode, default_max_steps, draw_seed, seat_names
from fanfold.envs.rewards import CardMargin, check_reward

UNSET: Any = object()


#: Deals :meth:`FanfoldGymEnv.reset` passes over (games over before the learner's first
#: decision) before it gives up.
MAX_SKIPPED = 1000


def no_first_decision(max_steps: int | None) -> str:
    """The sentence for :data:`MAX_SKIPPED` deals in a row with no decision for the learner."""
    cut = "" if max_steps is None else f", or max_steps={max_steps} cut them first"
    return f"{MAX_SKIPPED} deals in a row ended before the learner's first decision{cut}"


class FanfoldGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """A fanfold game for one learner as a Gymnasium environment.

    Args:
        game: the game's name.
        variant: a preset (the default when ``None``).
        opponents: agent texts for the other seats: one text for all, or one per seat in seat
            order (default ``random``); ignored for one-player Fan patience.
        seat: the learner's seat.
        illegal_action: ``"end"`` (end the episode with ``illegal_reward``) or ``"raise"``.
        illegal_reward: the reward for an illegal action under ``"end"``.
        max_steps: actions (learner's and bots') after which the episode is truncated
            (default per game; ``None``: never).
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        reward: ``"outcome"`` (the return at the end, 0 before) or, for Fan Tan, ``"cards"``
            (also each step's change of the card margin, :mod:`fanfold.envs.rewards`).
        **options: config options on top of the preset (``players=5``).

    Raises:
        UnknownGameError, UnknownAgentError, ConfigError: a bad game, agent or option.
        ValueError: a bad seat, count of opponents, render mode, illegal-action mode or reward.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012  # read from the class

    def __init__(
        self,
        game: str,
        variant: str | None = None,
        opponents: str | Sequence[str] | None = None,
        *,
        seat: int = 0,
        illegal_action: str = "end",
        illegal_reward: float = -1.0,
        max_steps: int | None = UNSET,
        render_mode: str | None = None,
        reward: str = "outcome",
        **options: Any,
    ) -> None:
        found, config = resolve(game, variant, options)
        players = found.num_players(config)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {seat}")
        if illegal_action not in ("end", "raise"):
            raise ValueError(f"illegal_action must be 'end' or 'raise', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        texts = (
            ["random"]
            if opponents is None
            else [opponents]
            if isinstance(opponents, str)
            else list(opponents)
        )
        if len(texts) == 1:
            texts = texts * (players - 1)
        self.seats = seat_names(players, [seat], texts)
        self.game = found
        self.config = config
        self.encoding = encoding_for(found, config)
        check_reward(reward, self.encoding, found.name)
        self.seat = seat
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        self.max_steps = default_max_steps(found) if max_steps is UNSET else max_steps
        self.render_mode = render_mode
        self.reward = reward
        #: the card margin of an observation tensor under ``reward="cards"``, else ``None``
        self.margin = CardMargin(self.encoding) if reward == "cards" else None
        self._margin = 0.0  # the margin of the learner's last observation
        low, high = self.encoding.layout.bounds
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.encoding.num_actions,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.episode: Episode | None = None
        # Made now so that opponents with a bad text are refused at once.
        self._start(0)

    def _start(self, seed: int) -> None:
        self.episode = Episode(
            self.game,
            self.config,
            self.encoding,
            self.seats,
            seed=seed,
            agent_seed=seed,
            max_steps=self.max_steps,
        )
        self.episode.play_bots()

    def _observation(self) -> dict[str, Any]:
        episode = self._require_episode()
        return {
            "observation": episode.observation(self.seat),
            "action_mask": episode.mask(self.seat),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new game and let the bots play up to the learner's first decision.

        A deal whose game ends before the learner has a decision (a Fan patience deal with no
        legal move at all), or that ``max_steps`` cuts before it (the bots' moves count), is no
        episode: another is dealt from the same generator, and ``info["skipped_deals"]`` says
        how many were passed over.

        Raises:
            RuntimeError: :data:`MAX_SKIPPED` deals in a row ended that way.
        """
        super().reset(seed=seed, options=options)
        skipped = 0
        self._start(draw_seed(self.np_random))
        while self._require_episode().is_terminal or self._require_episode().is_truncated:
            skipped += 1
            if skipped >= MAX_SKIPPED:
                raise RuntimeError(no_first_decision(self.max_steps))
            self._start(draw_seed(self.np_random))
        observation = self._observation()
        if self.margin is not None:
            self._margin = float(self.margin(observation["observation"]))
        return observation, ({"skipped_deals": skipped} if skipped else {})

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """The learner's action, then the bots' until the learner decides or the game ends."""
        episode = self._require_episode()
        try:
            episode.act(self.seat, action)
        except IllegalActionError as error:
            if self.illegal_action == "raise":
                raise
            return (
                self._observation(),
                self.illegal_reward,
                True,
                False,
                {"illegal_action": str(error)},
            )
        episode.play_bots()
        terminated = episode.is_terminal
        truncated = episode.is_truncated
        reward = episode.returns()[self.seat] if terminated else 0.0
        info: dict[str, Any] = {}
        if terminated:
            outcome = episode.table.outcome
            info["outcome"] = outcome.reason if outcome is not None else ""
        if self.render_mode == "human":
            self.render()
        observation = self._observation()
        if self.margin is not None:
            margin = float(self.margin(observation["observation"]))
            reward += margin - self._margin
            self._margin = margin
        return observation, float(reward), terminated, truncated, info

    def render(self) -> str | None:
        """The learner's view as text (``ansi``), or printed (``human``)."""
        if self.render_mode is None:
            return None
        text = self.game.render(self._require_episode().table.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _require_episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self.episode
