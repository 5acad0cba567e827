"""A table's options as one typed value: :class:`TableOptions`.

A table keeps, besides its game, seats and actions, a handful of facts about how it is played:
the variant's name, a time limit per decision or a time control and its clocks, whether it is
rated and its bots' levels, the seats open to anyone from the lobby, the aids a player used,
who left, an offered draw, a rematch, a ruling, and the flags the table opened with. The store
keeps them as one JSON object in the ``options`` column (:meth:`TableOptions.to_stored`), in
the shape every release has written, so reading them needs no migration:
:meth:`TableOptions.from_stored` loads each form stored so far (the oldest tables lack the
flags and everything added since, which default to off), and keeps the keys it does not know
(:attr:`TableOptions.extra`, written by a newer release) so that an older process that serves
the table writes them back unchanged.

A value is checked when it is made (:class:`OptionsError`, with a sentence naming the option):
a time limit of 1 to 3600 seconds, never with a time control, known speeds and bot levels,
seat numbers from 0, and so on; the one made at the edge from a request and the one loaded
from the store are checked alike.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fanfold.agents.levels import LEVELS as LEVEL_NAMES
from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.errors import ConfigError
from fanfold.server.clocks import DAILY, SPEEDS, Clocks
from fanfold.server.refusals import refusal

#: The longest time limit per decision a table may have, in seconds.
MAX_TIME_LIMIT = 3600
#: The longest variant name a table may carry.
MAX_VARIANT = 60
#: Each flag a table opens with, as the store names it: all off unless set.
FLAGS = ("analysis", "hotseat", "chosen_deal", "practice", "listed", "fair")


class OptionsError(ConfigError):
    """A table option that may not be: its name and why, in one sentence."""


@dataclass(frozen=True)
class TimeControl:
    """A table's chess clocks: a named speed with its base time and increment in seconds,
    or the ``daily`` speed with the seconds a person has for each move."""

    speed: str
    base: float | None = None
    increment: float | None = None
    per_move: float | None = None

    def __post_init__(self) -> None:
        known = (*SPEEDS, DAILY)
        if self.speed not in known:
            raise OptionsError(
                refusal("options.speed", speeds=", ".join(known), value=repr(self.speed))
            )
        wanted = ("per_move",) if self.speed == DAILY else ("base", "increment")
        for name in ("base", "increment", "per_move"):
            value = getattr(self, name)
            if (value is not None) != (name in wanted):
                raise OptionsError(
                    refusal("options.control_has", speed=self.speed, wanted=" and ".join(wanted))
                )
            if value is not None and not (_number(value) and 0 <= value < math.inf):
                raise OptionsError(refusal("options.control_seconds", name=name, value=repr(value)))

    def to_json(self) -> JSONObject:
        if self.per_move is not None:
            return {"speed": self.speed, "per_move": self.per_move}
        return {"speed": self.speed, "base": self.base, "increment": self.increment}

    @classmethod
    def from_json(cls, data: object) -> TimeControl:
        """The control a table's options hold (as :func:`~fanfold.server.clocks.control_for`
        writes it)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("speed"), str):
            raise OptionsError(refusal("options.control_object", value=repr(data)))
        extra = set(data) - {"speed", "base", "increment", "per_move"}
        if extra:
            raise OptionsError(refusal("options.control_extra", names=", ".join(sorted(extra))))
        return cls(data["speed"], data.get("base"), data.get("increment"), data.get("per_move"))


@dataclass(frozen=True)
class Takeback:
    """A takeback asked for by the person at ``seat`` when the table was at ``version``."""

    seat: int
    version: int

    def __post_init__(self) -> None:
        _seat(self.seat, "a takeback")
        if not _integer(self.version) or self.version < 0:
            raise OptionsError(refusal("options.takeback_version", value=repr(self.version)))

    @classmethod
    def from_json(cls, data: object) -> Takeback:
        """The takeback a table's options hold: ``{"seat": S, "version": V}``."""
        if not isinstance(data, Mapping) or set(data) != {"seat", "version"}:
            raise OptionsError(refusal("options.takeback_object", value=repr(data)))
        return cls(data["seat"], data["version"])


@dataclass(frozen=True)
class TableOptions:
    """Everything a table's ``options`` hold, typed, with each default the one an option
    missing from an older table has meant (see the module's description)."""

    variant: str | None = None
    time_limit: int | None = None
    rematch_of: str | None = None
    rated: bool = False
    #: The level of each bot's seat at a rated table (its seat number: easy, medium, hard).
    levels: Mapping[int, str] = field(default_factory=dict)
    time_control: TimeControl | None = None
    #: The seats still open to anyone from the lobby; ``None``: the table never had one.
    open_seats: tuple[int, ...] | None = None
    clocks: Clocks | None = None
    #: The server process that holds the table's clocks: stored, never shown to anyone.
    clock_holder: str | None = None
    analysis: bool = False
    hotseat: bool = False
    chosen_deal: bool = False
    practice: bool = False
    listed: bool = False
    fair: bool = False
    aids: tuple[str, ...] = ()
    #: The seats whose person left before the end, in order: the account (``None``, a guest).
    left: Mapping[int, int | None] | None = None
    draw_offer: int | None = None
    rematch: str | None = None
    #: Whether the rematch kept every person at the seat they had (else each moved one on).
    rematch_same: bool = False
    #: A takeback waiting for its answer: the asker's seat and the table's version it was
    #: asked at (:mod:`fanfold.server.hub.takebacks`).
    takeback: Takeback | None = None
    #: Each seat's takeback requests this game.
    takebacks: Mapping[int, int] = field(default_factory=dict)
    #: The table-level ending (:meth:`fanfold.core.rulings.Ruling.to_json`), if any.
    ruling: JSONObject | None = None
    #: Whether the server resumes the table at start-up (the store writes it).
    resume: bool | None = None
    #: Options this release does not know (a newer one wrote them): kept as they are.
    extra: Mapping[str, JSONValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.variant is not None and not (
            isinstance(self.variant, str) and 0 < len(self.variant) <= MAX_VARIANT
        ):
            raise OptionsError(
                refusal("options.variant", most=MAX_VARIANT, value=repr(self.variant))
            )
        if self.time_limit is not None:
            if not _integer(self.time_limit) or not 1 <= self.time_limit <= MAX_TIME_LIMIT:
                raise OptionsError(
                    refusal("options.time_limit", most=MAX_TIME_LIMIT, value=repr(self.time_limit))
                )
            if self.time_control is not None:
                raise OptionsError(refusal("options.limit_or_clock"))
        for seat, level in self.levels.items():
            _seat(seat, "a bot's level")
            if level not in LEVEL_NAMES:
                levels = ", ".join(LEVEL_NAMES)
                raise OptionsError(refusal("options.bot_level", levels=levels, value=repr(level)))
        for seat in self.open_seats or ():
            _seat(seat, "an open seat")
        if self.open_seats is not None and len(set(self.open_seats)) != len(self.open_seats):
            raise OptionsError(refusal("options.open_once", seats=str(list(self.open_seats))))
        for seat, account in (self.left or {}).items():
            _seat(seat, "a seat whose person left")
            if account is not None and not _integer(account):
                raise OptionsError(refusal("options.left", value=repr(account)))
        if self.draw_offer is not None:
            _seat(self.draw_offer, "a draw offer")
        for seat, count in self.takebacks.items():
            _seat(seat, "a takeback count")
            if not _integer(count) or count < 0:
                raise OptionsError(refusal("options.takebacks", value=repr(count)))
        if not isinstance(self.rematch_same, bool):
            raise OptionsError(
                refusal(
                    "options.true_or_false",
                    name="rematch_same_seats",
                    value=repr(self.rematch_same),
                )
            )
        for name in ("rematch_of", "rematch", "clock_holder"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, str) and value):
                raise OptionsError(refusal("options.a_name", name=name, value=repr(value)))
        if not all(isinstance(aid, str) and aid for aid in self.aids):
            raise OptionsError(refusal("options.aids", value=repr(list(self.aids))))
        for name in ("rated", *FLAGS):
            if not isinstance(getattr(self, name), bool):
                value = repr(getattr(self, name))
                raise OptionsError(refusal("options.true_or_false", name=name, value=value))
        if self.resume is not None and not isinstance(self.resume, bool):
            raise OptionsError(
                refusal("options.true_or_false", name="resume", value=repr(self.resume))
            )
        if self.ruling is not None and not isinstance(self.ruling, Mapping):
            raise OptionsError(refusal("options.ruling", value=repr(self.ruling)))

    # ------------------------------------------------------------------ the stored form

    def to_stored(self) -> JSONObject:
        """The JSON object the store keeps, in the shape every release has read: a key only
        for what is set (each flag always), the levels with a rated table, and the options
        this release does not know as they came."""
        out: JSONObject = {}
        if self.variant is not None:
            out["variant"] = self.variant
        if self.time_limit is not None:
            out["time_limit"] = self.time_limit
        if self.rematch_of is not None:
            out["rematch_of"] = self.rematch_of
        if self.rated:
            out["rated"] = True
        if self.rated or self.levels:
            out["levels"] = {str(seat): level for seat, level in self.levels.items()}
        if self.time_control is not None:
            out["time_control"] = self.time_control.to_json()
        if self.open_seats is not None:
            out["open"] = list[JSONValue](self.open_seats)
        if self.clocks is not None:
            out["clock_state"] = self.clocks.to_json()
        if self.clock_holder is not None:
            out["clock_holder"] = self.clock_holder
        for name in FLAGS:
            out[name] = bool(getattr(self, name))
        if self.aids:
            out["aids"] = list[JSONValue](self.aids)
        if self.left is not None:
            out["left"] = {str(seat): account for seat, account in self.left.items()}
        if self.draw_offer is not None:
            out["draw_offer"] = self.draw_offer
        if self.rematch is not None:
            out["rematch"] = self.rematch
        if self.rematch_same:
            out["rematch_same_seats"] = True
        if self.takeback is not None:
            out["takeback"] = {"seat": self.takeback.seat, "version": self.takeback.version}
        if self.takebacks:
            out["takebacks"] = {str(seat): count for seat, count in self.takebacks.items()}
        if self.ruling is not None:
            out["ruling"] = dict(self.ruling)
        if self.resume is not None:
            out["resume"] = self.resume
        out.update(self.extra)
        return out

    @classmethod
    def from_stored(cls, stored: Mapping[str, JSONValue] | None) -> TableOptions:
        """The options of a stored table, in any form a release has stored them: a key
        missing means its default; an unknown key is kept in :attr:`extra`.

        Raises:
            OptionsError: a known option whose value no release writes, named.
        """
        if not isinstance(stored, Mapping | None):
            raise OptionsError(refusal("options.object", value=repr(stored)))
        data = dict(stored or {})
        known = {name: data.pop(name) for name in list(data) if name in _KEYS}
        made: dict[str, Any] = {}
        for name, value in known.items():
            if name == "levels":
                made["levels"] = _by_seat(value, name)
            elif name == "left":
                made["left"] = _by_seat(value, name)
            elif name == "takebacks":
                made["takebacks"] = _by_seat(value, name)
            elif name == "rematch_same_seats":
                made["rematch_same"] = value
            elif name == "takeback":
                made["takeback"] = Takeback.from_json(value)
            elif name == "open":
                if not isinstance(value, list):
                    raise OptionsError(refusal("options.open_list", value=repr(value)))
                made["open_seats"] = tuple(value)
            elif name == "aids":
                if not isinstance(value, list):
                    raise OptionsError(refusal("options.aids_list", value=repr(value)))
                made["aids"] = tuple(value)
            elif name == "time_control":
                made["time_control"] = TimeControl.from_json(value)
            elif name == "clock_state":
                clocks = Clocks.from_json(value)
                if clocks is None:
                    raise OptionsError(refusal("options.clocks", value=repr(value)))
                made["clocks"] = clocks
            elif value is not None:
                made[name] = value
        return cls(**made, extra=data)


#: The stored names this release knows.
_KEYS = (
    "variant",
    "time_limit",
    "rematch_of",
    "rated",
    "levels",
    "time_control",
    "open",
    "clock_state",
    "clock_holder",
    *FLAGS,
    "aids",
    "left",
    "draw_offer",
    "rematch",
    "rematch_same_seats",
    "takeback",
    "takebacks",
    "ruling",
    "resume",
)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(seat: object, what: str) -> None:
    if not _integer(seat) or not isinstance(seat, int) or seat < 0:
        raise OptionsError(refusal("options.seat", what=what, value=repr(seat)))


def _by_seat(value: JSONValue, name: str) -> dict[int, Any]:
    """A stored object keyed by seat numbers as text, keyed by the numbers."""
    if not isinstance(value, dict):
        raise OptionsError(refusal("options.by_seat", name=name, value=repr(value)))
    out: dict[int, Any] = {}
    for key, item in value.items():
        if not key.isdigit():
            raise OptionsError(refusal("options.by_seat_number", name=name, key=repr(key)))
        out[int(key)] = item
    return out


__all__ = ["FLAGS", "OptionsError", "TableOptions", "Takeback", "TimeControl"]
