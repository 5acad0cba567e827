"""The fast playout makes exactly the moves the rules engine makes."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fanfold.games.fantan import GAME, FanTanConfig, Pass
from fanfold.games.fantan.fast import PASS_CODE, random_hand
from fanfold.games.fantan.rules import hand_winner

SINGLE_HANDS = [preset.config.replace(hands=1, target=None) for preset in GAME.presets()]


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(SINGLE_HANDS),
    st.integers(3, 8),
    st.integers(0, 2**32),
    st.integers(0, 2**32),
)
def test_fast_playout_equals_the_engine(
    config: FanTanConfig, players: int, seed: int, choice_seed: int
) -> None:
    config = config.replace(players=players)
    engine_rng = random.Random(choice_seed)
    state = GAME.new_state(config, seed)
    actions = []
    while not state.finished:
        legal = GAME.legal_actions(state)
        action = legal[engine_rng.randrange(len(legal))]
        actions.append(PASS_CODE if isinstance(action, Pass) else action.index)
        state = GAME.apply(state, action)
    fast = random_hand(config, seed, random.Random(choice_seed))
    assert fast.actions == tuple(actions)
    assert fast.hands == state.hands
    assert fast.winner == hand_winner(state)
    assert not fast.hands[fast.winner]


def test_fast_playout_of_a_later_hand_uses_that_hands_deal() -> None:
    config = FanTanConfig(hands=3)
    first = random_hand(config, 7, random.Random(0), hand_number=0)
    second = random_hand(config, 7, random.Random(0), hand_number=1)
    assert first.actions != second.actions
    assert first.actions == random_hand(config, 7, random.Random(0)).actions
