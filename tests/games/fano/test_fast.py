"""Fano's fast paths against the plain ones, on random games of every preset.

``is_legal`` enumerates only the part of the legal actions an action's kind can be in; the end
actions a hand allows and the combinations of a field and hand are cached. Both must answer
exactly as the plain enumeration does.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanfold.core.errors import IllegalActionError
from fanfold.core.game import Preset
from fanfold.core.registry import get_game
from fanfold.games.fano import PRESETS, FanoAction, FanoConfig, FanoState, rules
from fanfold.games.fano.game import FanoGame

GAME = get_game("fano")
assert isinstance(GAME, FanoGame)
FANO: FanoGame = GAME

MAX_STEPS = 150


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 10_000),
    choice_seed=st.integers(0, 10_000),
)
def test_is_legal_is_membership_in_the_legal_actions(
    preset: Preset[FanoConfig], seed: int, choice_seed: int
) -> None:
    config = preset.config
    choices = random.Random(choice_seed)
    state = FANO.new_state(config, seed)
    seen: list[FanoAction] = []  # actions legal somewhere in this game: near misses elsewhere
    for _ in range(MAX_STEPS):
        legal = FANO.legal_actions(state)
        for action in legal:
            assert FANO.is_legal(state, action), f"{action} legal but refused"
        for action in choices.sample(seen, min(len(seen), 40)):
            assert FANO.is_legal(state, action) == (action in legal), str(action)
        if not legal:
            assert not any(FANO.is_legal(state, action) for action in seen)
            break
        seen.extend(legal[:12])
        action = legal[choices.randrange(len(legal))]
        checked = FANO.apply(state, action)
        state = FANO.apply_legal(state, action)
        assert checked == state


@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10_000))
def test_cached_end_actions_match_a_cold_enumeration(preset: Preset[FanoConfig], seed: int) -> None:
    config = preset.config
    rng = random.Random(seed)
    state: FanoState = FANO.new_state(config, seed)
    for _ in range(MAX_STEPS):
        warm = FANO.legal_actions(state)
        rules.clear_caches()
        assert FANO.legal_actions(state) == warm
        if not warm:
            break
        state = FANO.apply_legal(state, warm[rng.randrange(len(warm))])


def test_is_legal_refuses_with_the_explanation() -> None:
    state = FANO.new_state(FANO.preset("classic").config, 4)
    action = FANO.parse_action("promote 8H 9H TH")
    assert not FANO.is_legal(state, action)
    with pytest.raises(IllegalActionError, match="prestige"):
        FANO.apply(state, action)


@pytest.mark.parametrize("phase", ["main", "end"])
def test_is_legal_in_the_end_phase_only_the_end_actions(phase: str) -> None:
    config = FanoConfig(promotion_ends_main=True)
    text = f"fano player=1 phase={phase} | hand=3H,5H field=4H,AH | hand=AC field=6C"
    state = FANO.parse_position(text, config)
    legal = FANO.legal_actions(state)
    for move in ("4H>6C:3H", "AH+4H=5H", "play 5H", "sub 4H 3H", "discard 3H", "pass"):
        action = FANO.parse_action(move)
        assert FANO.is_legal(state, action) == (action in legal)
        assert FANO.is_legal(state, action) == (phase == "main" or " " in move or move == "pass")
