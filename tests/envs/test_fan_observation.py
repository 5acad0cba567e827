"""Fan patience's observation, filled from the fans a step left unchanged, is the tensor built
card by card from the whole position, move after move."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fanfold.envs.encodings import make_encoding
from fanfold.games.fan import NUM_FANS, rules
from fanfold.games.fan.deals import KING
from fanfold.games.fan.state import FanState


def _card_by_card(state: FanState, size: int, max_fan: int) -> np.ndarray:
    where = np.zeros((52, NUM_FANS + 1), dtype=np.float32)
    depth = np.zeros((52, max_fan), dtype=np.float32)
    for number, fan in enumerate(state.fans):
        for position, card in enumerate(fan):
            where[card.index, number] = 1.0
            depth[card.index, position] = 1.0
    for suit_number, top in enumerate(state.foundations):
        for rank in range(1, top + 1):
            where[suit_number * KING + rank - 1, NUM_FANS] = 1.0
    tensor = np.concatenate([where.reshape(-1), depth.reshape(-1)])
    assert tensor.size == size
    return tensor


@pytest.mark.parametrize("preset", ["classic", "relaxed"])
def test_the_observation_is_the_positions_card_by_card(preset: str) -> None:
    encoding = make_encoding("fan", preset)
    game = encoding.game
    config = game.preset(preset).config
    rng = random.Random(preset)
    compared = 0
    for deal in (1, 2, 3, 15788):
        state = game.new_state(config, deal)
        for _ in range(150):
            expected = _card_by_card(state, encoding.layout.size, 15)
            assert np.array_equal(encoding.observation(game.observe(state, 0)), expected)
            compared += 1
            legal = game.legal_actions(state)
            if game.current_player(state) is None:
                break
            assert legal
            state = game.apply(state, legal[rng.randrange(len(legal))])
    assert compared > 150


def test_the_moves_asked_of_states_in_turn_are_each_states_own() -> None:
    encoding = make_encoding("fan", "classic")
    game = encoding.game
    config = game.default_config()
    first, second = game.new_state(config, 1), game.new_state(config, 2)
    own = {deal: rules.legal_moves(game.new_state(config, deal)) for deal in (1, 2)}
    assert own[1] != own[2]
    for state, deal in ((first, 1), (second, 2), (first, 1), (first, 1), (second, 2)):
        assert game.current_player(state) == 0
        assert game.legal_actions(state) == own[deal]
    ended = game.new_state(config, 15788)  # a deal with no legal move at all
    assert game.current_player(ended) is None
    assert game.legal_actions(ended) == ()
