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

from fanfold.cli.common import console, error_console, refused
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


def _value_text(value: MoveValue | None, patience: bool) -> str:
    """A value as the table shows it (Fan: winnable or lost)."""
    if value is None:
        return "?"
    if patience:
        return "winnable" if value.result == "win" else "lost"
    return str(value)


def _show(result: Review) -> None:
    """The review as a table of moves and the summary."""
    from rich.table import Table

    record = result.record
    patience = result.deal is not None
    console.print(
        f"{result.title} ({result.game}), seed {record.seed}, {len(record.actions)} moves; "
        f"engine review version {result.version}",
        markup=False,
    )
    table = Table()
    table.add_column("#", justify="right")
    table.add_column("seat")
    table.add_column("move")
    table.add_column("before", no_wrap=True)
    table.add_column("after", no_wrap=True)
    table.add_column("mark", no_wrap=True)
    table.add_column("best")
    for move in result.moves:
        table.add_row(
            str(move.number),
            move.seat_name,
            move.text,
            _value_text(move.before, patience),
            _value_text(move.after, patience),
            "" if move.mark is None else move.mark.value.replace("_", " "),
            move.best or "",
        )
    console.print(table)
    for sentence in result.summary:
        console.print(sentence, markup=False)
