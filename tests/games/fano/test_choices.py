"""Fano's choices: every legal action described in words, with the cards to point at named as
the view names them, and details built only from what the deciding seat sees."""

from __future__ import annotations

from fanfold.core.game import Choice
from fanfold.games.fano import FanoConfig
from fanfold.games.fano.state import FanoState
from tests.games.fano.helpers import FANO, play
from tests.games.fano.helpers import trionfey_position as trionfey


def classic(text: str) -> FanoState:
    return FANO.parse_position(text, FanoConfig(players=text.count("|")))


def choice(state: FanoState, text: str) -> Choice:
    found = {choice.text: choice for choice in FANO.choices(state)}
    assert text in found, sorted(found)
    return found[text]


def test_a_classic_attack_names_its_support_from_hand() -> None:
    state = classic("fano player=1 phase=main | hand=3H,5H field=4H | hand=7C field=6C,AC")
    attack = choice(state, "4H>6C:3H")
    assert attack.kind == "attack"
    assert attack.label == "Attack 6♣ with 4♥: 3♥ from hand enters play"
    assert attack.points == ("f:0:4H", "f:1:6C")
    assert attack.details == {
        "attacker": "4H",
        "target": "6C",
        "seat": 1,
        "needs": 3,
        "support": "3H",
        "reverse": False,
        "arrow": [4, 6],
    }


def test_a_declaration_says_whether_the_hand_holds_the_support() -> None:
    state = trionfey("fano player=1 phase=main | hand=3H,5H field=4H | hand=7C,2C field=6C,AC")
    held = choice(state, "4H>6C")
    assert held.kind == "declare"
    assert held.label == "Declare: 4♥ attacks 6♣; it needs a 3, you hold 3♥"
    assert held.details["needs"] == 3
    assert held.details["held"] == "3H"
    assert held.details["bluff"] is False
    bluff = choice(state, "4H>AC")
    assert bluff.label == "Declare: 4♥ attacks A♣; it needs a 2, you hold none: a bluff"
    assert bluff.details["held"] is None
    assert bluff.details["bluff"] is True
    assert bluff.points == ("f:0:4H", "f:1:AC")


def test_a_declaration_of_the_defender_names_no_card_of_its_hand() -> None:
    # The defender's hand (7C, 2C) is not the attacker's to know: the 2C would support 4 -> A
    # for the defender, but the attacker's choice says bluff from its own hand alone.
    state = trionfey("fano player=1 phase=main | hand=5H field=4H | hand=2C,3C field=AC")
    bluff = choice(state, "4H>AC")
    assert bluff.details["bluff"] is True
    assert "2C" not in str(bluff.to_json())
    assert "3C" not in str(bluff.to_json())


def test_a_counter_is_told_in_words_with_what_returns() -> None:
    state = trionfey("fano player=1 | hand=5H field=2H | hand=4C field=3C,AC")
    declared = play(state, "2H>3C")
    counter = choice(declared, "counter AC+3C=4C return AC")
    assert counter.kind == "counter"
    assert counter.label == "Counter: A♣ + 3♣ → 4♣, A♣ back to hand"
    assert counter.points == ()
    assert counter.details["cards"] == ["AC", "3C"]
    assert counter.details["result"] == "4C"
    assert counter.details["returns"] == "AC"
    allow = choice(declared, "allow")
    assert (allow.kind, allow.label) == ("allow", "Allow: no counter")


LAST_PROMOTION = "fano player=1 phase=main | level=2 hand=TH,5H field=8H,9H,3H,7H | field=2C,4C"


def test_a_combine_with_a_return_and_a_promotion() -> None:
    state = classic(LAST_PROMOTION)
    combine = choice(state, "3H+7H=TH return 3H")
    assert combine.kind == "combine"
    assert combine.label == "3♥ + 7♥ → 10♥, 3♥ back to your hand"
    assert combine.points == ("f:0:3H", "f:0:7H")
    assert combine.details == {
        "cards": ["3H", "7H"],
        "sum": 10,
        "result": "TH",
        "value": 10,
        "oversum": False,
        "returns": "3H",
    }
    both = choice(state, "3H+7H=TH")
    assert both.label.endswith("both to the discard pile")
    promoted = play(state, "3H+7H=TH return 3H")
    promote = choice(promoted, "promote 8H 9H TH")
    assert promote.kind == "promote"
    assert promote.label == "Promote your commander with 8♥, 9♥, 10♥"
    assert promote.points == ()


def test_end_actions_point_at_hand_cards_by_the_views_references() -> None:
    state = classic("fano player=1 phase=main | hand=3H,5H field=4H | hand=7C field=6C,AC")
    view = FANO.observe(state, 0).to_json()
    assert view["hand_refs"] == ["h:0:3H", "h:0:5H"]
    play_five = choice(state, "play 5H")
    assert (play_five.kind, play_five.label, play_five.points) == ("play", "Play 5♥", ("h:0:5H",))
    sub = choice(state, "sub 4H 5H")
    assert sub.points == ("f:0:4H", "h:0:5H")
    assert sub.label == "Substitute: 4♥ to the discard pile, 5♥ into play"
    discard = choice(state, "discard 3H 5H")
    assert discard.points == ("h:0:3H", "h:0:5H")
    assert discard.label == "Discard 2 cards face down"
    assert choice(state, "pass").label == "Pass: end the turn"


def test_the_view_gives_the_plane_teams_and_the_attack_under_way() -> None:
    state = trionfey("fano player=1 | hand=5H field=2H | hand=4C field=3C,AC")
    plane = FANO.observe(state, 1).to_json()["plane"]
    assert isinstance(plane, dict)
    assert plane["cycles"] == [[1, 2, 4], [2, 3, 5], [3, 4, 6], [4, 5, 7], [5, 6, 1], [6, 7, 2],
                               [7, 1, 3]]  # fmt: skip
    assert plane["arrows"] == [[2, 3]]  # 2 attacks 3 (with a 5); 2 can not attack the ace
    declared = FANO.observe(play(state, "2H>3C"), 1).to_json()
    assert declared["attack"] == {
        "attacker": "2H",
        "target": "3C",
        "defender": 1,
        "reverse": False,
        "support": None,
        "needs": 5,
        "arrow": [2, 3],
    }
    assert declared["teams"] is None
    four = FANO.preset("trionfey-one-for-all").config
    teams = FANO.observe(FANO.new_state(four, 1), 0).to_json()["teams"]
    assert teams == [0, 1, 0, 1]
