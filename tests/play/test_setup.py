"""Seat planning, seeds, whole games between agents, and matches with seats rotated."""

from __future__ import annotations

import pytest

from fanfold.core.errors import ConfigError, UnknownAgentError
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play import choose_seed, default_agent, make_seats, plan_seats, play_game, rotate_seats
from fanfold.play.setup import match_totals, seat_in_game

MORRIS = get_game("morris")
FANTAN = get_game("fantan")


def test_seats_are_planned_human_first_then_the_strongest_agent() -> None:
    config = FANTAN.default_config()
    assert plan_seats(FANTAN, config) == ["human", "hard", "hard", "hard"]
    assert plan_seats(FANTAN, config, ["random"]) == ["random"] + ["hard"] * 3
    assert plan_seats(FANTAN, config, ["random"], default="mcts") == ["random"] + ["mcts"] * 3
    with pytest.raises(ConfigError, match="5 seats given"):
        plan_seats(FANTAN, config, ["random"] * 5)


def test_the_interactive_default_caps_searching_agents_only() -> None:
    assert default_agent(FANTAN) == "hard"
    assert default_agent(FANTAN, seconds=3) == "hard(seconds=3.0)"
    assert default_agent(MORRIS, seconds=3) == "perfect"  # the table answers at once


def test_seats_are_made_from_agent_texts() -> None:
    seats = make_seats(MORRIS, ["human", "mcts(iterations=50)"], agent_seed=10)
    assert seats[0].is_human
    assert seats[1].player == "mcts(iterations=50)"
    assert seats[1].agent is not None
    with pytest.raises(UnknownAgentError):
        make_seats(MORRIS, ["human", "oracle"])


def test_seeds_are_chosen_or_given() -> None:
    assert choose_seed(7) == 7
    assert choose_seed(deal=9) == 9
    assert choose_seed(5, 5) == 5
    assert 0 <= choose_seed() < 2**128
    assert 1 <= choose_seed(game=get_game("fan")) <= 999_999  # an open deal: a deal number
    with pytest.raises(ConfigError, match="not both"):
        choose_seed(1, 2)
    with pytest.raises(ConfigError, match="0 or more"):
        choose_seed(-1)


def test_play_game_refuses_human_seats() -> None:
    with pytest.raises(ValueError, match="agents only"):
        play_game(MORRIS, None, ["human", "random"])


def test_rotation_moves_every_player_one_seat_on() -> None:
    assert rotate_seats(["a", "b"], 1) == ["b", "a"]
    assert rotate_seats(["a", "b"], 2) == ["a", "b"]
    assert rotate_seats(["a", "b", "c"], 1) == ["c", "a", "b"]
    for number in range(4):
        seats = rotate_seats(["a", "b", "c"], number)
        assert [seats.index(p) for p in "abc"] == [seat_in_game(i, 3, number) for i in range(3)]


def test_a_match_swaps_colours_and_totals_each_player() -> None:
    players = ["mcts(iterations=60)", "random"]
    records: list[GameRecord] = []
    for number in range(2):
        table = play_game(MORRIS, None, rotate_seats(players, number), seed=number)
        records.append(table.finish())
    assert records[0].players == ("mcts(iterations=60)", "random")
    assert records[1].players == ("random", "mcts(iterations=60)")
    totals = match_totals(records, 2)
    expected = [0.0, 0.0]
    for number, record in enumerate(records):
        assert record.outcome is not None
        returns = record.outcome["returns"]
        assert isinstance(returns, list)
        for player in range(2):
            value = returns[seat_in_game(player, 2, number)]
            assert isinstance(value, float | int)
            expected[player] += value
    assert totals == expected
