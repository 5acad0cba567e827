"""``fanfold arena GAME --agents A,B --games N``: measure agents against each other."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fanfold.cli.common import console, game_and_config, refused, said, terminal_words
from fanfold.cli.help_words import N_
from fanfold.core.errors import FanfoldError

if TYPE_CHECKING:
    from fanfold.play.arena import ArenaPlan, ArenaReport


def arena(
    game_name: Annotated[str, typer.Argument(help="Game name, id or alias (see 'fanfold games').")],
    agents: Annotated[
        str,
        typer.Option(
            help="The agents, comma-separated, e.g. 'hard,random' or "
            "'mcts(iterations=400),heuristic'. With fewer agents than seats the last fills the "
            "rest ('hard,heuristic' at four players: one hard, three heuristic); with more, "
            "every group of them meets.",
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            help="Games per lineup, a multiple of the number of seats: each deal is played "
            "once per seat rotation, so every agent plays every seat of every deal."
        ),
    ] = 100,
    seed: Annotated[
        int,
        typer.Option(
            help="Seed of the first deal (deal r: seed + r). Runs whose seeds are fewer deals "
            "apart than they play share deals: seeds 1 and 2 of 100 deals share 99 of them."
        ),
    ] = 1,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="A variant preset (see 'fanfold games').")
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-n", help="Number of players.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Change one config option: name=value (repeatable)."),
    ] = None,
    workers: Annotated[int, typer.Option(help="Processes to play in.", min=1)] = 1,
    results: Annotated[
        Path | None,
        typer.Option(
            help="Append each game's result to this JSON-lines file; a rerun with the same "
            "file skips the games already there (an interrupted run resumes)."
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of tables.")
    ] = False,
) -> None:
    """Play agents against each other over seeded games and count wins, draws and losses with
    95% intervals, game length, limit draws, time per decision and (with more than two agents)
    Elo-style ratings. The same seed gives the same games with any number of workers."""
    from fanfold.play.arena import plan_arena, run_arena, summarize
    from fanfold.play.batch import progress_bar

    game, config = game_and_config(game_name, variant, players, option, terminal_words())
    names = [name.strip() for name in _split_agents(agents)]
    try:
        plan = plan_arena(game, config, names, games, seed)
        if as_json:
            rows = run_arena(plan, workers=workers, results=results)
        else:
            playing = terminal_words().gettext("%(game)s: %(games)s games")
            with progress_bar(playing % {"game": game.title, "games": plan.games}) as progress:
                rows = run_arena(plan, workers=workers, results=results, progress=progress)
    except FanfoldError as error:
        refused(error)
    report = summarize(plan, rows)
    if as_json:
        print(json.dumps(_json(plan, report), indent=2))
    else:
        _print(plan, report)


def _split_agents(text: str) -> list[str]:
    """Split at the commas between agents, not those inside an agent's brackets."""
    parts: list[str] = []
    depth, current = 0, ""
    for char in text:
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += {"(": 1, ")": -1}.get(char, 0)
        current += char
    parts.append(current)
    if any(not part.strip() for part in parts):
        said(N_("--agents is a comma-separated list of agents, not %(text)s"), text=repr(text))
    return parts


def _json(plan: ArenaPlan, report: ArenaReport) -> dict[str, object]:
    return {
        "game": plan.game.id,
        "config": plan.config.to_json(),
        "players": plan.players,
        "seed": plan.seed,
        "rounds": plan.rounds,
        **report.to_json(),
    }


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


#: The results table's headings (the agents' and the head-to-head table's).
HEADINGS = [N_("agent"), N_("games"), N_("won"), N_("drawn"), N_("lost"), N_("win %")]
HEADINGS += [N_("95% interval"), N_("return"), N_("s/decision"), N_("max s")]
RATING = N_("rating")
PAIR_HEADINGS = [N_("agents"), N_("games"), N_("first won"), N_("second won"), N_("drawn")]


def _print(plan: ArenaPlan, report: ArenaReport) -> None:
    """The results as tables and sentences in the terminal's language (numbers as written)."""
    from fanfold.play.markdown import markdown_table

    gettext = terminal_words().gettext
    rated = any(agent.rating is not None for agent in report.agents)
    headers = [gettext(heading) for heading in [*HEADINGS, *([RATING] if rated else [])]]
    rows: list[list[str]] = []
    for agent in sorted(report.agents, key=lambda entry: -(entry.rating or entry.wins)):
        low, high = agent.win_rate.interval
        row = [
            agent.name,
            str(agent.games),
            str(agent.wins),
            str(agent.draws),
            str(agent.losses),
            _percent(agent.win_rate.fraction),
            f"{_percent(low)}-{_percent(high)}",
            f"{agent.returns / agent.games:+.2f}" if agent.games else "-",
            f"{agent.seconds_per_decision:.3f}",
            f"{agent.slowest:.2f}",
        ]
        if rated:
            row.append(f"{agent.rating:.0f}" if agent.rating is not None else "-")
        rows.append(row)
    last = plan.seed + plan.rounds - 1
    if last > plan.seed:
        title = gettext("%(game)s: %(games)s games from seed %(seed)s (deals %(seed)s to %(last)s)")
    else:
        title = gettext("%(game)s: %(games)s games from seed %(seed)s (deal %(seed)s)")
    named = {"game": plan.game.title, "games": report.games, "seed": plan.seed, "last": last}
    out = [title % named, ""]
    out += [markdown_table(headers, rows), ""]
    if len(report.pairs) > 1 or (report.pairs and plan.players > 2):
        out += [gettext("Head to head (in the games both played, the higher return wins):"), ""]
        versus = gettext("%(first)s vs %(second)s")
        out += [
            markdown_table(
                [gettext(heading) for heading in PAIR_HEADINGS],
                [
                    [
                        versus % {"first": pair.first, "second": pair.second},
                        str(pair.games),
                        str(pair.first_wins),
                        str(pair.second_wins),
                        str(pair.draws),
                    ]
                    for pair in report.pairs
                ],
            ),
            "",
        ]
    share = report.limit_draws / report.games if report.games else 0.0
    length = gettext(
        "Mean game length %(length)s actions; %(limit)s of %(games)s games (%(share)s) ended "
        "at the turn limit. A game is one seat taken; a shared first place counts as a win."
    )
    out.append(
        length
        % {
            "length": f"{report.mean_length:.1f}",
            "limit": report.limit_draws,
            "games": report.games,
            "share": _percent(share),
        }
    )
    console.print("\n".join(out), markup=False)
