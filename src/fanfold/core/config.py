"""Configurations as data: frozen dataclasses that validate themselves and travel as JSON.

:class:`Config` is the machinery, shared by game variants (:class:`GameConfig`) and agent
settings (``fanfold.agents.AgentConfig``). A config is a frozen dataclass whose fields are
``bool``, ``int``, ``float``, ``str``, an :class:`enum.Enum` with string values, ``X | None``
of those, or a ``tuple`` of those. Derive from :class:`GameConfig`, declare each numeric
field's range with :func:`ranged` (checked whenever a config is made: from text options, JSON
or code), override :meth:`GameConfig.validate` for the rest, and the JSON round-trip comes
for free::

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Example(GameConfig):
    ...     players: int = ranged(2, 2, 4)
    >>> Example.from_json({"players": 3})
    Example(players=3)
    >>> Example(players=3).to_json()
    {'players': 3}
    >>> Example().with_options({"players": "1e23"})
    Traceback (most recent call last):
    ...
    fanfold.core.errors.ConfigError: players must be from 2 to 4, not 1e+23
"""

from __future__ import annotations

import dataclasses
import enum
import math
import types
import typing
from collections.abc import Mapping
from typing import Any, Self

from fanfold.core.errors import ConfigError, Refusal, problems_joined, reason_of, templates

JSONValue = None | bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"]
JSONObject = dict[str, JSONValue]

#: The key of a field's metadata that holds its range (see :func:`ranged`).
RANGE = "range"

_Number = typing.TypeVar("_Number")


#: The key of a field's metadata that holds the game a player count is of (its title, which
#: the refusal of a count out of range names: ``config.players_range``).
PLAYERS_OF = "players_of"

#: A config's refusals (``docs/i18n.md``): an option a config does not have, a value it does not
#: read, a number out of its range.
templates(
    {
        "config.range": "{name} must be from {low} to {high}, not {value}",
        "config.players_range": "{game} is for {low} to {high} players, not {value}",
        "config.not_a_number": "{name} must be a number, not {value}",
        "config.not_object": "a {kind} must be a JSON object, not {type}",
        "config.unknown_options": "unknown option(s) {names} for {kind}; known: {known}",
        "config.unknown_option": "unknown option '{name}'; known: {known}",
        "config.no_options": "unknown option '{name}'; known: none, it takes no options",
        "config.list": "option {name} must be a list, not {value}",
        "config.items": "option {name} must have {count} items",
        "config.one_of": "option {name} must be one of {choices}, not {value}",
        "config.true_or_false": "option {name} must be true or false, not {value}",
        "config.whole_number": "option {name} must be a whole number, not {value}",
        "config.number": "option {name} must be a number, not {value}",
        "config.text": "option {name} must be text, not {value}",
        "config.finite": "option {name} must be a finite number, not {value}",
        "config.unsupported": "option {name} has an unsupported type {hint}",
    }
)


def ranged(
    default: _Number, low: int | float, high: int | float, players_of: str | None = None
) -> _Number:
    """Declare a numeric option with its range: ``turns: int = ranged(400, 1, 10_000)``. Every
    config checks its fields against their ranges when it is made (from text options, JSON, a
    record or code), before :meth:`Config.validate`, and refuses a value outside with the
    refusal ``config.range``, ``turns must be from 1 to 10000, not 1e+23`` (a game's player
    count, ``players_of`` its title, with ``config.players_range``: ``Fan Tan is for 3 to 8
    players, not 12``); ``None`` (an optional field left unset) is not checked."""
    metadata: dict[str, object] = {RANGE: (low, high)}
    if players_of is not None:
        metadata[PLAYERS_OF] = players_of
    field: _Number = dataclasses.field(default=default, metadata=metadata)
    return field


def _shown(value: float) -> str:
    """A number as a sentence shows it: exactly when short, else in exponent form."""
    text = str(value)
    return text if len(text) <= 12 else f"{float(value):g}"


@dataclasses.dataclass(frozen=True)
class Config:
    """Base class of every configuration: validated on creation, JSON and text in and out."""

    def __post_init__(self) -> None:
        self._check_ranges()
        self.validate()

    @classmethod
    def option_ranges(cls) -> dict[str, tuple[int | float, int | float]]:
        """Every numeric option with its declared range (:func:`ranged`), ``name -> (low,
        high)``, both ends allowed."""
        return {
            field.name: field.metadata[RANGE]
            for field in dataclasses.fields(cls)
            if RANGE in field.metadata
        }

    def _check_ranges(self) -> None:
        for field in dataclasses.fields(self):
            if RANGE not in field.metadata:
                continue
            name, (low, high) = field.name, field.metadata[RANGE]
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigError(Refusal("config.not_a_number", name=name, value=repr(value)))
            if not low <= value <= high:
                shown, game = _shown(value), field.metadata.get(PLAYERS_OF)
                if game is not None:  # a game's player count
                    raise ConfigError(
                        Refusal(
                            "config.players_range", game=str(game), low=low, high=high, value=shown
                        )
                    )
                raise ConfigError(
                    Refusal("config.range", name=name, low=low, high=high, value=shown)
                )

    def validate(self) -> None:
        """Raise :class:`ConfigError` when the fields are inconsistent."""

    def to_json(self) -> JSONObject:
        """The config as a JSON object (every field, so a record is self-describing)."""
        return {
            field.name: _to_json(getattr(self, field.name)) for field in dataclasses.fields(self)
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Build and validate a config from a JSON object; unknown keys are an error."""
        if not isinstance(data, Mapping):
            kind, found = cls.__name__, type(data).__name__
            raise ConfigError(Refusal("config.not_object", kind=kind, type=found))
        hints, known = _fields(cls)
        unknown = sorted(set(data) - known)
        if unknown:
            names, listed = ", ".join(unknown), ", ".join(sorted(known))
            raise ConfigError(
                Refusal("config.unknown_options", names=names, kind=cls.__name__, known=listed)
            )
        kwargs = {name: _from_json(hints[name], value, name) for name, value in data.items()}
        return cls(**kwargs)

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def with_options(self, options: Mapping[str, str]) -> Self:
        """A copy with fields set from ``name=value`` text options, as a command line gives them."""
        hints, known = _fields(type(self))
        changes: dict[str, Any] = {}
        for name, text in options.items():
            key = name.replace("-", "_")
            if key not in known:
                if not known:
                    raise ConfigError(Refusal("config.no_options", name=name))
                listed = ", ".join(sorted(known))
                raise ConfigError(Refusal("config.unknown_option", name=name, known=listed))
            changes[key] = _from_text(hints[key], text, key)
        return self.replace(**changes)

    def option_texts(self) -> dict[str, str]:
        """Every field as ``name -> value`` text, as :meth:`with_options` reads it back."""
        return {
            field.name: _to_text(getattr(self, field.name))
            for field in dataclasses.fields(self)
            if field.init
        }

    def changed_options_from(self, base: Config) -> dict[str, str]:
        """The fields that differ from ``base``, as text options: ``base.with_options(result)``
        equals this config."""
        mine, theirs = self.option_texts(), base.option_texts()
        return {name: text for name, text in mine.items() if theirs.get(name) != text}


@dataclasses.dataclass(frozen=True)
class GameConfig(Config):
    """Base class of every game's variant configuration."""


def _to_text(value: object) -> str:
    if isinstance(value, enum.Enum):
        return _to_text(value.value)
    if isinstance(value, tuple):
        return ",".join(_to_text(item) for item in value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _to_json(value: object) -> JSONValue:
    if isinstance(value, enum.Enum):
        return _to_json(value.value)
    if isinstance(value, tuple):
        return [_to_json(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"config value {value!r} is not JSON-serialisable")


_FIELDS: dict[type[Config], tuple[dict[str, Any], frozenset[str]]] = {}


def _fields(cls: type[Config]) -> tuple[dict[str, Any], frozenset[str]]:
    """A config class's field types and the names its constructor takes, read once per class
    (resolving the type hints costs more than reading a small config)."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        known = frozenset(field.name for field in dataclasses.fields(cls) if field.init)
        found = _FIELDS[cls] = (hints, known)
    return found


def _from_json(hint: Any, value: Any, name: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        errors: list[ConfigError] = []
        for option in options:
            try:
                return _from_json(option, value, name)
            except ConfigError as error:
                errors.append(error)
        if len(errors) == 1:
            raise errors[0]
        reasons = [reason_of(error) for error in errors]
        raise ConfigError(
            Refusal("game.problems", first=reasons[0], rest=problems_joined(reasons[1:]))
        )
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ConfigError(Refusal("config.list", name=name, value=repr(value)))
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_json(args[0], item, name) for item in value)
        if len(args) != len(value):
            raise ConfigError(Refusal("config.items", name=name, count=len(args)))
        return tuple(_from_json(arg, item, name) for arg, item in zip(args, value, strict=True))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            choices = ", ".join(str(member.value) for member in hint)
            shown = repr(value)
            raise ConfigError(
                Refusal("config.one_of", name=name, choices=choices, value=shown)
            ) from None
    if hint is bool:
        if not isinstance(value, bool):
            raise ConfigError(Refusal("config.true_or_false", name=name, value=repr(value)))
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(Refusal("config.whole_number", name=name, value=repr(value)))
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(Refusal("config.number", name=name, value=repr(value)))
        return _finite(float(value), name, value)
    if hint is str:
        if not isinstance(value, str):
            raise ConfigError(Refusal("config.text", name=name, value=repr(value)))
        return value
    raise ConfigError(Refusal("config.unsupported", name=name, hint=repr(hint)))


def _finite(number: float, name: str, given: object) -> float:
    """``number`` when it is finite: ``nan`` and the infinities (``inf``, or ``1e400``, which
    reads as one) are no option's value."""
    if not math.isfinite(number):
        raise ConfigError(Refusal("config.finite", name=name, value=repr(given)))
    return number


def _from_text(hint: Any, text: str, name: str) -> Any:
    """Parse a command-line ``name=value`` into the field's type."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        if text.lower() in ("none", "null", "") and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        return _from_text(options[0], text, name)
    if origin is tuple:
        return _from_json(hint, [item for item in text.split(",") if item], name)
    if hint is bool:
        lowered = text.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise ConfigError(Refusal("config.true_or_false", name=name, value=repr(text)))
    if hint is int:
        try:
            return int(text)
        except ValueError:
            pass
        try:
            number = float(text)  # "1e3": a whole number written with an exponent
        except ValueError:
            number = 0.5
        if not number.is_integer():  # nan and infinity are not whole numbers either
            raise ConfigError(Refusal("config.whole_number", name=name, value=repr(text)))
        return int(number)
    if hint is float:
        try:
            number = float(text)
        except ValueError:
            raise ConfigError(Refusal("config.number", name=name, value=repr(text))) from None
        return _finite(number, name, text)
    return _from_json(hint, text, name)
