"""Position analyses a player can ask for during a game, per game: one registry, every front end.

An analysis reads a position and answers in a sentence or a few lines: Fan patience offers
``hint`` (a move that keeps a win possible) and ``winnable`` (is this position still
winnable?) from the exact solver; Fano330-R-Morris offers ``values`` (the position's value and
every move's value from the solved table). Analyses see the full state, so they exist only for
games with no hidden information: nothing here can reveal a card.

    >>> from fanfold.core.registry import get_game
    >>> sorted(analyses_for(get_game("fan")))
    ['hint', 'winnable']
    >>> analyses_for(get_game("fantan"))
    {}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fanfold.core.config import JSONValue
from fanfold.core.registry import AnyGame
from fanfold.games.morris import GAME as MORRIS
from fanfold.solvers import fan as fan_solver
from fanfold.solvers import morris as morris_solver


@dataclass(frozen=True)
class Analysis:
    """A named analysis of a position.

    Attributes:
        name: the word a player types (``hint``) or the button's label.
        help: one line on what it tells.
        run: the position in, the answer out as text.
        data: the same answer as JSON for a front end that draws it (``None``: text only).
    """

    name: str
    help: str
    run: Callable[[Any], str]
    data: Callable[[Any], JSONValue] | None = None


def analyses_for(game: AnyGame) -> dict[str, Analysis]:
    """The analyses ``game`` offers, by name (none for games with hidden information)."""
    if game.has_hidden_information:
        return {}
    return {analysis.name: analysis for analysis in _ANALYSES.get(game.name, ())}


# ------------------------------------------------------------------ Fan patience


def fan_hint(state: Any) -> str:
    """A move that keeps a win possible, or why there is none."""
    if state.is_won:
        return "The game is won."
    move = fan_solver.hint(state)
    if move is None:
        return "No win is possible from here: undo to get back to a winnable position."
    return f"Try {move}."


def fan_winnable(state: Any) -> str:
    """Whether the position can still be won, decided by the exact solver."""
    result = fan_solver.solve(state)
    if result.verdict == fan_solver.SOLVED:
        return f"Yes: this position can still be won ({len(result.moves)} moves to go)."
    return f"No: no sequence of moves wins from here ({result.states} positions examined)."


# ---------------------------------------------------------------- Fano330-R-Morris


def morris_value_text(result: str, distance: int | None, side_name: str) -> str:
    """``"White to move: wins in 13 plies with perfect play"`` or ``"... a draw ..."``.

    >>> morris_value_text("draw", 0, "Black")
    'Black to move: a draw with perfect play'
    """
    if result == "draw":
        return f"{side_name} to move: a draw with perfect play"
    return f"{side_name} to move: {result}s in {distance} plies with perfect play"


def morris_values(state: Any) -> str:
    """The value of the position and of every legal move, from the solved table."""
    if MORRIS.outcome(state) is not None:
        return "The game is over."
    table = morris_solver.load_table(state.config.adjacency)
    value = table.state_value(state)
    side = MORRIS.seat_name(state.config, state.to_move)
    lines = [morris_value_text(value.result.value, value.distance, side)]
    lines += [
        f"  {MORRIS.action_text(action)}: {move}"
        for action, move in morris_solver.rank_actions(table, state)
    ]
    return "\n".join(lines)


def morris_values_data(state: Any) -> JSONValue:
    """The position's value and each legal move's, as JSON: ``{"value": {...}, "moves":
    [{"action": "3-5", "value": {"result": "win", "distance": 13}, "text": "win in 13
    plies"}, ...]}``, best move first; values are for the side to move."""
    if MORRIS.outcome(state) is not None:
        return {"value": None, "moves": []}
    table = morris_solver.load_table(state.config.adjacency)
    moves: list[JSONValue] = [
        {"action": MORRIS.action_text(action), "value": move.to_json(), "text": str(move)}
        for action, move in morris_solver.rank_actions(table, state)
    ]
    return {"value": table.state_value(state).to_json(), "moves": moves}


_ANALYSES: dict[str, tuple[Analysis, ...]] = {
    "fan": (
        Analysis("hint", "a move that keeps a win possible", fan_hint),
        Analysis("winnable", "is this position still winnable?", fan_winnable),
    ),
    "morris": (
        Analysis(
            "values",
            "the position's value and every move's, from the solved table",
            morris_values,
            morris_values_data,
        ),
    ),
}
