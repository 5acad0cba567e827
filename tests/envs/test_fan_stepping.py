"""Fan patience stepped on the compiled engine plays exactly what the Python path plays: the
same positions, observations, masks, rewards, episode ends (won, stuck, cut at the step limit),
infos and autoresets, seed for seed."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from fanfold.envs.encodings import encoding_for, resolve
from fanfold.envs.episode import Episode
from fanfold.envs.fan_stepping import FanTables
from fanfold.games.fan.config import PRESETS
from tests.envs.stepping import step_both_engines


@pytest.mark.parametrize("preset", [preset.name for preset in PRESETS])
def test_every_preset_plays_as_the_python_path(preset: str) -> None:
    game, config = resolve("fan", preset, {})
    encoding = encoding_for(game, config)
    deals = [1, 2, 3, 4, 5, 6, 15788]  # the last has no legal move at all
    count = len(deals)
    tables = FanTables(config, count, encoding.num_actions, None)
    everything = np.arange(count, dtype=np.int64)
    tables.start(everything, deals)
    episodes = [Episode(game, config, encoding, ["human"], seed=deal) for deal in deals]
    observations = np.zeros((count, encoding.layout.size), dtype=np.float32)
    masks = np.zeros((count, encoding.num_actions), dtype=np.int8)
    rng = random.Random(preset)
    live = list(range(count))
    moves = 0
    while live:
        which = np.array(live, dtype=np.int64)
        tables.observe(which, which, observations, masks)
        assert np.array_equal(tables.is_over(which), [episodes[i].is_terminal for i in live])
        actions = []
        for index in live:
            episode = episodes[index]
            assert tables.state(index) == episode.table.state
            assert np.array_equal(observations[index], episode.observation(0))
            assert np.array_equal(masks[index], episode.mask(0))
        live = [index for index in live if not episodes[index].is_terminal and moves < 3000]
        for index in live:
            action = rng.choice(np.flatnonzero(masks[index]).tolist())
            actions.append(action)
            episodes[index].act(0, action)
            moves += 1
        tables.act(np.array(live, dtype=np.int64), np.array(actions, dtype=np.int64))
    assert moves > 100


@pytest.mark.parametrize(
    ("preset", "options", "illegal"),
    [
        ("classic", {}, 0.0),
        ("relaxed", {"max_steps": 40}, 0.02),
        ("sequences", {"max_steps": 300, "illegal_reward": -2.0}, 0.01),
        ("any-to-empty", {}, 0.0),
    ],
)
def test_the_vector_env_steps_as_on_the_python_engine(
    preset: str, options: dict[str, Any], illegal: float
) -> None:
    seeds = [15787, 15788, 15789, 9]
    compared = step_both_engines(
        "fan", preset, options, tables=4, seed=seeds, steps=300, illegal=illegal, rng_seed=4
    )
    assert compared.ended > 0
    assert compared.cut > 0 or "max_steps" not in options or options["max_steps"] > 100
