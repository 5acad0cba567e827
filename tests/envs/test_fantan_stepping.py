"""Fan Tan stepped on the compiled engine plays exactly what the Python path plays: the same
states, observations, masks, rewards, episode ends, infos and autoresets, seed for seed."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from fanfold.core.errors import IllegalActionError
from fanfold.envs import fantan_kernels as kernels
from fanfold.envs.encodings import encoding_for, resolve
from fanfold.envs.episode import Episode, seat_names
from fanfold.envs.fantan_stepping import FanTanTables
from fanfold.envs.vector_env import FanfoldVectorEnv
from fanfold.games.fantan.config import PRESETS
from tests.envs.stepping import compare_infos, step_both_engines


@pytest.mark.parametrize(
    "seed", [0, 1, 7, 2**31 - 2, 2**32 - 1, 2**32, 2**40 + 5, 2**63 + 11, 2**64 - 1]
)
def test_the_generator_draws_what_pythons_draws(seed: int) -> None:
    mt = np.zeros(kernels.MT_N + 1, dtype=np.int64)
    kernels.mt_seed_int(mt, np.uint64(seed))
    reference = random.Random(seed)
    draws = random.Random(seed + 1)
    for _ in range(1500):  # past two regenerations of the 624 words
        n = draws.choice([1, 2, 3, 13, 52, 1000, 2**31 + 3, 2**32 - 1])
        assert kernels.mt_below(mt, n) == reference.randrange(n)


def _play(preset: str, players: int, seat: int, seeds: list[int]) -> int:
    """Play ``seeds``' games on the tables and as episodes with a random learner; returns the
    learner's decisions compared."""
    game, config = resolve("fantan", preset, {"players": players})
    encoding = encoding_for(game, config)
    seats = seat_names(players, [seat], ["random"] * (players - 1))
    count = len(seeds)
    tables = FanTanTables(config, seat, count, encoding.layout.offsets)
    tables.start(range(count), seeds)
    episodes = []
    for seed in seeds:
        episode = Episode(game, config, encoding, seats, seed=seed, agent_seed=seed)
        episode.play_bots()
        episodes.append(episode)
    observations = np.zeros((count, encoding.layout.size), dtype=np.float32)
    masks = np.zeros((count, encoding.num_actions), dtype=np.int8)
    learner = random.Random(preset)
    live = list(range(count))
    decisions = 0
    while live:
        which = np.array(live, dtype=np.int64)
        tables.observe(which, which, observations, masks)
        actions = []
        for index in live:
            episode = episodes[index]
            assert tables.state(index) == episode.table.state
            assert np.array_equal(observations[index], episode.observation(seat))
            assert np.array_equal(masks[index], episode.mask(seat))
            action = learner.choice(np.flatnonzero(masks[index]).tolist())
            actions.append(action)
            episode.act(seat, action)
            episode.play_bots()
            decisions += 1
        tables.act(which, np.array(actions, dtype=np.int64))
        assert np.array_equal(tables.is_over(which), [episodes[i].is_terminal for i in live])
        for index in live:
            if episodes[index].is_terminal:
                assert tables.state(index) == episodes[index].table.state
                tables.observe(np.array([index]), np.array([index]), observations, masks)
                assert np.array_equal(observations[index], episodes[index].observation(seat))
                assert not masks[index].any()
        live = [index for index in live if not episodes[index].is_terminal]
    return decisions


@pytest.mark.parametrize("preset", [preset.name for preset in PRESETS])
@pytest.mark.parametrize(("players", "seat"), [(3, 0), (4, 2), (8, 7)])
def test_every_preset_plays_as_the_python_path(preset: str, players: int, seat: int) -> None:
    assert _play(preset, players, seat, list(range(40, 46))) > 30


@pytest.mark.parametrize(
    ("preset", "options", "illegal"),
    [
        ("standard", {"players": 4}, 0.0),
        ("chips-match", {"players": 3, "seat": 1}, 0.02),
        ("sevens-match", {"players": 5, "seat": 4, "illegal_reward": -3.0}, 0.01),
        ("domino", {"players": 6}, 0.05),
    ],
)
def test_the_vector_env_steps_as_on_the_python_engine(
    preset: str, options: dict[str, Any], illegal: float
) -> None:
    compared = step_both_engines(
        "fantan",
        preset,
        options,
        tables=5,
        seed=3,
        steps=400,
        illegal=illegal,
        rng_seed=11,
        out_of_range=99,
    )
    assert compared.ended > 5
    assert compared.refused > 0 or illegal == 0.0


def test_actions_of_another_type_are_refused_as_on_the_python_engine() -> None:
    fast = FanfoldVectorEnv("fantan", num_envs=2)
    slow = FanfoldVectorEnv("fantan", num_envs=2, engine="python")
    fast.reset(seed=1)
    slow.reset(seed=1)
    step = fast.step(np.array([1.0, 2.0]))
    expected = slow.step(np.array([1.0, 2.0]))
    assert step[2].all()
    for said in step[4]["final_info"]["illegal_action"]:
        assert said.startswith("an action is an integer index, not ")
    compare_infos(step[4], expected[4])


def test_raising_on_an_illegal_action_changes_no_table() -> None:
    fast = FanfoldVectorEnv("fantan", num_envs=3, illegal_action="raise")
    slow = FanfoldVectorEnv("fantan", num_envs=3, engine="python")
    batch, _ = fast.reset(seed=8)
    slow.reset(seed=8)
    legal = [int(np.flatnonzero(mask)[0]) for mask in batch["action_mask"]]
    wrong = int(np.flatnonzero(batch["action_mask"][2] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action {wrong} .* is not legal here"):
        fast.step([legal[0], legal[1], wrong])
    after, *_ = fast.step(legal)
    expected, *_ = slow.step(legal)
    assert np.array_equal(after["observation"], expected["observation"])


def test_the_engine_is_chosen_and_refused_where_none_covers_the_environment() -> None:
    assert FanfoldVectorEnv("fantan", num_envs=1).engine == "compiled"
    assert FanfoldVectorEnv("fantan", opponents=["random"] * 3, num_envs=1).engine == "compiled"
    assert FanfoldVectorEnv("fantan", num_envs=1, opponents="heuristic").engine == "compiled"
    assert FanfoldVectorEnv("fantan", num_envs=1, opponents="medium").engine == "python"
    assert FanfoldVectorEnv("fantan", num_envs=1, max_steps=50).engine == "compiled"
    assert FanfoldVectorEnv("fan", num_envs=1).engine == "compiled"
    assert FanfoldVectorEnv("morris", num_envs=1).engine == "compiled"
    assert FanfoldVectorEnv("morris", num_envs=1, max_steps=None).engine == "python"
    assert FanfoldVectorEnv("fano", num_envs=1, turns_per_player=5).engine == "compiled"
    for refused in (
        {"game": "fano", "opponents": "heuristic"},
        {"game": "morris", "max_steps": None},
        {"game": "fantan", "opponents": "medium"},
    ):
        with pytest.raises(ValueError, match="no compiled engine covers this environment"):
            FanfoldVectorEnv(num_envs=1, engine="compiled", **refused)
    with pytest.raises(ValueError, match="engine must be 'auto', 'python' or 'compiled'"):
        FanfoldVectorEnv("fantan", num_envs=1, engine="numba")


def test_an_encoding_of_ones_own_steps_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    from fanfold.envs import gymnasium_env
    from fanfold.envs.fantan import FanTanEncoding

    class Mine(FanTanEncoding):
        """A learner's own observation: the kernels do not write it."""

    monkeypatch.setattr(gymnasium_env, "encoding_for", lambda game, config: Mine(game, config))
    assert FanfoldVectorEnv("fantan", num_envs=1).engine == "python"
    with pytest.raises(ValueError, match="no compiled engine covers this environment"):
        FanfoldVectorEnv("fantan", num_envs=1, engine="compiled")


@pytest.mark.parametrize(
    ("preset", "options"),
    [("standard", {"max_steps": 31}), ("chips-match", {"max_steps": 45, "seat": 2})],
)
def test_a_step_limit_cuts_as_on_the_python_engine(preset: str, options: dict[str, Any]) -> None:
    compared = step_both_engines(
        "fantan", preset, options, tables=4, seed=5, steps=120, illegal=0.01, rng_seed=3
    )
    assert compared.cut > 3


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("standard", {"opponents": "heuristic"}),
        ("chips", {"opponents": ["random", "heuristic", "heuristic"], "seat": 1}),
        ("sevens-match", {"opponents": "heuristic", "seat": 3, "max_steps": 120}),
        ("seven-of-diamonds", {"opponents": "heuristic", "players": 5}),
    ],
)
def test_heuristic_opponents_choose_as_the_python_agent(
    preset: str, options: dict[str, Any]
) -> None:
    """The compiled heuristic bots play the ``heuristic`` agent's cards and its draws among
    ties, decision by decision."""
    compared = step_both_engines(
        "fantan", preset, options, tables=4, seed=13, steps=120, illegal=0.01, rng_seed=4
    )
    assert compared.ended + compared.cut > 3


def test_heuristic_opponents_need_a_fixed_starting_rank() -> None:
    from fanfold.envs import fantan_stepping
    from fanfold.games.fantan.config import FanTanConfig

    seats = ["human", "heuristic", "random"]
    assert fantan_stepping.supports(seats, None, FanTanConfig(players=3))
    assert not fantan_stepping.supports(seats, None, FanTanConfig(players=3, start_rank=None))
