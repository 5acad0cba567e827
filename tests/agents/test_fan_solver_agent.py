"""The solver-backed Fan agent, its graded mistakes, and the greedy Fan strategy."""

from __future__ import annotations

import random

import pytest

from fanfold.agents import create_agent, parse_agent, strongest_agent
from fanfold.agents.fan_solver import FanSolverAgent, SolverConfig
from fanfold.agents.levels import LEVELS, level_agent
from fanfold.agents.strategy.fan import HOME, greedy_move, move_score
from fanfold.core.errors import ConfigError
from fanfold.core.registry import all_games
from fanfold.games.fan import GAME, FanConfig, FanMove, FanState
from fanfold.solvers.fan import solve

CLASSIC = FanConfig()


def _deals(winnable: bool, count: int) -> list[int]:
    """The first ``count`` deals from 1 on that the solver finds winnable (or lost)."""
    found: list[int] = []
    deal = 1
    while len(found) < count:
        if solve(GAME.new_state(CLASSIC, deal)).is_winnable is winnable:
            found.append(deal)
        deal += 1
    return found


def _play(agent: object, state: FanState, limit: int = 400) -> tuple[FanState, int]:
    """Play ``agent`` from ``state``, checking every move is legal; the end and the moves."""
    moves = 0
    while GAME.current_player(state) is not None and moves < limit:
        legal = GAME.legal_actions(state)
        move = agent.choose(GAME.observe(state, 0), legal)  # type: ignore[attr-defined]  # an agent
        assert move in legal
        state = GAME.apply(state, move)
        moves += 1
    return state, moves


def test_registered_for_fan_only_and_the_strongest_there() -> None:
    assert strongest_agent(GAME) == "solver"
    assert str(parse_agent("solver(mistakes=0)")) == "solver"
    with pytest.raises(ConfigError, match="mistakes must be between 0 and 1"):
        parse_agent("solver(mistakes=2)")
    for game in all_games():
        if game is not GAME:
            with pytest.raises(TypeError):
                FanSolverAgent(game, SolverConfig())


def test_wins_winnable_deals_with_one_search() -> None:
    for deal in _deals(True, 3):
        agent = FanSolverAgent(GAME, SolverConfig(), deal)
        end, _ = _play(agent, GAME.new_state(CLASSIC, deal))
        assert end.is_won, deal
        assert agent.solves == 1


def test_a_position_off_the_plan_is_solved_afresh() -> None:
    deal = _deals(True, 1)[0]
    state = GAME.new_state(CLASSIC, deal)
    solution = solve(state).moves
    agent = FanSolverAgent(GAME, SolverConfig(), 1)
    agent.choose(GAME.observe(state, 0), GAME.legal_actions(state))
    later = state
    for move in solution[:10]:  # the game goes on without the agent (a hint, a reload)
        later = GAME.apply(later, move)
    end, _ = _play(agent, later)
    assert end.is_won
    assert agent.solves == 2


def test_plays_a_lost_deal_to_its_end_without_solving_again() -> None:
    deal = _deals(False, 1)[0]
    agent = FanSolverAgent(GAME, SolverConfig(), 2)
    end, moves = _play(agent, GAME.new_state(CLASSIC, deal))
    assert GAME.outcome(end) is not None
    assert not end.is_won
    assert moves > 0
    assert agent.solves == 1


def test_mistakes_leave_the_plan_at_the_rate_asked() -> None:
    deal = _deals(True, 1)[0]
    state = GAME.new_state(CLASSIC, deal)
    always = FanSolverAgent(GAME, SolverConfig(mistakes=1.0), 3)
    plan = list(solve(state).moves)
    legal = GAME.legal_actions(state)
    assert len(legal) > 1
    move = always.choose(GAME.observe(state, 0), legal)
    assert move != plan[0]
    assert move in legal
    end, _ = _play(FanSolverAgent(GAME, SolverConfig(mistakes=0.3), 4), state)
    assert GAME.outcome(end) is not None or GAME.legal_actions(end)


@pytest.mark.parametrize("preset", GAME.presets(), ids=lambda preset: preset.name)
def test_every_agent_plays_only_legal_moves_in_every_preset(preset: object) -> None:
    config = preset.config  # type: ignore[attr-defined]  # a Preset of Fan
    for number, text in enumerate(("heuristic", "solver", "solver(mistakes=0.3)", "medium")):
        agent = create_agent(text, GAME, number)
        _play(agent, GAME.new_state(config, 5 + number), limit=250)


def test_the_levels() -> None:
    assert level_agent(GAME, "hard") == "solver"
    for level in LEVELS:
        create_agent(level, GAME, 1)


def test_the_greedy_strategy_puts_cards_home_first() -> None:
    rng = random.Random(0)
    for deal in range(1, 6):
        state = GAME.new_state(CLASSIC, deal)
        while GAME.current_player(state) is not None:
            legal = GAME.legal_actions(state)
            move = greedy_move(state, legal, rng)
            home = [other for other in legal if other.target is None]
            if home:
                assert move.target is None
                assert move_score(state, move) == HOME
            state = GAME.apply(state, move)


def test_the_greedy_strategy_never_moves_a_card_off_its_successor_but_home() -> None:
    config = FanConfig(any_card_to_empty=True)
    # Fan 1: 9S under KS; fan 2: TS, QS, JS; the rest empty; spades home up to the 8.
    state = GAME.parse_position("9SKS/TSQSJS/" + "/".join(["-"] * 16) + " KKK8", config)
    legal = GAME.legal_actions(state)
    shuttle = FanMove(2, 3)
    assert shuttle in legal
    chosen = greedy_move(state, legal, random.Random(0))
    assert chosen.source == 1  # the KS to an empty fan, uncovering the 9S
    assert chosen.target not in (None, 2)
    assert move_score(state, shuttle) < 0
