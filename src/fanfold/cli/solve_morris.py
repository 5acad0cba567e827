"""``fanfold solve morris``: Fano330-R-Morris strongly solved.

Without ``--position`` it reports the value of the start, the counts of positions by phase and
result, and the time taken; with ``--position`` it gives the value of that position for the
side to move and every move's value, best first.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from fanfold.cli.common import console, error_console, refused, said, terminal_words
from fanfold.cli.help_words import N_
from fanfold.cli.solve import app
from fanfold.core.errors import FanfoldError
from fanfold.core.registry import get_game
from fanfold.games.morris import MorrisConfig, MorrisGame
from fanfold.games.morris.board import SIDE_LETTERS, SIDE_NAMES

if TYPE_CHECKING:
    from fanfold.solvers.morris import MorrisTable, Value

# The solver (with NumPy) is imported by the functions that use it, when the command runs.


class _ProgressDisplay:
    """Shows the solver's stages as progress bars on standard error while it builds."""

    def __init__(self) -> None:
        self.progress: Progress | None = None
        self.tasks: dict[str, TaskID] = {}

    def __call__(self, stage: str, fraction: float) -> None:
        if self.progress is None:
            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.percentage:>3.0f}%"),
                TimeElapsedColumn(),
                console=error_console,
                transient=True,
            )
            self.progress.start()
        if stage not in self.tasks:
            for task in self.tasks.values():
                self.progress.update(task, completed=1.0)
            solving = terminal_words().gettext("solving: %(stage)s") % {"stage": stage}
            self.tasks[stage] = self.progress.add_task(solving, total=1.0)
        self.progress.update(self.tasks[stage], completed=min(1.0, fraction))

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()


def _value_text(value: Value, side: int) -> str:
    """The value for the side to move, in the terminal's language."""
    from fanfold.play.analysis import morris_value_text  # loads the play layer

    words = terminal_words()
    return words.text(morris_value_text(value.result.value, value.distance, SIDE_NAMES[side]))


#: The counts table's title, its columns, its rows' labels and its phases.
COUNTS_TITLE = N_("positions by phase and value (for the side to move)")
COUNTS_COLUMNS = (
    N_("positions"),
    N_("phase"),
    N_("total"),
    N_("win"),
    N_("loss"),
    N_("draw"),
    N_("ended by a line"),
)
SCOPES = {"reachable": N_("reachable from the start"), "legal": N_("all legal")}
PHASES = {"placement": N_("placement"), "movement": N_("movement"), "all": N_("all")}


def _load(config: MorrisConfig, rebuild: bool) -> tuple[MorrisTable, bool, float]:
    """The table, whether it was solved now (not read from the cache), and the time taken."""
    from fanfold.solvers.morris import load_table

    started = time.perf_counter()
    display = _ProgressDisplay()
    try:
        table = load_table(
            config.adjacency,
            progress=display,
            message=lambda text: error_console.print(text, markup=False),
            use_cache=not rebuild,
        )
    finally:
        display.stop()
    return table, bool(display.tasks), time.perf_counter() - started


def _counts_table(counts: dict[str, Any]) -> Table:
    gettext = terminal_words().gettext
    table = Table(title=gettext(COUNTS_TITLE))
    for number, column in enumerate(COUNTS_COLUMNS):
        table.add_column(gettext(column), justify="left" if number < 2 else "right")
    for scope in ("reachable", "legal"):
        label = gettext(SCOPES[scope])
        for phase in ("placement", "movement"):
            row = counts[scope][phase]
            table.add_row(
                label if phase == "placement" else "",
                gettext(PHASES[phase]),
                *(f"{row[key]:,}" for key in ("total", "win", "loss", "draw", "ended_by_line")),
            )
        everything = gettext(PHASES["all"])
        table.add_row("", everything, f"{counts[scope]['total']:,}", "", "", "", "")
    return table


def _describe_start(
    game: MorrisGame, config: MorrisConfig, table: MorrisTable
) -> tuple[dict[str, Any], list[str]]:
    from fanfold.solvers.morris import Result, rank_actions

    state = game.new_state(config)
    value = table.state_value(state)
    ranked = rank_actions(table, state)
    best = [game.action_text(action) for action, move in ranked if move.rank == ranked[0][1].rank]
    data = {
        "position": game.format_position(state),
        **value.to_json(),
        "best_moves": best,
        "moves": [{"move": game.action_text(a), **move.to_json()} for a, move in ranked],
    }
    gettext = terminal_words().gettext
    if value.result is Result.DRAW:
        length = gettext(
            "the game is drawn: with perfect play no line is ever forced and nobody is "
            "blocked, so the game goes on until a position repeats"
        )
    else:
        winner = SIDE_NAMES[0] if value.result is Result.WIN else SIDE_NAMES[1]
        length = gettext("%(winner)s wins; the game lasts %(plies)s plies with perfect play") % {
            "winner": gettext(winner),
            "plies": value.distance,
        }
    start = gettext("Start (%(position)s): %(value)s")
    lines = [
        start % {"position": data["position"], "value": _value_text(value, state.to_move)},
        gettext("Game length: %(length)s") % {"length": length},
        gettext("Best first moves: %(moves)s") % {"moves": " ".join(best)},
    ]
    return data, lines


@app.command("morris")
def solve_morris(
    position: Annotated[
        str | None,
        typer.Option(
            "--position",
            "-p",
            help="A position to evaluate, e.g. 'C/-/tc/-/-/-/T b' (default: report on the start).",
        ),
    ] = None,
    variant: Annotated[
        str, typer.Option("--variant", "-v", help="geometric (the default) or complete.")
    ] = "geometric",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
    rebuild: Annotated[
        bool, typer.Option("--rebuild", help="Solve afresh instead of reading the cache.")
    ] = False,
) -> None:
    """Fano330-R-Morris strongly solved: the value of the start or of any position."""
    game = get_game("morris")
    if not isinstance(game, MorrisGame):  # the registry maps "morris" to the Morris engine
        said(N_("the Morris game is not registered"))
    try:
        config = game.preset(variant).config
        state = game.parse_position(position, config) if position is not None else None
    except FanfoldError as error:
        refused(error)
    table, built, seconds = _load(config, rebuild)
    if state is None:
        _report_start(game, config, table, built, seconds, as_json)
    else:
        _report_position(game, state, table, as_json)


def _report_start(
    game: MorrisGame,
    config: MorrisConfig,
    table: MorrisTable,
    built: bool,
    seconds: float,
    as_json: bool,
) -> None:
    from fanfold.solvers.morris import cache_path

    counts = table.summary()
    start, lines = _describe_start(game, config, table)
    if as_json:
        data = {
            "game": game.id,
            "variant": config.adjacency.value,
            "positions": table.size,
            "start": start,
            "game_length": start["distance"],
            "counts": counts,
            "seconds": round(seconds, 3),
            "solve_seconds": round(table.build_seconds, 3),
            "from_cache": not built,
            "cache": str(table.source or cache_path(config.adjacency)),
        }
        console.print_json(json.dumps(data))
        return
    gettext = terminal_words().gettext
    sized = gettext(
        "%(game)s, %(adjacency)s adjacency: %(positions)s legal positions (%(reachable)s "
        "reachable from the start)"
    )
    params = {
        "game": game.title,
        "adjacency": config.adjacency.value,
        "positions": f"{table.size:,}",
        "reachable": f"{counts['reachable']['total']:,}",
    }
    console.print(sized % params, markup=False)
    for line in lines:
        console.print(line, markup=False)
    console.print(_counts_table(counts))
    loaded = gettext("loaded from %(path)s") % {
        "path": table.source or cache_path(config.adjacency)
    }
    source = gettext("solved") if built else loaded
    timed = gettext("Time: %(seconds)s s (%(source)s; solving takes %(solving)s s)")
    params = {
        "seconds": f"{seconds:.2f}",
        "source": source,
        "solving": f"{table.build_seconds:.2f}",
    }
    console.print(timed % params, markup=False)


def _report_position(game: MorrisGame, state: Any, table: MorrisTable, as_json: bool) -> None:
    from fanfold.solvers.morris import rank_actions

    outcome = game.outcome(state)
    value = table.state_value(state)
    ranked = rank_actions(table, state)
    best = [game.action_text(a) for a, move in ranked if move.rank == ranked[0][1].rank]
    index = table.index(state.board, state.to_move)
    if as_json:
        data = {
            "game": game.id,
            "variant": state.config.adjacency.value,
            "position": game.format_position(state),
            "to_move": SIDE_LETTERS[state.to_move],
            **value.to_json(),
            "over": outcome is not None,
            "outcome": outcome.reason if outcome is not None else None,
            "reachable": bool(table.reachable[index]),
            "best_moves": best,
            "moves": [{"move": game.action_text(a), **move.to_json()} for a, move in ranked],
        }
        console.print_json(json.dumps(data))
        return
    from fanfold.play.analysis import morris_move_text

    words = terminal_words()
    gettext = words.gettext
    position = gettext("Position %(position)s") % {"position": game.format_position(state)}
    console.print(position, markup=False)
    from fanfold.cli.terminal import drawn

    board = drawn(words, game.drawing(game.observe(state, state.to_move)))
    console.print(board, markup=False)
    if outcome is not None:
        reason = words.text(game.ending_words(state) or outcome.reason)
        console.print(gettext("Game over: %(reason)s") % {"reason": reason}, markup=False)
        return
    console.print(_value_text(value, state.to_move), markup=False)
    if not bool(table.reachable[index]):
        console.print(gettext("(a set-up position: no game from the empty board reaches it)"))
    console.print(gettext("Best moves: %(moves)s") % {"moves": " ".join(best)}, markup=False)
    moves = Table(title=gettext("every move, best first (value for the side to move)"))
    moves.add_column(gettext("move"))
    moves.add_column(gettext("value"))
    for action, move in ranked:
        moves.add_row(game.action_text(action), words.text(morris_move_text(move)))
    console.print(moves)
