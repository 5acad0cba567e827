"""``fanfold solve fan``: decide Fan deals; and the ``hint`` / ``winnable`` prompt commands.

One deal (``--deal N``) or a board in fc-solve's format (``--board FILE``) gets a verdict:
``solved`` with the move list, or ``unsolvable`` (proved by exhausting the reachable space).
A range of deals (``--deals 1-1000``) is a census: deals are decided in parallel, each result
is appended to a JSON-lines file as it finishes (a rerun skips the deals already there), and
the fraction winnable is reported with its Wilson 95% interval.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from fanfold.cli.common import console, error_console, fail
from fanfold.cli.solve import app
from fanfold.cli.terminal import register_terminal_command
from fanfold.core.errors import FanfoldError
from fanfold.games.fan import FanConfig, FanGame, FanState, make_state, parse_fcs_board
from fanfold.solvers.fan import (
    SOLVED,
    UNKNOWN,
    FanSolution,
    hint,
    solve,
    solve_deal,
    wilson_interval,
)

_GAME = FanGame()


def parse_deal_ranges(text: str) -> list[int]:
    """``"1-1000"`` or ``"1,5,7-9"`` into deal numbers, in order, without repeats.

    >>> parse_deal_ranges("3,1-2,2")
    [3, 1, 2]
    """
    deals: dict[int, None] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        low, sep, high = part.partition("-")
        try:
            start = int(low)
            stop = int(high) if sep else start
        except ValueError:
            raise FanfoldError(f"{part!r} is not a deal number or range such as 1-1000") from None
        if start < 0 or stop < start:
            raise FanfoldError(f"{part!r} is not a range of deal numbers (low-high, from 0)")
        for deal in range(start, stop + 1):
            deals[deal] = None
    if not deals:
        raise FanfoldError("no deals given: write e.g. --deals 1-1000")
    return list(deals)


def _config(variant: str | None) -> FanConfig:
    return _GAME.default_config() if variant is None else _GAME.preset(variant).config


def _variant_name(config: FanConfig) -> str:
    for preset in _GAME.presets():
        if preset.config == config:
            return preset.name
    return "custom"


def _summary_line(result: FanSolution) -> str:
    text = f"{result.verdict}: {result.states} positions searched in {result.seconds:.3f} s"
    if result.verdict == SOLVED:
        text += f", {len(result.moves)} moves"
    return text


def _census_one(deal: int, config_json: dict[str, Any], max_states: int | None) -> dict[str, Any]:
    config = FanConfig.from_json(config_json)
    result = solve_deal(deal, config, max_states=max_states)
    return {
        "deal": deal,
        "verdict": result.verdict,
        "states": result.states,
        "seconds": round(result.seconds, 6),
        "moves": len(result.moves),
    }


def _read_done(path: Path, variant: str) -> dict[int, dict[str, Any]]:
    done: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return done
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if row.get("variant") == variant and row.get("verdict") != UNKNOWN:
                done[int(row["deal"])] = row
        except (ValueError, KeyError, TypeError):
            raise FanfoldError(f"{path} line {number} is not a census result") from None
    return done


def _run_census(
    deals: list[int],
    config: FanConfig,
    workers: int,
    results: Path,
    max_states: int | None,
) -> Iterator[dict[str, Any]]:
    variant = _variant_name(config)
    with results.open("a", encoding="utf-8") as out:
        if workers <= 1:
            for deal in deals:
                row = {"variant": variant, **_census_one(deal, config.to_json(), max_states)}
                out.write(json.dumps(row) + "\n")
                out.flush()
                yield row
            return
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [
                pool.submit(_census_one, deal, config.to_json(), max_states) for deal in deals
            ]
            for future in as_completed(futures):
                row = {"variant": variant, **future.result()}
                out.write(json.dumps(row) + "\n")
                out.flush()
                yield row


def census_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts, the winnable fraction with its Wilson 95% interval, and time figures."""
    decided = [row for row in rows if row["verdict"] != UNKNOWN]
    won = sum(1 for row in decided if row["verdict"] == SOLVED)
    low, high = wilson_interval(won, len(decided))
    times = sorted(float(row["seconds"]) for row in rows)
    return {
        "deals": len(rows),
        "solved": won,
        "unsolvable": len(decided) - won,
        "unknown": len(rows) - len(decided),
        "winnable_fraction": won / len(decided) if decided else None,
        "wilson_95": [low, high],
        "median_seconds": statistics.median(times) if times else None,
        "max_seconds": times[-1] if times else None,
        "total_states": sum(int(row["states"]) for row in rows),
    }


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
    workers: Annotated[int, typer.Option(help="Census: processes deciding deals.")] = 1,
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
    given = [
        name
        for name, value in (("--deal", deal), ("--board", board), ("--deals", deals))
        if value is not None
    ]
    if len(given) != 1:
        fail("give exactly one of --deal N, --board FILE or --deals RANGE")
    if max_states is not None and max_states < 1:
        fail("--max-states must be at least 1")
    if workers < 1:
        fail("--workers must be at least 1")
    try:
        config = _config(variant)
        if deals is not None:
            _census(parse_deal_ranges(deals), config, workers, results, max_states, as_json)
            return
        state = _load_state(config, deal, board)
    except FanfoldError as error:
        fail(str(error))
    result = solve(state, max_states=max_states)
    if as_json:
        data: dict[str, Any] = {"deal": deal, "variant": _variant_name(config), **result.to_json()}
        if board is not None:
            data["board"] = str(board)
        console.print_json(json.dumps(data))
        return
    where = f"deal {deal}" if deal is not None else str(board)
    console.print(f"Fan ({_variant_name(config)}) {where}: {_summary_line(result)}", markup=False)
    if result.moves:
        console.print(" ".join(str(move) for move in result.moves), markup=False)


def _load_state(config: FanConfig, deal: int | None, board: Path | None) -> FanState:
    if deal is not None:
        if deal < 0:
            raise FanfoldError(f"deal numbers are 0 or more, not {deal}")
        return _GAME.new_state(config, deal)
    path = board if board is not None else Path()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise FanfoldError(f"cannot read {path}: {error.strerror}") from None
    fans, foundations = parse_fcs_board(text)
    if len(fans) > 18:
        raise FanfoldError(f"{path} has {len(fans)} fans; Fan has 18")
    fans += [()] * (18 - len(fans))
    return make_state(config, fans, foundations)


def _census(
    deal_list: list[int],
    config: FanConfig,
    workers: int,
    results: Path | None,
    max_states: int | None,
    as_json: bool,
) -> None:
    variant = _variant_name(config)
    path = results or Path(f"fan-census-{variant}.jsonl")
    done = _read_done(path, variant)
    todo = [deal for deal in deal_list if deal not in done]
    rows = [done[deal] for deal in deal_list if deal in done]
    progress = Progress(
        TextColumn("deciding Fan deals"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=error_console,
        transient=True,
    )
    with progress:
        task = progress.add_task("census", total=len(deal_list), completed=len(rows))
        for row in _run_census(todo, config, workers, path, max_states):
            rows.append(row)
            progress.advance(task)
    summary = {"variant": variant, "results": str(path), **census_summary(rows)}
    if as_json:
        console.print_json(json.dumps(summary))
        return
    low, high = summary["wilson_95"]
    fraction = summary["winnable_fraction"]
    console.print(
        f"Fan ({variant}), {summary['deals']} deals: {summary['solved']} solved, "
        f"{summary['unsolvable']} unsolvable, {summary['unknown']} unknown",
        markup=False,
    )
    if fraction is not None:
        console.print(
            f"winnable: {fraction:.1%} (95% Wilson interval {low:.1%} to {high:.1%}); "
            f"median {summary['median_seconds']:.4f} s a deal; results in {path}",
            markup=False,
        )


# ------------------------------------------------------------- prompt commands


def _hint_text(state: FanState) -> str:
    if state.is_won:
        return "The game is won."
    move = hint(state)
    if move is None:
        return "No win is possible from here: undo to get back to a winnable position."
    return f"Try {move}."


def _winnable_text(state: FanState) -> str:
    result = solve(state)
    if result.verdict == SOLVED:
        return f"Yes: this position can still be won ({len(result.moves)} moves to go)."
    return f"No: no sequence of moves wins from here ({result.states} positions examined)."


register_terminal_command("fan", "hint", "a move that keeps a win possible", _hint_text)
register_terminal_command("fan", "winnable", "is this position still winnable?", _winnable_text)
