"""The perfect Fano330-R-Morris agent: it never gives away value and realises the solved result."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from fanfold.agents import RandomAgent, agent_names, create_agent, strongest_agent
from fanfold.agents.perfect import PerfectAgent
from fanfold.core.registry import all_games
from fanfold.games.morris import GAME, Adjacency, MorrisConfig, MorrisState
from fanfold.games.morris.rules import losing_line
from fanfold.play import Seat, play_game
from fanfold.solvers import morris as solver
from fanfold.solvers.morris import MorrisTable, Result

VARIANTS = list(Adjacency)


def perfect(seed: int, cache: Path) -> PerfectAgent:
    return PerfectAgent(GAME, seed, cache_dir=cache)


def test_registered_for_morris_only() -> None:
    assert strongest_agent(GAME) == "perfect"
    assert isinstance(create_agent("perfect", GAME, 3), PerfectAgent)
    for game in all_games():
        if game is not GAME:
            assert "perfect" not in agent_names(game)
            with pytest.raises(TypeError):
                PerfectAgent(game)


@pytest.mark.parametrize("adjacency", VARIANTS)
@pytest.mark.parametrize("perfect_seat", [0, 1])
def test_never_worsens_its_value_and_never_loses_to_random(
    adjacency: Adjacency,
    perfect_seat: int,
    tables: dict[Adjacency, MorrisTable],
    morris_cache: Path,
) -> None:
    table = tables[adjacency]
    config = MorrisConfig(adjacency)
    for game_number in range(6):
        agents = [RandomAgent(GAME, game_number), perfect(game_number, morris_cache)]
        if perfect_seat == 0:
            agents.reverse()
        state = GAME.new_state(config)
        moves = 0
        while GAME.current_player(state) is not None and moves < 400:
            player = state.to_move
            legal = GAME.legal_actions(state)
            action = agents[player].choose(GAME.observe(state, player), legal)
            if player == perfect_seat:
                before = table.state_value(state)
                chosen = solver.action_value(table, state, action)
                best = max(solver.action_value(table, state, a).rank for a in legal)
                assert chosen.rank == best
                assert chosen.rank >= before.rank
                if before.result is Result.WIN:
                    assert chosen == before  # a win is kept, and at the same pace
            state = GAME.apply(state, action)
            moves += 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        assert outcome.returns[perfect_seat] >= 0  # the start is a draw: never a loss


@pytest.mark.parametrize("adjacency", VARIANTS)
def test_perfect_against_perfect_gives_the_start_value(
    adjacency: Adjacency, tables: dict[Adjacency, MorrisTable], morris_cache: Path
) -> None:
    assert tables[adjacency].state_value(GAME.new_state(MorrisConfig(adjacency))).result is (
        Result.DRAW
    )
    for seed in range(3):
        seats = [Seat("perfect", perfect(seed + extra, morris_cache)) for extra in (0, 100)]
        table = play_game(GAME, MorrisConfig(adjacency), seats, seed)
        final, record = table.state, table.finish()
        outcome = GAME.outcome(final)
        assert outcome is not None
        assert outcome.returns == (0.0, 0.0)
        assert final.drawn
        assert record.actions


def test_converts_won_positions_in_exactly_the_distance(
    tables: dict[Adjacency, MorrisTable], morris_cache: Path
) -> None:
    table = tables[Adjacency.GEOMETRIC]
    codes = solver.legal_codes()
    rng = random.Random(9)
    played = 0
    while played < 25:
        board, side = solver.decode(int(codes[rng.randrange(len(codes))]))
        state = MorrisState(MorrisConfig(), board, side)
        value = table.state_value(state)
        if value.result is Result.DRAW or GAME.outcome(state) is not None:
            continue
        agents = [perfect(played, morris_cache), perfect(played + 1, morris_cache)]
        plies = 0
        while GAME.current_player(state) is not None:
            action = agents[state.to_move].choose(
                GAME.observe(state, state.to_move), GAME.legal_actions(state)
            )
            state = GAME.apply(state, action)
            plies += 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        assert plies == value.distance
        winner = side if value.result is Result.WIN else 1 - side
        assert outcome.returns[winner] == 1.0
        played += 1


def test_chooses_among_equal_moves_with_its_own_generator(
    tables: dict[Adjacency, MorrisTable], morris_cache: Path
) -> None:
    state = GAME.new_state(MorrisConfig())
    view = GAME.observe(state, 0)
    legal = GAME.legal_actions(state)
    firsts = {str(perfect(seed, morris_cache).choose(view, legal)) for seed in range(30)}
    assert len(firsts) > 3
    assert not firsts & {"C7", "T7"}  # the two placements on the centre lose
    again = [str(perfect(4, morris_cache).choose(view, legal)) for _ in range(3)]
    assert len(set(again)) == 1


def test_prefers_a_draw_by_repetition_to_a_loss(
    tables: dict[Adjacency, MorrisTable], morris_cache: Path
) -> None:
    table = tables[Adjacency.GEOMETRIC]
    codes = solver.legal_codes()
    rng = random.Random(13)
    while True:
        board, side = solver.decode(int(codes[rng.randrange(len(codes))]))
        state = MorrisState(MorrisConfig(), board, side)
        value = table.state_value(state)
        if state.is_placement or value.result is not Result.LOSS or not value.distance:
            continue
        legal = GAME.legal_actions(state)
        quiet = [a for a in legal if losing_line(GAME.apply_legal(state, a).board) is None]
        if quiet:
            break
    # The position after a quiet move already occurred: playing it again is a draw.
    repeated = GAME.apply_legal(state, quiet[0]).key
    with_history = MorrisState(state.config, state.board, side, frozenset({repeated}))
    choice = perfect(0, morris_cache).choose(GAME.observe(with_history, side), legal)
    assert solver.action_value(table, with_history, choice).result is Result.DRAW
    assert GAME.apply(with_history, choice).drawn


def test_prepare_says_when_the_table_must_be_solved_first(
    tmp_path: Path, tables: dict[Adjacency, MorrisTable], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solver, "PACKAGED_DIR", tmp_path / "none")  # no packaged tables
    config = MorrisConfig()
    said: list[str] = []
    fresh = tmp_path / "fresh"
    solver.save_table(tables[config.adjacency], solver.cache_path(config.adjacency, tmp_path))
    perfect(0, tmp_path).prepare(config, said.append)
    assert said == []  # cached: nothing slow to announce
    perfect(0, fresh).prepare(config, said.append)
    assert any("first use only" in text for text in said)
    assert solver.cache_path(config.adjacency, fresh).exists()
