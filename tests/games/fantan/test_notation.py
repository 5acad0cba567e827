"""Fan Tan action and position notation."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanfold.core.errors import NotationError
from fanfold.games.fantan import GAME, PASS, PLAYS, FanTanConfig, FanTanState, Play, Scoring
from fanfold.games.fantan.cards import CARDS


def test_actions_round_trip_and_accept_common_spellings() -> None:
    for action in (*PLAYS, PASS):
        assert GAME.parse_action(str(action)) == action
    assert GAME.parse_action("10h") == GAME.parse_action("TH") == Play(CARDS.index(CARDS[35]))
    assert str(GAME.parse_action(" 7d ")) == "7D"
    assert GAME.parse_action("Knock") == GAME.parse_action("P") == PASS
    assert repr(GAME.parse_action("7D")) == "Play('7D')"


@pytest.mark.parametrize("text", ["", "7", "7X", "11H", "play 7D", "passs", "ZZ"])
def test_bad_action_text_is_a_notation_error_with_help(text: str) -> None:
    with pytest.raises(NotationError, match="not a Fan Tan move"):
        GAME.parse_action(text)


def _played(config: FanTanConfig, seed: int, moves: int) -> FanTanState:
    rng = random.Random(seed)
    state = GAME.new_state(config, seed)
    for _ in range(moves):
        legal = GAME.legal_actions(state)
        if not legal:
            break
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
    return state


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([preset.config for preset in GAME.presets()]),
    st.integers(3, 8),
    st.integers(0, 10_000),
    st.integers(0, 200),
)
def test_positions_round_trip(config: FanTanConfig, players: int, seed: int, moves: int) -> None:
    state = _played(config.replace(players=players), seed, moves)
    text = GAME.format_position(state)
    again = GAME.parse_position(text, state.config)
    assert again == state


def test_a_position_reads_without_a_config_as_the_standard_game() -> None:
    state = GAME.new_state(FanTanConfig(players=5), seed=3)
    text = GAME.format_position(state)
    assert text.startswith("hand=1 leader=1 scores=0,0,0,0,0 pool=0 last=- seed=3 | ")
    assert GAME.parse_position(text) == state


BASE = GAME.new_state(FanTanConfig(), seed=1)
GOOD = GAME.format_position(BASE)


def _with_hands(hands: list[str], history: str = "-") -> str:
    header = GOOD.split("|")[0].strip()
    return f"{header} | {' / '.join(hands)} | {history}"


def _hands() -> list[str]:
    return [part.strip() for part in GOOD.split("|")[1].split("/")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nonsense", "three parts"),
        (GOOD.replace("hand=1", "round=1"), "unknown header item"),
        (GOOD.replace("hand=1 ", "hand=1 hand=1 "), "given twice"),
        (GOOD.replace(" seed=1", ""), "lacks seed="),
        (GOOD.replace("hand=1", "hand=x"), "whole number"),
        (GOOD.replace("hand=1", "hand=2"), "hand= must be 1 to 1"),
        (GOOD.replace("leader=1", "leader=9"), "seat from 1 to 4"),
        (GOOD.replace("leader=1", "leader=2"), "seat 1 leads this hand"),
        (GOOD.replace("scores=0,0,0,0", "scores=0,0"), "needs 4 numbers"),
        (GOOD.replace("scores=0,0,0,0", "scores=1,0,0,0"), "0 hands have been won, not 1"),
        (GOOD.replace("pool=0", "pool=3"), "only chip scoring has a pool"),
        (GOOD.replace("last=-", "last=2"), "first hand has no previous winner"),
    ],
)
def test_bad_headers_are_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        GAME.parse_position(text, FanTanConfig())


def test_bad_hands_and_histories_are_refused_clearly() -> None:
    hands = _hands()
    first = hands[0].split()
    assert GAME.parse_position(GOOD, FanTanConfig(players=3)).config.players == 4
    with pytest.raises(NotationError, match="has 2 hands: Fan Tan is for 3 to 8 players"):
        GAME.parse_position(_with_hands(hands[:2]))
    with pytest.raises(NotationError, match=r"lists .* twice"):
        GAME.parse_position(_with_hands([hands[0] + " " + first[0], *hands[1:]]))
    with pytest.raises(NotationError, match="another seat holds"):
        GAME.parse_position(_with_hands([hands[0], hands[1] + " " + first[0], *hands[2:]]))
    with pytest.raises(NotationError, match="missing"):
        GAME.parse_position(_with_hands([" ".join(first[1:]), *hands[1:]]))
    moved = [" ".join(first[1:]), hands[1] + " " + first[0], *hands[2:]]
    with pytest.raises(NotationError, match="were dealt 12, 14, 13, 13 cards"):
        GAME.parse_position(_with_hands(moved))
    with pytest.raises(NotationError, match="seat 1's hand"):
        GAME.parse_position(_with_hands(["QQ", *hands[1:]]))
    legal = GAME.legal_actions(BASE)
    illegal = next(card for card in first if GAME.parse_action(card) not in legal)
    rest = [" ".join(card for card in first if card != illegal), *hands[1:]]
    with pytest.raises(NotationError, match=f"action 1 \\({illegal}\\) is illegal"):
        GAME.parse_position(_with_hands(rest, illegal))


def test_a_chip_position_checks_the_pool() -> None:
    config = FanTanConfig(scoring=Scoring.CHIPS)
    state = GAME.new_state(config, seed=1)
    text = GAME.format_position(state)
    assert "scores=-1,-1,-1,-1 pool=4" in text
    with pytest.raises(NotationError, match="chips in play do not add up"):
        GAME.parse_position(text.replace("pool=4", "pool=5"), config)


def test_invariants_catch_a_corrupted_state() -> None:
    state = GAME.new_state(FanTanConfig(), seed=4)
    broken = dataclasses.replace(state, to_move=2)
    assert "seat 1 should be to move" in GAME.invariant_violations(broken)
    stolen = dataclasses.replace(state, hands=(state.hands[0] | state.hands[1], *state.hands[1:]))
    assert "two seats hold the same card" in GAME.invariant_violations(stolen)
    assert GAME.invariant_violations(state) == []
