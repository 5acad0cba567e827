"""The conformance suite over every Fan Tan preset at every player count, 3 to 8."""

from __future__ import annotations

import pytest

from fanfold.core.conformance import check_playouts
from fanfold.games.fantan import GAME, FanTanConfig

CASES = [
    pytest.param(preset.config.replace(players=players), id=f"{preset.name}-{players}p")
    for preset in GAME.presets()
    for players in range(3, 9)
]


@pytest.mark.parametrize("config", CASES)
def test_conformance_playouts_for_every_player_count(config: FanTanConfig) -> None:
    matches = config.is_match
    reports = check_playouts(
        GAME, config, range(1 if matches else 2), check_views_every=4 if matches else 1
    )
    assert all(report.outcome_reason for report in reports)
