"""Fano330-R-Morris rules: stacking, legal actions, applying them, the end of the game.

Everything the rules decide is decided here, once (rules text: seeds/002; readings:
``docs/rules/morris.md``). :func:`why_illegal` is the single source of legality:
:func:`is_legal` is ``why_illegal(...) is None`` and :func:`legal_actions` lists exactly the
actions it allows (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import fanfold.games.morris.refusals  # noqa: F401  (registers the refusals' templates)
from fanfold.core.errors import Refusal, templates
from fanfold.core.game import Outcome, Termination
from fanfold.core.phrases import Phrase, phrases
from fanfold.games.morris.actions import MorrisAction, Move, Place
from fanfold.games.morris.board import (
    BLACK,
    LINES,
    MAX_STACK,
    POINTS,
    SHAPE_NAMES,
    SHAPES,
    SIDE_NAMES,
    WHITE,
    colour_of,
    neighbours,
    piece_for,
)
from fanfold.games.morris.config import MorrisConfig
from fanfold.games.morris.state import MorrisState

#: How a game ends, in words (:class:`~fanfold.core.phrases.Phrase`).
phrases(
    {
        "morris.line_loses": "{side} ended the turn with {kind} on line {line} and loses",
        "morris.three_circles": "three circles",
        "morris.three_triangles": "three triangles",
        "morris.three_white": "three white pieces",
        "morris.three_black": "three black pieces",
        "morris.repeated": "the position repeated: a draw",
        "morris.no_move": "{side} has no legal move and loses",
    }
)


def new_state(config: MorrisConfig) -> MorrisState:
    """The empty board, White to place first."""
    return MorrisState(config, ("",) * POINTS, WHITE)


def can_stack(stack: str, piece: str) -> bool:
    """The stacking rules: at most two to a point, never two of one shape and colour."""
    return len(stack) < MAX_STACK and (not stack or stack[-1] != piece)


def losing_line(board: Sequence[str]) -> tuple[int, int, int] | None:
    """A line of three occupied points whose tops share a colour or a shape, if any."""
    for line in LINES:
        a, b, c = (board[point - 1] for point in line)
        if a and b and c:
            x, y, z = a[-1], b[-1], c[-1]
            if x.upper() == y.upper() == z.upper() or x.isupper() == y.isupper() == z.isupper():
                return line
    return None


# --------------------------------------------------------------------------------- legality
def legal_actions(state: MorrisState) -> tuple[MorrisAction, ...]:
    """Every legal action, in a stable order: placements by shape then point, movements by
    source then target; nothing once the game is over."""
    if state.drawn or losing_line(state.board) is not None:
        return ()
    return _moves(state)


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


def is_legal(state: MorrisState, action: MorrisAction) -> bool:
    """Whether ``action`` may be taken now."""
    return why_illegal(state, action) is None


def why_illegal(state: MorrisState, action: MorrisAction) -> Refusal | None:
    """A sentence telling the player why ``action`` breaks a rule here, or ``None`` when it is
    legal."""
    ended = outcome(state)
    if ended is not None:
        return Refusal("morris.over", reason=ended.reason)
    side = SIDE_NAMES[state.to_move]
    if isinstance(action, Place):
        if action.shape not in SHAPES or not 1 <= action.point <= POINTS:
            return Refusal("morris.not_a_placement", action=str(action))
        if not state.is_placement:
            return Refusal("morris.all_placed")
        if state.in_hand(state.to_move)[action.shape] == 0:
            return Refusal("morris.none_left", side=side, shape=SHAPE_NAMES[action.shape])
        stack = state.board[action.point - 1]
        if len(stack) >= MAX_STACK:
            return Refusal("morris.point_full", point=action.point)
        if not can_stack(stack, piece_for(state.to_move, action.shape)):
            return Refusal("morris.same_shape", shape=SHAPE_NAMES[action.shape])
        return None
    if not 1 <= action.source <= POINTS or not 1 <= action.target <= POINTS:
        return Refusal("morris.not_a_move", action=str(action))
    if state.is_placement:
        return Refusal("morris.still_placing", side=side)
    stack = state.board[action.source - 1]
    if not stack:
        return Refusal("morris.point_empty", point=action.source)
    if colour_of(stack[-1]) != state.to_move:
        return Refusal("morris.not_yours", point=action.source, side=side)
    if action.target not in neighbours(state.config.adjacency)[action.source]:
        return Refusal("morris.not_adjacent", target=action.target, source=action.source)
    target = state.board[action.target - 1]
    if len(target) >= MAX_STACK:
        return Refusal("morris.point_full", point=action.target)
    if not can_stack(target, stack[-1]):
        return Refusal("morris.same_piece", piece=stack[-1])
    return None


# ---------------------------------------------------------------------------------- playing
def apply(state: MorrisState, action: MorrisAction) -> MorrisState:
    """The state after a legal action (not checked). A movement records the position it left,
    for the repetition rule."""
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


# ---------------------------------------------------------------------------------- the end
def outcome(state: MorrisState) -> Outcome | None:
    """How the game ended, ``None`` while it goes on: a line of one colour or one shape loses
    for the player who made it, a repeated position is a draw, and a player with no move at
    the start of a movement turn loses."""
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
            termination=Termination.LINE_OF_THREE,
        )
    if state.drawn:
        return Outcome(
            "the position repeated: a draw", (0.0, 0.0), termination=Termination.REPETITION
        )
    if not state.is_placement and not _moves(state):
        loser = state.to_move
        returns = (1.0, -1.0) if loser == BLACK else (-1.0, 1.0)
        return Outcome(
            f"{SIDE_NAMES[loser]} has no legal move and loses",
            returns,
            termination=Termination.NO_MOVE,
        )
    return None


def ending_words(state: MorrisState) -> Phrase | None:
    """How the game ended, in words a page words in its language (a
    :class:`~fanfold.core.phrases.Phrase`, the English of :func:`outcome`'s reason);
    ``None`` while play goes on. Apart from :func:`outcome`, which the bots' playouts call:
    they never pay for the words."""
    ended = _worded_outcome(state)
    return None if ended is None else cast(Phrase, ended.reason)


def _worded_outcome(state: MorrisState) -> Outcome | None:
    """:func:`outcome`, its reason a :class:`~fanfold.core.phrases.Phrase`."""
    line = losing_line(state.board)
    if line is not None:
        loser = 1 - state.to_move
        tops = [state.board[point - 1][-1] for point in line]
        kind = (
            Phrase(f"morris.three_{SHAPE_NAMES[tops[0].upper()]}s")
            if len({top.upper() for top in tops}) == 1
            else Phrase(f"morris.three_{SIDE_NAMES[colour_of(tops[0])].lower()}")
        )
        returns = (1.0, -1.0) if loser == BLACK else (-1.0, 1.0)
        return Outcome(
            Phrase(
                "morris.line_loses",
                side=SIDE_NAMES[loser],
                kind=kind,
                line="-".join(map(str, line)),
            ),
            returns,
            termination=Termination.LINE_OF_THREE,
        )
    if state.drawn:
        return Outcome(Phrase("morris.repeated"), (0.0, 0.0), termination=Termination.REPETITION)
    if not state.is_placement and not _moves(state):
        loser = state.to_move
        returns = (1.0, -1.0) if loser == BLACK else (-1.0, 1.0)
        return Outcome(
            Phrase("morris.no_move", side=SIDE_NAMES[loser]),
            returns,
            termination=Termination.NO_MOVE,
        )
    return None


# ------------------------------------------------------------------------------- invariants
#: Each broken invariant's code and English template: a position read from text that breaks
#: one is refused with them (``game.impossible_position``), worded in the reader's language.
templates(
    {
        "morris.inv_stack": "point {point} holds {count} pieces",
        "morris.inv_two": "point {point} stacks two {piece}",
        "morris.inv_pieces": "{side} has too many pieces on the board",
    }
)


def invariant_violations(state: MorrisState) -> list[str]:
    """Rule invariants ``state`` breaks (empty when all hold)."""
    problems: list[str] = []
    for point, stack in enumerate(state.board, start=1):
        if len(stack) > MAX_STACK:
            problems.append(Refusal("morris.inv_stack", point=point, count=len(stack)))
        if len(stack) == MAX_STACK and stack[0] == stack[1]:
            problems.append(Refusal("morris.inv_two", point=point, piece=stack[0]))
    for side in (WHITE, BLACK):
        if any(count < 0 for count in state.in_hand(side).values()):
            problems.append(Refusal("morris.inv_pieces", side=SIDE_NAMES[side]))
    return problems
