"""Batched self-play: every seat of every table played by the caller, one action per table a
step. The compiled engine plays exactly what the Python engine plays, state by state, over
every preset; the Python engine plays what an episode with every seat a learner plays."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils import seeding

from fanfold.core.errors import IllegalActionError
from fanfold.core.registry import get_game
from fanfold.envs.encodings import encoding_for, resolve
from fanfold.envs.episode import Episode, draw_seed
from fanfold.envs.selfplay_env import SelfPlayVectorEnv


def _presets(game: str) -> list[str]:
    found = get_game(game)
    return [preset.name for preset in found.presets()]


def _options(game: str) -> dict[str, Any]:
    """Short games, so that tables end and are dealt again within a test."""
    return {"turns_per_player": 6} if game == "fano" else {}


def _compare(
    game: str, preset: str, *, tables: int, steps: int, max_steps: Any = None, seed: int = 4
) -> tuple[int, int]:
    """Step both engines with the same random legal actions (from an explicit generator) and
    compare every table's state, seat, observation, mask, reward, end and info at every step;
    returns the games ended and cut."""
    options = _options(game)
    if max_steps is not None:
        options["max_steps"] = max_steps
    fast = SelfPlayVectorEnv(game, preset, num_envs=tables, **options)
    slow = SelfPlayVectorEnv(game, preset, num_envs=tables, engine="python", **options)
    assert (fast.engine, slow.engine) == ("compiled", "python")
    mine, my_infos = fast.reset(seed=seed)
    theirs, their_infos = slow.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ended = cut = 0
    for _ in range(steps):
        assert list(my_infos) == list(their_infos)
        assert np.array_equal(my_infos["seat"], their_infos["seat"])
        for name in ("observation", "action_mask"):
            assert np.array_equal(mine[name], theirs[name])
        for index in range(tables):
            assert fast.state(index) == slow.state(index)
        masks = mine["action_mask"]
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        mine, rewards, terminated, truncated, my_infos = fast.step(actions)
        theirs, their_rewards, their_terminated, their_truncated, their_infos = slow.step(actions)
        assert np.array_equal(rewards, their_rewards)
        assert np.array_equal(terminated, their_terminated)
        assert np.array_equal(truncated, their_truncated)
        for index in np.flatnonzero(terminated | truncated).tolist():
            assert my_infos["final_info"][index] == their_infos["final_info"][index]
            for name in ("observation", "action_mask"):
                assert np.array_equal(
                    my_infos["final_obs"][index][name], their_infos["final_obs"][index][name]
                )
        ended += int(terminated.sum())
        cut += int(truncated.sum())
    return ended, cut


@pytest.mark.parametrize("preset", _presets("fano"))
def test_fano_self_play_is_the_python_engine_state_by_state(preset: str) -> None:
    ended, cut = _compare("fano", preset, tables=3, steps=45, max_steps=40)
    assert ended + cut > 0


@pytest.mark.parametrize("preset", _presets("fantan"))
def test_fan_tan_self_play_is_the_python_engine_state_by_state(preset: str) -> None:
    ended, cut = _compare("fantan", preset, tables=3, steps=90, max_steps=70)
    assert ended + cut > 2


@pytest.mark.parametrize("preset", _presets("fan"))
def test_fan_patience_self_play_is_the_python_engine_state_by_state(preset: str) -> None:
    ended, cut = _compare("fan", preset, tables=3, steps=60, max_steps=40)
    assert ended + cut > 2


@pytest.mark.parametrize("preset", _presets("morris"))
def test_morris_self_play_is_the_python_engine_state_by_state(preset: str) -> None:
    ended, cut = _compare("morris", preset, tables=3, steps=90, max_steps=25)
    assert ended + cut > 2


def test_the_step_limit_cuts_fano_as_on_the_python_engine() -> None:
    _, cut = _compare("fano", "trionfey", tables=4, steps=60, max_steps=9)
    assert cut > 5


@pytest.mark.parametrize(
    ("game", "preset"),
    [("morris", preset) for preset in _presets("morris")] + [("fano", "classic")],
)
def test_the_python_engine_plays_as_episodes_with_every_seat_a_learner(
    game: str, preset: str
) -> None:
    """Each table plays the games an episode of every seat a learner plays, dealt from the
    table's generator (seed + table) as a single environment deals, ends and all."""
    options = _options(game)
    env = SelfPlayVectorEnv(game, preset, num_envs=2, engine="python", max_steps=30, **options)
    found, config = resolve(game, preset, options)
    encoding = encoding_for(found, config)
    players = found.num_players(config)
    batch, infos = env.reset(seed=11)
    rngs = [seeding.np_random(11 + index)[0] for index in range(2)]

    def deal(index: int) -> Episode:
        seed = draw_seed(rngs[index])
        return Episode(
            found, config, encoding, ["human"] * players, seed, agent_seed=seed, max_steps=30
        )

    episodes = [deal(index) for index in range(2)]
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(80):
        for index, episode in enumerate(episodes):
            seat = episode.decider
            assert seat is not None
            assert infos["seat"][index] == seat
            assert np.array_equal(batch["observation"][index], episode.observation(seat))
            assert np.array_equal(batch["action_mask"][index], episode.mask(seat))
        actions = [int(rng.choice(np.flatnonzero(mask))) for mask in batch["action_mask"]]
        batch, rewards, terminated, truncated, infos = env.step(actions)
        for index, episode in enumerate(episodes):
            episode.act(episode.decider, actions[index])  # type: ignore[arg-type]
            assert terminated[index] == episode.is_terminal
            assert truncated[index] == episode.is_truncated
            assert tuple(rewards[index]) == (
                episode.returns() if episode.is_terminal else (0.0,) * players
            )
            if episode.is_terminal or episode.is_truncated:
                ends += 1
                episodes[index] = deal(index)
    assert ends > 2


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_a_game_s_end_pays_every_seat_and_deals_again(engine: str) -> None:
    env = SelfPlayVectorEnv("fano", num_envs=4, engine=engine, turns_per_player=4)
    batch, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(60):
        masks = batch["action_mask"]
        actor = infos["seat"].copy()
        batch, rewards, terminated, _, infos = env.step(
            np.argmax(rng.random(masks.shape) * masks, axis=1)
        )
        for index in np.flatnonzero(terminated).tolist():
            seen += 1
            assert sorted(rewards[index]) == [-1.0, 1.0] or set(rewards[index]) == {0.0}
            assert infos["final_info"][index]["outcome"]
            final = infos["final_obs"][index]
            assert not final["action_mask"].any()  # nobody decides a finished game
            assert final["observation"].shape == batch["observation"][index].shape
            assert actor[index] in (0, 1)
        assert not rewards[~terminated].any()
        assert batch["action_mask"].any(axis=1).all()  # every table ready for the next action
    assert seen > 2


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_flattened_observations_are_gymnasium_s_flatten(engine: str) -> None:
    flat = SelfPlayVectorEnv("fantan", num_envs=3, engine=engine, flatten=True)
    plain = SelfPlayVectorEnv("fantan", num_envs=3, engine=engine)
    rows, _ = flat.reset(seed=5)
    batch, _ = plain.reset(seed=5)
    assert isinstance(rows, np.ndarray)
    assert isinstance(flat.single_observation_space, spaces.Box)
    assert rows.shape == (3, flat.single_observation_space.shape[0])
    assert rows.dtype == np.float32
    for _ in range(70):
        for index in range(3):
            single = {name: batch[name][index] for name in ("observation", "action_mask")}
            expected = np.asarray(spaces.flatten(plain.single_observation_space, single))
            assert np.array_equal(rows[index], expected)
            assert np.array_equal(rows[index, flat.mask_columns], single["action_mask"])
            assert np.array_equal(rows[index, flat.observation_columns], single["observation"])
        actions = [int(np.flatnonzero(mask)[-1]) for mask in batch["action_mask"]]
        rows, *_, flat_infos = flat.step(actions)
        batch, *_, infos = plain.step(actions)
        assert isinstance(rows, np.ndarray)
        for index in np.flatnonzero(infos.get("_final_obs", [])).tolist():
            single = infos["final_obs"][index]
            expected = np.asarray(spaces.flatten(plain.single_observation_space, single))
            assert np.array_equal(flat_infos["final_obs"][index], expected)


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_an_illegal_action_is_refused_and_no_table_moves(engine: str) -> None:
    env = SelfPlayVectorEnv("fano", num_envs=3, engine=engine, turns_per_player=5)
    batch, infos = env.reset(seed=8)
    before = [env.state(index) for index in range(3)]
    legal = [int(np.flatnonzero(mask)[0]) for mask in batch["action_mask"]]
    wrong = int(np.flatnonzero(batch["action_mask"][2] == 0)[0])
    seat = int(infos["seat"][2])
    with pytest.raises(IllegalActionError, match=f"table 2, seat {seat}: action {wrong} "):
        env.step([legal[0], legal[1], wrong])
    with pytest.raises(IllegalActionError, match=r"table 0, seat .*: an action is an integer"):
        env.step(np.array([legal[0], 1.5, legal[2]]))
    with pytest.raises(IllegalActionError, match="table 0, seat"):
        env.step([10**9, legal[1], legal[2]])
    with pytest.raises(ValueError, match="one action per table"):
        env.step(legal[:2])
    assert [env.state(index) for index in range(3)] == before
    env.step(legal)  # the right actions still go through


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="num_envs must be a whole number"):
        SelfPlayVectorEnv("fano", num_envs=0)
    with pytest.raises(ValueError, match="engine must be"):
        SelfPlayVectorEnv("fano", engine="numba")
    with pytest.raises(ValueError, match="max_steps must be None or a whole number"):
        SelfPlayVectorEnv("fano", max_steps=-1)
    with pytest.raises(ValueError, match="no compiled engine covers this self-play"):
        SelfPlayVectorEnv("morris", engine="compiled", max_steps=None)
    assert SelfPlayVectorEnv("morris", num_envs=1, max_steps=None).engine == "python"
    assert SelfPlayVectorEnv("morris", num_envs=1).engine == "compiled"
    with pytest.raises(RuntimeError, match="call reset"):
        SelfPlayVectorEnv("fantan", num_envs=1, engine="python").step([0])
    env = SelfPlayVectorEnv("fantan", num_envs=2)
    with pytest.raises(ValueError, match="1 seeds for 2 tables"):
        env.reset(seed=[3])


def test_the_package_makes_it() -> None:
    import fanfold.envs

    env = fanfold.envs.self_play_env("fantan", "chips", num_envs=2, players=5)
    batch, infos = env.reset(seed=1)
    assert isinstance(env, SelfPlayVectorEnv)
    assert env.players == 5
    assert batch["action_mask"].shape == (2, 53)
    assert set(infos["seat"].tolist()) <= set(range(5))
