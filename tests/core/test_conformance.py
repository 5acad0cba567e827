"""The conformance suite over every registered game and every preset."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanfold.core.conformance import ConformanceError, check_choices, check_playouts
from fanfold.core.errors import NotationError
from fanfold.core.game import Choice
from fanfold.core.registry import AnyGame, all_games
from fanfold.games.fano import FanoConfig
from fanfold.games.fantan.cards import cards_of
from fanfold.games.fantan.config import FanTanConfig
from fanfold.games.fantan.game import FanTanGame

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


class _ChoicesNamingHiddenCards(FanTanGame):
    """Fan Tan whose choices name a card of the next seat's hand."""

    def choices(self, state: Any) -> list[Choice]:
        seat = self.current_player(state)
        assert seat is not None
        hidden = str(cards_of(state.hands[(seat + 1) % len(state.hands)])[0])
        return [replace(c, details={"card": hidden}) for c in super().choices(state)]


class _ChoicesMissingOne(FanTanGame):
    """Fan Tan whose choices leave out the last legal action."""

    def choices(self, state: Any) -> list[Choice]:
        return super().choices(state)[:-1]


class _ChoicesOtherText(FanTanGame):
    """Fan Tan whose first choice's text is another legal action's."""

    def choices(self, state: Any) -> list[Choice]:
        found = super().choices(state)
        return [replace(found[0], text=found[-1].text), *found[1:]] if len(found) > 1 else found


def test_the_choices_check_sees_hidden_cards_missing_actions_and_texts_that_differ() -> None:
    config = FanTanConfig()
    state = FanTanGame().new_state(config, 3)
    while len(FanTanGame().legal_actions(state)) < 2:
        state = FanTanGame().apply(state, FanTanGame().legal_actions(state)[0])
    legal = list(FanTanGame().legal_actions(state))
    assert len(check_choices(FanTanGame(), state, legal)) == len(legal)  # the real game passes
    with pytest.raises(ConformanceError, match="not in the view"):
        check_choices(_ChoicesNamingHiddenCards(), state, legal)
    with pytest.raises(ConformanceError, match="are not the legal actions"):
        check_choices(_ChoicesMissingOne(), state, legal)
    with pytest.raises(ConformanceError, match="are not the legal actions"):
        check_choices(_ChoicesOtherText(), state, legal)


def test_every_game_tells_its_first_choices_in_words() -> None:
    for game in all_games():
        state = game.new_state(game.default_config(), 1)
        legal = list(game.legal_actions(state))
        choices = check_choices(game, state, legal)
        assert [choice.text for choice in choices] == [game.action_text(a) for a in legal]
        assert all(choice.label != choice.text for choice in choices), game.id
