"""What each player was told, step by step: the information state an OpenSpiel state keeps.

A :class:`Trail` is one step of a game as the players were told it, linked to the step before
(immutable and shared: a state's clones and children share their common past). The steps:

* ``card``: a chance node dealt a card: the seat it went to is told the card (every seat, in an
  open deal), the others that a card went to that seat; a card no seat is told (one put into
  a Fano draw pile) is told to every seat as where it went;
* ``start``: the deal is made (or the game starts at a position): each seat's view of it;
* ``action``: a seat acted: the action as each seat was told it (the game's
  ``public_action_text``) and each seat's view after it (none where a new deal follows: the
  deal's cards and view come next). An action a seat is told nothing of (a Fano redraw
  declined by another seat: the others do not learn that it was offered) that leaves its view
  as it was draws no line for it.

A player's information state is its lines along the trail: a function of what it was told
and saw only, so two states give one string exactly when the player has seen the same game.
Each step draws a player's lines once and keeps them.
"""

from __future__ import annotations

from typing import Any

from fanfold.envs.infostate import Told

#: The seat of a card told to every seat (an open deal).
EVERYONE = -1
#: The seat of a card told to no seat (its text says where it went, told to every seat).
NO_SEAT = -2


class Trail:
    """One step (``kind`` and its ``data``) after ``previous`` (``None``: the first)."""

    __slots__ = ("_parts", "data", "kind", "length", "previous")

    def __init__(self, previous: Trail | None, kind: str, data: tuple[Any, ...]) -> None:
        self.previous = previous
        self.kind = kind
        self.data = data
        self.length: int = 1 if previous is None else previous.length + 1
        self._parts: dict[int, tuple[tuple[str, ...], Told | None]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Trail:
        return self  # immutable: clones share it

    def __reduce__(self) -> tuple[Any, tuple[list[tuple[str, tuple[Any, ...]]]]]:
        # flat, so that a long game pickles without deep recursion
        return _rebuild, ([(step.kind, step.data) for step in self.steps()],)

    def steps(self) -> list[Trail]:
        """Every step, the first first."""
        found: list[Trail] = []
        step: Trail | None = self
        while step is not None:
            found.append(step)
            step = step.previous
        found.reverse()
        return found

    def parts(self, game: Any, encoding: Any, player: int) -> tuple[tuple[str, ...], Told | None]:
        """This step's lines for ``player`` and the action it was told of (``None``: none)."""
        kept = self._parts.get(player)
        if kept is None:
            kept = self._parts[player] = self._draw(game, encoding, player)
        return kept

    def _draw(self, game: Any, encoding: Any, player: int) -> tuple[tuple[str, ...], Told | None]:
        if self.kind == "card":
            seat, text = self.data
            if seat == EVERYONE:
                return (f"-- dealt: {text}",), None
            if seat == NO_SEAT:
                return (f"-- dealt: {text}",), None
            return (f"-- dealt to seat {seat}: {text if seat == player else 'a card'}",), None
        if self.kind == "start":
            return (str(game.render(game.observe(self.data[0], player))),), None
        seat, index, before, after = self.data
        action = encoding.action(seat, index)
        text = game.public_action_text(before, action, player)
        told: Told | None = None
        if text:
            full = seat == player or text == game.public_action_text(before, action, seat)
            told = (seat, index if full else None)
        elif after is None or game.observe(before, player) == game.observe(after, player):
            return (), None
        lines = [f"-- seat {seat}: {text}"]
        if after is not None:
            lines.append(str(game.render(game.observe(after, player))))
        return tuple(lines), told


def _rebuild(steps: list[tuple[str, tuple[Any, ...]]]) -> Trail | None:
    trail: Trail | None = None
    for kind, data in steps:
        trail = Trail(trail, kind, data)
    return trail


def told_of(trail: Trail | None, game: Any, encoding: Any, player: int) -> tuple[str, list[Told]]:
    """``player``'s information state along ``trail``: its lines joined, and the actions it
    was told of (oldest first)."""
    lines: list[str] = []
    told: list[Told] = []
    for step in trail.steps() if trail is not None else ():
        drawn, action = step.parts(game, encoding, player)
        lines.extend(drawn)
        if action is not None:
            told.append(action)
    return "\n".join(lines), told


def same_story(
    first: Trail | None, second: Trail | None, game: Any, encoding: Any, player: int
) -> bool:
    """Whether ``player`` was told the same along both trails (their information-state
    strings are equal), from the views themselves, without drawing them."""
    if first is None or second is None:
        return first is second
    ones = [step for step in first.steps() if not _silent(step, game, encoding, player)]
    twos = [step for step in second.steps() if not _silent(step, game, encoding, player)]
    if len(ones) != len(twos):
        return False
    for one, two in zip(ones, twos, strict=True):
        if one.kind != two.kind:
            return False
        if one.kind == "card":
            seat, text = one.data
            if seat != two.data[0] or (seat in (player, EVERYONE, NO_SEAT) and text != two.data[1]):
                return False
        elif one.kind == "start":
            if game.observe(one.data[0], player) != game.observe(two.data[0], player):
                return False
        elif not _same_action(one.data, two.data, game, encoding, player):
            return False
    return True


def _silent(step: Trail, game: Any, encoding: Any, player: int) -> bool:
    """Whether ``step`` draws no line for ``player`` (an action it is told nothing of that
    leaves its view as it was)."""
    if step.kind != "action":
        return False
    seat, index, before, after = step.data
    if game.public_action_text(before, encoding.action(seat, index), player):
        return False
    return after is None or game.observe(before, player) == game.observe(after, player)


def _same_action(
    one: tuple[Any, ...], two: tuple[Any, ...], game: Any, encoding: Any, player: int
) -> bool:
    seat, index, before, after = one
    other_seat, other_index, other_before, other_after = two
    if seat != other_seat or (after is None) != (other_after is None):
        return False
    text = game.public_action_text(before, encoding.action(seat, index), player)
    other = game.public_action_text(other_before, encoding.action(seat, other_index), player)
    if text != other:
        return False
    return after is None or game.observe(after, player) == game.observe(other_after, player)
