"""The conformance suite over every registered game and every preset."""

from __future__ import annotations

import os
from typing import Any

import pytest

from fanfold.core.conformance import check_playouts
from fanfold.core.registry import AnyGame, all_games

PLAYOUTS = int(os.environ.get("FANFOLD_CONFORMANCE_PLAYOUTS", "12"))

CASES = [
    pytest.param(game, preset.config, id=f"{game.id}:{preset.name}")
    for game in all_games()
    for preset in game.presets()
]


@pytest.mark.parametrize(("game", "config"), CASES)
def test_random_playouts_keep_every_promise(game: AnyGame, config: Any) -> None:
    reports = check_playouts(game, config, range(PLAYOUTS))
    assert len(reports) == PLAYOUTS
    assert all(report.outcome_reason for report in reports)


def test_every_game_has_presets_and_a_title() -> None:
    games = all_games()
    assert games
    for game in games:
        assert game.presets()
        assert game.title
        assert "." in game.id
