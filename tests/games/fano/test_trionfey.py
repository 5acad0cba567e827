"""Fano, "The battle for Trionfey" edition: worked examples and every rule that differs.

Rules text: seeds/001_4b741ffe6572c987.txt; readings in docs/rules/fano.md.
"""

from __future__ import annotations

import random

import pytest

from fanfold.core.conformance import check_playouts
from fanfold.core.errors import ConfigError, IllegalActionError, NotationError
from fanfold.core.registry import get_game
from fanfold.games.fano import (
    PRESETS,
    Allow,
    Attack,
    CombineCounter,
    Declare,
    Edition,
    FanoConfig,
    FanoState,
    Mulligan,
    Pass,
    Phase,
    Recruit,
    Teams,
)
from fanfold.games.fano.cards import parse_card
from fanfold.games.fano.game import FanoGame
from fanfold.games.fano.rules import mulligan_offered, teammates
from tests.games.fano.helpers import cards, legal_texts, play

GAME = get_game("fano")
assert isinstance(GAME, FanoGame)
FANO: FanoGame = GAME

TRIONFEY = FANO.preset("trionfey").config
TRIONFEY_PRESETS = [preset for preset in PRESETS if preset.config.trionfey]


def setup(text: str, config: FanoConfig = TRIONFEY) -> FanoState:
    """A Trionfey position: players given as '|' sections after a header."""
    return FANO.parse_position(text, config.replace(players=text.count("|")))


# ------------------------------------------------------------------------ edition and win
def test_presets_choose_the_edition_and_the_promotions_to_win() -> None:
    assert TRIONFEY.edition is Edition.TRIONFEY
    assert TRIONFEY.promotions_to_win == 2
    assert FANO.preset("stop-at-queen").config.promotions_to_win == 1
    assert FANO.preset("tournament").config.promotions_to_win == 3
    assert FANO.preset("classic").config.edition is Edition.CLASSIC


def test_edition_refuses_classic_only_variants_and_other_player_counts() -> None:
    with pytest.raises(ConfigError, match="Trionfey"):
        TRIONFEY.replace(jokers=True)
    with pytest.raises(ConfigError, match="2, 3, 4, 6, 8 players"):
        TRIONFEY.replace(players=5)
    with pytest.raises(ConfigError, match="Trionfey"):
        FanoConfig(tribute=True)


def test_second_promotion_wins_as_king() -> None:
    state = setup("fano player=1 | level=1 field=8H,9H,TH | -")
    after = play(state, "promote 8H 9H TH")
    outcome = FANO.outcome(after)
    assert outcome is not None
    assert outcome.winners == (0,)
    assert FANO.current_player(after) is None


def test_first_promotion_is_queen_and_the_game_goes_on() -> None:
    state = setup("fano player=1 | field=8H,9H,TH | -")
    after = play(state, "promote 8H 9H TH")
    assert after.players[0].level == 1
    assert FANO.outcome(after) is None


def test_stop_at_queen_and_tournament_presets() -> None:
    queen = FANO.preset("trionfey-queen").config
    state = setup("fano player=1 | field=8H,9H,TH | -", queen)
    assert FANO.outcome(play(state, "promote 8H 9H TH")) is not None
    tournament = FANO.preset("trionfey-tournament").config
    state = setup("fano player=1 | level=1 field=8H,9H,TH | -", tournament)
    assert FANO.outcome(play(state, "promote 8H 9H TH")) is None


# ------------------------------------------------------------------------------ draw phase
def test_redraw_needs_exactly_8_9_and_10() -> None:
    assert mulligan_offered(TRIONFEY, cards("8H 9H TH"))
    assert not mulligan_offered(TRIONFEY, cards("8H 9H"))
    classic = FanoConfig()
    assert mulligan_offered(classic, cards("8H 9H"))


def test_redraw_is_offered_at_the_draw_and_draws_three_new_cards() -> None:
    # Player 2 passes; Player 1 draws 8, 9, 10 from the top of the pile.
    state = setup("fano player=2 | field=AH draw=8H,9H,TH,2H,3H,4H | field=AC")
    after = play(state, "pass")
    assert after.phase is Phase.MULLIGAN
    assert set(FANO.legal_actions(after)) == {Mulligan(True), Mulligan(False)}
    redrawn = play(after, "mulligan")
    assert redrawn.players[0].hand == cards("2H 3H 4H")
    assert redrawn.players[0].up == cards("8H 9H TH")


# --------------------------------------------------------------------------------- recruit
def test_recruit_example_1_and_4_bring_the_2() -> None:
    state = setup("fano player=1 | hand=2H,9H field=AH,4H | -")
    assert "recruit 2H with AH 4H" in legal_texts(state)
    after = play(state, "recruit 2H with AH 4H")
    assert after.players[0].field == cards("AH 2H 4H")
    assert after.players[0].hand == cards("9H")
    assert after.players[0].up == ()
    assert after.phase is Phase.MAIN


def test_recruit_needs_a_line_and_an_empty_slot() -> None:
    state = setup("fano player=1 | hand=3H field=AH,4H | -")
    assert not any(isinstance(action, Recruit) for action in FANO.legal_actions(state))
    with pytest.raises(IllegalActionError, match="one line"):
        play(state, "recruit 3H with AH 4H")
    full = setup("fano player=1 | hand=2H field=AH,4H,8H,9H | -")
    with pytest.raises(IllegalActionError, match="full"):
        play(full, "recruit 2H with AH 4H")


def test_recruit_that_empties_the_hand_draws_three() -> None:
    state = setup("fano player=1 | hand=2H field=AH,4H draw=5H,6H,7H | -")
    after = play(state, "recruit 2H with AH 4H")
    assert after.players[0].hand == cards("5H 6H 7H")


def test_classic_edition_has_no_recruit_nor_declarations() -> None:
    state = FANO.parse_position("fano player=1 | hand=2H,3H field=AH,4H | field=6C")
    with pytest.raises(IllegalActionError, match="classic"):
        play(state, "recruit 2H with AH 4H")
    with pytest.raises(IllegalActionError, match="support"):
        play(state, "4H>6C")


# ----------------------------------------------------------------------------- end actions
def test_end_actions_play_substitute_discard_and_pass() -> None:
    state = setup("fano player=1 | hand=5H,9H field=AH | field=TC")
    texts = legal_texts(state)
    for text in ("play 5H", "sub AH 5H", "discard 9H", "discard 5H 9H", "pass"):
        assert text in texts
    assert "play 9H" not in texts
    after = play(state, "discard 5H 9H")
    assert after.players[0].down == cards("5H 9H")
    assert after.turn_player == 1


# ------------------------------------------------------------------------ declared attacks
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


# ----------------------------------------------------------------------------- 3 players
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


# ------------------------------------------------------------------ views and notation
def test_everyone_sees_the_declaration_but_not_the_support() -> None:
    state = setup("fano player=1 | hand=5H,9H field=2H | hand=4C field=3C,AC")
    declared = play(state, "2H>3C")
    for seat in (0, 1):
        view = FANO.observe(declared, seat)
        assert view.pending == declared.pending
        assert view.phase is Phase.REACT
    defender_view = FANO.observe(declared, 1)
    assert "5H" not in str(defender_view.to_json())
    sampled = FANO.sample_state(defender_view, random.Random(3))
    assert FANO.observe(sampled, 1) == defender_view
    assert FANO.legal_actions(sampled) == FANO.legal_actions(declared)


def test_position_notation_keeps_the_pending_attack() -> None:
    state = setup("fano player=1 | hand=5H field=2H | hand=4C field=3C,AC")
    declared = play(state, "2H>3C")
    text = FANO.format_position(declared)
    assert "attack=2H>3C@2" in text
    assert "tribute=0" in text
    reloaded = FANO.parse_position(text, TRIONFEY)
    assert reloaded == declared
    with pytest.raises(NotationError, match="Trionfey"):
        FANO.parse_position("fano attack=2H>3C@2 | - | -")


@pytest.mark.parametrize(
    "text",
    ["4H>6C", "4H>6C@3", "4H>6C reverse", "recruit 2H with AH 4H", "counter 2C+3C=5C",
     "counter 3C+4C=7C recruit 4C with AC 2C return 3C", "allow"],
)  # fmt: skip
def test_trionfey_notation_round_trips(text: str) -> None:
    action = FANO.parse_action(text)
    assert str(action) == text
    assert isinstance(action, Declare | Recruit | CombineCounter | Allow)


def test_pass_is_still_pass() -> None:
    assert FANO.parse_action("pass") == Pass()


# ------------------------------------------------------------------------- conformance
@pytest.mark.parametrize(
    ("name", "players"),
    [(preset.name, count) for preset in TRIONFEY_PRESETS for count in preset.player_counts],
)
def test_conformance_for_every_trionfey_preset_and_player_count(name: str, players: int) -> None:
    config = FANO.with_players(FANO.preset(name).config, players)
    reports = check_playouts(FANO, config, range(3 if players <= 3 else 2))
    assert all(report.outcome_reason for report in reports)


# ------------------------------------------------------------------------------- terminal
def test_terminal_asks_the_defender_for_the_counter() -> None:
    from io import StringIO

    from rich.console import Console

    from fanfold.cli.terminal import Session
    from fanfold.core.records import GameRecord
    from fanfold.play import HUMAN, Seat, Table

    state = setup("fano player=1 | hand=AH,5H field=2H | hand=4C field=AC,3C")
    lines = iter(["2H>3C", "counter 3C+4C=7C", "counter AC+3C=4C return AC"])

    def read(prompt: str) -> str:
        out.write(prompt)
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    out = StringIO()
    console = Console(file=out, width=120)
    record = GameRecord.start(FANO, TRIONFEY, 0, players=["human", "human"])
    table = Table(FANO, state, record, [Seat(HUMAN), Seat(HUMAN)])
    Session(table, console, read=read).run()
    text = out.getvalue()
    assert "Player 2 (♣) may counter or allow" in text
    assert "Player 2 (♣) (human)> " in text
    assert "Not played: you have no 7C in hand" in text  # explained, nothing changes
    after = table.state
    assert after.players[1].field == ()
    assert after.players[1].up == cards("3C 4C")
    assert after.players[0].field == cards("AH")  # 2 -> 4 with the ace: the attack completed
    assert FANO.current_player(after) == 0


def test_play_command_takes_the_edition() -> None:
    from typer.testing import CliRunner

    from fanfold.cli.app import app

    runner = CliRunner()
    result = runner.invoke(
        app, ["play", "fano", "--edition", "trionfey", "--seat", "human", "--seat", "random",
              "--seed", "2"], input="quit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "0/2 promotions" in result.output
    refused = runner.invoke(app, ["play", "morris", "--edition", "trionfey"])
    assert refused.exit_code != 0
    assert "--edition is for fano" in refused.output


# ------------------------------------------------------------------- tribute and specials
SPECIALS = FANO.preset("trionfey-specials").config  # hearts (Player 1) against diamonds


def specials(suits: str) -> FanoConfig:
    return TRIONFEY.replace(tribute=True, suits=suits)


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


# ----------------------------------------------------------------------------- partnerships
ALL_FOR_ONE = FANO.preset("all-for-one").config
ONE_FOR_ALL = FANO.preset("one-for-all").config


def test_even_player_counts_play_in_partnerships() -> None:
    assert ALL_FOR_ONE.teams is Teams.ALL_FOR_ONE
    assert ONE_FOR_ALL.teams is Teams.ONE_FOR_ALL
    with pytest.raises(ConfigError, match="partnerships"):
        TRIONFEY.replace(players=4)
    assert FANO.with_players(TRIONFEY, 6).teams is Teams.ALL_FOR_ONE
    assert FANO.with_players(ONE_FOR_ALL, 8).teams is Teams.ONE_FOR_ALL
    assert FANO.with_players(ALL_FOR_ONE, 3).teams is Teams.NONE
    assert teammates(ALL_FOR_ONE.replace(players=6), 1) == (1, 3, 5)


@pytest.mark.parametrize(
    ("players", "order"),
    [(4, [0, 2, 1, 3, 2, 0, 3, 1, 0]), (6, [0, 2, 4, 1, 3, 5, 2, 4, 0, 3, 5, 1])],
)
def test_partners_play_in_priority_order_and_priority_passes_clockwise(
    players: int, order: list[int]
) -> None:
    config = FANO.with_players(ALL_FOR_ONE, players)
    sections = " | -" * players
    state = FANO.parse_position(f"fano player=1 priority=1{sections}", config)
    seen = []
    for _ in order:
        seen.append(state.turn_player)
        assert state.turn_player in teammates(config, state.priority)
        state = play(state, "pass")
    assert seen == order


def test_partners_attack_only_the_other_partnership_one_player_per_turn() -> None:
    state = setup(
        "fano player=1 | hand=AH,7H field=2H | field=3C | field=6S | field=4D", ALL_FOR_ONE
    )
    declared = sorted(str(a) for a in FANO.legal_actions(state) if isinstance(a, Declare))
    assert declared == ["2H>3C@2", "2H>4D@4"]  # never the partner's 6S
    after = play(state, "2H>4D@4")
    assert after.players[3].up == cards("4D")
    assert after.target_seat == 3


def test_all_for_one_winner_wins_alone() -> None:
    state = setup("fano player=1 | level=1 field=8H,9H,TH | - | - | -", ALL_FOR_ONE)
    outcome = FANO.outcome(play(state, "promote 8H 9H TH"))
    assert outcome is not None
    assert outcome.returns == (1.0, -1.0, -1.0, -1.0)


def test_one_for_all_promotion_paid_from_partners_fields() -> None:
    state = setup("fano player=1 | field=8H,TH | field=9C | field=9S | -", ONE_FOR_ALL)
    texts = legal_texts(state)
    assert "promote 8H 9S@3 TH" in texts
    assert not any("9C" in text for text in texts if text.startswith("promote"))
    after = play(state, "promote 8H 9S@3 TH")
    assert [p.level for p in after.players] == [1, 0, 1, 0]
    assert after.players[2].up == cards("9S")
    assert after.players[0].up == cards("8H TH")
    winning = setup("fano player=1 | level=1 field=8H,TH | level=0 | level=1 field=9S | -",
                    ONE_FOR_ALL)  # fmt: skip
    outcome = FANO.outcome(play(winning, "promote 8H 9S@3 TH"))
    assert outcome is not None
    assert outcome.returns == (1.0, -1.0, 1.0, -1.0)
    assert "partnership of Players 1, 3" in outcome.reason


def test_one_for_all_partners_cards_do_not_combine_or_attack() -> None:
    state = setup("fano player=1 | hand=7H field=AH | field=2C | field=6S | -", ONE_FOR_ALL)
    texts = legal_texts(state)
    assert not any("6S" in text for text in texts)
    with pytest.raises(IllegalActionError):
        play(state, "AH+6S=7H")


def test_partnership_position_keeps_priority() -> None:
    config = FANO.with_players(ONE_FOR_ALL, 4)
    state = FANO.parse_position("fano player=3 priority=1 | - | - | - | -", config)
    text = FANO.format_position(state)
    assert "priority=1" in text
    assert FANO.parse_position(text, config) == state
    with pytest.raises(NotationError, match="partnership"):
        FANO.parse_position("fano player=2 priority=1 | - | - | - | -", config)


# ------------------------------------------------------------------------ more of the text
def test_cycles_as_the_text_states_them() -> None:
    # "1[A] beats 2, 2 beats 4, and 4 beats 1; 2 beats 3, 3 beats 5, and 5 beats 2"
    for values, beats in (("A24", ("A2", "24", "4A")), ("235", ("23", "35", "52"))):
        mine = ",".join(f"{v}H" for v in values)
        theirs = ",".join(f"{v}C" for v in values)
        state = setup(f"fano player=1 | field={mine} | field={theirs}")
        declared = {str(a) for a in FANO.legal_actions(state) if isinstance(a, Declare)}
        assert declared == {f"{pair[0]}H>{pair[1]}C" for pair in beats}


def test_combine_example_1_and_6_make_7_and_either_may_return() -> None:
    state = setup("fano player=1 | hand=7H field=AH,6H | -")
    texts = legal_texts(state)
    for text in ("AH+6H=7H", "AH+6H=7H return AH", "AH+6H=7H return 6H"):
        assert text in texts
    after = play(state, "AH+6H=7H return 6H")
    assert after.players[0].field == cards("7H")
    assert after.players[0].hand == cards("6H")
    assert after.players[0].up == cards("AH")


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


def test_declaration_is_announced_without_a_support() -> None:
    state = setup("fano player=1 | hand=5H field=2H | hand=4C field=3C,AC")
    action = FANO.parse_action("2H>3C")
    assert FANO.public_action_text(state, action, 1) == "2H>3C"
    with pytest.raises(IllegalActionError, match="without @"):
        play(state, "2H>3C@2")
