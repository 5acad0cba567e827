"""Fano notation (actions and positions), views and sampled states."""

from __future__ import annotations

import json
import random

import pytest

from fanfold.core.errors import NotationError
from fanfold.core.registry import get_game
from fanfold.games.fano import FanoConfig, FanoState, Phase, SpecialsMode
from fanfold.games.fano.cards import card_text, parse_card
from fanfold.games.fano.game import FanoGame
from fanfold.games.fano.render import plane_text

GAME = get_game("fano")
assert isinstance(GAME, FanoGame)
FANO: FanoGame = GAME


@pytest.mark.parametrize(
    "text",
    [
        "4H>6S:3H",
        "4H>3S:6H reverse",
        "AH+4H=5H",
        "AH+4H=5H return AH",
        "5H+6H=9H oversum return 6H",
        "3H+4H=JK7",
        "promote 8H 9H TH",
        "defend 5H",
        "play 5H",
        "play TJ4",
        "sub 8H 5H",
        "discard 2H 8H 9H",
        "pass",
        "mulligan",
        "keep",
        "shuffle",
        "shuffle joker",
    ],
)
def test_action_text_round_trips(text: str) -> None:
    action = FANO.parse_action(text)
    assert str(action) == text
    assert FANO.parse_action(str(action)) == action


def test_action_parsing_is_lenient_and_canonical() -> None:
    assert str(FANO.parse_action("  4h -> 6s -> 3h ")) == "4H>6S:3H"
    assert str(FANO.parse_action("4H+1H=5H return 1h")) == "AH+4H=5H return AH"
    assert str(FANO.parse_action("promote TH 8H 9H")) == "promote 8H 9H TH"
    assert str(FANO.parse_action("discard")) == "pass"
    assert str(FANO.parse_action("substitute 10h 1h")) == "sub TH AH"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("attack", "not a Fano move"),
        ("4X>6S:3H", "not a card"),
        ("play 5H 6H", "play names one card"),
        ("promote 8H 9H", "three prestige cards"),
        ("AH+4H=5H return 2H", "only one of the two"),
        ("AH+AH=2H", "two different cards"),
        ("play JK9", "value 1-7"),
        ("play QH", "not a Fano card"),
    ],
)
def test_bad_action_text_is_explained(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        FANO.parse_action(text)


def test_cards_text() -> None:
    assert card_text(parse_card("1s")) == "AS"
    assert card_text(parse_card("10d")) == "TD"
    assert card_text(parse_card("tj")) == "TJ"


def test_position_round_trips_and_sets_up_hidden_cards() -> None:
    state = FANO.new_state(FanoConfig(players=3), seed=9)
    text = FANO.format_position(state)
    assert FANO.format_position(FANO.parse_position(text, FanoConfig(players=3))) == text
    puzzle = FANO.parse_position("fano player=1 | hand=3H draw=9H,2H field=4H | field=6C")
    assert puzzle.players[0].draw[-2:] == (parse_card("2H"), parse_card("9H"))
    assert len(puzzle.players[1].draw) == 9


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chess", "starts with 'fano'"),
        ("fano turn=x | - | -", "whole number"),
        ("fano phase=dance | - | -", "unknown phase"),
        ("fano | - | - | -", "3 seats but the game has 2"),
        ("fano | hand=3H field=3H | -", "exactly one place"),
        ("fano | field=AH,2H,3H,4H,5H | -", "5 cards in play"),
        ("fano | hand=AH known=2H | -", "known cards not in hand"),
        ("fano | colour=red | -", "unknown key"),
        ("fano | specials=0:teleport | -", "unknown special"),
        ("fano | level | -", "key=value"),
    ],
)
def test_bad_positions_are_explained(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        FANO.parse_position(text, FanoConfig())


# -------------------------------------------------------------------------------- views
def _state() -> FanoState:
    return FANO.parse_position(
        "fano player=1 | hand=AH,5H,9H field=4H draw=2H,3H up=6H down=7H,8H |"
        " hand=AC,2C,9C field=6C known=2C draw=3C,4C down=5C up=7C,8C,TC",
        FanoConfig(specials=SpecialsMode.CHOICE),
    )


def test_view_shows_own_hand_and_counts_only_of_the_others() -> None:
    state = _state()
    view = FANO.observe(state, 0)
    assert view.hand == state.players[0].hand
    assert view.down == state.players[0].down
    other = view.players[1]
    assert other.hand_count == 3
    assert other.known == (parse_card("2C"),)
    assert other.down_count == 1
    assert other.draw_count == len(state.players[1].draw)
    text = json.dumps(view.to_json())
    for hidden in ("AC", "9C", "5C", "3C", "4C"):
        assert f'"{hidden}"' not in text
    assert '"2C"' in text  # known, returned by a combine
    rendered = FANO.render(view)
    assert "AH 5H 9H" in rendered
    assert "9C" not in rendered
    assert "known: 2C" in rendered


def test_views_do_not_change_when_hidden_cards_move() -> None:
    state = _state()
    text = FANO.format_position(state)
    swapped = FANO.parse_position(
        text.replace("hand=AC,2C,9C", "hand=2C,3C,9C").replace("draw=3C,4C", "draw=AC,4C"),
        state.config,
    )
    assert FANO.observe(swapped, 0) == FANO.observe(state, 0)
    assert FANO.observe(swapped, 1) != FANO.observe(state, 1)


def test_a_mulligan_offer_is_hidden_from_the_others() -> None:
    state = FANO.parse_position("fano player=1 phase=mulligan | hand=8H,9H,TH | -")
    assert FANO.observe(state, 1).phase is Phase.MAIN
    assert FANO.observe(state, 0).phase is Phase.MULLIGAN


def test_sample_state_keeps_everything_the_view_shows() -> None:
    state = _state()
    rng = random.Random(5)
    for seat in (0, 1):
        view = FANO.observe(state, seat)
        seen = set()
        for _ in range(30):
            sampled = FANO.sample_state(view, rng)
            assert FANO.observe(sampled, seat) == view
            assert not FANO.invariant_violations(sampled)
            assert FANO.legal_actions(sampled) == FANO.legal_actions(state) or seat != 0
            assert parse_card("2C") in sampled.players[1].hand
            seen.add(sampled.players[1].hand)
        if seat == 0:
            assert len(seen) > 1  # the hidden cards really are redealt


def test_plane_command_text() -> None:
    text = plane_text()
    assert "4 attacks" in text
    assert "6 (with 3)" in text
