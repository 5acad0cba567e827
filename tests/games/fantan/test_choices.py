"""Fan Tan's choices: a play points at its card in the hand, a pass is a button."""

from __future__ import annotations

from fanfold.core.game import Choice
from fanfold.core.registry import get_game
from tests.games.fantan.test_rules import FOUR, SPLIT, position, suit

GAME = get_game("fantan")


def by_text(choices: list[Choice]) -> dict[str, Choice]:
    return {choice.text: choice for choice in choices}


def test_a_play_points_at_the_card_and_says_which_row_it_starts() -> None:
    state = position(FOUR, SPLIT, "7C")
    choices = by_text(GAME.choices(state))
    assert set(choices) == {str(action) for action in GAME.legal_actions(state)}
    six = choices["6C"]
    assert (six.kind, six.label, six.points, six.details) == (
        "play",
        "Play 6♣",
        ("6C",),
        {"card": "6C"},
    )
    seven = choices["7D"]
    assert seven.label == "Play 7♦, starting the diamonds row"
    hand = GAME.observe(state, GAME.current_player(state) or 0).to_json()["hand"]
    assert isinstance(hand, list)
    assert all(choice.points[0] in hand for choice in choices.values())


def test_a_pass_is_a_button_of_its_own() -> None:
    hands = [suit("C", "234568") + " " + suit("D", "89TJQKA"), "*", suit("H"), suit("S")]
    state = position(FOUR, hands)
    assert GAME.choices(state) == [Choice("pass", "pass", "Pass (no card to play)")]
