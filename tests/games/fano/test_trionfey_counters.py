"""Fano, "The battle for Trionfey": the defender's counter window, combine and recruit-combine
counters, and how a counter turns the attack.

Rules text: seeds/001_4b741ffe6572c987.txt; readings in docs/rules/fano.md.
"""

from __future__ import annotations

import pytest

from fanfold.core.errors import IllegalActionError
from fanfold.games.fano import Phase
from fanfold.games.fano.cards import parse_card
from tests.games.fano.helpers import FANO, SPECIALS, cards, legal_texts, play
from tests.games.fano.helpers import trionfey_position as setup


def test_the_defender_decides_in_the_counter_window() -> None:
    state = setup("fano player=1 | hand=5H field=2H | hand=4C field=3C,AC")
    declared = play(state, "2H>3C")
    assert declared.phase is Phase.REACT
    assert declared.turn_player == 0
    assert FANO.current_player(declared) == 1
    assert set(legal_texts(declared)) == {
        "allow",
        "counter AC+3C=4C",
        "counter AC+3C=4C return AC",
        "counter AC+3C=4C return 3C",
    }
    with pytest.raises(IllegalActionError, match="counter or 'allow'"):
        play(declared, "pass")


def test_window_opens_from_the_public_field_even_without_a_counter_in_hand() -> None:
    state = setup("fano player=1 | hand=5H field=2H | hand=9C field=3C,AC")
    declared = play(state, "2H>3C")
    assert FANO.current_player(declared) == 1
    assert legal_texts(declared) == ["allow"]


def test_counter_to_an_invalid_attack_discards_only_the_attacker() -> None:
    # 2 attacks 3; the counter 3 + 2 = 5 turns the attack on a 5, which a 2 can not attack.
    state = setup("fano player=1 | hand=5H field=2H | hand=5C field=2C,3C")
    after = play(state, "2H>3C", "counter 2C+3C=5C return 2C")
    me, them = after.players
    assert me.field == ()
    assert me.up == cards("2H")
    assert me.hand == cards("5H")  # the support was never shown
    assert them.field == cards("5C")
    assert them.hand == cards("2C")
    assert them.known == cards("2C")
    assert them.up == cards("3C")
    assert after.phase is Phase.MAIN
    assert FANO.current_player(after) == 0


def test_counter_to_a_valid_attack_without_support_discards_the_attacker() -> None:
    # 2 -> 3 redirected to 4 (3 + 1): 2 attacks 4 with an ace, which the attacker lacks.
    state = setup("fano player=1 | hand=5H field=2H | hand=4C field=AC,3C")
    after = play(state, "2H>3C", "counter AC+3C=4C")
    assert after.players[0].up == cards("2H")
    assert after.players[1].field == cards("4C")
    assert after.phase is Phase.MAIN


def test_counter_to_a_valid_supported_attack_continues_and_may_be_countered_again() -> None:
    state = setup("fano player=1 | hand=AH,7H field=2H | hand=4C,6C field=AC,2C,3C")
    countered = play(state, "2H>3C", "counter AC+3C=4C")
    assert countered.phase is Phase.REACT  # 2 -> 4 needs the ace, which is in hand
    assert countered.pending is not None
    assert countered.pending.target == parse_card("4C")
    assert FANO.current_player(countered) == 1
    again = play(countered, "counter 2C+4C=6C")
    # 2 -> 6 needs a 7, also in hand; a lone 6 has no counter, so the attack completes.
    me, them = again.players
    assert me.field == cards("7H")
    assert me.up == cards("2H")
    assert them.field == ()
    assert them.up == cards("AC 2C 3C 4C 6C")
    assert again.phase is Phase.MAIN


def test_recruit_combine_counter() -> None:
    state = setup("fano player=1 | hand=5H field=2H | hand=4C,7C field=AC,2C,3C")
    declared = play(state, "2H>3C")
    move = "counter 3C+4C=7C recruit 4C with AC 2C"
    assert move in legal_texts(declared)
    after = play(declared, move)
    them = after.players[1]
    assert them.field == cards("AC 2C 7C")
    assert them.up == cards("3C 4C")
    assert after.players[0].up == cards("2H")  # 2 can not attack a 7
    full = setup("fano player=1 | hand=5H field=2H | hand=4C,7C field=AC,2C,3C,8C")
    assert move not in legal_texts(play(full, "2H>3C"))


def test_counter_must_involve_the_attacked_card() -> None:
    state = setup("fano player=1 | hand=5H field=2H | hand=5C field=AC,3C,4C")
    declared = play(state, "2H>3C")
    with pytest.raises(IllegalActionError, match="attacked 3C"):
        play(declared, "counter AC+4C=5C")


def test_a_counter_is_only_an_answer() -> None:
    state = setup("fano player=1 | hand=4H field=AH,3H | -")
    with pytest.raises(IllegalActionError, match="answer an attack"):
        play(state, "counter AH+3H=4H")


def test_reverse_attack_redirect_is_checked_reversed() -> None:
    # 3 -> 6 reversed (6 attacks 3 normally; support 4); the counter 6 + 1 = 7 turns it on a 7.
    config = SPECIALS
    state = setup("fano player=1 | tribute=3 hand=4H,AH field=3H | hand=7D field=AD,6D", config)
    declared = play(state, "3H>6D reverse")
    assert FANO.current_player(declared) == 1
    after = play(declared, "counter AD+6D=7D")
    # Reversed, a 3 attacks only what attacks it normally; 7 attacks 1, 2 and 4, not 3: the
    # attack is invalid and only the attacker is discarded.
    assert after.players[0].up == cards("3H")
    assert after.players[0].hand == cards("AH 4H")
    assert after.players[1].field == cards("7D")
