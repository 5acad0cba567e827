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
