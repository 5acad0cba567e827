"""Fano, "The battle for Trionfey": declared attacks, bluffs, the text's attack examples, and the
three-player choice of opponent.

Rules text: seeds/001_4b741ffe6572c987.txt; readings in docs/rules/fano.md.
"""

from __future__ import annotations

import pytest

from fanfold.core.errors import IllegalActionError, NotationError
from fanfold.games.fano import Attack, Declare, Phase
from tests.games.fano.helpers import FANO, cards, legal_texts, play
from tests.games.fano.helpers import trionfey_position as setup


def test_example_1_attacking_hearts_4_takes_the_6_of_clubs() -> None:
    state = setup("fano player=1 | hand=3H,9H field=4H | field=6C")
    assert "4H>6C" in legal_texts(state)
    assert not any(isinstance(action, Attack) for action in FANO.legal_actions(state))
    after = play(state, "4H>6C")  # a lone 6 cannot be countered: it resolves at once
    me, them = after.players
    assert me.field == cards("3H")
    assert me.up == cards("4H")
    assert them.up == cards("6C")
    assert after.phase is Phase.MAIN


def test_attack_example_2_attacks_3_4_6_with_5_1_7() -> None:
    state = setup("fano player=1 | hand=7H field=2H | field=3C,4C,6C")
    declared = {str(a) for a in FANO.legal_actions(state) if isinstance(a, Declare)}
    assert declared == {"2H>3C", "2H>4C", "2H>6C"}
    after = play(state, "2H>6C")  # no counter can make a combat card from a 6 here
    assert after.players[0].field == cards("7H")
    assert after.players[0].up == cards("2H")
    assert after.players[1].up == cards("6C")


def test_example_2_combine_then_attack() -> None:
    state = setup("fano player=1 | hand=2H,5H,TH field=AH,4H | hand=9C field=3C,6C,8C,TC")
    after = play(state, "AH+4H=5H return AH", "5H>6C")
    me, them = after.players
    assert me.field == cards("AH")
    assert me.up == cards("4H 5H")
    assert them.field == cards("3C 8C TC")
    assert them.up == cards("6C")


def test_example_3_combo_and_draw_three() -> None:
    state = setup("fano player=1 | hand=4H,3H,8H field=AH,5H,7H draw=2H,6H,9H,TH | field=2C,6C")
    after = play(state, "AH>2C", "4H>6C", "3H+5H=8H")
    me, them = after.players
    assert them.field == ()
    assert me.field == cards("7H 8H")
    assert me.hand == cards("2H 6H 9H")


def test_declaration_needs_a_legal_direction() -> None:
    state = setup("fano player=1 | hand=3H field=6H | field=4C")
    assert not any(isinstance(action, Declare) for action in FANO.legal_actions(state))
    with pytest.raises(IllegalActionError, match="4 attacks 6 instead"):
        play(state, "6H>4C")


def test_bluff_is_legal_and_costs_only_the_attacker() -> None:
    state = setup("fano player=1 | hand=9H field=2H | field=3C,4C")
    assert "2H>3C" in legal_texts(state)
    declared = play(state, "2H>3C")
    assert declared.phase is Phase.REACT  # 3C + 4C = 7 could be a counter
    after = play(declared, "allow")
    me, them = after.players
    assert me.field == ()
    assert me.up == cards("2H")
    assert me.hand == cards("9H")
    assert them.field == cards("3C 4C")
    assert after.phase is Phase.MAIN
    assert FANO.current_player(after) == 0


def test_three_players_choose_one_opponent_per_turn() -> None:
    state = setup("fano player=1 | hand=5H,AH field=2H,4H | field=3C | field=6S")
    declared = sorted(str(a) for a in FANO.legal_actions(state) if isinstance(a, Declare))
    assert declared == ["2H>3C@2", "2H>6S@3", "4H>6S@3"]
    after = play(state, "2H>3C@2")
    assert after.target_seat == 1
    assert not any(isinstance(action, Declare) for action in FANO.legal_actions(after))
    with pytest.raises(IllegalActionError, match="Player 2 only"):
        play(after, "4H>6S@3")
    next_turn = play(after, "pass")
    assert next_turn.target_seat is None


def test_three_players_attack_needs_the_player_named() -> None:
    state = setup("fano player=1 | hand=5H field=2H | field=3C | field=6S")
    with pytest.raises(IllegalActionError, match="name the player"):
        play(state, "2H>3C")
    with pytest.raises(NotationError):
        FANO.parse_action("2H>3C@0")
