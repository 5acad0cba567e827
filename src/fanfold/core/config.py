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

from fanfold.core.errors import ConfigError

JSONValue = None | bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"]
JSONObject = dict[str, JSONValue]

#: The key of a field's metadata that holds its range (see :func:`ranged`).
RANGE = "range"

_Number = typing.TypeVar("_Number")


#: The key of a field's metadata that holds the sentence refusing a value out of its range.
SENTENCE = "sentence"


def ranged(
    default: _Number, low: int | float, high: int | float, sentence: str | None = None
) -> _Number:
    """Declare a numeric option with its range: ``turns: int = ranged(400, 1, 10_000)``. Every
    config checks its fields against their ranges when it is made (from text options, JSON, a
    record or code), before :meth:`Config.validate`, and refuses a value outside with the
    sentence ``turns must be from 1 to 10000, not 1e+23`` (or ``sentence``, formatted with
    ``name``, ``low``, ``high`` and ``value``: ``"Fan Tan is for {low} to {high} players, not
    {value}"``); ``None`` (an optional field left unset) is not checked."""
    metadata: dict[str, object] = {RANGE: (low, high)}
    if sentence is not None:
        metadata[SENTENCE] = sentence
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
                raise ConfigError(f"{name} must be a number, not {value!r}")
            if not low <= value <= high:
                sentence = field.metadata.get(
                    SENTENCE, "{name} must be from {low} to {high}, not {value}"
                )
                raise ConfigError(
                    sentence.format(name=name, low=low, high=high, value=_shown(value))
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
            raise ConfigError(f"a {cls.__name__} must be a JSON object, not {type(data).__name__}")
        hints, known = _fields(cls)
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(
                f"unknown option(s) {', '.join(unknown)} for {cls.__name__}; "
                f"known: {', '.join(sorted(known))}"
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
                listed = ", ".join(sorted(known)) or "none, it takes no options"
                raise ConfigError(f"unknown option {name!r}; known: {listed}")
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
        errors = []
        for option in options:
            try:
                return _from_json(option, value, name)
            except ConfigError as error:
                errors.append(str(error))
        raise ConfigError("; ".join(errors))
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ConfigError(f"option {name} must be a list, not {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_json(args[0], item, name) for item in value)
        if len(args) != len(value):
            raise ConfigError(f"option {name} must have {len(args)} items")
        return tuple(_from_json(arg, item, name) for arg, item in zip(args, value, strict=True))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            choices = ", ".join(str(member.value) for member in hint)
            raise ConfigError(f"option {name} must be one of {choices}, not {value!r}") from None
    if hint is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"option {name} must be true or false, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"option {name} must be a whole number, not {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"option {name} must be a number, not {value!r}")
        return _finite(float(value), name, value)
    if hint is str:
        if not isinstance(value, str):
            raise ConfigError(f"option {name} must be text, not {value!r}")
        return value
    raise ConfigError(f"option {name} has an unsupported type {hint!r}")


def _finite(number: float, name: str, given: object) -> float:
    """``number`` when it is finite: ``nan`` and the infinities (``inf``, or ``1e400``, which
    reads as one) are no option's value."""
    if not math.isfinite(number):
        raise ConfigError(f"option {name} must be a finite number, not {given!r}")
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
        raise ConfigError(f"option {name} must be true or false, not {text!r}")
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
            raise ConfigError(f"option {name} must be a whole number, not {text!r}")
        return int(number)
    if hint is float:
        try:
            number = float(text)
        except ValueError:
            raise ConfigError(f"option {name} must be a number, not {text!r}") from None
        return _finite(number, name, text)
    return _from_json(hint, text, name)
