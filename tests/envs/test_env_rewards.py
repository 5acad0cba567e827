"""The environments' reward option (fanfold.envs.rewards): the default is the game's return at
the end and nothing before; ``reward="cards"`` adds each step's change of the card margin, so
an episode's rewards sum to the return plus the end margin minus the first one, on the single
environment and on both engines of the vector environment alike."""

from __future__ import annotations

import numpy as np
import pytest

import fanfold.envs
from fanfold.envs.gymnasium_env import FanfoldGymEnv
from fanfold.envs.rewards import CardMargin


def first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def play(env: FanfoldGymEnv, seed: int) -> tuple[list[float], np.ndarray, np.ndarray, float]:
    """One episode of first-legal plays: its rewards, first and last observation, return."""
    obs, _ = env.reset(seed=seed)
    first = obs["observation"]
    rewards = []
    done = False
    while not done:
        obs, reward, terminated, truncated, _ = env.step(first_legal(obs["action_mask"]))
        rewards.append(float(reward))
        done = terminated or truncated
    episode = env.episode
    assert episode is not None
    return rewards, first, obs["observation"], float(episode.returns()[env.seat])


def test_the_default_reward_is_the_return_at_the_end_only() -> None:
    default = FanfoldGymEnv("fantan")
    named = FanfoldGymEnv("fantan", reward="outcome")
    for seed in range(3):
        rewards, _, _, returned = play(default, seed)
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == returned in (-1.0, 1.0)
        assert play(named, seed)[0] == rewards


def test_card_rewards_sum_to_the_return_plus_the_margins_change() -> None:
    env = FanfoldGymEnv("fantan", reward="cards")
    plain = FanfoldGymEnv("fantan")
    margin = CardMargin(env.encoding)
    seen_positive = seen_negative = False
    for seed in range(6):
        rewards, first, last, returned = play(env, seed)
        assert play(plain, seed)[3] == returned  # the same game: the option changes no play
        expected = returned + float(margin(last)) - float(margin(first))
        assert sum(rewards) == pytest.approx(expected, abs=1e-9)
        seen_positive |= any(r > 0 for r in rewards[:-1])
        seen_negative |= any(r < 0 for r in rewards[:-1])
    assert seen_positive  # shaped along the way, not only at the end
    assert seen_negative


def test_the_card_margin_reads_the_hand_counts() -> None:
    env = FanfoldGymEnv("fantan", reward="cards", players=4)
    tensor = np.zeros(env.encoding.layout.size, dtype=np.float32)
    start = env.encoding.layout.offsets["hand_counts"]
    tensor[start : start + 4] = [2, 5, 8, 11]  # I hold 2, the others 8 on average
    assert float(CardMargin(env.encoding)(tensor)) == pytest.approx(6 / 13)
    assert CardMargin(env.encoding)(np.stack([tensor, tensor])).shape == (2,)


@pytest.mark.parametrize(
    ("game", "reward", "message"),
    [
        ("fantan", "points", "reward must be 'outcome' or 'cards', not 'points'"),
        ("morris", "cards", "reward='cards' is for Fan Tan only, not 'morris'"),
    ],
)
def test_a_bad_reward_option_is_refused(game: str, reward: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FanfoldGymEnv(game, reward=reward)
    with pytest.raises(ValueError, match=message):
        fanfold.envs.gym_vector_env(game, num_envs=2, reward=reward)


def test_both_engines_give_the_same_card_rewards() -> None:
    results = {}
    for engine in ("python", "compiled"):
        envs = fanfold.envs.gym_vector_env("fantan", num_envs=4, reward="cards", engine=engine)
        obs, _ = envs.reset(seed=11)
        steps = []
        for _ in range(60):
            actions = np.array([first_legal(row) for row in obs["action_mask"]])
            obs, rewards, terminated, _, _ = envs.step(actions)
            steps.append((rewards.copy(), terminated.copy()))
        results[engine] = steps
    for (python, ended), (compiled, ended_too) in zip(
        results["python"], results["compiled"], strict=True
    ):
        assert ended.tolist() == ended_too.tolist()
        np.testing.assert_allclose(python, compiled, atol=1e-12)
    assert any(ended.any() for _, ended in results["python"])  # games ended and were re-dealt
