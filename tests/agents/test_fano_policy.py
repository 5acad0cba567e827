"""The compiled part of the strategy's playout policy (``agents/strategy/fano_policy.py``)
against the strategy.

The potential must equal the strategy's on any cards, and the compiled move scores must equal
the strategy's for the moves ported (the classic game's moves without specials), position by
position in random games. In Trionfey: a declaration with its support against a bluff, and the
defender's answers priced without reading the attacker's hand.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanfold.agents.strategy import fano_fast
from fanfold.agents.strategy import fano_policy as policy
from fanfold.agents.strategy.fano_knowledge import (
    FanoKnowledge,
    _cards_potential,
    _Turn,
    policy_weights,
)
from fanfold.games.fano import Combine, Discard, FanoState, Pass, Play, Promote, Substitute
from fanfold.games.fano.actions import Attack, Mulligan
from fanfold.games.fano.fast import codec, engine
from fanfold.games.fano.state import Phase
from tests.games.fano.helpers import FANO

WEIGHTS = policy_weights()
CARDS = [value * 16 + suit for value in range(1, 11) for suit in range(4)]
PORTED = (Attack, Combine, Promote, Play, Substitute, Discard, Pass, Mulligan)


def _codes(cards: list[int]) -> npt.NDArray[np.int64]:
    return np.array([*cards, 0], np.int64)


@settings(max_examples=300, deadline=None)
@given(
    field=st.lists(st.sampled_from(CARDS), max_size=4),
    hand=st.lists(st.sampled_from([*CARDS, 4, 5]), max_size=3),
)
def test_the_potential_is_the_strategys(field: list[int], hand: list[int]) -> None:
    field, hand = sorted(field), sorted(hand)
    expected = _cards_potential(tuple(field), tuple(hand))
    found = policy.cards_potential(
        WEIGHTS, _codes(field), len(field), _codes(hand), len(hand), policy.scratch()
    )
    assert found == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("two-suit", 2), ("classic", 4)])
def test_the_move_scores_are_the_strategys(preset: str, players: int) -> None:
    knowledge = FanoKnowledge(FANO)
    config = FANO.with_players(FANO.preset(preset).config, players).replace(turns_per_player=30)
    compared = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = FANO.new_state(config, seed)
        while legal := FANO.legal_actions(state):
            quick = engine.encode(state)
            scores = knowledge.scores(state, legal)
            for action, expected in zip(legal, scores, strict=True):
                if isinstance(action, PORTED):
                    packed = np.int64(codec.action_id(action))
                    found = policy.score(
                        WEIGHTS, quick.array, quick.options, packed, policy.scratch()
                    )
                    assert found == pytest.approx(expected, abs=1e-9), str(action)
                    compared += 1
            state = FANO.apply_legal(state, knowledge.best(state, legal, rng))
    assert compared > 1000


def test_heuristic_playouts_are_legal_games() -> None:
    config = FANO.preset("classic").config.replace(turns_per_player=100)
    engine.seed(3)
    won = 0
    for seed in range(5):
        start = engine.encode(FANO.new_state(config, seed))
        end, played = fano_fast.heuristic_playout(start, WEIGHTS)
        final = engine.decode(end)
        assert played > 0
        assert FANO.invariant_violations(final) == []
        result = FANO.outcome(final)
        assert result is not None
        won += not result.by_limit
    assert won >= 4


# ------------------------------------------------------------------------------ Trionfey
TRIONFEY = FANO.preset("trionfey").config
#: Seat 0's 2H declares on the 4C (support 1): with the AH in hand a real attack, with the 5H
#: a bluff; the defender may counter 3C+4C=7C. The defender sees the same in both.
BLUFF = "fano player=1 | hand=5H field=2H | hand=7C,9C field=3C,4C"
REAL = "fano player=1 | hand=AH field=2H | hand=7C,9C field=3C,4C"


def _scores(state: FanoState) -> dict[str, float]:
    quick = engine.encode(state)
    return {
        str(action): float(
            policy.score(
                WEIGHTS,
                quick.array,
                quick.options,
                np.int64(codec.action_id(action)),
                policy.scratch(),
            )
        )
        for action in FANO.legal_actions(state)
    }


def test_a_declaration_is_worth_more_with_its_support_in_hand() -> None:
    real = _scores(FANO.parse_position(REAL, TRIONFEY))["2H>4C"]
    bluff = _scores(FANO.parse_position(BLUFF, TRIONFEY))["2H>4C"]
    assert real > 0.0 > bluff
    # A bluff costs the attacking card and a little more: below ending the turn.
    assert bluff < _scores(FANO.parse_position(BLUFF, TRIONFEY))["pass"]


def test_the_defender_prices_its_answers_without_the_attackers_hand() -> None:
    answers = []
    for position in (BLUFF, REAL):
        state = FANO.apply_text(FANO.parse_position(position, TRIONFEY), "2H>4C")
        assert state.phase is Phase.REACT
        answers.append(_scores(state))
    assert set(answers[0]) == set(answers[1])
    assert "allow" in answers[0]
    assert any(text.startswith("counter") for text in answers[0])
    for text, value in answers[0].items():
        assert answers[1][text] == pytest.approx(value, abs=1e-12), text


def test_the_chance_of_the_support_is_the_strategys() -> None:
    for position in (BLUFF, REAL):
        state = FANO.parse_position(position, TRIONFEY)
        quick = engine.encode(state)
        turn = _Turn(state)
        for seat in (0, 1):
            for value in range(1, 8):
                expected = turn.holds(seat, value)
                assert policy.held_chance(quick.array, seat, value) == pytest.approx(expected)
    # Known in hand: certain; one card of eight hidden (the AH among seat 0's hand and pile).
    known = FANO.parse_position(REAL.replace("field=2H |", "field=2H known=AH |"), TRIONFEY)
    assert policy.held_chance(engine.encode(known).array, 0, 1) == 1.0
