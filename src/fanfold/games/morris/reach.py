"""Whether a side of a Fano330-R-Morris game could still win by any legal sequence of moves.

A table's clock can run out (:mod:`fanfold.core.rulings`); the side whose time ran out loses,
unless the other side could not win by any legal sequence of moves from the position, with
both sides' help: then the game is drawn, as chess's time-out against insufficient material.

The other side wins when the side that ran out of time ends a turn with a losing line, or has
no move at the start of a movement turn. The search is a breadth-first walk over positions
(the board and the side to move) that never enters a position the game has already seen
(that would repeat it, a draw) nor passes through a finished game, and stops at the first
position that is a win for the side asked about. Its shortest path never repeats a position
of its own, so a position can be reached without repeating one exactly when the walk finds
it. The walk covers at most every position reachable from this one (all 2.46 million legal
positions of the game in the worst case, in practice a few thousand at most: losing is easy
with help).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from fanfold.games.morris.actions import MorrisAction, Place
from fanfold.games.morris.board import piece_for
from fanfold.games.morris.rules import legal_actions, losing_line, outcome
from fanfold.games.morris.state import MorrisState

Key = tuple[tuple[str, ...], int]


def _successors(state: MorrisState) -> Iterator[tuple[MorrisAction, tuple[str, ...]]]:
    """Each action of ``state`` and the board after it (the other side to move then)."""
    for action in legal_actions(state):
        board = list(state.board)
        if isinstance(action, Place):
            board[action.point - 1] += piece_for(state.to_move, action.shape)
        else:
            piece = board[action.source - 1][-1]
            board[action.source - 1] = board[action.source - 1][:-1]
            board[action.target - 1] += piece
        yield action, tuple(board)


def winning_line(state: MorrisState, side: int) -> list[MorrisAction] | None:
    """A shortest legal sequence of actions from ``state`` at whose end ``side`` (0 White,
    1 Black) has won, both sides playing any legal moves, without a repetition on the way;
    ``None`` when there is none. An empty list when ``side`` has won already."""
    ended = outcome(state)
    if ended is not None:
        return [] if ended.returns[side] > 0 else None
    seen: set[Key] = set(state.history) | {state.key}
    #: How the walk first reached each position: the position before and the action.
    came_from: dict[Key, tuple[Key, MorrisAction]] = {}
    queue: deque[MorrisState] = deque([state])

    def line_to(key: Key, last: MorrisAction, before: Key) -> list[MorrisAction]:
        actions = [last]
        while before != state.key:
            before, action = came_from[before]
            actions.append(action)
        return actions[::-1]

    while queue:
        current = queue.popleft()
        mover = current.to_move
        for action, board in _successors(current):
            key = (board, 1 - mover)
            if losing_line(board) is not None:
                if mover != side:  # the other side ended its turn with a line: ``side`` wins
                    return line_to(key, action, current.key)
                continue
            if key in seen:  # seen in the game (a repetition: a draw) or already by the walk
                continue
            seen.add(key)
            came_from[key] = (current.key, action)
            after = MorrisState(current.config, board, 1 - mover)
            if not after.is_placement and not legal_actions(after):
                if after.to_move != side:  # the other side cannot move: ``side`` wins
                    return line_to(key, action, current.key)
                continue
            queue.append(after)
    return None


def can_still_win(state: MorrisState, side: int) -> bool:
    """Whether ``side`` (0 White, 1 Black) wins at the end of some legal sequence of actions
    from ``state`` (:func:`winning_line`). False once the game is over and ``side`` has not
    won."""
    return winning_line(state, side) is not None
