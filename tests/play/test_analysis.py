"""Position analyses: Fan's hint and winnable, Morris's table values; none where cards hide."""

from __future__ import annotations

from pathlib import Path

import pytest

from fanfold.core.registry import all_games, get_game
from fanfold.games.fan import FanConfig
from fanfold.games.morris import Adjacency
from fanfold.play import analyses_for
from fanfold.solvers.morris import MorrisTable

FAN = get_game("fan")
MORRIS = get_game("morris")


def test_hint_and_winnable_for_fan() -> None:
    commands = analyses_for(FAN)
    state = FAN.new_state(FanConfig(), 3)
    assert commands["hint"].run(state).startswith("Try ")
    assert commands["winnable"].run(state).startswith("Yes")
    lost = FAN.new_state(FanConfig(), 1)
    assert commands["winnable"].run(lost).startswith("No")
    assert "No win" in commands["hint"].run(lost)


def test_morris_values_come_from_the_solved_table(
    morris_cache: Path, monkeypatch: pytest.MonkeyPatch, tables: dict[Adjacency, MorrisTable]
) -> None:
    assert tables  # solved into morris_cache once a session
    monkeypatch.setenv("FANFOLD_CACHE_DIR", str(morris_cache))
    state = MORRIS.parse_position("C/-/tc/-/-/-/T b", MORRIS.default_config())
    text = analyses_for(MORRIS)["values"].run(state)
    lines = text.splitlines()
    assert lines[0].startswith("Black to move: ")
    legal = [MORRIS.action_text(action) for action in MORRIS.legal_actions(state)]
    assert sorted(line.split(":")[0].strip() for line in lines[1:]) == sorted(legal)


def test_games_with_hidden_cards_offer_no_analysis() -> None:
    for game in all_games():
        if game.has_hidden_information:
            assert analyses_for(game) == {}
