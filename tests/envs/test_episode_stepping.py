"""Episodes step the state with the rules directly, not through the table's bookkeeping: the
games, observations and masks are those of the play layer's table, action by action."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from fanfold.envs.encodings import encoding_for, resolve
from fanfold.envs.episode import Episode
from fanfold.envs.pettingzoo_env import FanfoldAECEnv
from fanfold.play.setup import new_table
from fanfold.play.table import HUMAN

GAMES = [
    ("fantan", None, {"players": 3}),
    ("fano", "classic", {"turns_per_player": 10}),
    ("fano", "trionfey", {"turns_per_player": 6}),
    ("morris", None, {}),
]


@pytest.mark.parametrize(("game", "variant", "options"), GAMES)
def test_bots_play_the_tables_game(game: str, variant: str | None, options: dict[str, Any]) -> None:
    found, config = resolve(game, variant, options)
    seats = ["random"] * found.num_players(config)
    for seed in range(3):
        episode = Episode(found, config, encoding_for(found, config), seats, seed, agent_seed=9)
        episode.play_bots()
        table = new_table(found, config, seats, seed=seed, agent_seed=9, allow_undo=False)
        played = table.play_agents(max_actions=5000)
        assert episode.steps == len(played)
        assert found.format_position(episode.table.state) == found.format_position(table.state)
        assert episode.returns() == table.outcome.returns  # type: ignore[union-attr]


@pytest.mark.parametrize(("game", "variant", "options"), GAMES)
def test_a_learners_observations_are_the_tables(
    game: str, variant: str | None, options: dict[str, Any]
) -> None:
    env = FanfoldAECEnv(game, variant, **options)
    env.reset(seed=4)
    episode = env.episode
    assert episode is not None
    found, config, encoding = env.game, env.config, env.encoding
    seed = episode.table.record.seed
    players = encoding.players
    table = new_table(found, config, [HUMAN] * players, seed=seed, allow_undo=False)
    rng = np.random.default_rng(1)
    for _ in range(300):
        if table.is_over:
            break
        seat = table.decider
        assert seat is not None
        assert env.agent_selection == f"player_{seat}"
        for other in range(players):
            observed = env.observe(f"player_{other}")
            expected = encoding.observation(table.view(other))
            assert np.array_equal(observed["observation"], expected)
        mask = encoding.legal_mask(seat, table.legal_actions())
        index = int(rng.choice(np.flatnonzero(mask)))
        env.step(index)
        table.submit_action(seat, encoding.action(seat, index))
    assert found.format_position(episode.table.state) == found.format_position(table.state)
