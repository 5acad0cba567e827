"""Fan Tan's ending in words (``rules.ending_words``) says what the outcome's reason says, in
every scoring and match form: the page's words and the plain sentence never part."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fanfold.core.game import Preset
from fanfold.core.registry import get_game
from fanfold.games.fantan import rules

GAME = get_game("fantan")


@pytest.mark.parametrize("preset", list(GAME.presets()), ids=lambda preset: preset.name)
def test_the_ending_in_words_is_the_outcomes_reason(preset: Preset[Any]) -> None:
    config = preset.config
    state = GAME.new_state(config, seed=11)
    rng = random.Random(11)
    for _ in range(20_000):
        if GAME.outcome(state) is not None:
            break
        state = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
    ended = GAME.outcome(state)
    assert ended is not None, f"{preset.name}: no end in 20,000 actions"
    words = rules.ending_words(state)
    assert words is not None
    assert str(words) == ended.reason
    assert words.code.startswith("fantan.")
