"""Morris stepped on the compiled engine plays exactly what the Python path plays: the same
positions (the remembered ones included), observations, masks, rewards, episode ends (a line,
a repetition, no move, the step limit), infos and autoresets, seed for seed."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from fanfold.envs.encodings import encoding_for, resolve
from fanfold.envs.episode import Episode, seat_names
from fanfold.envs.morris_stepping import MorrisTables
from fanfold.games.morris import rules
from fanfold.games.morris.config import PRESETS
from tests.envs.stepping import step_both_engines


@pytest.mark.parametrize("preset", [preset.name for preset in PRESETS])
@pytest.mark.parametrize("seat", [0, 1])
def test_every_preset_plays_as_the_python_path(preset: str, seat: int) -> None:
    game, config = resolve("morris", preset, {})
    encoding = encoding_for(game, config)
    seats = seat_names(2, [seat], ["random"])
    seeds = list(range(30, 90))
    count = len(seeds)
    max_steps = 120 if preset == "geometric" else 12  # (with any two points adjacent, a
    # careful random game still ends in a line: a short limit cuts some instead)
    tables = MorrisTables(config, seat, count, encoding.num_actions, max_steps)
    everything = np.arange(count, dtype=np.int64)
    tables.start(everything, seeds)
    episodes = []
    for seed in seeds:
        episode = Episode(game, config, encoding, seats, seed=seed, agent_seed=seed,
                          max_steps=max_steps)  # fmt: skip
        episode.play_bots()
        episodes.append(episode)
    observations = np.zeros((count, encoding.layout.size), dtype=np.float32)
    masks = np.zeros((count, encoding.num_actions), dtype=np.int8)
    rng = random.Random(preset)
    live = list(range(count))
    decisions = 0
    ends = set()
    while live:
        which = np.array(live, dtype=np.int64)
        tables.observe(which, which, observations, masks)
        assert np.array_equal(tables.is_over(which), [episodes[i].is_terminal for i in live])
        assert np.array_equal(tables.is_cut(which), [episodes[i].is_truncated for i in live])
        for index in live:
            episode = episodes[index]
            assert tables.state(index) == episode.table.state
            assert np.array_equal(observations[index], episode.observation(seat))
            assert np.array_equal(masks[index], episode.mask(seat))
            if episode.decider is None:
                outcome = episode.table.outcome
                ends.add("cut" if outcome is None else outcome.termination)
        live = [index for index in live if episodes[index].decider is not None]
        actions = []
        for index in live:  # a learner that avoids making a line where it can plays on longer
            state = episodes[index].table.state
            legal = np.flatnonzero(masks[index]).tolist()
            safe = [
                number
                for number in legal
                if rules.losing_line(game.apply(state, encoding.action(seat, number)).board) is None
            ]
            action = rng.choice(safe or legal)
            actions.append(action)
            episodes[index].act(seat, action)
            episodes[index].play_bots()
            decisions += 1
        tables.act(np.array(live, dtype=np.int64), np.array(actions, dtype=np.int64))
    assert decisions > 150
    assert len(ends) >= 2  # more than one way to end was compared


@pytest.mark.parametrize(
    ("preset", "options", "illegal"),
    [
        ("geometric", {}, 0.0),
        ("complete", {"seat": 1, "max_steps": 25}, 0.03),
    ],
)
def test_the_vector_env_steps_as_on_the_python_engine(
    preset: str, options: dict[str, Any], illegal: float
) -> None:
    compared = step_both_engines(
        "morris", preset, options, tables=6, seed=12, steps=250, illegal=illegal, rng_seed=2
    )
    assert compared.ended + compared.cut > 5
