"""Fano, "The battle for Trionfey": the edition and how it is won, the draw-phase redraw,
recruit, the end actions and the text's worked examples of combines.

Rules text: seeds/001_4b741ffe6572c987.txt; readings in docs/rules/fano.md.
"""

from __future__ import annotations

import pytest

from fanfold.core.conformance import check_playouts
from fanfold.core.errors import ConfigError, IllegalActionError
from fanfold.games.fano import Declare, Edition, FanoConfig, Mulligan, Phase, Recruit
from fanfold.games.fano.rules import mulligan_offered
from tests.games.fano.helpers import (
    FANO,
    TRIONFEY,
    TRIONFEY_PRESETS,
    cards,
    legal_texts,
    play,
    short_games,
)
from tests.games.fano.helpers import trionfey_position as setup


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
    assert outcome.reason == "Player 1 promoted twice and wins"
    assert FANO.current_player(after) is None


def test_first_promotion_is_queen_and_the_game_goes_on() -> None:
    state = setup("fano player=1 | field=8H,9H,TH | -")
    after = play(state, "promote 8H 9H TH")
    assert after.players[0].level == 1
    assert FANO.outcome(after) is None


def test_stop_at_queen_and_tournament_presets() -> None:
    queen = FANO.preset("trionfey-queen").config
    state = setup("fano player=1 | field=8H,9H,TH | -", queen)
    won = FANO.outcome(play(state, "promote 8H 9H TH"))
    assert won is not None
    assert won.reason == "Player 1 promoted once and wins"  # not "1 times"
    tournament = FANO.preset("trionfey-tournament").config
    state = setup("fano player=1 | level=1 field=8H,9H,TH | -", tournament)
    assert FANO.outcome(play(state, "promote 8H 9H TH")) is None


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


def test_end_actions_play_substitute_discard_and_pass() -> None:
    state = setup("fano player=1 | hand=5H,9H field=AH | field=TC")
    texts = legal_texts(state)
    for text in ("play 5H", "sub AH 5H", "discard 9H", "discard 5H 9H", "pass"):
        assert text in texts
    assert "play 9H" not in texts
    after = play(state, "discard 5H 9H")
    assert after.players[0].down == cards("5H 9H")
    assert after.turn_player == 1


@pytest.mark.parametrize(
    ("name", "players"),
    [(preset.name, count) for preset in TRIONFEY_PRESETS for count in preset.player_counts],
)
def test_conformance_for_every_trionfey_preset_and_player_count(name: str, players: int) -> None:
    config = short_games(FANO.with_players(FANO.preset(name).config, players))
    reports = check_playouts(FANO, config, range(3 if players <= 3 else 2))
    assert all(report.outcome_reason for report in reports)


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
