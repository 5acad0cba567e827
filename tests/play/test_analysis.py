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
    # At the deal as dealt there is nothing to undo: the hint says the deal cannot be won.
    assert commands["hint"].run(lost).startswith("This deal cannot be won")
    assert "undo" not in commands["hint"].run(lost)
    later = FAN.apply(lost, FAN.legal_actions(lost)[0])
    assert commands["hint"].run(later).startswith("No win is possible from here: undo")


def test_fan_hint_names_the_move_in_words_and_on_the_board() -> None:
    hint = analyses_for(FAN)["hint"]
    state = FAN.new_state(FanConfig(), 2)
    assert hint.run(state) == "Try A♦ from fan 8 to its foundation (8-F)."
    assert hint.data is not None
    data = hint.data(state)
    label = "A♦ from fan 8 to its foundation"
    assert isinstance(data, dict)
    assert data.pop("said") == {
        "code": "fan.choice",
        "params": {
            "cards": "A♦",
            "source": 8,
            "where": {"code": "fan.to_foundation", "params": {}},
        },
    }
    assert data == {"move": "8-F", "label": label, "points": ["fan:8", "F"]}
    choice = next(c for c in FAN.choices(state) if c.text == "8-F")
    assert data["points"] == list(choice.points)  # the references the board draws
    assert hint.data(FAN.new_state(FanConfig(), 1)) == {"move": None, "points": []}


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
