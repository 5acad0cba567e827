"""Config dataclasses: validation and the JSON and command-line round trips."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import pytest

from fanfold.core.config import GameConfig
from fanfold.core.errors import ConfigError


class Colour(enum.Enum):
    RED = "red"
    BLACK = "black"


@dataclass(frozen=True)
class Example(GameConfig):
    players: int = 2
    colour: Colour = Colour.RED
    limit: int | None = None
    ratio: float = 0.5
    fast: bool = False
    seats: tuple[str, ...] = ()

    def validate(self) -> None:
        if not 2 <= self.players <= 8:
            raise ConfigError(f"players must be 2 to 8, not {self.players}")


def test_json_round_trip_keeps_every_field() -> None:
    config = Example(3, Colour.BLACK, 40, 0.25, True, ("a", "b"))
    data = config.to_json()
    assert data == {"players": 3, "colour": "black", "limit": 40, "ratio": 0.25, "fast": True,
                    "seats": ["a", "b"]}  # fmt: skip
    assert Example.from_json(data) == config


def test_validation_runs_on_construction_and_on_reading() -> None:
    with pytest.raises(ConfigError, match="2 to 8"):
        Example(players=9)
    with pytest.raises(ConfigError, match="2 to 8"):
        Example.from_json({"players": 1})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": "3"}, "whole number"),
        ({"players": True}, "whole number"),
        ({"colour": "green"}, "one of red, black"),
        ({"fast": 1}, "true or false"),
        ({"seats": "ab"}, "list"),
        ({"speed": 3}, "unknown option"),
        ({"ratio": "x"}, "number"),
        ({"ratio": float("nan")}, "finite number"),
        ({"ratio": float("inf")}, "finite number"),
        ({"ratio": float("-inf")}, "finite number"),
    ],
)
def test_bad_json_is_refused_with_the_reason(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Example.from_json(data)


def test_a_config_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(ConfigError, match="JSON object"):
        Example.from_json([1, 2])  # type: ignore[arg-type]  # deliberately the wrong type


def test_command_line_options_are_parsed_into_field_types() -> None:
    config = Example().with_options(
        {"players": "4", "colour": "black", "limit": "none", "fast": "yes", "seats": "x,y"}
    )
    assert config == Example(4, Colour.BLACK, None, 0.5, True, ("x", "y"))
    with pytest.raises(ConfigError, match="unknown option"):
        Example().with_options({"speed": "3"})
    with pytest.raises(ConfigError, match="true or false"):
        Example().with_options({"fast": "maybe"})
    with pytest.raises(ConfigError, match="2 to 8"):
        Example().with_options({"players": "12"})
