"""Every numeric option of every game declares its range (``ranged``), and a value outside it
is refused with one sentence wherever options come from: text (the CLI's ``--option``, the
server's ``options``), JSON (a record's config) or code. Both ends of every range are
accepted, and every preset stays valid."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from typing import Any

import pytest
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.core.config import Config, ranged
from fanfold.core.errors import ConfigError
from fanfold.core.registry import all_games, get_game

#: Options set beside a bound so that the config makes sense (chip costs need chip scoring,
#: a target needs a match, a match without a hand limit needs a target).
CONTEXT: dict[tuple[str, str], dict[str, str]] = {
    ("fantan", "ante"): {"scoring": "chips"},
    ("fantan", "pass_chips"): {"scoring": "chips"},
    ("fantan", "card_chips"): {"scoring": "chips"},
    ("fantan", "hands"): {"target": "5"},
    ("fantan", "target"): {"hands": "2"},
}


def _numeric(hint: Any) -> bool:
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        return any(_numeric(arg) for arg in typing.get_args(hint) if arg is not type(None))
    return hint in (int, float)


def _ranges() -> list[tuple[str, str, int | float, int | float]]:
    found = []
    for game in all_games():
        for name, (low, high) in game.config_type.option_ranges().items():
            found.append((game.name, name, low, high))
    return found


RANGES = _ranges()


def test_every_numeric_option_of_every_game_declares_its_range() -> None:
    for game in all_games():
        config_type = game.config_type
        hints = typing.get_type_hints(config_type)
        numeric = {
            field.name for field in dataclasses.fields(config_type) if _numeric(hints[field.name])
        }
        assert numeric == set(config_type.option_ranges()), game.name
    assert {(game, name) for game, name, _, _ in RANGES} >= {
        ("fano", "turns_per_player"),
        ("fano", "promotions_to_win"),
        ("fano", "players"),
        ("fantan", "players"),
        ("fantan", "hands"),
        ("fantan", "target"),
    }


@pytest.mark.parametrize(("game_name", "name", "low", "high"), RANGES)
def test_a_value_out_of_range_is_refused_and_the_bounds_accepted(
    game_name: str, name: str, low: int, high: int
) -> None:
    game = get_game(game_name)
    base = game.default_config()
    context = CONTEXT.get((game_name, name), {})
    for bad in (low - 1, high + 1):
        with pytest.raises(ConfigError) as raised:
            base.with_options({**context, name: str(bad)})
        sentence = str(raised.value)
        assert f"{low} to {high}" in sentence
        assert sentence.endswith(f", not {bad}")
        assert sentence in (f"{name} must be from {low} to {high}, not {bad}", _players(game, bad))
        with pytest.raises(ConfigError) as raised:
            game.config_from_json({**base.to_json(), name: bad})
        assert str(raised.value) == sentence
    with pytest.raises(ConfigError) as raised:
        base.with_options({name: "1e23"})
    assert str(raised.value) == sentence.replace(f"not {high + 1}", "not 1e+23")
    for good in (low, high):
        config = base.with_options({**context, name: str(good)})
        assert getattr(config, name) == good
        assert game.config_from_json(json.loads(json.dumps(config.to_json()))) == config


def _players(game: Any, count: int) -> str:
    """The players option's own sentence (the game's title says whose)."""
    low, high = game.config_type.option_ranges()["players"]
    return f"{game.title} is for {low} to {high} players, not {count}"


def test_every_preset_is_in_range() -> None:
    for game in all_games():
        for preset in game.presets():
            config = preset.config
            for name, (low, high) in config.option_ranges().items():
                value = getattr(config, name)
                assert value is None or low <= value <= high, (game.name, preset.name, name)


def test_a_whole_number_written_with_an_exponent_is_read_and_a_fraction_is_not() -> None:
    fano = get_game("fano").default_config()
    assert fano.with_options({"turns_per_player": "1e3"}).turns_per_player == 1000
    for text in ("2.5", "inf", "nan", "many"):
        with pytest.raises(ConfigError, match="must be a whole number"):
            fano.with_options({"turns_per_player": text})


def test_a_config_declared_with_ranges_checks_them_before_validate() -> None:
    @dataclasses.dataclass(frozen=True)
    class Example(Config):
        seconds: float | None = ranged(None, 0.1, 60.0)

        def validate(self) -> None:
            assert self.seconds is None or 0.1 <= self.seconds <= 60.0

    assert Example(seconds=60.0).seconds == 60.0
    assert Example().seconds is None
    for bad in (0.0, 61.0, float("nan"), float("inf")):
        with pytest.raises(ConfigError, match=r"seconds must be from 0\.1 to 60\.0"):
            Example(seconds=bad)


def test_the_command_line_refuses_an_option_out_of_range() -> None:
    result = CliRunner().invoke(
        app, ["play", "fano", "--seat", "random", "--option", "turns_per_player=1e23"]
    )
    assert result.exit_code != 0
    assert "turns_per_player must be from 1 to 10000, not 1e+23" in result.output


def test_fanfold_games_lists_the_ranges() -> None:
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 0
    assert "turns_per_player 1 to 10000" in result.output
    assert "hands 0 to 1000" in result.output
