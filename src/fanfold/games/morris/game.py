"""Fano330-R-Morris rules: state, actions, notation, views (rules text: seeds/002)."""

from __future__ import annotations

import enum
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from fanfold.core.config import GameConfig, JSONObject, JSONValue
from fanfold.core.errors import NotationError
from fanfold.core.game import Game, Outcome, Preset

#: The seven lines as the rules text lists them (the circle is 1-2-4).
LINES: tuple[tuple[int, int, int], ...] = (
    (1, 2, 4),
    (5, 2, 3),
    (3, 4, 6),
    (6, 1, 5),
    (2, 7, 6),
    (4, 7, 5),
    (1, 7, 3),
)

#: Neighbours on the drawing: consecutive points on a side or median, any two on the circle.
GEOMETRIC_ADJACENT: frozenset[frozenset[int]] = frozenset(
    frozenset(pair)
    for pair in (
        (5, 2), (2, 3), (3, 4), (4, 6), (6, 1), (1, 5),  # the triangle's sides
        (2, 7), (7, 6), (4, 7), (7, 5), (1, 7), (7, 3),  # the medians through the centre 7
        (1, 2), (2, 4), (4, 1),  # the inscribed circle
    )
)  # fmt: skip

WHITE, BLACK = 0, 1
SIDE_NAMES = ("White", "Black")
SIDE_LETTERS = ("w", "b")
#: Piece letters: upper case white, lower case black; C/c circle, T/t triangle.
PIECES = "CTct"
SHAPES = "CT"
SHAPE_NAMES = {"C": "circle", "T": "triangle"}
PIECES_PER_SHAPE = 2
POINTS = 7
MAX_STACK = 2


class Adjacency(enum.Enum):
    """Which points a piece may move between."""

    GEOMETRIC = "geometric"
    COMPLETE = "complete"


@dataclass(frozen=True)
class MorrisConfig(GameConfig):
    """Variant options.

    Attributes:
        adjacency: ``geometric`` (neighbours on the drawing: 15 pairs) or ``complete`` (any two
            points on a common line: all 21 pairs).
    """

    adjacency: Adjacency = Adjacency.GEOMETRIC


@cache
def neighbours(adjacency: Adjacency) -> tuple[tuple[int, ...], ...]:
    """``neighbours(adjacency)[p]`` lists the points adjacent to point ``p`` (index 0 unused)."""
    result: list[tuple[int, ...]] = [()]
    for point in range(1, POINTS + 1):
        if adjacency is Adjacency.COMPLETE:
            result.append(tuple(q for q in range(1, POINTS + 1) if q != point))
        else:
            result.append(
                tuple(
                    q for q in range(1, POINTS + 1) if frozenset((point, q)) in GEOMETRIC_ADJACENT
                )
            )
    return tuple(result)


def colour_of(piece: str) -> int:
    """``WHITE`` for an upper-case piece letter, ``BLACK`` for lower case."""
    return WHITE if piece.isupper() else BLACK


def piece_for(side: int, shape: str) -> str:
    """The piece letter of ``shape`` (``C``/``T``) for ``side``."""
    return shape if side == WHITE else shape.lower()


def can_stack(stack: str, piece: str) -> bool:
    """The stacking rules: at most two to a point, never two of one shape and colour."""
    return len(stack) < MAX_STACK and (not stack or stack[-1] != piece)


@dataclass(frozen=True, slots=True)
class Place:
    """Placement phase: put a piece of ``shape`` (``C`` or ``T``) from hand on ``point``."""

    shape: str
    point: int

    def __str__(self) -> str:
        return f"{self.shape}{self.point}"


@dataclass(frozen=True, slots=True)
class Move:
    """Movement phase: move the top piece at ``source`` to the adjacent ``target``."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"{self.source}-{self.target}"


MorrisAction = Place | Move


@dataclass(frozen=True, slots=True)
class MorrisState:
    """A position and what the rules need of its past.

    Attributes:
        config: the variant.
        board: seven stacks (points 1..7), each a string of piece letters bottom to top.
        to_move: ``WHITE`` or ``BLACK``.
        history: every earlier position of the movement phase (board and side to move), for
            the repetition rule.
        drawn: True when this position repeats an earlier one, which ends the game drawn.
    """

    config: MorrisConfig
    board: tuple[str, ...]
    to_move: int
    history: frozenset[tuple[tuple[str, ...], int]] = frozenset()
    drawn: bool = False

    @property
    def key(self) -> tuple[tuple[str, ...], int]:
        """The board and the side to move: what the repetition rule compares."""
        return self.board, self.to_move

    def in_hand(self, side: int) -> dict[str, int]:
        """Pieces of each shape ``side`` still has to place."""
        counts = dict.fromkeys(SHAPES, PIECES_PER_SHAPE)
        for stack in self.board:
            for piece in stack:
                if colour_of(piece) == side:
                    counts[piece.upper()] -= 1
        return counts

    @property
    def is_placement(self) -> bool:
        """True while the side to move still has pieces in hand."""
        return sum(len(stack) for stack in self.board) < 2 * len(SHAPES) * PIECES_PER_SHAPE


@dataclass(frozen=True)
class MorrisView:
    """Fano330-R-Morris has no hidden information: every seat sees the whole state."""

    player: int
    state: MorrisState

    def to_json(self) -> JSONObject:
        board: list[JSONValue] = list(self.state.board)
        return {
            "player": self.player,
            "position": format_position(self.state),
            "board": board,
            "to_move": SIDE_LETTERS[self.state.to_move],
            "placement": self.state.is_placement,
            "in_hand": {
                SIDE_LETTERS[side]: dict(self.state.in_hand(side)) for side in (WHITE, BLACK)
            },
            "adjacency": self.state.config.adjacency.value,
            "history": [format_key(key) for key in sorted(self.state.history)],
        }


def losing_line(board: Sequence[str]) -> tuple[int, int, int] | None:
    """A line of three occupied points whose tops share a colour or a shape, if any."""
    for line in LINES:
        a, b, c = (board[point - 1] for point in line)
        if a and b and c:
            x, y, z = a[-1], b[-1], c[-1]
            if x.upper() == y.upper() == z.upper() or x.isupper() == y.isupper() == z.isupper():
                return line
    return None


def format_key(key: tuple[tuple[str, ...], int]) -> str:
    """Position notation of a board and side to move."""
    board, side = key
    return "/".join(stack or "-" for stack in board) + " " + SIDE_LETTERS[side]


def format_position(state: MorrisState) -> str:
    """The position notation, e.g. ``C/-/tc/-/-/-/T b``."""
    return format_key(state.key)


_POSITION = re.compile(r"^\s*([CTct\-]{1,2}(?:/[CTct\-]{1,2}){6})\s+([wbWB])\s*$")
_PLACE = re.compile(r"^\s*([CTct])\s*@?\s*([1-7])\s*$")
_MOVE = re.compile(r"^\s*([1-7])\s*(?:-|>|->|\s|)\s*([1-7])\s*$")


def parse_board(text: str) -> tuple[tuple[str, ...], int]:
    """Read position notation into a board and side, checking every rule of a legal position."""
    match = _POSITION.match(text)
    if not match:
        raise NotationError(
            f"{text!r} is not a Morris position: write the points 1..7 separated by '/', each "
            "bottom to top with C/T (white) and c/t (black) or '-' for empty, then w or b, "
            "e.g. 'C/-/tc/-/-/-/T b'"
        )
    stacks = match.group(1).split("/")
    board: list[str] = []
    for point, stack in enumerate(stacks, start=1):
        if "-" in stack and stack != "-":
            raise NotationError(f"point {point}: '-' stands alone for an empty point")
        stack = "" if stack == "-" else stack
        if len(stack) == MAX_STACK and stack[0] == stack[1]:
            raise NotationError(f"point {point}: two {stack[0]} pieces cannot be stacked")
        board.append(stack)
    for piece in PIECES:
        count = sum(stack.count(piece) for stack in board)
        if count > PIECES_PER_SHAPE:
            raise NotationError(f"there are {count} {piece} pieces; each side has only two")
    side = SIDE_LETTERS.index(match.group(2).lower())
    white = sum(1 for stack in board for piece in stack if piece.isupper())
    black = sum(1 for stack in board for piece in stack if piece.islower())
    full = len(SHAPES) * PIECES_PER_SHAPE
    if (white < full or black < full) and abs(white - black) > 1:
        raise NotationError(
            f"{white} white and {black} black pieces placed: the players alternate, so the "
            "counts differ by at most one"
        )
    if white != black and (white < full or black < full):
        fewer = WHITE if white < black else BLACK
        if side != fewer:
            raise NotationError(
                f"with {white} white and {black} black pieces placed it is "
                f"{SIDE_NAMES[fewer]}'s turn"
            )
    return tuple(board), side


class MorrisGame(Game[MorrisConfig, MorrisState, MorrisAction, MorrisView]):
    """The Fano330-R-Morris rules engine."""

    id: ClassVar[str] = "morris.v1"
    title: ClassVar[str] = "Fano330-R-Morris"
    summary: ClassVar[str] = "abstract game on the Fano plane; 2 players, perfect information"
    config_type: ClassVar[type[GameConfig]] = MorrisConfig

    def presets(self) -> Sequence[Preset[MorrisConfig]]:
        return _PRESETS

    def num_players(self, config: MorrisConfig) -> int:
        return 2

    def seat_name(self, config: MorrisConfig, seat: int) -> str:
        return SIDE_NAMES[seat]

    def new_state(self, config: MorrisConfig, seed: int = 0) -> MorrisState:
        return MorrisState(config, ("",) * POINTS, WHITE)

    def config_of(self, state: MorrisState) -> MorrisConfig:
        return state.config

    def outcome(self, state: MorrisState) -> Outcome | None:
        return _outcome(state)

    def current_player(self, state: MorrisState) -> int | None:
        return None if _outcome(state) is not None else state.to_move

    def legal_actions(self, state: MorrisState) -> Sequence[MorrisAction]:
        if state.drawn or losing_line(state.board) is not None:
            return ()
        return _moves(state)

    def is_legal(self, state: MorrisState, action: MorrisAction) -> bool:
        return action in self.legal_actions(state)

    def explain_illegal(self, state: MorrisState, action: MorrisAction) -> str:
        outcome = self.outcome(state)
        if outcome is not None:
            return f"the game is over ({outcome.reason})"
        side = SIDE_NAMES[state.to_move]
        if isinstance(action, Place):
            if not state.is_placement:
                return "all pieces are placed: move a piece, e.g. 3-5"
            if state.in_hand(state.to_move)[action.shape] == 0:
                return f"{side} has no {SHAPE_NAMES[action.shape]} left to place"
            stack = state.board[action.point - 1]
            if len(stack) >= MAX_STACK:
                return f"point {action.point} already holds two pieces"
            return (
                f"a {SHAPE_NAMES[action.shape]} cannot go on a {SHAPE_NAMES[action.shape]} "
                "of its own colour"
            )
        if state.is_placement:
            return f"{side} still has pieces to place: place one, e.g. C1"
        stack = state.board[action.source - 1]
        if not stack:
            return f"point {action.source} is empty"
        if colour_of(stack[-1]) != state.to_move:
            return f"the top piece at point {action.source} is not {side}'s"
        if action.target not in neighbours(state.config.adjacency)[action.source]:
            return f"point {action.target} is not adjacent to point {action.source}"
        target = state.board[action.target - 1]
        if len(target) >= MAX_STACK:
            return f"point {action.target} already holds two pieces"
        return f"{stack[-1]} cannot be stacked on another {stack[-1]}"

    def apply_legal(self, state: MorrisState, action: MorrisAction) -> MorrisState:
        board = list(state.board)
        if isinstance(action, Place):
            board[action.point - 1] += piece_for(state.to_move, action.shape)
        else:
            piece = board[action.source - 1][-1]
            board[action.source - 1] = board[action.source - 1][:-1]
            board[action.target - 1] += piece
        new_board = tuple(board)
        side = 1 - state.to_move
        if isinstance(action, Place):
            return MorrisState(state.config, new_board, side)
        key = (new_board, side)
        history = state.history | {state.key}
        return MorrisState(state.config, new_board, side, history, key in history)

    # ------------------------------------------------------------------ notation
    def parse_action(self, text: str) -> MorrisAction:
        place = _PLACE.match(text)
        if place:
            return Place(place.group(1).upper(), int(place.group(2)))
        move = _MOVE.match(text)
        if move:
            source, target = int(move.group(1)), int(move.group(2))
            if source == target:
                raise NotationError("a move goes to another point")
            return Move(source, target)
        raise NotationError(
            f"{text!r} is not a Morris move: place with shape and point (C1, T7) or move with "
            "two points (3-5)"
        )

    def public_action_text(
        self, state: MorrisState, action: MorrisAction, observer: int | None
    ) -> str:
        if isinstance(action, Place):
            colour = SIDE_NAMES[state.to_move].lower()
            return f"{action} ({colour} {SHAPE_NAMES[action.shape]} on {action.point})"
        return str(action)

    def notation_help(self) -> str:
        return (
            "Placement: the shape and a point, e.g. C1 (circle on 1) or T7 (triangle on 7); "
            "your colour is implied.\nMovement: from-to, e.g. 3-5 moves your top piece at 3 "
            "to the adjacent point 5.\nPoints: 1 2 4 on the circle; sides 5-2-3, 3-4-6, 6-1-5; "
            "centre 7 on 2-7-6, 4-7-5, 1-7-3."
        )

    def format_position(self, state: MorrisState) -> str:
        return format_position(state)

    def parse_position(self, text: str, config: MorrisConfig | None = None) -> MorrisState:
        board, side = parse_board(text)
        return MorrisState(config or self.default_config(), board, side)

    # ---------------------------------------------------------------- views
    def observe(self, state: MorrisState, player: int) -> MorrisView:
        return MorrisView(player, state)

    def sample_state(self, view: MorrisView, rng: random.Random) -> MorrisState:
        return view.state

    def render(self, view: MorrisView) -> str:
        return render_board(view.state)

    def describe(self, state: MorrisState) -> str:
        outcome = self.outcome(state)
        if outcome is not None:
            return f"Game over: {outcome.reason}"
        phase = "placement" if state.is_placement else "movement"
        return f"{SIDE_NAMES[state.to_move]} to move ({phase} phase)"

    def invariant_violations(self, state: MorrisState) -> list[str]:
        problems = []
        for point, stack in enumerate(state.board, start=1):
            if len(stack) > MAX_STACK:
                problems.append(f"point {point} holds {len(stack)} pieces")
            if len(stack) == MAX_STACK and stack[0] == stack[1]:
                problems.append(f"point {point} stacks two {stack[0]}")
        for side in (WHITE, BLACK):
            if any(count < 0 for count in state.in_hand(side).values()):
                problems.append(f"{SIDE_NAMES[side]} has too many pieces on the board")
        return problems


def _moves(state: MorrisState) -> tuple[MorrisAction, ...]:
    board, side = state.board, state.to_move
    if state.is_placement:
        hand = state.in_hand(side)
        return tuple(
            Place(shape, point)
            for shape in SHAPES
            if hand[shape] > 0
            for point in range(1, POINTS + 1)
            if can_stack(board[point - 1], piece_for(side, shape))
        )
    adjacent = neighbours(state.config.adjacency)
    result: list[MorrisAction] = []
    for source in range(1, POINTS + 1):
        stack = board[source - 1]
        if stack and colour_of(stack[-1]) == side:
            for target in adjacent[source]:
                if can_stack(board[target - 1], stack[-1]):
                    result.append(Move(source, target))
    return tuple(result)


def _outcome(state: MorrisState) -> Outcome | None:
    line = losing_line(state.board)
    if line is not None:
        loser = 1 - state.to_move
        tops = [state.board[point - 1][-1] for point in line]
        kind = (
            f"three {SHAPE_NAMES[tops[0].upper()]}s"
            if len({top.upper() for top in tops}) == 1
            else f"three {SIDE_NAMES[colour_of(tops[0])].lower()} pieces"
        )
        returns = (1.0, -1.0) if loser == BLACK else (-1.0, 1.0)
        return Outcome(
            f"{SIDE_NAMES[loser]} ended the turn with {kind} on line "
            f"{'-'.join(map(str, line))} and loses",
            returns,
        )
    if state.drawn:
        return Outcome("the position repeated: a draw", (0.0, 0.0))
    if not state.is_placement and not _moves(state):
        loser = state.to_move
        returns = (1.0, -1.0) if loser == BLACK else (-1.0, 1.0)
        return Outcome(f"{SIDE_NAMES[loser]} has no legal move and loses", returns)
    return None


_PRESETS: tuple[Preset[MorrisConfig], ...] = (
    Preset(
        "geometric",
        MorrisConfig(Adjacency.GEOMETRIC),
        "pieces move to neighbouring points on the drawing (15 adjacent pairs)",
        aliases=("standard", "default"),
        player_counts=(2,),
    ),
    Preset(
        "complete",
        MorrisConfig(Adjacency.COMPLETE),
        "pieces move to any point sharing a line (all 21 pairs)",
        aliases=("any-line",),
        player_counts=(2,),
    ),
)

_TEMPLATE = r"""
                     3[  ]
                      /|\
                     / | \
                    /  |  \
                   /   |   \
              2[  ]    |    4[  ]
               / `.    |    .' \
              /    `.7[  ].'    \
             /     .'  |  `.     \
            /    .'    |    `.    \
        5[  ]---------1[  ]---------6[  ]
"""


def render_board(state: MorrisState) -> str:
    """The board drawn as the Fano plane; each point shows its stack bottom to top."""
    drawing = _TEMPLATE
    for point in range(1, POINTS + 1):
        drawing = drawing.replace(f"{point}[  ]", f"{point}[{state.board[point - 1]:<2}]")
    white, black = state.in_hand(WHITE), state.in_hand(BLACK)
    hands = (
        f"in hand: White {'C' * white['C']}{'T' * white['T']} "
        f"| Black {'c' * black['C']}{'t' * black['T']}"
    )
    return (
        drawing.rstrip("\n")
        + "\n\n  circle: 1-2-4   C/T white, c/t black (bottom to top)\n  "
        + hands
        + f"\n  position: {format_position(state)}"
    )
