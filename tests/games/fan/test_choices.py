"""Fan patience's choices: a move points at its fan, then at a fan or the foundations."""

from __future__ import annotations

from fanfold.core.game import Choice
from tests.games.fan.test_game import GAME, position


def by_text(choices: list[Choice]) -> dict[str, Choice]:
    return {choice.text: choice for choice in choices}


def test_moves_to_a_fan_and_to_the_foundation() -> None:
    # clubs and diamonds home, spades up to the 6: the hearts and the other spades in fans
    hearts = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
    state = position(["KS 7S", "8S", "AH", "QS JS TS 9S", hearts], (13, 13, 0, 6))
    view = GAME.observe(state, 0).to_json()
    assert view["fan_refs"] == [f"fan:{number}" for number in range(1, 19)]
    assert view["foundation_ref"] == "F"
    choices = by_text(GAME.choices(state))
    onto = choices["1-2"]
    assert onto.kind == "move"
    assert onto.label == "7♠ from fan 1 onto 8♠ on fan 2"
    assert onto.points == ("fan:1", "fan:2")
    assert onto.details == {"from": 1, "to": 2, "count": 1, "cards": ["7S"]}
    home = choices["3-F"]
    assert home.kind == "foundation"
    assert home.label == "A♥ from fan 3 to its foundation"
    assert home.points == ("fan:3", "F")
    assert home.details == {"from": 3, "to": None, "count": 1, "cards": ["AH"]}
