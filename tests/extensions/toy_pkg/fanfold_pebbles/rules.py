"""Pebbles' rules: a pile of pebbles, two players taking turns to take one to ``most`` of them;
whoever takes the last pebble wins.

Everything the rules decide is here, once (the layout of fanfold's own games, squeezed into
one module for a game this small): the variants, the state, the action and its notation, the
position notation, legality with the reason for a refusal, and the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from fanfold.core.config import GameConfig, ranged
from fanfold.core.errors import NotationError
from fanfold.core.game import Outcome, Preset


class PebblesEnding(StrEnum):
    """How a game of Pebbles ends: its own termination, added without touching fanfold."""

    #: A player took the last pebble, and wins.
    LAST_PEBBLE = "last_pebble"


@dataclass(frozen=True)
class PebblesConfig(GameConfig):
    """Variant options.

    Attributes:
        pebbles: the pebbles in the pile at the start.
        most: the most pebbles a player may take in one turn.
    """

    pebbles: int = ranged(10, 1, 99)
    most: int = ranged(3, 1, 9)


PRESETS: tuple[Preset[PebblesConfig], ...] = (
    Preset("classic", PebblesConfig(), "ten pebbles, take one to three", player_counts=(2,)),
    Preset(
        "short",
        PebblesConfig(pebbles=5, most=2),
        "five pebbles, take one or two",
        aliases=("quick",),
        player_counts=(2,),
    ),
)
SIDES = ("Player 1", "Player 2")
NOTATION_HELP = "Type how many pebbles you take, e.g. 2."


@dataclass(frozen=True)
class PebblesState:
    """The pile: its config, the pebbles left and the seat to move (the loser once empty)."""

    config: PebblesConfig
    left: int
    to_move: int


@dataclass(frozen=True, order=True)
class Take:
    """Take ``count`` pebbles; its text is the number."""

    count: int

    def __str__(self) -> str:
        return str(self.count)


def parse_action(text: str) -> Take:
    """Read ``"2"`` as :class:`Take` (2).

    Raises:
        NotationError: not a number from 1 to 9.
    """
    word = text.strip()
    if len(word) != 1 or word not in "123456789":
        raise NotationError(f"{text!r} is not a move: {NOTATION_HELP}")
    return Take(int(word))


def new_state(config: PebblesConfig) -> PebblesState:
    """The full pile, the first player to move."""
    return PebblesState(config, config.pebbles, 0)


def legal_actions(state: PebblesState) -> list[Take]:
    """Take one, two, ... up to ``most`` or what is left."""
    return [Take(count) for count in range(1, min(state.config.most, state.left) + 1)]


def why_illegal(state: PebblesState, action: Take) -> str | None:
    """Why ``action`` may not be played now, ``None`` when it may."""
    if state.left == 0:
        return "the game is over"
    if action.count > state.config.most:
        return f"a turn takes at most {state.config.most} pebbles"
    if action.count > state.left:
        return f"only {state.left} pebbles are left"
    return None


def apply(state: PebblesState, action: Take) -> PebblesState:
    """The state after a legal ``action``."""
    return PebblesState(state.config, state.left - action.count, 1 - state.to_move)


def outcome(state: PebblesState) -> Outcome | None:
    """The player who took the last pebble (not the one to move) wins."""
    if state.left:
        return None
    winner = 1 - state.to_move
    returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
    reason = f"{SIDES[winner]} took the last pebble and wins"
    return Outcome(reason, returns, termination=PebblesEnding.LAST_PEBBLE)


def format_position(state: PebblesState) -> str:
    """``"7 1"``: the pebbles left, then the seat to move (1 or 2)."""
    return f"{state.left} {state.to_move + 1}"


def parse_position(text: str, config: PebblesConfig) -> PebblesState:
    """Read :func:`format_position`'s text for a game with ``config``.

    Raises:
        NotationError: not of that shape, or more pebbles than the pile holds.
    """
    left, _, side = text.strip().partition(" ")
    if not left.isdigit() or side not in ("1", "2"):
        raise NotationError(f"{text!r} is not a position: write the pebbles left and 1 or 2")
    if int(left) > config.pebbles:
        raise NotationError(f"the pile holds {config.pebbles} pebbles, not {left}")
    return PebblesState(config, int(left), int(side) - 1)
