"""A start position whose hidden cards chance re-deals (``deals``): a small imperfect-
information game with a real chance node, for OpenSpiel's exact algorithms (CFR and NashConv
in examples/openspiel_nashconv.py)."""

from __future__ import annotations

import importlib.util
import pickle
import sys
from pathlib import Path
from typing import Any

import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability

import fanfold.envs
from fanfold.core.errors import ConfigError
from fanfold.envs.openspiel_game import FanfoldGame

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_nashconv.py"


def _example() -> Any:
    """The example, loaded from its file."""
    spec = importlib.util.spec_from_file_location("openspiel_nashconv_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


openspiel_nashconv = _example()

fanfold.envs.register_openspiel()


def _game(deals: int = 4, back: int = 8) -> FanfoldGame:
    game: FanfoldGame = openspiel_nashconv.load(3, 6, back, deals)
    return game


def test_the_game_starts_by_choosing_one_of_the_deals() -> None:
    game = _game()
    assert game.max_chance_outcomes() == 4
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(number, 0.25) for number in range(4)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "deal 2"
    dealt = [state.child(number) for number in range(4)]
    # Seat 0 sees one position whatever the deal; the others' hands differ between deals.
    assert len({child.observation_string(0) for child in dealt}) == 1
    assert len({child.information_state_tensor(0).__repr__() for child in dealt}) == 1
    assert len({str(child) for child in dealt}) > 1
    assert len({child.observation_string(1) for child in dealt}) > 1
    assert all(
        child.information_state_string(0) == dealt[0].information_state_string(0) for child in dealt
    )


def test_a_dealt_game_plays_and_pickles() -> None:
    """OpenSpiel's random simulation test (without serialisation: a Fan Tan position holds
    ``,`` and ``=``, so the game's string cannot be loaded again), and a pickle round trip."""
    game = _game()
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    state = game.new_initial_state().child(1)
    state.apply_action(state.legal_actions()[0])
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)
    assert again.history() == state.history()


def test_deals_need_a_position_of_a_game_with_hidden_cards() -> None:
    with pytest.raises(ConfigError, match="give a position"):
        pyspiel.load_game("python_fanfold_fantan", {"deals": 4})
    with pytest.raises(ConfigError, match="give a position"):
        pyspiel.load_game("python_fanfold_morris", {"deals": 4, "position": "x"})


def test_cfr_lowers_nash_conv_on_the_dealt_end_game() -> None:
    game = _game(deals=2, back=10)
    uniform = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    solver = cfr.CFRSolver(game)
    for _ in range(4):
        solver.evaluate_and_update_policy()
    assert exploitability.nash_conv(game, solver.average_policy()) < uniform


def test_the_example_prints_nash_conv_over_iterations(capsys: pytest.CaptureFixture[str]) -> None:
    rows = openspiel_nashconv.main(
        ["--back", "10", "--deals", "2", "--iterations", "2", "--every", "1"]
    )
    assert [row[0] for row in rows] == [0, 1, 2]
    assert rows[-1][2] < rows[0][2]
    printed = capsys.readouterr().out
    assert "(uniform random policy)" in printed
    assert "states (2 deals, 3 players)" in printed
