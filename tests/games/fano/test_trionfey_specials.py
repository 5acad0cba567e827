"""Fano, "The battle for Trionfey": tribute counters and the suit specials (Spades joker, Hearts
Reverse Fano, Clubs Oversum, Diamonds face-down Perfect defense).

Rules text: seeds/001_4b741ffe6572c987.txt; readings in docs/rules/fano.md.
"""

from __future__ import annotations

import random

import pytest

from fanfold.core.errors import IllegalActionError, NotationError
from fanfold.games.fano.cards import parse_card
from tests.games.fano.helpers import FANO, SPECIALS, cards, legal_texts, play
from tests.games.fano.helpers import tribute_config as specials
from tests.games.fano.helpers import trionfey_position as setup


def test_combine_substitute_and_discard_each_earn_one_counter() -> None:
    state = setup("fano player=1 | hand=5H,6H,9H field=AH,4H | -", SPECIALS)
    after = play(state, "AH+4H=5H")
    assert after.players[0].tribute == 1
    assert play(after, "sub 5H 6H").players[0].tribute == 2
    assert play(after, "discard 6H 9H").players[0].tribute == 2  # one per action, not per card
    assert play(after, "pass").players[0].tribute == 1
    without = setup("fano player=1 | hand=5H field=AH,4H | -")
    assert play(without, "AH+4H=5H").players[0].tribute == 0


def test_counters_are_capped_at_seven() -> None:
    state = setup("fano player=1 | tribute=7 hand=5H,9H field=AH,4H | -", SPECIALS)
    assert play(state, "AH+4H=5H").players[0].tribute == 7


def test_cards_lost_to_an_attack_earn_nothing_but_a_combine_counter_does() -> None:
    state = setup("fano player=1 | hand=AH field=2H | hand=4D field=AD,3D", SPECIALS)
    after = play(state, "2H>3D", "counter AD+3D=4D")
    assert after.players[1].tribute == 1
    lost = setup("fano player=1 | hand=7H field=2H | field=6D", SPECIALS)
    after_attack = play(lost, "2H>6D")
    assert after_attack.players[1].up == cards("6D")
    assert [player.tribute for player in after_attack.players] == [0, 0]


def test_tribute_is_public() -> None:
    state = setup("fano player=1 | tribute=4 hand=5H | tribute=2", SPECIALS)
    for seat in (0, 1):
        assert [p.tribute for p in FANO.observe(state, seat).players] == [4, 2]


def test_hearts_reverse_fano_example_3_attacks_6_with_4() -> None:
    state = setup("fano player=1 | tribute=3 hand=4H field=3H | field=6D", SPECIALS)
    assert "3H>6D reverse" in legal_texts(state)
    after = play(state, "3H>6D reverse")
    assert after.players[0].field == cards("4H")
    assert after.players[0].tribute == 0
    poor = setup("fano player=1 | tribute=2 hand=4H field=3H | field=6D", SPECIALS)
    with pytest.raises(IllegalActionError, match="three tribute counters"):
        play(poor, "3H>6D reverse")


def test_clubs_oversum_any_lesser_card_and_no_counter_for_prestige() -> None:
    config = specials("CH")
    state = setup("fano player=1 | tribute=3 hand=9C,3C field=5C,6C | -", config)
    texts = legal_texts(state)
    assert "5C+6C=9C oversum" in texts
    assert "5C+6C=3C oversum" in texts
    prestige = play(state, "5C+6C=9C oversum")
    assert prestige.players[0].tribute == 0
    assert prestige.players[0].field == cards("9C")
    combat = play(state, "5C+6C=3C oversum")
    assert combat.players[0].tribute == 1
    hearts = setup("fano player=1 | tribute=3 hand=9H field=5H,6H | -", config.replace(suits="HC"))
    assert "5H+6H=9H oversum" not in legal_texts(hearts)


def test_spades_joker_on_top_of_the_draw_pile() -> None:
    config = specials("SH")
    state = setup("fano player=1 | tribute=3 hand=9S field=AS | field=6H", config)
    after = play(state, "joker")
    me = after.players[0]
    assert me.tribute == 0
    assert me.draw[-1] == parse_card("TJ")
    assert FANO.observe(after, 1).players[0].jokers_on_draw == 1
    # The joker is drawn next (here at the end-of-turn draw of the next turn) and seen drawn.
    later = play(after, "discard 9S", "pass")
    assert parse_card("TJ") in later.players[0].hand
    assert later.players[0].known == cards("TJ")


def test_spades_joker_enters_play_as_any_combat_card_and_leaves_the_game() -> None:
    config = specials("SH")
    state = setup("fano player=1 | hand=TJ,5S field=AS,2S | field=6H", config)
    assert "recruit TJ4 with AS 2S" in legal_texts(state)
    assert "AS+2S=TJ3" in legal_texts(state)
    after = play(state, "AS+2S=TJ3")
    assert after.players[0].field == cards("TJ3")
    discarded = play(setup("fano player=1 | hand=TJ,9S field=AS | -", config), "discard TJ 9S")
    assert discarded.players[0].temp_jokers == 0
    assert discarded.players[0].down == cards("9S")
    assert after.players[0].temp_jokers == 1
    removed = play(after, "sub TJ3 5S")
    assert removed.players[0].temp_jokers == 0
    assert removed.players[0].up == cards("AS 2S")
    with pytest.raises(NotationError, match="joker can not be returned"):
        FANO.parse_action("TJ3+2S=5S return TJ3")


def test_joker_supply_and_cost() -> None:
    config = specials("SH")
    state = setup("fano player=1 | tribute=7 hand=9S field=AS draw=TJ,TJ | -", config)
    assert "joker" not in legal_texts(state)  # both of the deck's jokers are in the game
    poor = setup("fano player=1 | tribute=2 hand=9S field=AS | -", config)
    assert "joker" not in legal_texts(poor)


def test_diamonds_face_down_card_is_hidden_and_can_not_be_attacked() -> None:
    config = specials("DH")
    state = setup("fano player=1 | tribute=3 hand=6D,9D field=AD | hand=AH field=2H", config)
    assert "play 6D down" in legal_texts(state)
    after = play(state, "play 6D down")
    me = after.players[0]
    assert me.hidden == cards("6D")
    assert me.tribute == 0
    their_view = FANO.observe(after, 1)
    assert parse_card("6D") not in their_view.players[0].field
    assert their_view.players[0].hidden_count == 1
    assert "6D" not in str(their_view.to_json())
    assert FANO.public_action_text(state, FANO.parse_action("play 6D down"), 1) == (
        "play a card face down (Perfect defense)"
    )
    # Player 2's 2 attacks a 6 with a 7, but not a face-down 6.
    assert not any(str(a).startswith("2H>6D") for a in FANO.legal_actions(after))


def test_diamonds_substitute_face_down_earns_then_spends() -> None:
    config = specials("DH")
    text = "fano player=1 | tribute={} hand=5D,TJ field=8D,AD | hand=AH field=4H"
    state = setup(text.format(2), config)
    legal = legal_texts(state)
    # Two counters suffice: the substitute's discard earns the third before the play spends.
    assert {"sub 8D 5D down", "sub AD 5D down", "sub 8D 5D"} <= set(legal)
    assert "play 5D down" not in legal  # a play earns nothing: it needs all three
    assert not any(move.startswith("sub") and "TJ" in move and "down" in move for move in legal)
    after = play(state, "sub 8D 5D down")
    me = after.players[0]
    assert me.field == cards("AD 5D")
    assert me.hidden == cards("5D")
    assert me.up == cards("8D")
    assert me.down == ()
    assert me.tribute == 0
    assert after.turn_player == 1
    # At the cap the earned counter is lost first: 7, still 7, then 4.
    assert play(setup(text.format(7), config), "sub 8D 5D down").players[0].tribute == 4
    # A plain substitute only earns.
    assert play(setup(text.format(2), config), "sub 8D 5D").players[0].tribute == 3
    # The face-down card can not be attacked: the 4 attacks a 5 with a 6, but not this one.
    assert not any(str(action).startswith("4H>5D") for action in FANO.legal_actions(after))
    assert not FANO.invariant_violations(after)


def test_diamonds_substitute_face_down_is_hidden_from_others() -> None:
    config = specials("DH")
    state = setup("fano player=1 | tribute=3 hand=5D,9D field=8D | hand=AH field=2H", config)
    action = FANO.parse_action("sub 8D 5D down")
    after = FANO.apply(state, action)
    their_view = FANO.observe(after, 1)
    assert parse_card("5D") not in their_view.players[0].field
    assert their_view.players[0].hidden_count == 1
    assert their_view.players[0].up == cards("8D")
    assert "5D" not in str(their_view.to_json())
    assert FANO.observe(after, 0).hidden == cards("5D")
    assert FANO.public_action_text(state, action, 1) == (
        "sub 8D for a card face down (Perfect defense)"
    )
    assert FANO.public_action_text(state, action, 0) == "sub 8D 5D down"
    sampled = FANO.sample_state(their_view, random.Random(3))
    assert FANO.observe(sampled, 1) == their_view


def test_diamonds_substitute_face_down_needs_the_special_and_counters() -> None:
    config = specials("DH")
    poor = setup("fano player=1 | tribute=1 hand=5D field=8D | hand=AH field=2H", config)
    assert "sub 8D 5D down" not in legal_texts(poor)
    with pytest.raises(IllegalActionError, match="too few tribute counters"):
        FANO.apply_text(poor, "sub 8D 5D down")
    hearts = setup("fano player=2 | hand=AD field=2D | tribute=5 hand=5H field=8H", config)
    assert "sub 8H 5H down" not in legal_texts(hearts)
    with pytest.raises(IllegalActionError, match="not your suit's special"):
        FANO.apply_text(hearts, "sub 8H 5H down")
    rich = setup("fano player=1 | tribute=5 hand=5D,TJ field=8D | hand=AH field=2H", config)
    with pytest.raises(IllegalActionError, match="no 7D in play"):
        FANO.apply_text(rich, "sub 7D 5D down")
    with pytest.raises(IllegalActionError, match="not a joker"):
        FANO.apply_text(rich, "sub 8D TJ4 down")
    plain = setup("fano player=1 | hand=5H field=8H | hand=AC field=2C")
    with pytest.raises(IllegalActionError, match="without the tribute specials"):
        FANO.apply_text(plain, "sub 8H 5H down")


def test_diamonds_substitute_face_down_notation_round_trips() -> None:
    action = FANO.parse_action("  SUBSTITUTE 8d  5d   Down ")
    assert str(action) == "sub 8D 5D down"
    assert FANO.parse_action(str(action)) == action
    assert FANO.parse_action("sub 8D 5D") != action
    with pytest.raises(NotationError, match="sub 8D 5D down"):
        FANO.parse_action("sub 8D 5D up")


def test_diamonds_flip_and_then_the_card_acts() -> None:
    config = specials("DH")
    state = setup("fano player=1 | hand=7D field=AD,6D hidden=6D | -", config)
    assert "AD+6D=7D" not in legal_texts(state)
    flipped = play(state, "flip 6D")
    assert flipped.players[0].hidden == ()
    assert "AD+6D=7D" in legal_texts(flipped)


def test_diamonds_sacrifice_instead_of_the_attacked_card() -> None:
    config = specials("DH")
    state = setup("fano player=2 | field=3D,6D hidden=6D | hand=5H field=2H", config)
    declared = play(state, "2H>3D")
    assert FANO.current_player(declared) == 0  # face-down card: a window (flip) opens
    assert "flip 6D" in legal_texts(declared)
    shown = play(declared, "allow")
    assert shown.pending is not None
    assert shown.pending.support == parse_card("5H")
    assert set(legal_texts(shown)) == {"allow", "sacrifice 6D"}
    after = play(shown, "sacrifice 6D")
    them, me = after.players
    assert them.field == cards("3D")
    assert them.down == cards("6D")
    assert them.hidden == ()
    assert me.field == cards("5H")
    assert me.up == cards("2H")
    assert FANO.public_action_text(shown, FANO.parse_action("sacrifice 6D"), 1) == (
        "sacrifice a face-down card instead"
    )


def test_diamonds_bluff_is_not_sacrificed_for() -> None:
    config = specials("DH")
    state = setup("fano player=2 | field=3D,6D hidden=6D | hand=9H field=2H", config)
    after = play(state, "2H>3D", "allow")
    assert after.pending is None
    assert after.players[0].field == cards("3D 6D")
    assert after.players[1].up == cards("2H")


def test_specials_position_round_trips() -> None:
    config = specials("DH")
    state = setup("fano player=2 | field=3D,6D hidden=6D | hand=5H field=2H", config)
    shown = play(state, "2H>3D", "allow")
    text = FANO.format_position(shown)
    assert "support=5H" in text
    assert "hidden=6D" in text
    assert FANO.parse_position(text, config) == shown


def test_illegal_answers_in_the_window_are_explained() -> None:
    config = specials("DH")
    state = setup("fano player=2 | field=3D,6D hidden=6D | hand=5H field=2H", config)
    declared = play(state, "2H>3D")
    with pytest.raises(IllegalActionError, match="only once the attack's support is shown"):
        play(declared, "sacrifice 6D")
    shown = play(declared, "allow")
    assert "may sacrifice a face-down card or allow" in FANO.describe(shown)
    with pytest.raises(IllegalActionError, match="showed 5H"):
        play(shown, "flip 6D")
