"""The Fano yardstick ladder measured: each member against the yardstick, ``medium`` and
(``--hard``) ``hard``, in both editions, two players, paired seats.

Each pairing is an arena run (:mod:`fanfold.play.arena`): ``--games`` games from ``--seed``,
each deal played twice with the seats swapped, so the luck of the deal cancels. The levels play
at the budget the server gives them, counted in positions and deals (``medium`` searches 300
positions of its turn, ``hard`` looks ahead on 24 deals a decision), so a seeded run plays the
same games on any machine and a loaded one plays them slower, not weaker. The server also caps
a decision at its ``--bot-seconds`` (one second), which a quiet machine seldom reaches;
``--seconds S`` plays the levels under such a cap (``hard(seconds=S)``: on a loaded machine it
deals less, and is weaker). The yardstick is ``planner(deals=1, nodes=20)``. The table gives
the member's wins with the Wilson 95% interval and its seconds a decision (mean and slowest,
wall clock: a loaded machine makes them longer), and the run's seeds, commit and machine above
it, ready for the bots' guide (``docs/agents.md``, "The yardstick ladder").

Run::

    python3 benchmarks/ladder.py --games 200 --medium-games 100 --jobs 2
    python3 benchmarks/ladder.py --edition trionfey --members ladder,'ladder(style=bluff)' --hard
    python3 benchmarks/ladder.py --games 0 --medium-games 0 --hard --seconds 1   # hard(seconds=1)

``--results DIR`` keeps every pairing's games in a JSON-lines file there, so that an
interrupted run resumes (and ``benchmarks/arena_pairs.py`` can compare runs game by game);
``--json`` prints the rows as JSON.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fanfold.agents.ladder import MEMBERS
from fanfold.core.registry import get_game
from fanfold.play.arena import plan_arena, run_arena, summarize

#: The yardstick every member must beat.
YARDSTICK = "planner(deals=1,nodes=20)"
#: The levels, as a quiet server plays them: by their budgets of positions and deals.
MEDIUM = "medium"
HARD = "hard"
EDITIONS = ("classic", "trionfey")
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Row:
    """One pairing's result, for the member."""

    edition: str
    member: str
    opponent: str
    games: int
    wins: int
    low: float
    high: float
    seconds: float
    slowest: float
    seed: int

    def cells(self) -> list[str]:
        share = 100 * self.wins / self.games if self.games else 0.0
        return [
            self.edition,
            f"`{self.member}`",
            f"`{self.opponent}`",
            str(self.games),
            str(self.wins),
            f"{share:.1f}% ({100 * self.low:.1f}-{100 * self.high:.1f})",
            f"{1000 * self.seconds:.1f} / {1000 * self.slowest:.0f}",
        ]


def commit() -> str:
    """The checkout's commit, read from ``.git`` (no git command is run); ``unknown``
    outside a checkout."""
    git = ROOT / ".git"
    try:
        if git.is_file():  # a worktree: "gitdir: PATH"
            git = Path(git.read_text().split(":", 1)[1].strip())
        common = git
        if (git / "commondir").is_file():
            common = (git / (git / "commondir").read_text().strip()).resolve()
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref:"):
            return head[:12]
        ref = head.split(":", 1)[1].strip()
        for base in (git, common):
            if (base / ref).is_file():
                return (base / ref).read_text().strip()[:12]
        packed = common / "packed-refs"
        if packed.is_file():
            for line in packed.read_text().splitlines():
                if line.endswith(" " + ref):
                    return line.split()[0][:12]
    except (OSError, IndexError):
        pass
    return "unknown"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")


def measure(
    edition: str,
    member: str,
    opponent: str,
    games: int,
    seed: int,
    jobs: int,
    results: Path | None,
) -> Row:
    """Play ``member`` against ``opponent`` for ``games`` paired games of ``edition``."""
    game = get_game("fano")
    config = game.preset(edition).config
    plan = plan_arena(game, config, [member, opponent], games, seed)
    path = None
    if results is not None:
        results.mkdir(parents=True, exist_ok=True)
        path = results / f"{edition}-{_slug(member)}-vs-{_slug(opponent)}-s{seed}.jsonl"
    rows = run_arena(plan, workers=jobs, results=path)
    report = summarize(plan, rows)
    mine = report.agents[0]
    low, high = mine.win_rate.interval
    return Row(
        edition,
        plan.agents[0],
        plan.agents[1],
        mine.games,
        mine.wins,
        low,
        high,
        mine.seconds_per_decision,
        mine.slowest,
        seed,
    )


def table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table."""
    from fanfold.play.markdown import markdown_table

    headers = ["edition", "member", "opponent", "games", "won", "win % (95%)", "ms/decision"]
    return markdown_table(headers, [row.cells() for row in rows])


def parse_options(arguments: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line's options (``sys.argv`` without ``arguments``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=200, help="games against the yardstick (0: none)"
    )
    parser.add_argument(
        "--medium-games", type=int, default=100, help="games against medium (0: none)"
    )
    parser.add_argument("--hard", action="store_true", help="also play hard")
    parser.add_argument("--hard-games", type=int, default=40, help="games against hard")
    parser.add_argument("--edition", choices=(*EDITIONS, "both"), default="both")
    parser.add_argument(
        "--members",
        default="all",
        help="comma-separated agent texts, or 'all' for the ladder's members",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--results", type=Path, default=None, help="keep games in this folder")
    parser.add_argument(
        "--seconds",
        type=_seconds,
        default=None,
        help="cap medium's and hard's decisions at S seconds, as a server's --bot-seconds "
        "(default: no cap, the levels' budgets alone)",
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    return parser.parse_args(arguments)


def main(arguments: Sequence[str] | None = None) -> None:
    options = parse_options(arguments)
    members = list(MEMBERS) if options.members == "all" else _split(options.members)
    editions = EDITIONS if options.edition == "both" else (options.edition,)
    pairings = opponents(options)
    rows: list[Row] = []
    for edition in editions:
        for member in members:
            for opponent, games in pairings:
                row = measure(
                    edition, member, opponent, games, options.seed, options.jobs, options.results
                )
                rows.append(row)
                if not options.json:
                    print("| " + " | ".join(row.cells()) + " |", file=sys.stderr, flush=True)
    if options.json:
        print(json.dumps([row.__dict__ for row in rows], indent=2))
        return
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"Fano ladder, commit {commit()}, {now}, {platform.machine()} with "
        f"{os.cpu_count()} CPUs, {options.jobs} jobs; seeds from {options.seed} "
        "(deal r: seed + r, each played twice with the seats swapped)"
    )
    print()
    print(table(rows))


def level(name: str, seconds: float | None) -> str:
    """The agent text of level ``name``, capped at ``seconds`` a decision where given:
    ``level("hard", None)`` is ``hard``, ``level("hard", 1.0)`` is ``hard(seconds=1)``."""
    return name if seconds is None else f"{name}(seconds={seconds:g})"


def opponents(options: argparse.Namespace) -> list[tuple[str, int]]:
    """Each opponent the members meet, with its number of games, from the parsed options."""
    pairings: list[tuple[str, int]] = []
    if options.games:
        pairings.append((YARDSTICK, options.games))
    if options.medium_games:
        pairings.append((level(MEDIUM, options.seconds), options.medium_games))
    if options.hard:
        pairings.append((level(HARD, options.seconds), options.hard_games))
    return pairings


def _seconds(text: str) -> float:
    """A positive number of seconds, for ``--seconds``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"the time cap must be a positive number, not {text}")
    return value


def _split(text: str) -> list[str]:
    """Split at the commas between agents, not those inside an agent's brackets."""
    parts: list[str] = []
    depth, current = 0, ""
    for char in text:
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        depth += {"(": 1, ")": -1}.get(char, 0)
        current += char
    parts.append(current.strip())
    return [part for part in parts if part]


if __name__ == "__main__":
    main()
