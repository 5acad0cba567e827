"""The Fano game object's passive choice (played for a player whose time ran out)."""

from __future__ import annotations

import random

import pytest

from fanfold.core.registry import get_game
from fanfold.games.fano.actions import Allow, Mulligan, Pass, Shuffle
from fanfold.games.fano.state import Phase

FANO = get_game("fano")


@pytest.mark.parametrize(
    ("variant", "players"),
    [("classic", 2), ("everything", 2), ("specials", 4), ("trionfey-specials", 2), ("trionfey", 3)],
)
def test_every_decision_has_a_passive_choice(variant: str, players: int) -> None:
    config = FANO.with_players(FANO.preset(variant).config, players).replace(turns_per_player=40)
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        state = FANO.new_state(config, seed)
        while FANO.current_player(state) is not None:
            passive = FANO.passive_action(state)
            assert passive is not None
            assert FANO.is_legal(state, passive)
            wanted = {
                Phase.REACT: Allow(),
                Phase.MULLIGAN: Mulligan(False),
                Phase.DRAW_SHUFFLE: Shuffle(False),
                Phase.SHUFFLE: Shuffle(False),
            }.get(state.phase, Pass())
            assert passive == wanted, (state.phase, passive)
            seen.add(str(passive))
            state = FANO.apply(state, rng.choice(FANO.legal_actions(state)))
    assert "pass" in seen


def test_games_without_a_passive_choice_say_so() -> None:
    morris = get_game("morris")
    assert not morris.has_passive_action
    assert morris.passive_action(morris.new_state(morris.default_config())) is None
    assert FANO.has_passive_action


def test_a_reshuffle_at_the_next_players_draw_is_told_as_their_turn_beginning() -> None:
    """Player 2's draw pile is empty: Player 1's pass ends the turn, and Player 2's draw
    reshuffles their discards. The line of the pass says it is Player 2's turn that begins
    with it (it read as if Player 1's move had reshuffled the reader's pile)."""
    game = get_game("fano")
    state = game.parse_position(
        "fano player=1 phase=main | hand=5H field=3H,7H "
        "| hand=- field=2C,4C up=AC,3C,5C,6C,7C,8C,9C,TC"
    )
    passing = next(action for action in game.legal_actions(state) if str(action) == "pass")
    assert game.describe_action(state, passing, 1) == (
        "Player 1 (♥) passed: your turn begins: your discard pile is reshuffled into the draw pile."
    )
    assert game.describe_action(state, passing, 0) == (
        "You passed: Player 2 (♣)'s turn begins: their discard pile is reshuffled into the "
        "draw pile."
    )
