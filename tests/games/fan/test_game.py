"""Fan patience rules: deals, moves, notation, variants, end of game (rules text: seeds/004)."""

from __future__ import annotations

import random

import pytest

from fanfold.core.cards import Card, full_deck
from fanfold.core.errors import ConfigError, IllegalActionError, NotationError
from fanfold.core.game import Termination
from fanfold.core.registry import get_game
from fanfold.games.fan import (
    FanConfig,
    FanGame,
    FanMove,
    FanState,
    deal_fans,
    format_fcs_board,
    make_state,
    parse_fcs_board,
    why_illegal,
)

GAME = FanGame()
CLASSIC = FanConfig()
ANY = FanConfig(any_card_to_empty=True)
SEQUENCES = FanConfig(sequence_moves=True)

#: PySolFC's Fan deal 1234, fans bottom to top (as PySolFC lays it out).
DEAL_1234 = """\
4C 2C 4S
3D 7C AD
3S JC 6H
TC 8D 4H
5C 9H 4D
KH 9D QH
AH 6D 8S
8C 7S 6C
3C 9S 9C
5D KC 2H
TD AC 5S
7H JH QS
KD 7D JD
2D KS TS
QC 8H QD
TH AS 6S
JS 2S 5H
3H
"""


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def position(
    fans: list[str], foundations: tuple[int, int, int, int], config: FanConfig = CLASSIC
) -> FanState:
    """A position from up to 18 fans given as text; the other fans are empty."""
    padded = [cards(text) for text in fans] + [()] * (18 - len(fans))
    return make_state(config, padded, foundations)


def test_registered_under_its_id_and_aliases() -> None:
    assert get_game("fan").id == "fan.v1"
    assert get_game("fan-patience") is get_game("fan-solitaire") is get_game("fan.v1")
    names = [preset.name for preset in GAME.presets()]
    assert names == ["classic", "any-to-empty", "sequences", "relaxed"]
    assert GAME.preset("relaxed").config == FanConfig(True, True)


def test_deal_is_pysolfc_deal() -> None:
    dealt = deal_fans(1234)
    assert [" ".join(map(str, fan)) for fan in dealt] == DEAL_1234.splitlines()


def test_deal_matches_pysol_cards_own_layout() -> None:
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    for deal in (1, 31999, 32001, 1_000_000):
        text = Game("fan", deal, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
        assert [" ".join(map(str, fan)) for fan in deal_fans(deal)] == text.splitlines()


def test_deal_layout_is_seventeen_fans_of_three_and_one_of_one() -> None:
    state = GAME.new_state(CLASSIC, 7)
    assert [len(fan) for fan in state.fans] == [3] * 17 + [1]
    assert {card for fan in state.fans for card in fan} == set(full_deck())
    assert state.foundations == (0, 0, 0, 0)
    assert GAME.new_state(CLASSIC, 0).fans != GAME.new_state(CLASSIC, 1).fans
    with pytest.raises(ConfigError):
        GAME.new_state(CLASSIC, -1)


def test_only_top_card_moves_and_building_is_down_by_suit() -> None:
    state = GAME.new_state(CLASSIC, 1234)
    legal = {str(move) for move in GAME.legal_actions(state)}
    # 4S (top of fan 1) goes on 5S (top of fan 11); AD (top of fan 2) goes home.
    assert {"1-11", "2-F"} <= legal
    with pytest.raises(IllegalActionError, match="built down by suit"):
        GAME.apply_text(state, "1-3")  # 4S on 6H
    with pytest.raises(IllegalActionError, match="needs AS"):
        GAME.apply_text(state, "1-F")  # 4S home before the ace
    after = GAME.apply_text(state, "1-11")
    assert [str(card) for card in after.fans[10]] == ["TD", "AC", "5S", "4S"]
    assert [str(card) for card in after.fans[0]] == ["4C", "2C"]


def test_foundations_build_up_by_suit_from_the_ace() -> None:
    state = position(["KC", "QC"], (11, 13, 13, 13))
    with pytest.raises(IllegalActionError, match="needs QC"):
        GAME.apply_text(state, "1-F")
    state = GAME.apply_text(state, "2-F")
    assert state.foundations == (12, 13, 13, 13)
    assert [str(move) for move in GAME.legal_actions(state)] == ["1-F"]
    start = GAME.new_state(CLASSIC, 1234)
    with pytest.raises(IllegalActionError, match="needs AS"):
        GAME.apply_text(start, "1-F")  # 4S cannot start a foundation


def test_only_a_king_fills_an_empty_fan() -> None:
    state = position(["JS KH QS", "KS"], (13, 13, 12, 10))
    legal = {str(move) for move in GAME.legal_actions(state)}
    assert legal == {"1-2"}  # QS on KS; QS may not fill an empty fan
    with pytest.raises(IllegalActionError, match="only a king"):
        GAME.apply_text(state, "1-3")
    state = GAME.apply_text(state, "1-2")
    assert {"1-F", "1-3", "1-18"} <= {str(move) for move in GAME.legal_actions(state)}
    king_on_top = position(["JS QS KH", "KS"], (13, 13, 12, 10))
    moved = GAME.apply_text(king_on_top, "1-5")
    assert [str(card) for card in moved.fans[4]] == ["KH"]


def test_a_lone_card_does_not_move_to_another_empty_fan() -> None:
    state = position(["JS KH QS", "KS"], (13, 13, 12, 10), ANY)
    with pytest.raises(IllegalActionError, match="changes nothing"):
        GAME.apply_text(state, "2-3")
    assert "1-3" in {str(move) for move in GAME.legal_actions(state)}


def test_any_card_variant_fills_empty_fans_with_any_card() -> None:
    state = position(["JS KH QS", "KS"], (13, 13, 12, 10), ANY)
    state = GAME.apply_text(state, "1-3")
    assert [str(card) for card in state.fans[2]] == ["QS"]


def test_sequence_variant_moves_runs_of_one_suit() -> None:
    fans = ["KS 9S 8S 7S", "TS", "QS JS"]
    state = position(fans, (13, 13, 13, 6), SEQUENCES)
    legal = {str(move) for move in GAME.legal_actions(state)}
    assert "1-2:3" in legal
    assert "1-2" not in legal  # 7S does not go on TS
    with pytest.raises(IllegalActionError, match="not one suit"):
        GAME.apply_text(state, "1-4:4")
    state = GAME.apply_text(state, "1-2:3")
    assert [str(card) for card in state.fans[1]] == ["TS", "9S", "8S", "7S"]
    classic = position(fans, (13, 13, 13, 6))
    with pytest.raises(IllegalActionError, match="one card moves at a time"):
        GAME.apply_text(classic, "1-2:3")


#: Moves a player could write, and some out of range.
EVERY_MOVE = [
    FanMove(source, target, count)
    for source in range(20)
    for target in (None, *range(20))
    for count in range(14)
]


@pytest.mark.parametrize("config", [CLASSIC, ANY, SEQUENCES, FanConfig(True, True)])
def test_why_illegal_allows_exactly_the_legal_moves(config: FanConfig) -> None:
    rng = random.Random(5)
    state = GAME.new_state(config, 5)
    for _ in range(40):
        legal = GAME.legal_actions(state)
        assert [move for move in EVERY_MOVE if why_illegal(state, move) is None] == sorted(
            legal,
            key=lambda move: (move.source, -1 if move.target is None else move.target, move.count),
        )
        if not legal:
            break
        state = GAME.apply(state, legal[rng.randrange(len(legal))])


def test_winning_and_losing() -> None:
    won = GAME.apply_text(position(["KS"], (13, 13, 13, 12)), "1-F")
    outcome = GAME.outcome(won)
    assert outcome is not None
    assert outcome.reason.startswith("won")
    assert outcome.termination is Termination.ALL_ON_FOUNDATIONS
    assert GAME.legal_actions(won) == ()
    assert GAME.current_player(won) is None
    # QS waits for JS, which lies under it; KS is buried: nothing can move.
    lost = position(["KS JS QS"], (13, 13, 13, 10))
    outcome = GAME.outcome(lost)
    assert outcome is not None
    assert outcome.reason.startswith("lost")
    assert outcome.termination is Termination.NO_MOVE
    assert outcome.returns == (0.0,)
    with pytest.raises(IllegalActionError, match="game is over"):
        GAME.apply_text(lost, "1-F")
    assert GAME.current_player(lost) is None


def test_action_notation_round_trips_and_rejects_nonsense() -> None:
    for text in ("3-7", "12-F", "3-7:2", "18-1"):
        assert str(GAME.parse_action(text)) == text
    assert GAME.parse_action("3 f") == FanMove(3, None)
    for bad in ("", "3", "0-1", "19-2", "3-3", "3-F:2", "x-y", "3-7:0"):
        with pytest.raises(NotationError):
            GAME.parse_action(bad)


def test_position_notation_round_trips_and_checks_the_cards() -> None:
    state = GAME.new_state(CLASSIC, 1234)
    text = GAME.format_position(state)
    assert text.startswith("4C2C4S/3D7CAD/")
    assert text.endswith("/3H ----")
    assert GAME.parse_position(text).fans == state.fans
    bad = [
        text.replace("4C2C4S", "4C2C4C"),  # 4C twice, 4S missing
        text.replace(" ----", " A---"),  # AC both home and in fan 11
        text.replace("/3H ", " "),  # 17 fans
        text.replace(" ----", " ZZZZ"),
        "nonsense",
        text.replace("4C2C4S", "4C2C4"),
    ]
    for wrong in bad:
        with pytest.raises(NotationError):
            GAME.parse_position(wrong)


def test_fcs_board_round_trip_and_import() -> None:
    fans, home = parse_fcs_board(DEAL_1234)
    assert home == (0, 0, 0, 0)
    assert tuple(fans) == deal_fans(1234)
    state = position(["JS KH QS", "KS"], (13, 13, 12, 10))
    text = format_fcs_board(state.fans, state.foundations)
    assert text.startswith("Foundations: C-K D-K H-Q S-T\n: JS KH QS\n: KS\n:\n")
    fans, home = parse_fcs_board(text)
    assert home == state.foundations
    assert tuple(fans) == state.fans
    with pytest.raises(NotationError, match="line 2"):
        parse_fcs_board("Foundations: H-0\n4C XX\n")


def test_view_shows_the_whole_open_layout() -> None:
    state = GAME.new_state(CLASSIC, 3)
    view = GAME.observe(state, 0)
    data = view.to_json()
    assert data["position"] == GAME.format_position(state)
    assert GAME.sample_state(view, random.Random(1)) == state
    drawing = GAME.render(view)
    assert drawing.splitlines()[1].startswith(" 1: ")
    assert "position:" in drawing
    assert "deal 3" in GAME.describe(state)
