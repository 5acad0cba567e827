"""Position analyses a player can ask for during a game, per game: one registry, every front end.

An analysis reads a position and answers in a sentence or a few lines: Fan patience offers
``hint`` (a move that keeps a win possible) and ``winnable`` (is this position still
winnable?) from the exact solver; Fano330-R-Morris offers ``values`` (the position's value and
every move's value from the solved table). Analyses see the full state, so they exist only for
games with no hidden information: nothing here can reveal a card. A game names its tuple of
analyses in its plugin (``GamePlugin.analyses``, :mod:`fanfold.core.plugin`): the built-in
games' are here (:data:`FAN_ANALYSES`, :data:`MORRIS_ANALYSES`).

    >>> from fanfold.core.registry import get_game
    >>> sorted(analyses_for(get_game("fan")))
    ['hint', 'winnable']
    >>> analyses_for(get_game("fantan"))
    {}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from fanfold.core.config import JSONValue
from fanfold.core.game import Choice
from fanfold.core.phrases import Phrase, PhraseParam, joined, phrases, said
from fanfold.core.plugin import Reference, load_reference
from fanfold.core.registry import AnyGame, plugin_of
from fanfold.games.fan import GAME as FAN
from fanfold.games.morris import GAME as MORRIS
from fanfold.solvers import fan as fan_solver
from fanfold.solvers import morris as morris_solver


@dataclass(frozen=True)
class Analysis:
    """A named analysis of a position.

    Attributes:
        name: the word a player types (``hint``) or the button's label.
        help: one line on what it tells (a :class:`~fanfold.core.phrases.Phrase` where it
            has a code: the terminal words it in its language).
        run: the position in, the answer out as text.
        data: the same answer as JSON for a front end that draws it (``None``: text only).
    """

    name: str
    help: str
    run: Callable[[Any], str]
    data: Callable[[Any], JSONValue] | None = None


#: Analyses put in place of a game's own, by game name: empty, for a test's stand-in.
_ANALYSES: dict[str, tuple[Analysis, ...]] = {}


def analyses_for(game: AnyGame) -> dict[str, Analysis]:
    """The analyses ``game`` offers, by name (none for games with hidden information)."""
    reference = plugin_of(game).analyses
    if game.has_hidden_information:
        return {}
    found = _ANALYSES.get(game.name)
    if found is None:
        found = () if reference is None else _load(reference)
    return {analysis.name: analysis for analysis in found}


@cache
def _load(reference: Reference) -> tuple[Analysis, ...]:
    found = load_reference(reference)
    if not isinstance(found, tuple) or not all(isinstance(item, Analysis) for item in found):
        raise TypeError(f"a game's analyses are a tuple of Analysis values, not {reference!r}")
    return found


# ------------------------------------------------------------------ Fan patience


def _fan_hint_choice(state: Any) -> Choice | None:
    """The solver's move that keeps a win possible, as the table describes it (``None``:
    there is none)."""
    move = fan_solver.hint(state)
    if move is None:
        return None
    text = FAN.action_text(move)
    return next(choice for choice in FAN.choices(state) if choice.text == text)


def _fan_at_the_deal(state: Any) -> bool:
    """True when no move was made yet: the position is its deal as dealt."""
    return state.deal is not None and bool(FAN.new_state(state.config, state.deal) == state)


def fan_hint(state: Any) -> str:
    """A move that keeps a win possible, in words and notation ("Try 9♦ from fan 2 onto 10♦
    on fan 12 (2-12)."), or why there is none: at the deal as dealt, that the deal cannot be
    won (nothing to undo yet); later, that an undo gets back to a winnable position."""
    if state.is_won:
        return Phrase("analysis.fan_won")
    choice = _fan_hint_choice(state)
    if choice is None:
        if _fan_at_the_deal(state):
            return Phrase("analysis.fan_deal_lost")
        return Phrase("analysis.fan_no_win")
    return Phrase("analysis.fan_try", move=choice.label, text=choice.text)


def fan_hint_data(state: Any) -> JSONValue:
    """The hinted move for a front end to show on the board: ``{"move": TEXT, "label": WORDS,
    "said": {code, params}, "points": [references]}`` (its words, as a code and params too, and
    the fans and foundations it names, as the move's choice points at them),
    ``{"move": null, "points": []}`` when there is none."""
    if state.is_won:
        return {"move": None, "points": []}
    choice = _fan_hint_choice(state)
    if choice is None:
        return {"move": None, "points": []}
    points: list[JSONValue] = list(choice.points)
    found: dict[str, JSONValue] = {"move": choice.text, "label": choice.label, "points": points}
    coded = said(choice.label)
    if coded is not None:  # the label as a code and params, for a page to word
        found["said"] = coded
    return found


def fan_winnable(state: Any) -> str:
    """Whether the position can still be won, decided by the exact solver."""
    result = fan_solver.solve(state)
    if result.verdict == fan_solver.SOLVED:
        return Phrase("analysis.fan_winnable_yes", count=len(result.moves))
    return Phrase("analysis.fan_winnable_no", count=result.states)


# ---------------------------------------------------------------- Fano330-R-Morris


def morris_value_text(result: str, distance: int | None, side_name: str) -> str:
    """``"White to move: wins in 13 plies with perfect play"``, ``"... loses in 1 ply ..."``
    or ``"... a draw ..."`` (a :class:`~fanfold.core.phrases.Phrase`: the terminal words it).

    >>> morris_value_text("draw", 0, "Black")
    'Black to move: a draw with perfect play'
    >>> morris_value_text("loss", 1, "White")
    'White to move: loses in 1 ply with perfect play'
    """
    if result == "draw":
        return Phrase("analysis.morris_draw", side=side_name)
    code = "analysis.morris_wins" if result == "win" else "analysis.morris_loses"
    if distance == 1:
        return Phrase(f"{code}_ply", side=side_name)
    return Phrase(code, side=side_name, count=distance or 0)


def morris_move_text(value: morris_solver.Value) -> str:
    """A move's value in words: ``"win in 13 plies"``, ``"loss in 1 ply"``, ``"draw"`` (a
    :class:`~fanfold.core.phrases.Phrase`; its English is ``str(value)``)."""
    if value.result is morris_solver.Result.DRAW:
        return Phrase("analysis.value_draw")
    code = f"analysis.value_{value.result.value}"
    if value.distance == 1:
        return Phrase(f"{code}_ply")
    return Phrase(code, count=value.distance or 0)


def morris_values(state: Any) -> str:
    """The value of the position and of every legal move, from the solved table."""
    if MORRIS.outcome(state) is not None:
        return Phrase("analysis.game_over")
    table = morris_solver.load_table(state.config.adjacency)
    value = table.state_value(state)
    side = MORRIS.seat_name(state.config, state.to_move)
    lines: list[PhraseParam] = [morris_value_text(value.result.value, value.distance, side)]
    lines += [
        Phrase("analysis.move_value", move=MORRIS.action_text(action), value=morris_move_text(move))
        for action, move in morris_solver.rank_actions(table, state)
    ]
    answer = joined(lines, "analysis.lines")  # each line a phrase, for the terminal to word
    assert isinstance(answer, str)
    return answer


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


# each analysis's one line of help, a phrase (the terminal words it in its language)
phrases(
    {
        "analysis.fan_hint": "a move that keeps a win possible",
        "analysis.fan_winnable": "is this position still winnable?",
        "analysis.morris_values": "the position's value and every move's, from the solved table",
    },
    terminal=True,
)
# the analyses' answers, phrases too (the terminal words them; a page reads their data)
phrases(
    {
        "analysis.fan_won": "The game is won.",
        "analysis.fan_deal_lost": "This deal cannot be won: no sequence of moves wins it. "
        "Try another deal.",
        "analysis.fan_no_win": "No win is possible from here: undo to get back to a winnable "
        "position.",
        "analysis.fan_try": "Try {move} ({text}).",
        "analysis.fan_winnable_yes": "Yes: this position can still be won ({count} moves to go).",
        "analysis.fan_winnable_no": "No: no sequence of moves wins from here ({count} positions "
        "examined).",
        "analysis.game_over": "The game is over.",
        "analysis.morris_draw": "{side} to move: a draw with perfect play",
        "analysis.morris_wins": "{side} to move: wins in {count} plies with perfect play",
        "analysis.morris_wins_ply": "{side} to move: wins in 1 ply with perfect play",
        "analysis.morris_loses": "{side} to move: loses in {count} plies with perfect play",
        "analysis.morris_loses_ply": "{side} to move: loses in 1 ply with perfect play",
        "analysis.value_draw": "draw",
        "analysis.value_win": "win in {count} plies",
        "analysis.value_win_ply": "win in 1 ply",
        "analysis.value_loss": "loss in {count} plies",
        "analysis.value_loss_ply": "loss in 1 ply",
        # a move's line under the position's value: the move as notation, its value in words
        "analysis.move_value": "  {move}: {value}",
        "analysis.lines": "{first}\n{rest}",
    },
    terminal=True,
)

#: Fan patience's analyses (its plugin names them).
FAN_ANALYSES: tuple[Analysis, ...] = (
    Analysis("hint", Phrase("analysis.fan_hint"), fan_hint, fan_hint_data),
    Analysis("winnable", Phrase("analysis.fan_winnable"), fan_winnable),
)
#: Fano330-R-Morris's analyses (its plugin names them).
MORRIS_ANALYSES: tuple[Analysis, ...] = (
    Analysis("values", Phrase("analysis.morris_values"), morris_values, morris_values_data),
)
