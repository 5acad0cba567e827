"""``fanfold solve fan``: decide Fan deals, one or a census on the batch runner.

One deal (``--deal N``) or a board in fc-solve's format (``--board FILE``) gets a verdict:
``solved`` with the move list, or ``unsolvable`` (proved by exhausting the reachable space).
A range of deals (``--deals 1-1000``) is a census: deals are decided in parallel, each result
is appended to a JSON-lines file as it finishes (a rerun skips the deals already there), and
the fraction winnable is reported with its Wilson 95% interval.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from fanfold.cli.common import console, error_console, refused, said, terminal_words
from fanfold.cli.help_words import N_
from fanfold.cli.solve import app
from fanfold.core.errors import FanfoldError, Refusal
from fanfold.core.files import UnreadableFileError, read_text
from fanfold.games.fan import FanConfig, FanGame, FanState, make_state, parse_fcs_board
from fanfold.solvers.fan import SOLVED, FanSolution, solve

_GAME = FanGame()


def _config(variant: str | None) -> FanConfig:
    return _GAME.default_config() if variant is None else _GAME.preset(variant).config


#: A verdict's words (the JSON keeps the verdict as the solver names it).
VERDICTS = {"solved": N_("solved"), "unsolvable": N_("unsolvable"), "unknown": N_("unknown")}


def _summary_line(result: FanSolution) -> str:
    """The verdict and the search's size, in the terminal's language."""
    gettext = terminal_words().gettext
    params = {
        "verdict": gettext(VERDICTS.get(result.verdict, result.verdict)),
        "states": result.states,
        "seconds": f"{result.seconds:.3f}",
        "moves": len(result.moves),
    }
    if result.verdict == SOLVED:
        template = N_(
            "%(verdict)s: %(states)s positions searched in %(seconds)s s, %(moves)s moves"
        )
    else:
        template = N_("%(verdict)s: %(states)s positions searched in %(seconds)s s")
    return gettext(template) % params


@app.command("fan")
def solve_fan(
    deal: Annotated[int | None, typer.Option(help="PySolFC's Fan deal number.")] = None,
    board: Annotated[
        Path | None,
        typer.Option(help="A board in fc-solve's text format (one fan a line, bottom to top)."),
    ] = None,
    deals: Annotated[
        str | None, typer.Option(help="A census over deal numbers, e.g. 1-1000 or 1,5,7-9.")
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option("--variant", "-v", help="classic, any-to-empty, sequences or relaxed."),
    ] = None,
    workers: Annotated[
        int, typer.Option(help="Census: processes deciding deals (or a local Ray's CPUs).")
    ] = 1,
    ray: Annotated[
        str | None,
        typer.Option(
            help="Census on Ray: 'auto' (a running cluster), 'local' (start one here with "
            "--workers CPUs) or a cluster address. Needs the ray extra."
        ),
    ] = None,
    results: Annotated[
        Path | None,
        typer.Option(help="Census: JSON-lines file results are appended to (and resumed from)."),
    ] = None,
    max_states: Annotated[
        int | None,
        typer.Option(help="Give up (verdict unknown) after this many positions; default none."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Decide a Fan deal (solved with the moves, or proved unsolvable), or a range of deals."""
    from fanfold.play.census import parse_deal_ranges, variant_name  # loads the play layer

    given = [
        name
        for name, value in (("--deal", deal), ("--board", board), ("--deals", deals))
        if value is not None
    ]
    if len(given) != 1:
        said(N_("give exactly one of --deal N, --board FILE or --deals RANGE"))
    if max_states is not None and max_states < 1:
        said(N_("%(option)s must be at least 1"), option="--max-states")
    if workers < 1:
        said(N_("%(option)s must be at least 1"), option="--workers")
    try:
        config = _config(variant)
        if deals is not None:
            _census(parse_deal_ranges(deals), config, workers, results, max_states, as_json, ray)
            return
        state = _load_state(config, deal, board)
    except FanfoldError as error:
        refused(error)
    result = solve(state, max_states=max_states)
    if as_json:
        data: dict[str, Any] = {"deal": deal, "variant": variant_name(config), **result.to_json()}
        if board is not None:
            data["board"] = str(board)
        console.print_json(json.dumps(data))
        return
    gettext = terminal_words().gettext
    where = gettext("deal %(deal)s") % {"deal": deal} if deal is not None else str(board)
    line = gettext("Fan (%(variant)s) %(where)s: %(summary)s")
    params = {"variant": variant_name(config), "where": where, "summary": _summary_line(result)}
    console.print(line % params, markup=False)
    if result.moves:
        console.print(" ".join(str(move) for move in result.moves), markup=False)


def _load_state(config: FanConfig, deal: int | None, board: Path | None) -> FanState:
    # the refusals' codes, registered where the play layer loads (fanfold --help loads none)
    from fanfold.core import lab_refusals  # noqa: F401

    if deal is not None:
        if deal < 0:
            raise FanfoldError(Refusal("census.negative_deal", deal=deal))
        return _GAME.new_state(config, deal)
    path = board if board is not None else Path()
    try:
        text = read_text(path)
    except UnreadableFileError as error:
        raise FanfoldError(Refusal("file.unreadable", path=str(path), why=error.why)) from None
    fans, foundations = parse_fcs_board(text)
    if len(fans) > 18:
        raise FanfoldError(Refusal("census.too_many_fans", path=str(path), count=len(fans)))
    fans += [()] * (18 - len(fans))
    return make_state(config, fans, foundations)


def _census(
    deal_list: list[int],
    config: FanConfig,
    workers: int,
    results: Path | None,
    max_states: int | None,
    as_json: bool,
    ray: str | None = None,
) -> None:
    from fanfold.play.batch import progress_bar
    from fanfold.play.census import census_summary, run_census, variant_name

    variant = variant_name(config)
    path = results or Path(f"fan-census-{variant}.jsonl")
    start = time.perf_counter()
    gettext = terminal_words().gettext
    with progress_bar(gettext("deciding Fan deals"), error_console) as progress:
        rows = run_census(
            deal_list,
            config,
            workers=workers,
            results=path,
            max_states=max_states,
            progress=progress,
            ray=ray,
        )
    seconds = round(time.perf_counter() - start, 3)
    summary = {
        "variant": variant,
        "results": str(path),
        "seconds": seconds,
        **census_summary(rows),
    }
    if as_json:
        console.print_json(json.dumps(summary))
        return
    counted = gettext(
        "Fan (%(variant)s), %(deals)s deals: %(solved)s solved, %(unsolvable)s unsolvable, "
        "%(unknown)s unknown"
    )
    console.print(counted % summary, markup=False)
    fraction = summary["winnable_fraction"]
    if fraction is not None:
        low, high = summary["wilson_95"]
        winnable = gettext(
            "winnable: %(fraction)s (95%% Wilson interval %(low)s to %(high)s); median "
            "%(median)s s a deal; this run took %(seconds)s s (deals already in the results "
            "file are not decided again); results in %(path)s"
        )
        params = {
            "fraction": f"{fraction:.1%}",
            "low": f"{low:.1%}",
            "high": f"{high:.1%}",
            "median": f"{summary['median_seconds']:.4f}",
            "seconds": f"{seconds:.1f}",
            "path": path,
        }
        console.print(winnable % params, markup=False)
