"""Morris levels: the table player at a chosen rate of second-best moves."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from fanfold.agents import create_agent, parse_agent
from fanfold.agents.levels import LEVELS, level_agent
from fanfold.agents.perfect import PerfectAgent, PerfectConfig
from fanfold.core.errors import ConfigError
from fanfold.games.morris import GAME, Adjacency, MorrisAction, MorrisConfig, MorrisState
from fanfold.play import Seat, play_game
from fanfold.solvers import morris as solver
from fanfold.solvers.morris import CACHE_ENV, MorrisTable


@pytest.fixture
def cached(
    monkeypatch: pytest.MonkeyPatch, tables: dict[Adjacency, MorrisTable], morris_cache: Path
) -> dict[Adjacency, MorrisTable]:
    """Agents made from texts find the session's solved tables."""
    monkeypatch.setenv(CACHE_ENV, str(morris_cache))
    return tables


def test_mistakes_is_an_option_of_perfect() -> None:
    assert str(parse_agent("perfect(mistakes=0)")) == "perfect"
    assert parse_agent("perfect(mistakes=0.25)").config == PerfectConfig(mistakes=0.25)
    for bad in ("-0.1", "1.5"):
        with pytest.raises(ConfigError, match="mistakes must be between 0 and 1"):
            parse_agent(f"perfect(mistakes={bad})")


def _rank_class(table: MorrisTable, state: MorrisState, action: MorrisAction) -> tuple[int, int]:
    """Where ``action``'s value stands among the distinct values of the legal moves."""
    values = {solver.action_value(table, state, a).rank for a in GAME.legal_actions(state)}
    ranks = sorted(values, reverse=True)
    return ranks.index(solver.action_value(table, state, action).rank), len(ranks)


def _play_and_classify(
    agent: PerfectAgent, table: MorrisTable, config: MorrisConfig, games: int
) -> tuple[int, int, int]:
    """Games of ``agent`` (both colours) against the perfect player; returns the decisions
    with a second-best move, the second-best moves played and any worse moves played."""
    graded = second = worse = 0
    for number in range(games):
        other = PerfectAgent(GAME, 100 + number)
        seat = number % 2
        state = GAME.new_state(config)
        while GAME.current_player(state) is not None:
            player = state.to_move
            legal = GAME.legal_actions(state)
            mover = agent if player == seat else other
            action = mover.choose(GAME.observe(state, player), legal)
            assert action in legal
            if player == seat:
                position, distinct = _rank_class(table, state, action)
                if distinct > 1:
                    graded += 1
                    second += position == 1
                    worse += position > 1
            state = GAME.apply(state, action)
    return graded, second, worse


def test_the_rate_of_second_best_moves_is_the_one_asked(
    cached: dict[Adjacency, MorrisTable],
) -> None:
    config = MorrisConfig(Adjacency.GEOMETRIC)
    rate = 0.3
    agent = PerfectAgent(GAME, 7, mistakes=rate)
    graded, second, worse = _play_and_classify(agent, cached[Adjacency.GEOMETRIC], config, 40)
    assert worse == 0  # a mistake is the next value down, never lower
    assert (graded, second) == (agent.graded_decisions, agent.mistakes_made)
    assert graded >= 100
    spread = math.sqrt(graded * rate * (1 - rate))
    assert abs(second - graded * rate) < 4 * spread, (second, graded)


def test_no_mistakes_is_exactly_the_perfect_player(cached: dict[Adjacency, MorrisTable]) -> None:
    for adjacency in Adjacency:
        config = MorrisConfig(adjacency)
        for seed in range(3):
            graded = PerfectAgent(GAME, seed, mistakes=0.0)
            plain = PerfectAgent(GAME, seed)
            opponent = PerfectAgent(GAME, seed + 50, mistakes=0.5)
            state = GAME.new_state(config)
            while GAME.current_player(state) is not None:
                legal = GAME.legal_actions(state)
                view = GAME.observe(state, state.to_move)
                if state.to_move == seed % 2:
                    action = graded.choose(view, legal)
                    assert action == plain.choose(view, legal)
                else:
                    action = opponent.choose(view, legal)
                state = GAME.apply(state, action)
            assert graded.mistakes_made == 0


@pytest.mark.parametrize("adjacency", list(Adjacency))
def test_levels_play_legal_moves_and_hard_never_loses(
    adjacency: Adjacency, cached: dict[Adjacency, MorrisTable]
) -> None:
    config = MorrisConfig(adjacency)
    assert level_agent(GAME, "hard") == "perfect"
    for level in LEVELS:
        assert parse_agent(level_agent(GAME, level)).name == "perfect"
    hard_losses = 0
    easy_losses = 0
    for number in range(8):
        names = ["hard", "easy"] if number % 2 == 0 else ["easy", "hard"]
        seats = [
            Seat(name, create_agent(name, GAME, number * 2 + i)) for i, name in enumerate(names)
        ]
        table = play_game(GAME, config, seats, number)
        outcome = table.outcome
        assert outcome is not None
        hard = names.index("hard")
        hard_losses += outcome.returns[hard] < 0
        easy_losses += outcome.returns[1 - hard] < 0
    assert hard_losses == 0
    assert easy_losses >= 1  # the easy level gives games away (its rate: docs/agents.md)
