"""The conformance suite over every registered game and every preset."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanfold.core.conformance import check_playouts
from fanfold.core.errors import NotationError
from fanfold.core.registry import AnyGame, all_games
from fanfold.games.fano import FanoConfig

PLAYOUTS = int(os.environ.get("FANFOLD_CONFORMANCE_PLAYOUTS", "12"))
#: Random Fano games almost never promote three times, so they run to the turn limit: the
#: playouts here keep the 200 turns in all they had before the limit became one per player
#: (400 each by default), so the suite's time does not grow with the table.
FANO_TURNS = 200


def _playout_config(config: Any) -> Any:
    if isinstance(config, FanoConfig):
        return config.replace(turns_per_player=max(1, FANO_TURNS // config.players))
    return config


CASES = [
    pytest.param(game, _playout_config(preset.config), id=f"{game.id}:{preset.name}")
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


GAMES = [pytest.param(game, id=game.id) for game in all_games()]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=40))
def test_any_text_parses_as_an_action_or_is_a_notation_error(game: AnyGame, text: str) -> None:
    try:
        action = game.parse_action(text)
    except NotationError as error:
        message = str(error)
    else:
        message = "parsed"
        assert game.parse_action(game.action_text(action)) == action
    assert message


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=80))
def test_any_text_loads_as_a_position_or_is_a_notation_error(game: AnyGame, text: str) -> None:
    try:
        state = game.parse_position(text, game.default_config())
    except NotationError as error:
        message = str(error)
    else:
        message = game.format_position(state)
        reloaded = game.parse_position(message, game.default_config())
        assert game.format_position(reloaded) == message
    assert message
