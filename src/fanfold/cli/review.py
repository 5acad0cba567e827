"""``fanfold review RECORD.json``: the engines' review of a game from its record.

Prints a table of the game's moves, each with its value before and after (for the mover),
its mark where it lost value and the best move there, then the summary ("White's 7th move, C3,
turned a draw into a loss; best was T5."). ``--json`` prints the review as JSON instead
(:meth:`fanfold.play.review.Review.to_json`, ``docs/review/api.md``). Fano330-R-Morris is
reviewed from the solved table, Fan patience by the exact solver; Fano and Fan Tan are refused.
A record that cannot be read or replayed, or a game with no review, is an error (exit code 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fanfold.cli.common import console, error_console, refused, terminal_words
from fanfold.cli.help_words import N_
from fanfold.core.errors import FanfoldError

if TYPE_CHECKING:
    from fanfold.play.review import MoveValue, Review

# The play layer and the solvers are imported when the command runs, not when ``fanfold``
# starts (tests/cli/test_start_up.py).


def review(
    path: Annotated[Path, typer.Argument(help="A game record (JSON), as fanfold saves it.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    max_states: Annotated[
        int | None,
        typer.Option(
            help="Fan: positions the solver may expand per question (default: no limit, "
            "exact); past it the review may be undecided.",
            min=1,
        ),
    ] = None,
) -> None:
    """Review a finished game's moves with the engines: the solved table for
    Fano330-R-Morris, the exact solver for Fan patience."""
    from fanfold.core.records import GameRecord
    from fanfold.play.review import review as make_review

    try:
        record = GameRecord.load(path)
        result = make_review(
            record,
            max_states=max_states,
            message=lambda text: error_console.print(text, markup=False),
        )
    except FanfoldError as error:
        refused(error)
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
        return
    _show(result)


#: The table's columns (its first, the move's number, is "#").
COLUMNS = (N_("seat"), N_("move"), N_("before"), N_("after"), N_("mark"), N_("best"))
#: A mark's words (the JSON keeps its value: :class:`fanfold.play.review.Mark`).
MARKS = {
    "worse_result": N_("worse result"),
    "slower_win": N_("slower win"),
    "faster_loss": N_("faster loss"),
    "lost_deal": N_("lost deal"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
    "won": N_("won"),
    "never_winnable": N_("never winnable"),
    "lost": N_("lost"),
}
#: A Fan deal's value before and after a move.
PATIENCE = {"win": N_("winnable"), "loss": N_("lost")}
#: A value with no distance (the solver's draw).
RESULTS = {"win": N_("win"), "loss": N_("loss"), "draw": N_("draw")}


def _value_text(value: MoveValue | None, patience: bool) -> str:
    """A value as the table shows it (Fan: winnable or lost), in the terminal's language."""
    from fanfold.core.phrases import Phrase

    words = terminal_words()
    if value is None:
        return "?"
    if patience:
        return words.gettext(PATIENCE["win" if value.result == "win" else "loss"])
    if value.distance is None or value.result not in ("win", "loss"):
        return words.gettext(RESULTS.get(value.result, value.result))
    if value.distance == 1:
        return words.text(Phrase(f"analysis.value_{value.result}_ply"))
    return words.text(Phrase(f"analysis.value_{value.result}", count=value.distance))


def _show(result: Review) -> None:
    """The review as a table of moves and the summary."""
    from rich.table import Table

    words = terminal_words()
    gettext = words.gettext
    record = result.record
    patience = result.deal is not None
    heading = gettext(
        "%(title)s (%(game)s), seed %(seed)s, %(moves)s moves; engine review version %(version)s"
    )
    params = {
        "title": result.title,
        "game": result.game,
        "seed": record.seed,
        "moves": len(record.actions),
        "version": result.version,
    }
    console.print(heading % params, markup=False)
    table = Table()
    table.add_column("#", justify="right")
    for column in COLUMNS:
        table.add_column(gettext(column), no_wrap=column in ("before", "after", "mark"))
    for move in result.moves:
        mark = "" if move.mark is None else move.mark.value
        table.add_row(
            str(move.number),
            gettext(move.seat_name),
            move.text,
            _value_text(move.before, patience),
            _value_text(move.after, patience),
            gettext(MARKS.get(mark, mark.replace("_", " "))) if mark else "",
            move.best or "",
        )
    console.print(table)
    for sentence in result.summary:
        console.print(words.text(sentence), markup=False)
