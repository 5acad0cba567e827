"""Chess clocks for people at a table: a time control (a named speed: a base and an increment
per decision, or days per move), each seat's time left, stored with the table.

* **The control** (:data:`CONTROL`, in the table's options): ``{"speed": NAME, "base":
  seconds, "increment": seconds}``, or for the daily speed ``{"speed": "daily", "per_move":
  seconds}``. Every rated table has one (its game's default speed, :func:`default_speed`,
  unless the creator chose another); a casual table has one when its creator chose a speed.
* **The state** (:data:`CLOCK`, in the table's options too): each seat's time left
  (``None`` for a bot's seat: bots have no clock, their budget bounds them), the seat whose
  time runs now and the moment it started running (``time.time()``). The table's options are
  written in the same transaction as every action (:class:`fanfold.server.store.AppendRow`)
  and every table-level ending, so the clock is stored with the move that changed it: a
  restart, or another process taking the table, reads it as it was at the last move.
* **Each decision** (:func:`advance`): the seat that decided is charged the time since its
  clock started and given the increment (daily: its time is the day's allowance again); the
  clock of the next decider starts if that decider is a person, else none runs.
* **Not charged** (:func:`credited`): the time while the store refused writes (from the
  first write it refused to the first it took again) is given back to every running clock,
  and no time-out is ruled while the store does not answer.
* **Not charged either** (:func:`unowned`): the time while no live process held the table.
  Every process says it lives every few seconds (a ``server_beats`` row,
  :mod:`fanfold.server.hub.beats`), and a table's options name the process that holds its
  clocks (:data:`HOLDER`). A process that takes a table with a running clock (when the one
  holding it was killed, or at its own restart after a crash or a stop) and finds the holder
  silent for longer than a few beats gives the running clock back the time since the holder's
  last beat, and stores the clock with itself as holder at once. So the seat to move is
  charged at most a beat of the time nobody could have told its move, and the time a live
  process held the table (handed over, or the seat's player away) is charged as it should
  be. One process on SQLite is the same case: its restart after a crash does not charge the
  time it was down.
* **Out of time** (:func:`expired`): the decider whose time left is gone loses the game
  (:data:`fanfold.core.rulings.Ending.TIMEOUT`); a side that never moved has its game called
  off instead (a rated game in which a side never moves is aborted, unrated).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.registry import AnyGame, plugin_of
from fanfold.server.errors import BadRequestError

#: The option holding a table's time control, and the one holding its clocks' state.
CONTROL, CLOCK = "time_control", "clock_state"
#: The option naming the process that holds a table's clocks (:func:`unowned`).
HOLDER = "clock_holder"

#: The named speeds: ``(base seconds, increment seconds)``, or for ``daily`` the seconds a
#: person has for each move.
SPEEDS: dict[str, tuple[float, float]] = {
    "blitz": (180.0, 2.0),
    "rapid": (600.0, 5.0),
    "classical": (1800.0, 20.0),
}
DAILY, DAY = "daily", 86400.0


def default_speed(game: AnyGame) -> str | None:
    """A game's speed when a rated table names none, as its plugin declares it
    (``GamePlugin.clock``; ``None``: no clock): Morris is short, the card games take longer."""
    return plugin_of(game).clock


def speed_names() -> list[str]:
    """Every speed a table may have, fastest first."""
    return [*SPEEDS, DAILY]


def control_for(speed: str) -> JSONObject:
    """The time control of a named speed.

    Raises:
        BadRequestError: no such speed, said with the names.
    """
    if speed == DAILY:
        return {"speed": DAILY, "per_move": DAY}
    if speed not in SPEEDS:
        raise BadRequestError(f"a speed is one of {', '.join(speed_names())}, not {speed!r}")
    base, increment = SPEEDS[speed]
    return {"speed": speed, "base": base, "increment": increment}


@dataclass(frozen=True)
class Clocks:
    """A table's clocks: each seat's seconds left (``None``: a bot's seat), the seat whose
    clock runs and since when (``time.time()``)."""

    left: tuple[float | None, ...]
    running: int | None = None
    since: float | None = None

    def to_json(self) -> JSONObject:
        return {"left": list(self.left), "running": self.running, "since": self.since}

    @classmethod
    def from_json(cls, data: object) -> Clocks | None:
        """The clocks stored in a table's options, or ``None`` for something else."""
        if not isinstance(data, Mapping):
            return None
        left, running, since = data.get("left"), data.get("running"), data.get("since")
        if not isinstance(left, list) or not all(
            value is None or isinstance(value, int | float) for value in left
        ):
            return None
        return cls(
            tuple(None if value is None else float(value) for value in left),
            running if isinstance(running, int) else None,
            float(since) if isinstance(since, int | float) else None,
        )

    def remaining(self, seat: int, now: float | None = None) -> float | None:
        """``seat``'s seconds left now (its running time taken off), ``None`` for a bot."""
        left = self.left[seat]
        if left is None:
            return None
        if seat == self.running and self.since is not None:
            now = time.time() if now is None else now
            return left - max(0.0, now - self.since)
        return left


def _start(control: Mapping[str, JSONValue]) -> float:
    per_move = control.get("per_move")
    if isinstance(per_move, int | float):
        return float(per_move)
    base = control.get("base")
    return float(base) if isinstance(base, int | float) else 0.0


def new_clocks(control: Mapping[str, JSONValue], people: Sequence[bool]) -> Clocks:
    """The clocks at a game's start: each person's seat the control's time, none running
    (they start with the first move: the first decision waits for everyone to sit down, and
    a side that never moves may have the game called off)."""
    start = _start(control)
    return Clocks(tuple(start if person else None for person in people))


def advance(
    clocks: Clocks,
    control: Mapping[str, JSONValue],
    seat: int,
    decider: int | None,
    people: Sequence[bool],
    now: float,
) -> Clocks:
    """The clocks after ``seat`` decided at ``now``: it is charged its running time and given
    the increment (the daily speed: its time is one move's allowance again); ``decider``'s
    clock (the next to decide, ``None`` once the game is over) starts if it is a person's."""
    left = list(clocks.left)
    if seat == clocks.running and clocks.since is not None and left[seat] is not None:
        spent = max(0.0, now - clocks.since)
        per_move = control.get("per_move")
        increment = control.get("increment")
        if isinstance(per_move, int | float):
            left[seat] = float(per_move)
        else:
            added = float(increment) if isinstance(increment, int | float) else 0.0
            left[seat] = max(0.0, (left[seat] or 0.0) - spent) + added
    running = decider if decider is not None and people[decider] else None
    if running is not None and left[running] is None:  # a seat a person took over
        left[running] = _start(control)
    return Clocks(tuple(left), running, now if running is not None else None)


def handed(clocks: Clocks, decider: int | None, people: Sequence[bool], now: float) -> Clocks:
    """The clocks after a takeback at ``now``, as lichess does: the running seat is charged
    the time it has run (no increment: nothing was decided), and ``decider``'s clock (the
    asker's, to play again) starts with the time it has left; no time goes back."""
    left = list(clocks.left)
    running = clocks.running
    if running is not None and clocks.since is not None and left[running] is not None:
        left[running] = max(0.0, (left[running] or 0.0) - max(0.0, now - clocks.since))
    ticking = decider if decider is not None and people[decider] else None
    return Clocks(tuple(left), ticking, now if ticking is not None else None)


def credited(clocks: Clocks, seconds: float) -> Clocks:
    """The clocks with ``seconds`` given back to the running one (time that is not charged:
    while the store refused writes)."""
    if clocks.running is None or clocks.since is None or seconds <= 0:
        return clocks
    return Clocks(clocks.left, clocks.running, clocks.since + seconds)


def unowned(clocks: Clocks, last_beat: float | None, now: float, silent: float) -> float:
    """The seconds not charged to the running clock of a table taken at ``now`` from a
    process whose last beat was ``last_beat`` (``None``: unknown, nothing given back): the
    time since that beat when the process has been silent for more than ``silent`` seconds
    (it died, or stopped), at most the time the clock has run; else none (it lives, and handed
    the table over)."""
    if clocks.running is None or clocks.since is None or last_beat is None:
        return 0.0
    if now - last_beat <= silent:
        return 0.0
    return max(0.0, now - max(last_beat, clocks.since))


def stopped(clocks: Clocks, now: float) -> Clocks:
    """The clocks once the game is over: the running seat charged, none running."""
    left = list(clocks.left)
    if clocks.running is not None and clocks.since is not None:
        running_left = left[clocks.running]
        if running_left is not None:
            left[clocks.running] = max(0.0, running_left - max(0.0, now - clocks.since))
    return Clocks(tuple(left), None, None)


def expired(clocks: Clocks, now: float | None = None) -> int | None:
    """The seat whose time has run out now, if any."""
    seat = clocks.running
    if seat is None:
        return None
    left = clocks.remaining(seat, now)
    return seat if left is not None and left <= 0 else None


def deadline(clocks: Clocks) -> float | None:
    """When (``time.time()``) the running clock runs out, if one runs."""
    seat = clocks.running
    if seat is None or clocks.since is None:
        return None
    left = clocks.left[seat]
    return None if left is None else clocks.since + left
