"""Fano classic rules: the worked examples of the rules text and every rule, one by one."""

from __future__ import annotations

import pytest

from fanfold.core.errors import IllegalActionError
from fanfold.core.registry import get_game
from fanfold.games.fano import (
    Attack,
    Combine,
    Discard,
    FanoConfig,
    FanoState,
    Pass,
    Phase,
    Play,
    Promote,
    Substitute,
)
from fanfold.games.fano.cards import ATTACK_SUPPORT, CYCLES, SEQUENCES, card_text, parse_card
from fanfold.games.fano.game import FanoGame
from tests.games.fano.helpers import cards, legal_texts, play

GAME = get_game("fano")
assert isinstance(GAME, FanoGame)
FANO: FanoGame = GAME


def setup(text: str, config: FanoConfig | None = None) -> FanoState:
    """A position from notation; players given as '|' sections after a header."""
    return FANO.parse_position(text, config or FanoConfig(players=text.count("|")))


# ------------------------------------------------------------------------ the attack graph
def test_the_seven_cycles_are_i_i_plus_1_i_plus_3() -> None:
    assert CYCLES == ((1, 2, 4), (2, 3, 5), (3, 4, 6), (4, 5, 7), (5, 6, 1), (6, 7, 2), (7, 1, 3))
    assert len(SEQUENCES) == 21


def test_every_number_attacks_three_and_is_attacked_by_three() -> None:
    for card in range(1, 8):
        attacks = [x for x in range(1, 8) if ATTACK_SUPPORT[card][x]]
        attacked_by = [a for a in range(1, 8) if ATTACK_SUPPORT[a][card]]
        assert len(attacks) == 3
        assert len(attacked_by) == 3
        assert not set(attacks) & set(attacked_by)


def test_designer_formula_n_attacks_n_plus_1_n_plus_2_n_minus_3() -> None:
    def mod(value: int) -> int:
        return (value - 1) % 7 + 1

    for n in range(1, 8):
        assert ATTACK_SUPPORT[n][mod(n + 1)] == mod(n + 3)
        assert ATTACK_SUPPORT[n][mod(n + 2)] == mod(n - 1)
        assert ATTACK_SUPPORT[n][mod(n - 3)] == mod(n - 2)


@pytest.mark.parametrize(
    ("attacker", "target", "support"),
    [(3, 5, 2), (6, 3, 4), (3, 4, 6), (4, 6, 3), (1, 2, 4), (5, 6, 1)],
)
def test_every_quoted_attack_sequence_plays(attacker: int, target: int, support: int) -> None:
    a, x, s = (card_text(value * 16 + suit) for value, suit in
               ((attacker, 2), (target, 0), (support, 2)))  # fmt: skip
    state = setup(f"fano player=1 | hand={s} field={a} | field={x}")
    after = play(state, f"{a}>{x}:{s}")
    me, them = after.players
    assert me.field == cards(s)
    assert me.up == cards(a)
    assert them.field == ()
    assert them.up == cards(x)
    # The sequence read backwards is not an attack.
    backwards = setup(
        f"fano player=1 | hand={a} field={x.replace('C', 'H')} | field={a.replace('H', 'C')}"
    )
    assert not any(isinstance(action, Attack) for action in FANO.legal_actions(backwards))


# ----------------------------------------------------------------------- worked examples
def test_example_1_attacking() -> None:
    state = setup("fano player=1 | hand=3H,9H field=4H | field=6C")
    assert "4H>6C:3H" in legal_texts(state)
    after = play(state, "4H>6C:3H")
    me, them = after.players
    assert me.field == cards("3H")
    assert me.up == cards("4H")
    assert them.up == cards("6C")
    assert them.field == ()
    assert after.phase is Phase.MAIN  # the 3 can be used again this main phase


def test_example_1_without_the_3_in_hand_there_is_no_attack() -> None:
    state = setup("fano player=1 | hand=2H,9H field=4H | field=6C")
    assert not any(isinstance(action, Attack) for action in FANO.legal_actions(state))
    with pytest.raises(IllegalActionError, match="needs a 3"):
        FANO.apply(state, Attack(parse_card("4H"), parse_card("6C"), parse_card("2H")))


def test_example_2_combine_then_attack() -> None:
    state = setup("fano player=1 | hand=2H,5H,TH field=AH,4H | hand=9C field=3C,6C,8C,TC")
    assert not any(isinstance(action, Attack) for action in FANO.legal_actions(state))
    after_combine = play(state, "AH+4H=5H return AH")
    assert after_combine.players[0].field == cards("5H")
    assert after_combine.players[0].hand == cards("AH 2H TH")
    assert after_combine.players[0].known == cards("AH")
    after = play(after_combine, "5H>6C:AH")
    me, them = after.players
    assert me.field == cards("AH")
    assert me.hand == cards("2H TH")
    assert me.up == cards("4H 5H")
    assert them.field == cards("3C 8C TC")
    assert them.up == cards("6C")
    assert me.known == ()


def test_example_3_combo_and_draw_three() -> None:
    state = setup("fano player=1 | hand=4H,3H,8H field=AH,5H,7H draw=2H,6H,9H,TH | field=2C,6C")
    assert "AH+7H=8H" in legal_texts(state)  # the first instinct
    after = play(state, "AH>2C:4H", "4H>6C:3H", "3H+5H=8H")
    me, them = after.players
    assert them.field == ()
    assert them.up == cards("2C 6C")
    assert me.field == cards("7H 8H")
    assert me.up == cards("AH 3H 4H 5H")
    assert me.hand == cards("2H 6H 9H")  # three new cards, the main phase goes on
    assert me.draw == cards("TH")
    assert after.phase is Phase.MAIN


def test_quoted_combinations() -> None:
    state = setup("fano player=1 | hand=5H field=2H,3H | field=-")
    assert legal_texts(state)[:3] == ["2H+3H=5H", "2H+3H=5H return 2H", "2H+3H=5H return 3H"]
    state = setup("fano player=1 | hand=TH field=8H,2H | -")
    assert play(state, "2H+8H=TH").players[0].field == cards("TH")
    state = setup("fano player=1 | hand=9H field=8H,AH | -")
    after = play(state, "AH+8H=9H return 8H")
    assert after.players[0].field == cards("9H")
    assert after.players[0].hand == cards("8H")
    assert after.players[0].up == cards("AH")


# -------------------------------------------------------------------------------- rules
def test_the_first_turn_draws_three_and_has_only_end_actions() -> None:
    state = FANO.new_state(FanoConfig(), seed=3)
    me = state.players[state.turn_player]
    assert len(me.hand) == 3
    assert len(me.draw) == 7
    assert all(isinstance(action, Play | Pass | Discard) for action in FANO.legal_actions(state))


def test_attack_needs_the_attacker_in_play_and_the_target_on_the_next_players_field() -> None:
    state = setup("fano player=1 | hand=3H field=4H | field=6C | field=6S")
    assert "4H>6C:3H" in legal_texts(state)
    with pytest.raises(IllegalActionError, match="has no 6S"):
        FANO.apply_text(state, "4H>6S:3H")
    with pytest.raises(IllegalActionError, match="no 5H in play"):
        FANO.apply_text(state, "5H>6C:3H")


def test_the_last_player_attacks_the_first() -> None:
    state = setup("fano player=3 | field=6H | field=6C | hand=3S field=4S")
    assert "4S>6H:3S" in legal_texts(state)


def test_prestige_cards_never_attack_nor_are_attacked() -> None:
    state = setup("fano player=1 | hand=AH,2H,3H field=8H,4H | field=9C,TC")
    assert not any(isinstance(action, Attack) for action in FANO.legal_actions(state))
    with pytest.raises(IllegalActionError, match="prestige cards can not attack"):
        FANO.apply_text(state, "8H>9C:AH")


def test_prestige_cards_are_not_played_from_hand() -> None:
    state = setup("fano player=1 | hand=8H,9H,5H field=AH | -")
    texts = legal_texts(state)
    assert "play 5H" in texts
    assert "play 8H" not in texts
    assert "sub AH 8H" not in texts
    with pytest.raises(IllegalActionError, match="only enter play by combination"):
        FANO.apply_text(state, "play 8H")


def test_combine_sum_must_be_in_hand_and_at_most_ten() -> None:
    state = setup("fano player=1 | hand=5H,6H field=3H,4H,7H | -")
    combines = [a for a in FANO.legal_actions(state) if isinstance(a, Combine)]
    assert {str(a).split()[0] for a in combines} == set()  # 3+4=7 not held, 7+3=10 not held
    state = setup("fano player=1 | hand=7H,TH field=3H,4H,6H | -")
    texts = {str(a).split()[0] for a in FANO.legal_actions(state) if isinstance(a, Combine)}
    assert texts == {"3H+4H=7H", "4H+6H=TH"}


def test_play_needs_an_empty_slot_and_substitute_does_not() -> None:
    state = setup("fano player=1 | hand=5H field=AH,2H,3H,4H | -")
    texts = legal_texts(state)
    assert "play 5H" not in texts
    assert "sub AH 5H" in texts
    with pytest.raises(IllegalActionError, match="field slots are full"):
        FANO.apply_text(state, "play 5H")
    after = play(state, "sub 3H 5H")
    assert after.players[0].field == cards("AH 2H 4H 5H")
    assert after.players[0].up == cards("3H")
    assert after.turn_player == 1


def test_substitute_needs_a_combat_card_in_hand() -> None:
    state = setup("fano player=1 | hand=8H,9H field=AH,TH | -")
    assert not any(isinstance(action, Substitute) for action in FANO.legal_actions(state))
    state = setup("fano player=1 | hand=5H field=8H | -")
    assert "sub 8H 5H" in legal_texts(state)  # a prestige card may be sent away


def test_discard_goes_face_down_and_any_card_may_be_discarded() -> None:
    state = setup("fano player=1 | hand=2H,8H,9H | -")
    texts = legal_texts(state)
    assert "discard 8H 9H" in texts
    assert "discard 2H 8H 9H" in texts
    assert sum(text.startswith("discard") for text in texts) == 7
    after = play(state, "discard 8H 9H")
    assert after.players[0].down == cards("8H 9H")
    assert after.players[0].hand == cards("2H")


def test_one_end_action_ends_the_turn_and_the_next_player_draws_to_three() -> None:
    state = setup("fano player=1 | hand=2H | hand=AC")
    after = play(state, "pass")
    assert after.turn_player == 1
    assert after.turn == 2
    assert len(after.players[1].hand) == 3
    assert after.players[0].hand == cards("2H")  # no draw outside one's own draw phase


def test_reshuffle_when_the_draw_pile_runs_out_takes_both_kinds_of_discards() -> None:
    text = "fano player=2 | hand=AH draw=3H up=2H,4H,5H,6H,7H down=8H,9H,TH | hand=AC"
    state = setup(text)
    after = play(state, "pass")
    me = after.players[0]
    assert after.turn_player == 0
    assert len(me.hand) == 3
    assert me.shuffles == 1
    assert me.up == ()
    assert me.down == ()
    assert 3 in [card >> 4 for card in me.hand]  # the draw pile's last card came first
    assert len(me.draw) == 8 - 1  # one card came from the reshuffled eight


def test_mulligan_redraws_an_all_prestige_hand_face_up() -> None:
    state = setup("fano player=2 | hand=8H,9H draw=TH,AH,2H,3H | hand=AC")
    after = play(state, "pass")
    assert after.phase is Phase.MULLIGAN
    assert legal_texts(after) == ["mulligan", "keep"]
    redrawn = play(after, "mulligan")
    me = redrawn.players[0]
    assert me.up == cards("8H 9H TH")
    assert me.hand == cards("AH 2H 3H")
    assert redrawn.phase is Phase.MAIN
    kept = play(after, "keep")
    assert kept.players[0].hand == cards("8H 9H TH")
    off = setup("fano player=2 | hand=8H,9H draw=TH | hand=AC", FanoConfig(mulligan=False))
    assert play(off, "pass").phase is Phase.MAIN


def test_promotion_takes_8_9_10_in_play_and_three_win() -> None:
    state = setup("fano player=1 | field=8H,9H,TH,AH hand=2H | -")
    assert "promote 8H 9H TH" in legal_texts(state)
    after = play(state, "promote 8H 9H TH")
    assert after.players[0].level == 1
    assert after.players[0].up == cards("8H 9H TH")
    assert after.players[0].field == cards("AH")
    assert after.phase is Phase.MAIN  # the main phase goes on
    assert FANO.outcome(after) is None
    final = setup("fano player=1 | level=2 field=8H,9H,TH | level=1")
    won = play(final, "promote 8H 9H TH")
    outcome = FANO.outcome(won)
    assert outcome is not None
    assert outcome.returns == (1.0, -1.0)
    assert FANO.current_player(won) is None
    assert FANO.legal_actions(won) == ()


def test_promotion_needs_all_three_prestige_values() -> None:
    state = setup("fano player=1 | field=8H,9H,AH hand=TH | -")
    assert not any(isinstance(action, Promote) for action in FANO.legal_actions(state))
    with pytest.raises(IllegalActionError, match="three prestige cards"):
        FANO.apply_text(state, "promote 8H 9H TH")


def test_promotion_can_end_the_main_phase_by_option() -> None:
    config = FanoConfig(promotion_ends_main=True)
    state = setup("fano player=1 | field=8H,9H,TH,4H hand=3H | field=6C", config)
    after = play(state, "promote 8H 9H TH")
    assert after.phase is Phase.END
    assert not any(isinstance(a, Attack) for a in FANO.legal_actions(after))
    with pytest.raises(IllegalActionError, match="ends the main phase"):
        FANO.apply_text(after, "4H>6C:3H")


def test_returned_card_is_usable_at_once_and_counts_as_known() -> None:
    state = setup("fano player=1 | hand=5H field=AH,4H | field=6C")
    after = play(state, "AH+4H=5H return AH", "5H>6C:AH")
    assert after.players[0].field == cards("AH")


def test_illegal_actions_change_nothing() -> None:
    state = setup("fano player=1 | hand=5H field=AH,4H | field=6C")
    before = FANO.format_position(state)
    for text in ("AH+4H=5H return 5H", "play 9H", "4H>6C:5H", "promote 8H 9H TH", "keep"):
        with pytest.raises(ValueError, match=r"\w"):
            FANO.apply_text(state, text)
    assert FANO.format_position(state) == before


def test_play_after_combine_places_the_card() -> None:
    state = setup("fano player=1 | hand=5H,2H field=AH,4H | -")
    after = play(state, "AH+4H=5H", "play 2H")
    assert after.players[0].field == cards("2H 5H")
    assert isinstance(FANO.parse_action("play 2H"), Play)
