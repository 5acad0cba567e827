"""``fanfold balance``: a balance experiment from a file or the command line, and its report."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from fanfold.cli.arena import _split_agents
from fanfold.cli.common import console, error_console, refused, said, terminal_words
from fanfold.cli.help_words import N_
from fanfold.core.errors import FanfoldError


def balance(
    experiment_file: Annotated[
        Path | None,
        typer.Argument(
            help="An experiment file (TOML: game, games, seed, players, [[variant]] tables; "
            "see docs/balance.md). Or describe the experiment with the options below."
        ),
    ] = None,
    game: Annotated[str | None, typer.Option(help="The game (without a file).")] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help="A variant to compare, '[LABEL:] [PRESET] [option=value ...]', e.g. "
            "'strict: specials-choice oversum_prestige_only=true' (repeatable; the first is "
            "the baseline).",
        ),
    ] = None,
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            "-p",
            help="A player in seat order, 'AGENT' or 'AGENT; forbid=KIND,KIND' (repeatable; the "
            "last fills the remaining seats), e.g. --player hard --player 'hard; forbid=oversum'. "
            "None: the game's lab player in every seat (Fano 'planner(deals=1, nodes=40)', "
            "Fan Tan 'heuristic', Morris 'medium').",
        ),
    ] = None,
    players: Annotated[
        str | None, typer.Option(help="The players comma-separated, as with 'fanfold arena'.")
    ] = None,
    games: Annotated[
        int | None, typer.Option(help="Games per variant (overrides the file's).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="First deal's seed (overrides the file's).")
    ] = None,
    fixed_seats: Annotated[
        bool, typer.Option("--fixed-seats", help="Do not rotate the players over the seats.")
    ] = False,
    workers: Annotated[int, typer.Option(help="Processes (or a local Ray's CPUs).", min=1)] = 1,
    ray: Annotated[
        str | None,
        typer.Option(
            help="Run on Ray: 'auto' (a running cluster), 'local' (start one here with "
            "--workers CPUs) or a cluster address. Needs the ray extra."
        ),
    ] = None,
    out: Annotated[
        Path,
        typer.Option(
            help="Folder for report.md, report.html, summary.json, the pictures and games.jsonl "
            "(each game's row; a rerun resumes from it)."
        ),
    ] = Path("balance-report"),
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the summary as JSON instead of the report.")
    ] = False,
) -> None:
    """Play a balance experiment: variants compared over the same seeded deals, players with
    per-player action restrictions; writes a report with win rates per seat and per player
    (95% intervals), differences between variants with their intervals and tests, game lengths,
    turn-limit draws and action frequencies, in Markdown and HTML with pictures."""
    from fanfold.balance import build_experiment, load_experiment, run_experiment
    from fanfold.balance.experiment import COMMAND_LINE, lab_player, parse_variant_text
    from fanfold.balance.report import summarize, write_report
    from fanfold.core.registry import get_game
    from fanfold.play.batch import progress_bar

    texts = list(player or [])
    if players:
        texts += [text.strip() for text in _split_agents(players)]
    try:
        if experiment_file is not None:
            if game is not None or variant:
                said(N_("give an experiment file or --game/--variant, not both"))
            experiment = load_experiment(experiment_file)
            if texts or games is not None or seed is not None or fixed_seats:
                experiment = build_experiment(
                    experiment.game.name,
                    [
                        {
                            "name": v.name,
                            "options": v.config.option_texts(),
                            "players": texts or [str(p) for p in v.players],
                        }
                        for v in experiment.variants
                    ],
                    texts,
                    games=games if games is not None else experiment.games,
                    seed=seed if seed is not None else experiment.seed,
                    rotate=experiment.rotate and not fixed_seats,
                    title=experiment.title,
                    where=str(experiment_file),
                )
        else:
            if game is None:
                said(N_("give an experiment file, or --game with --player and --variant"))
            if not texts and lab_player(get_game(game)) is None:
                said(
                    N_("name the players, e.g. %(example)s"),
                    example="--player hard --player 'hard; forbid=oversum'",
                )
            experiment = build_experiment(
                game,
                [parse_variant_text(text) for text in variant or []],
                texts,
                games=games if games is not None else 100,
                seed=seed if seed is not None else 1,
                rotate=not fixed_seats,
                where=COMMAND_LINE,
            )
        out.mkdir(parents=True, exist_ok=True)
        results = out / "games.jsonl"
        start = time.perf_counter()
        total = len(experiment.jobs())
        if as_json:
            rows = run_experiment(experiment, workers=workers, ray=ray, results=results)
        else:
            playing = terminal_words().gettext("%(game)s: %(games)s games")
            label = playing % {"game": experiment.game.title, "games": total}
            with progress_bar(label, error_console) as bar:
                rows = run_experiment(
                    experiment, workers=workers, ray=ray, results=results, progress=bar
                )
        seconds = time.perf_counter() - start
    except FanfoldError as error:
        refused(error)
    summary = summarize(experiment, rows)
    page = write_report(summary, out)
    if as_json:
        print(json.dumps(summary.to_json(), indent=2))
        return
    console.print((out / "report.md").read_text(encoding="utf-8"), markup=False)
    words = terminal_words()
    done = words.gettext(
        "%(games)s games in %(seconds)s s; report: %(page)s (and report.md, summary.json, "
        "games.jsonl in %(folder)s)"
    )
    params = {"games": len(rows), "seconds": f"{seconds:.1f}", "page": page, "folder": out}
    console.print(done % params, markup=False)
    if summary.warnings:
        count = len(summary.warnings)
        warned = words.ngettext(
            "%(count)s warning beside the answers (the report's Warnings): the bots may have "
            "decided them.",
            "%(count)s warnings beside the answers (the report's Warnings): the bots may have "
            "decided them.",
            count,
        )
        console.print(warned % {"count": count}, markup=False)
