"""Spectators' views: public information only, the same whichever seat it is built from."""

from __future__ import annotations

import random

import pytest

from fanfold.core.registry import get_game
from fanfold.games.fantan.cards import cards_of


@pytest.mark.parametrize("name", ["morris", "fan"])
def test_open_games_show_spectators_what_every_seat_sees(name: str) -> None:
    game = get_game(name)
    rng = random.Random(3)
    state = game.new_state(game.default_config(), 3)
    for _ in range(12):
        public = game.public_view(state)
        assert public["player"] is None
        assert {**public, "player": 0} == game.observe(state, 0).to_json()
        legal = game.legal_actions(state)
        if not legal:
            break
        state = game.apply(state, rng.choice(legal))


@pytest.mark.parametrize("variant", ["standard", "chips-match"])
def test_fantan_spectators_see_no_hand_until_the_match_is_over(variant: str) -> None:
    game = get_game("fantan")
    config = game.preset(variant).config
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_state(config, seed)
        while game.current_player(state) is not None:
            public = game.public_view(state)
            assert public["player"] is None
            assert public["hand"] == []
            assert public["revealed"] is None
            hidden = {str(card) for hand in state.hands for card in cards_of(hand)}
            shown = {str(card) for row in public["layout"].values() for card in row}  # type: ignore[union-attr]
            assert not hidden & shown  # cards in hands are not in the layout, and no hand shows
            for seat in range(game.num_players(config)):
                mine = dict(game.observe(state, seat).to_json())
                assert {**mine, "player": None, "hand": []} == public
            state = game.apply(state, rng.choice(game.legal_actions(state)))
        assert game.public_view(state)["revealed"] is not None  # the count at the end is public


def test_fano_has_no_spectator_view_until_its_table_lands() -> None:
    game = get_game("fano")
    with pytest.raises(NotImplementedError, match="spectator"):
        game.public_view(game.new_state(game.default_config(), 1))
