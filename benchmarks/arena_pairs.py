"""Compare ``fanfold arena`` runs game by game, from their ``--results`` files.

The arena seeds every game by its deal and seat rotation, so two runs of the same game, seed
and seats, with a different first agent, play the same deals with that agent in the same
seats: the games won by only one of them say more than the two win rates do. Each file's
first agent (the agent named first in its ``--agents``, in seat ``r`` of rotation ``r``) is
counted: games, wins with the Wilson 95% interval, seconds a decision (mean over its
decisions, and the slowest); every file after the first is paired with the first on the
games both played (won by both, by only this one, by only the first). The last line sums
every file, for a verdict made of runs of different seeds (their deals differ: such files
are not paired, only added).

Run::

    python3 benchmarks/arena_pairs.py base.jsonl other.jsonl [...]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fanfold.play.stats import wilson_interval


@dataclass(frozen=True)
class Game:
    """One game of a results file, for its first agent."""

    won: bool
    decisions: int
    seconds: float
    slowest: float


def load(path: Path) -> dict[str, Game]:
    """The games of an arena results file by job, for the agent in seat ``r`` of rotation
    ``r`` (the first agent of the lineup)."""
    games: dict[str, Game] = {}
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        job = str(row["job"])
        seat = int(job.split(":")[-1])
        games[job] = Game(
            seat in row["winners"],
            int(row["decisions"][seat]),
            float(row["seconds"][seat]),
            float(row["slowest"][seat]),
        )
    return games


def summary(games: Sequence[Game]) -> str:
    """Games, wins with their interval, and seconds a decision (mean / slowest)."""
    count = len(games)
    won = sum(game.won for game in games)
    low, high = wilson_interval(won, count) if count else (0.0, 0.0)
    decisions = sum(game.decisions for game in games)
    mean = sum(game.seconds for game in games) / decisions if decisions else 0.0
    slowest = max((game.slowest for game in games), default=0.0)
    share = 100 * won / count if count else 0.0
    return (
        f"{count} games, won {won}: {share:.1f}% ({100 * low:.1f}-{100 * high:.1f}), "
        f"s/decision {mean:.3f} / {slowest:.2f}"
    )


def main(arguments: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="arena --results files")
    options = parser.parse_args(arguments)
    runs = [(path, load(path)) for path in options.files]
    base_path, base = runs[0]
    everything: list[Game] = []
    for path, games in runs:
        everything.extend(games.values())
        line = f"{path}: {summary(list(games.values()))}"
        if path is not base_path:
            common = [job for job in games if job in base]
            both = sum(games[job].won and base[job].won for job in common)
            only = sum(games[job].won and not base[job].won for job in common)
            only_base = sum(base[job].won and not games[job].won for job in common)
            line += (
                f"; on the {len(common)} games of {base_path.name}: won by both {both}, "
                f"only this {only}, only {base_path.name} {only_base}"
            )
        print(line)
    if len(runs) > 1:
        print(f"all files: {summary(everything)}")


if __name__ == "__main__":
    main()
