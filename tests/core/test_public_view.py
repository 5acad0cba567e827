"""Spectators' views: public information only, the same whichever seat it is built from."""

from __future__ import annotations

import random

import pytest

from fanfold.core.registry import get_game
from fanfold.games.fano.cards import card_text
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


FANO_TABLES = [
    ("classic", 2),
    ("eight-players", 8),
    ("jokers-wild", 3),
    ("everything", 2),
    ("trionfey", 3),
    ("trionfey-specials", 2),
    ("trionfey-one-for-all", 4),
]
PRIVATE = (
    "hand",
    "face_down_discards",
    "face_down_in_play",
    "hand_refs",
    "face_down_in_play_refs",
)


def _texts(cards: object) -> set[str]:
    assert isinstance(cards, list)
    return {str(card) for card in cards}


@pytest.mark.parametrize(("variant", "players"), FANO_TABLES)
def test_fano_spectators_see_only_public_information(variant: str, players: int) -> None:
    game = get_game("fano")
    config = game.with_players(game.preset(variant).config, players)
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_state(config, seed)
        for _ in range(250):
            public = game.public_view(state)
            assert public["player"] is None
            assert all(public[key] == [] for key in PRIVATE)
            assert public["phase"] != "mulligan"  # being offered a redraw is not public (D4)
            for seat in range(players):
                # what every other seat sees, less its own cards
                if seat != state.turn_player:
                    mine = dict(game.observe(state, seat).to_json())
                    assert {**mine, "player": None, **{key: [] for key in PRIVATE}} == public
                # the same whatever the hidden cards are: dealt again from any seat's view
                again = game.sample_state(game.observe(state, seat), rng)
                assert game.public_view(again) == public
                # and no hidden card of a seat is named in that seat's public part
                player = state.players[seat]
                hidden = {
                    card_text(card)
                    for card in (*player.hand, *player.draw, *player.down, *player.hidden)
                    if card not in player.known
                }
                parts = public["players"]
                assert isinstance(parts, list)
                part = parts[seat]
                assert isinstance(part, dict)
                shown = {
                    text
                    for key in ("field", "face_up_discards", "known_in_hand")
                    for text in _texts(part[key])
                }
                # the references name only cards in play, face up
                refs = _texts(part["field_refs"])
                assert refs == {f"f:{seat}:{text}" for text in _texts(part["field"])}
                assert not hidden & shown
            legal = game.legal_actions(state)
            if not legal:
                break
            state = game.apply(state, rng.choice(legal))
