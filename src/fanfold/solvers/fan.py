"""Deciding Fan deals exactly: a winning move list, or a proof that none exists.

:func:`solve` searches every position reachable from a Fan position (depth first, never
expanding a position twice, fans compared as interchangeable) under pruning rules that are
proved to lose no solution (``docs/solvers/fan.md``), with a short best-first pass after the
first few hundred positions to find the quick wins the depth-first order reaches late. Its
verdict is ``"solved"`` with the full move list, or ``"unsolvable"`` once the whole reachable
space is exhausted; ``"unknown"`` only when the caller set ``max_states``. Every move list is
replayed through the rules engine before it is returned, so the solver cannot claim a win the
rules reject::

    >>> from fanfold.games.fan import FanConfig, FanGame
    >>> state = FanGame().new_state(FanConfig(), 3)
    >>> result = solve(state)
    >>> result.verdict, len(result.moves) > 52
    ('solved', True)
    >>> solve(FanGame().new_state(FanConfig(), 1)).verdict
    'unsolvable'
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError
from fanfold.games.fan import FanConfig, FanGame, FanMove, FanState
from fanfold.solvers.fan_search import BEST_FIRST_STATES, FOUNDATION, search

SOLVED = "solved"
UNSOLVABLE = "unsolvable"
UNKNOWN = "unknown"

_GAME = FanGame()


class SolverError(FanfoldError):
    """The search produced a move list that the rules engine rejects (a solver bug)."""


@dataclass(frozen=True)
class FanSolution:
    """The answer for one position.

    Attributes:
        verdict: ``"solved"``, ``"unsolvable"`` or ``"unknown"`` (only with ``max_states``).
        moves: the winning moves in order when solved, else ``()``.
        states: distinct positions the search expanded.
        seconds: wall-clock time of the search.
    """

    verdict: str
    moves: tuple[FanMove, ...]
    states: int
    seconds: float

    @property
    def is_winnable(self) -> bool | None:
        """True when solved, False when proved unsolvable, None when unknown."""
        if self.verdict == UNKNOWN:
            return None
        return self.verdict == SOLVED

    def to_json(self) -> JSONObject:
        """The answer as JSON (moves in the game's notation)."""
        return {
            "verdict": self.verdict,
            "moves": [str(move) for move in self.moves],
            "states": self.states,
            "seconds": round(self.seconds, 6),
        }


def solve(state: FanState, *, max_states: int | None = None) -> FanSolution:
    """Decide ``state`` under its own variant.

    Args:
        state: any Fan position (a fresh deal or one in the middle of play).
        max_states: stop with ``"unknown"`` after expanding this many positions.

    Returns:
        The verdict, the moves (checked by the rules engine) and the effort.

    Raises:
        SolverError: if the move list does not replay under the rules (never expected).
    """
    started = time.perf_counter()
    result = search(
        [[card.index for card in fan] for fan in state.fans],
        state.foundations,
        any_card_to_empty=state.config.any_card_to_empty,
        sequence_moves=state.config.sequence_moves,
        max_states=max_states,
        best_first=BEST_FIRST_STATES,
    )
    seconds = time.perf_counter() - started
    moves = tuple(
        FanMove(source + 1, None if target == FOUNDATION else target + 1, count)
        for source, target, count in result.moves
    )
    if result.verdict == SOLVED:
        check_solution(state, moves)
    return FanSolution(result.verdict, moves, result.states, seconds)


def check_solution(state: FanState, moves: Sequence[FanMove]) -> FanState:
    """Replay ``moves`` through the rules engine and insist that they win.

    Returns:
        The final (won) position.

    Raises:
        SolverError: when a move is illegal or the game is not won at the end.
    """
    for number, move in enumerate(moves, start=1):
        reason = _GAME.explain_illegal(state, move) if not _GAME.is_legal(state, move) else None
        if reason is not None:
            raise SolverError(f"move {number} ({move}) is illegal: {reason}")
        state = _GAME.apply_legal(state, move)
    if not state.is_won:
        raise SolverError("the moves end before every card is on its foundation")
    return state


def solve_deal(
    deal: int, config: FanConfig | None = None, *, max_states: int | None = None
) -> FanSolution:
    """Decide PySolFC's Fan deal number ``deal`` under ``config`` (classic by default)."""
    return solve(_GAME.new_state(config or FanConfig(), deal), max_states=max_states)


def hint(state: FanState) -> FanMove | None:
    """The first move of a win from ``state``, or None when no win exists (or it is over)."""
    result = solve(state)
    return result.moves[0] if result.moves else None
