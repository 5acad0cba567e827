"""PettingZoo: the official API and seed tests for every game, and the AEC specifics."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import fanfold.envs
from fanfold.core.errors import IllegalActionError, TurnError
from fanfold.envs.pettingzoo_env import FanfoldAECEnv
from fanfold.games.fano import Phase
from tests.envs.conftest import SHORT, every_preset

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(
    ("name", "preset", "cycles"),
    [
        ("morris", "geometric", 300),
        ("fan", "classic", 300),
        ("fantan", "standard", 200),
        ("fano", "classic", 200),
        ("fano", "trionfey", 200),
    ],
)
def test_api_and_seed_tests_pass(name: str, preset: str, cycles: int) -> None:
    options = SHORT.get(name, {})
    api_test(fanfold.envs.aec_env(name, preset, **options), num_cycles=cycles)
    seed_test(lambda: fanfold.envs.aec_env(name, preset, **options), num_cycles=cycles)


@pytest.mark.parametrize(("name", "preset"), every_preset())
def test_api_and_seed_tests_pass_for_every_preset(name: str, preset: str) -> None:
    options = SHORT.get(name, {})
    api_test(fanfold.envs.aec_env(name, preset, **options), num_cycles=40)
    seed_test(lambda: fanfold.envs.aec_env(name, preset, **options), num_cycles=40)


def play_randomly(env: FanfoldAECEnv, seed: int) -> list[tuple[str, int | None]]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    moves: list[tuple[str, int | None]] = []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        moves.append((agent, action))
        env.step(action)
    return moves


def test_a_whole_game_ends_with_the_outcome_as_rewards() -> None:
    env = fanfold.envs.aec_env("fantan", "chips", players=3)
    env.reset(seed=4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, _truncated, info = env.last()
        totals[agent] += reward
        if terminated:
            assert "outcome" in info
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.episode is not None
    outcome = env.episode.table.outcome
    assert outcome is not None
    assert list(totals.values()) == list(outcome.returns)
    assert env.agents == []


def test_same_seed_same_game_and_other_seed_other_deal() -> None:
    env = fanfold.envs.aec_env("fantan")
    first = play_randomly(env, 11)
    assert play_randomly(env, 11) == first
    env.reset(seed=12)
    other = env.observe("player_0")["observation"]
    env.reset(seed=11)
    assert not np.array_equal(env.observe("player_0")["observation"], other)


def test_illegal_index_is_refused_and_changes_nothing() -> None:
    env = fanfold.envs.aec_env("morris")
    env.reset(seed=0)
    before = env.observe("player_0")
    masked_out = int(np.flatnonzero(before["action_mask"] == 0)[0])
    for bad in (masked_out, 44, -3, 2.0, "C1", None):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    assert env.agent_selection == "player_0"
    after = env.observe("player_0")
    np.testing.assert_array_equal(before["observation"], after["observation"])
    np.testing.assert_array_equal(before["action_mask"], after["action_mask"])
    assert env.episode is not None
    with pytest.raises(TurnError):
        env.episode.act(1, 0)


def test_only_the_decider_has_legal_actions_in_its_mask() -> None:
    env = fanfold.envs.aec_env("fano", "four-players")
    env.reset(seed=2)
    masks = {agent: env.observe(agent)["action_mask"].sum() for agent in env.possible_agents}
    assert masks[env.agent_selection] > 0
    assert all(masks[agent] == 0 for agent in env.possible_agents if agent != env.agent_selection)


def test_the_defender_is_selected_in_a_trionfey_counter_window() -> None:
    env = fanfold.envs.aec_env("fano", "trionfey", turns_per_player=30)
    rng = np.random.default_rng(0)
    windows = 0
    for seed in range(6):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert env.episode is not None
            state = env.episode.table.state
            if state.phase is Phase.REACT:
                windows += 1
                assert state.pending is not None
                assert agent == f"player_{state.pending.defender}"
                assert agent != f"player_{state.turn_player}"
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert windows > 0


def test_step_limit_truncates() -> None:
    env = fanfold.envs.aec_env("fano", max_steps=5)
    env.reset(seed=0)
    for _ in range(5):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert all(env.truncations.values())
    assert not any(env.terminations.values())


def test_render_shows_the_acting_seats_view() -> None:
    env = fanfold.envs.aec_env("morris", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert text
    with pytest.raises(ValueError, match="render_mode"):
        fanfold.envs.aec_env("morris", render_mode="rgb_array")


def test_a_deal_over_before_any_decision_ends_at_reset(monkeypatch: pytest.MonkeyPatch) -> None:
    from fanfold.envs import pettingzoo_env

    monkeypatch.setattr(pettingzoo_env, "draw_seed", lambda rng: 15788)  # no legal move
    env = fanfold.envs.aec_env("fan")
    env.reset(seed=1)
    assert env.terminations == {"player_0": True}
    observation, reward, terminated, truncated, info = env.last()
    assert terminated
    assert not truncated
    assert reward == 0.0
    assert "no legal move" in info["outcome"]
    assert not observation["action_mask"].any()
    env.step(None)
    assert env.agents == []


def test_no_parallel_conversion_of_turn_based_games() -> None:
    from pettingzoo.utils.conversions import aec_to_parallel

    env = fanfold.envs.aec_env("fantan")
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)
