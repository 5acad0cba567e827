"""Gymnasium: the official environment checker for every game, and bots in the other seats."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import fanfold.core.registry
import fanfold.envs
from fanfold.core.errors import IllegalActionError, UnknownAgentError
from fanfold.envs.gymnasium_env import FanfoldGymEnv
from fanfold.envs.vector_env import FanfoldVectorEnv
from tests.envs.conftest import SHORT

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(
    ("name", "preset"),
    [
        ("fan", "classic"),
        ("fan", "relaxed"),
        ("morris", "geometric"),
        ("fantan", "standard"),
        ("fantan", "chips-match"),
        ("fano", "classic"),
        ("fano", "trionfey"),
    ],
)
def test_check_env_passes(name: str, preset: str) -> None:
    check_env(fanfold.envs.gym_env(name, preset, **SHORT.get(name, {})), skip_render_check=True)


def finish(env: FanfoldGymEnv, seed: int) -> tuple[float, int]:
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _ = env.step(action)
        steps += 1
        if terminated or truncated:
            return float(reward), steps


def test_bots_play_the_other_seats_until_the_end() -> None:
    env = fanfold.envs.gym_env("fantan", "standard", opponents="random", players=5, seat=2)
    reward, steps = finish(env, 3)
    assert env.episode is not None
    outcome = env.episode.table.outcome
    assert outcome is not None
    assert reward == outcome.returns[2]
    assert 0 < steps <= 11  # the learner's own plays and passes only
    assert [seat.player for seat in env.episode.table.seats] == [
        "random",
        "random",
        "human",
        "random",
        "random",
    ]


def test_any_agent_text_is_an_opponent() -> None:
    env = fanfold.envs.gym_env("morris", opponents=["mcts(iterations=20)"])
    reward, _ = finish(env, 1)
    assert reward in (-1.0, 0.0, 1.0)
    with pytest.raises(UnknownAgentError):
        fanfold.envs.gym_env("morris", opponents="grandmaster")
    with pytest.raises(ValueError, match="opponent"):
        fanfold.envs.gym_env("fantan", opponents=["random", "random"])


def test_same_seed_same_episode() -> None:
    env = fanfold.envs.gym_env("fano", "trionfey", turns_per_player=8)
    assert finish(env, 9) == finish(env, 9)


def test_illegal_action_ends_the_episode_or_raises() -> None:
    env = fanfold.envs.gym_env("morris")
    observation, _ = env.reset(seed=0)
    masked_out = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = env.step(masked_out)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "not legal" in info["illegal_action"]
    np.testing.assert_array_equal(after["observation"], observation["observation"])
    strict = fanfold.envs.gym_env("morris", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(masked_out)
    with pytest.raises(IllegalActionError):
        strict.step(10_000)
    with pytest.raises(ValueError, match="seat"):
        fanfold.envs.gym_env("morris", seat=2)


def test_fan_patience_is_a_single_player_puzzle() -> None:
    env = fanfold.envs.gym_env("fan", max_steps=30)
    assert env.seats == ["human"]
    reward, steps = finish(env, 2)
    assert reward in (0.0, 1.0)
    assert steps <= 30


def test_a_deal_over_before_the_learner_decides_is_passed_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from fanfold.envs import gymnasium_env

    lost = 15788  # a Fan deal with no legal move at all: lost before any decision
    game = fanfold.core.registry.get_game("fan")
    assert game.outcome(game.new_state(game.default_config(), lost)) is not None
    seeds = iter([lost, lost, 7])
    monkeypatch.setattr(gymnasium_env, "draw_seed", lambda rng: next(seeds))
    env = FanfoldGymEnv("fan")
    observation, info = env.reset(seed=1)
    assert info == {"skipped_deals": 2}
    assert observation["action_mask"].any()  # the learner has a decision
    assert env.episode is not None
    assert not env.episode.is_terminal
    monkeypatch.setattr(gymnasium_env, "draw_seed", lambda rng: lost)
    with pytest.raises(RuntimeError, match="ended before the learner's first decision"):
        env.reset(seed=2)


@pytest.mark.parametrize("engine", ["single", "python", "compiled"])
def test_a_step_limit_that_cuts_every_deal_before_the_learner_decides_is_refused(
    engine: str,
) -> None:
    # Morris's second seat never decides when the limit is one move: the bot's first move
    # cuts the game. Such a deal is no episode (a step would find no decision to take).
    message = r"ended before the learner's first decision, or max_steps=1 cut them first"
    if engine == "single":
        env = FanfoldGymEnv("morris", opponents="random", seat=1, max_steps=1)
        with pytest.raises(RuntimeError, match=message):
            env.reset(seed=3)
        return
    with pytest.raises(RuntimeError, match=message):
        FanfoldVectorEnv(
            "morris", num_envs=2, opponents="random", seat=1, max_steps=1, engine=engine
        ).reset(seed=3)
