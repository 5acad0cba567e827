"""The agent registry, the random agent and IS-MCTS."""

from __future__ import annotations

import time

import pytest

from fanfold.agents import RandomAgent, create_agent, play_game, strongest_agent
from fanfold.agents.base import agent_names
from fanfold.agents.mcts import MCTSAgent
from fanfold.core.errors import UnknownGameError
from fanfold.core.registry import AnyGame, all_games, get_game

MORRIS = get_game("morris")


def test_agents_are_made_by_name_and_unknown_names_are_refused() -> None:
    assert {"random", "mcts", "mcts-strong"} <= set(agent_names(MORRIS))
    assert isinstance(create_agent("random", MORRIS, 1), RandomAgent)
    assert isinstance(create_agent("MCTS", MORRIS, 1), MCTSAgent)
    with pytest.raises(UnknownGameError, match="no agent 'oracle'"):
        create_agent("oracle", MORRIS)
    strongest = strongest_agent(MORRIS)
    assert strongest in agent_names(MORRIS)
    assert strongest != "random"


def test_the_same_agent_seed_gives_the_same_game() -> None:
    config = MORRIS.default_config()
    first = play_game(MORRIS, config, [RandomAgent(MORRIS, 5), RandomAgent(MORRIS, 6)])[1]
    second = play_game(MORRIS, config, [RandomAgent(MORRIS, 5), RandomAgent(MORRIS, 6)])[1]
    other = play_game(MORRIS, config, [RandomAgent(MORRIS, 7), RandomAgent(MORRIS, 6)])[1]
    assert first.actions == second.actions
    assert first.actions != other.actions


def test_mcts_beats_random_at_morris_from_either_side() -> None:
    wins = 0
    for seed in range(6):
        mcts = MCTSAgent(MORRIS, seed, iterations=100)
        rand = RandomAgent(MORRIS, seed + 50)
        seats = [mcts, rand] if seed % 2 == 0 else [rand, mcts]
        final, _ = play_game(MORRIS, MORRIS.default_config(), seats, seed)
        outcome = MORRIS.outcome(final)
        assert outcome is not None
        wins += seats.index(mcts) in outcome.winners
    assert wins >= 5


GAMES = [pytest.param(game, preset.config, id=f"{game.id}:{preset.name}")
         for game in all_games() for preset in game.presets()]  # fmt: skip


@pytest.mark.parametrize(("game", "config"), GAMES)
def test_mcts_chooses_legal_actions_in_every_game(game: AnyGame, config: object) -> None:
    agent = MCTSAgent(game, 3, iterations=8, rollout_limit=60)
    state = game.new_state(config, 11)
    for _ in range(6):
        player = game.current_player(state)
        if player is None:
            break
        legal = game.legal_actions(state)
        action = agent.choose(game.observe(state, player), legal)
        assert action in legal
        state = game.apply(state, action)


def test_a_time_cap_stops_the_search_early() -> None:
    fano = get_game("fano")
    state = fano.new_state(fano.default_config(), 3)
    player = fano.current_player(state)
    assert player is not None
    legal = fano.legal_actions(state)
    agent = MCTSAgent(fano, 1, iterations=1_000_000, move_seconds=0.2)
    started = time.monotonic()
    assert agent.choose(fano.observe(state, player), legal) in legal
    assert time.monotonic() - started < 5.0  # a million playouts would take hours
