"""Agents as data: the registry, texts with parameters, the random agent and IS-MCTS."""

from __future__ import annotations

import time

import pytest

from fanfold.agents import (
    AgentSpec,
    RandomAgent,
    agent_names,
    create_agent,
    parse_agent,
    strongest_agent,
)
from fanfold.agents.mcts import MCTSAgent, MCTSConfig
from fanfold.core.errors import ConfigError, NotationError, UnknownAgentError, UnknownGameError
from fanfold.core.registry import AnyGame, all_games, get_game
from fanfold.play import Seat, play_game

MORRIS = get_game("morris")


def test_agents_are_made_by_name_and_unknown_names_are_refused() -> None:
    assert {"random", "mcts", "mcts-strong"} <= set(agent_names(MORRIS))
    assert isinstance(create_agent("random", MORRIS, 1), RandomAgent)
    assert isinstance(create_agent("MCTS", MORRIS, 1), MCTSAgent)
    with pytest.raises(UnknownAgentError, match="no agent called 'oracle'"):
        create_agent("oracle", MORRIS)
    strongest = strongest_agent(MORRIS)
    assert strongest in agent_names(MORRIS)
    assert strongest != "random"


def test_an_unknown_agent_is_not_an_unknown_game() -> None:
    with pytest.raises(UnknownAgentError) as caught:
        parse_agent("oracle")
    assert not isinstance(caught.value, UnknownGameError)


def test_agent_texts_carry_parameters_and_round_trip() -> None:
    spec = parse_agent(" mcts ( iterations = 2000 , seconds=1.5 ) ")
    assert spec == AgentSpec("mcts", MCTSConfig(iterations=2000, seconds=1.5))
    assert str(spec) == "mcts(iterations=2000, seconds=1.5)"
    assert parse_agent(str(spec)) == spec
    assert str(parse_agent("mcts")) == "mcts"
    assert str(parse_agent("mcts(iterations=200)")) == "mcts"  # the default is not written
    strong = parse_agent("mcts-strong(seconds=2)")
    assert strong.config == MCTSConfig(iterations=1000, seconds=2.0)
    assert str(strong) == "mcts-strong(seconds=2.0)"
    agent = strong.create(MORRIS, 4)
    assert isinstance(agent, MCTSAgent)
    assert agent.name == "mcts-strong(seconds=2.0)"
    assert agent.config.iterations == 1000


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("mcts(iterations=0)", ConfigError, "iterations must be at least 1"),
        ("mcts(iterations=many)", ConfigError, "whole number"),
        ("mcts(depth=3)", ConfigError, "unknown option 'depth'"),
        ("mcts(iterations)", NotationError, "key=value"),
        ("mcts(seconds=-1)", ConfigError, "seconds must be more than 0"),
        ("planner(seconds=0)", ConfigError, "seconds must be more than 0, not 0"),
        ("planner(seconds=1, turn_seconds=-2)", ConfigError, "turn_seconds must be more than 0"),
        ("hard(seconds=nan)", ConfigError, "seconds must be a finite number, not 'nan'"),
        ("mcts(seconds=inf)", ConfigError, "seconds must be a finite number, not 'inf'"),
        ("mcts(seconds=Infinity)", ConfigError, "seconds must be a finite number"),
        ("mcts(seconds=-inf)", ConfigError, "seconds must be a finite number"),
        ("mcts(seconds=1e400)", ConfigError, "seconds must be a finite number, not '1e400'"),
        ("random(iterations=5)", ConfigError, "agent random: unknown option"),
        ("(mcts)", NotationError, "is not an agent"),
        ("", NotationError, "is not an agent"),
    ],
)
def test_bad_agent_texts_are_refused_clearly(
    text: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        parse_agent(text)


def test_an_agent_for_another_game_is_refused() -> None:
    with pytest.raises(UnknownAgentError, match="does not play Fan Tan"):
        create_agent("perfect", get_game("fantan"))


def test_the_same_agent_seed_gives_the_same_game() -> None:
    def actions(first_seed: int) -> tuple[str, ...]:
        seats = [
            Seat("random", RandomAgent(MORRIS, first_seed)),
            Seat("random", RandomAgent(MORRIS, 6)),
        ]
        return play_game(MORRIS, None, seats).record.actions

    assert actions(5) == actions(5)
    assert actions(5) != actions(7)


def test_mcts_beats_random_at_morris_from_either_side() -> None:
    wins = 0
    for seed in range(6):
        names = ["mcts(iterations=100)", "random"]
        if seed % 2:
            names.reverse()
        table = play_game(MORRIS, None, names, seed, agent_seed=seed)
        outcome = table.outcome
        assert outcome is not None
        wins += names.index("mcts(iterations=100)") in outcome.winners
    assert wins >= 5


def test_a_seeded_search_is_the_same_on_every_run() -> None:
    fantan = get_game("fantan")
    names = ["mcts(iterations=20, rollout_limit=40)"] + ["random"] * 3
    first = play_game(fantan, None, names, seed=4, agent_seed=2).record
    second = play_game(fantan, None, names, seed=4, agent_seed=2).record
    assert first.actions == second.actions


GAMES = [pytest.param(game, preset.config, id=f"{game.id}:{preset.name}")
         for game in all_games() for preset in game.presets()]  # fmt: skip


@pytest.mark.parametrize(("game", "config"), GAMES)
def test_mcts_chooses_legal_actions_in_every_game(game: AnyGame, config: object) -> None:
    agent = MCTSAgent(game, MCTSConfig(iterations=8, rollout_limit=60), 3)
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
    agent = create_agent("mcts(iterations=1000000, seconds=0.2)", fano, 1)
    started = time.monotonic()
    assert agent.choose(fano.observe(state, player), legal) in legal
    assert time.monotonic() - started < 5.0  # a million playouts would take hours
    assert agent.budget_cut  # the server counts such a decision


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("mcts(iterations=100000, seconds=0.05)", True),
        ("mcts(iterations=20, seconds=60)", False),
        ("mcts(iterations=20)", False),
        ("pimc(deals=100000, seconds=0.05)", True),
        ("pimc(deals=1, seconds=60)", False),
    ],
)
def test_a_decision_says_whether_its_time_cap_cut_its_budget(text: str, cut: bool) -> None:
    """``budget_cut``: the cap stopped the search before its iterations or deals were spent
    (the server counts it, ``fanfold_bot_budget_cut_total``); a budget spent within the cap,
    or no cap, leaves it false."""
    fano = get_game("fano")
    state = fano.new_state(fano.default_config(), 3)
    player = fano.current_player(state)
    assert player is not None
    agent = create_agent(text, fano, 1)
    agent.budget_cut = not cut  # each decision sets it
    agent.choose(fano.observe(state, player), fano.legal_actions(state))
    assert agent.budget_cut is cut
