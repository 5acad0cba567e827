"""OpenSpiel information states (perfect recall) for CFR-family algorithms: a seat's views and
what it was told of each action, so transpositions that one observation confuses stay apart,
and OpenSpiel's CFR runs on a small Fan Tan end game."""

from __future__ import annotations

import pyspiel
from open_spiel.python.algorithms import cfr

import fanfold.envs
from fanfold.core.registry import set_up
from tests.envs.conftest import playout

fanfold.envs.register_openspiel()


def test_a_transposition_has_one_observation_and_two_information_states() -> None:
    """Morris: White A, Black B, White C and White C, Black B, White A reach one position;
    White's observation is the same, but not what White has seen."""
    game = pyspiel.load_game("python_fanfold_morris")
    assert game.get_type().provides_information_state_string

    def play(actions: list[int]) -> pyspiel.State:
        state = game.new_initial_state()
        for action in actions:
            state.apply_action(action)
        return state

    first = play([]).legal_actions()[0]
    black = play([first]).legal_actions()[3]
    third = play([first, black]).legal_actions()[4]
    one, other = play([first, black, third]), play([third, black, first])
    assert one.observation_string(0) == other.observation_string(0)
    assert one.information_state_string(0) != other.information_state_string(0)
    seen = one.information_state_string(0)
    later = one.clone()
    later.apply_action(later.legal_actions()[0])
    assert later.information_state_string(0).startswith(seen + "\n-- seat 1: ")
    assert one.information_state_string(0) == seen  # the clone's game is its own
    told = one.information_state_string(1)
    assert told.count("-- seat ") == 3
    assert told.startswith(play([]).observation_string(1))


def test_information_states_before_the_deal_show_nothing() -> None:
    game = pyspiel.load_game("python_fanfold_fantan", {"deal": "seed"})
    state = game.new_initial_state()
    state.apply_action(7)
    assert state.information_state_string(0) == "the cards are not dealt yet (1 seed bytes drawn)"


def test_a_card_deal_tells_each_seat_its_own_cards_only() -> None:
    game = pyspiel.load_game("python_fanfold_fantan", {"players": 3})
    state = game.new_initial_state()
    strings = []
    for card in (7, 20, 33):  # one card to each seat, from the dealer's left
        state.apply_action(card)
        strings.append([state.information_state_string(seat) for seat in range(3)])
    receivers = [game.card_deal.receiver(None, node) for node in range(3)]
    for seat in range(3):
        lines = strings[-1][seat].splitlines()
        assert len(lines) == 3
        for line, receiver, text in zip(lines, receivers, ("8C", "8D", "8H"), strict=True):
            told = text if receiver == seat else "a card"
            assert line == f"-- dealt to seat {receiver}: {told}"


def test_cfr_runs_on_a_small_fan_tan_end_game() -> None:
    found, config = set_up("fantan", "standard", {"players": 3})
    position = found.format_position(list(playout(found, config, 1, 400))[-6])
    game = pyspiel.load_game("python_fanfold_fantan", {"players": 3, "position": position})
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    table = solver.average_policy().state_lookup
    assert table  # one entry per information state met
    state = game.new_initial_state()
    assert state.information_state_string(state.current_player()) in table
