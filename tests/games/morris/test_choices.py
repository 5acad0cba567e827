"""Fano330-R-Morris's choices: a placement points at its point, a move at two points."""

from __future__ import annotations

from fanfold.core.game import Choice
from tests.games.morris.test_game import GAME, play


def by_text(choices: list[Choice]) -> dict[str, Choice]:
    return {choice.text: choice for choice in choices}


def test_placements_name_the_shape_and_the_point() -> None:
    state = play(GAME.new_state(GAME.default_config()), "C1")
    view = GAME.observe(state, 1).to_json()
    assert view["points"] == [f"point:{point}" for point in range(1, 8)]
    choices = by_text(GAME.choices(state))
    onto = choices["T1"]
    assert onto.kind == "place"
    assert onto.label == "Place a triangle on point 1 onto White's circle"
    assert onto.points == ("point:1",)
    assert onto.details == {"shape": "T", "point": 1}
    assert choices["C2"].label == "Place a circle on point 2"


def test_moves_name_the_piece_and_both_points() -> None:
    placed = ("T7", "C7", "T1", "C1", "C4", "T6", "C6", "T5")
    state = play(GAME.new_state(GAME.default_config()), *placed)
    assert not state.is_placement  # movement, White to move
    moves = [choice for choice in GAME.choices(state) if choice.kind == "move"]
    assert moves
    assert len(moves) == len(GAME.legal_actions(state))
    move = moves[0]
    source, target = move.details["from"], move.details["to"]
    assert move.points == (f"point:{source}", f"point:{target}")
    assert move.label.startswith("Move your ")
    assert f"from point {source} to point {target}" in move.label
    assert move.details["shape"] in ("C", "T")
