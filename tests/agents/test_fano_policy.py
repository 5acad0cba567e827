"""The compiled part of the strategy's playout policy (``agents/strategy/fano_policy.py``)
against the strategy.

The potential must equal the strategy's on any cards, and the compiled move scores must equal
the strategy's for every move but classic Perfect defense (the classic game's moves, Trionfey's
declarations, recruits, face-down plays, flips and jokers, and the Trionfey defender's
answers), position by position in games of both editions.
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
    policy_weights,
)
from fanfold.games.fano import Combine, Discard, Pass, Play, Promote, Substitute
from fanfold.games.fano.actions import (
    Allow,
    Attack,
    CombineCounter,
    Declare,
    Flip,
    Mulligan,
    PlaceJoker,
    Recruit,
    Sacrifice,
    Shuffle,
)
from fanfold.games.fano.fast import codec, engine
from tests.games.fano.helpers import FANO

WEIGHTS = policy_weights()
CARDS = [value * 16 + suit for value in range(1, 11) for suit in range(4)]
PORTED = (
    Attack,
    Combine,
    Promote,
    Play,
    Substitute,
    Discard,
    Pass,
    Mulligan,
    Shuffle,
    Declare,
    Recruit,
    Flip,
    PlaceJoker,
    Allow,
    Sacrifice,
    CombineCounter,
)


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


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("classic", 2),
        ("two-suit", 2),
        ("classic", 4),
        ("jokers-wild", 2),
        ("trionfey", 2),
        ("trionfey", 3),
        ("trionfey-specials", 2),
        ("trionfey-all-for-one", 4),
        ("trionfey-queen", 2),
    ],
)
def test_the_move_scores_are_the_strategys(preset: str, players: int) -> None:
    knowledge = FanoKnowledge(FANO)
    config = FANO.with_players(FANO.preset(preset).config, players).replace(turns_per_player=30)
    compared = 0
    kinds: set[type] = set()
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
                    kinds.add(type(action))
            # Mostly the strategy's move, sometimes any: the rarer moves are met too.
            move = rng.choice(legal) if rng.random() < 0.3 else knowledge.best(state, legal, rng)
            state = FANO.apply_legal(state, move)
    assert compared > 1000
    if config.trionfey:
        # The Trionfey moves were met, the defender's answers among them.
        assert {Declare, Recruit, Allow} <= kinds


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
