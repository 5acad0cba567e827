"""Compare ``fanfold arena`` runs game by game, from their ``--results`` files.

The arena seeds every game by its deal and seat rotation, so two runs of the same game and
seats with a different first agent play the same deals with that agent in the same seats: the
games won by only one of them say more than the two win rates do. Each file's first agent (the
agent named first in its ``--agents``, in seat ``r`` of rotation ``r``) is counted: games, wins
with the Wilson 95% interval, seconds a decision (mean over its decisions, and the slowest);
every file after the first is paired with the first on the games both played (won by both, by
only this one, by only the first, and the two-sided sign test over the games won by only one).

Games are matched by their deal (the seed it was dealt from, in every row since the rows
carried it), their seat rotation and their lineup, so runs started from different seeds pair
on the deals they share: round ``r`` of ``--seed S`` deals from ``S + r``, and runs whose seeds
are fewer deals apart than they play share deals (seeds 1 and 2 of 100 deals share 99). Where
a file's rows do not name their deal (files older than that), it is matched by job (lineup,
round, rotation), which is right only between runs of the same seed, and the line says so. The
last line sums every file, each agent's game counted once where files of the same first agent
repeat it (the same deal and seats, played move for move alike), and says how many repeats it
left out.

Run::

    python3 benchmarks/arena_pairs.py base.jsonl other.jsonl [...]
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fanfold.play.stats import wilson_interval


@dataclass(frozen=True)
class Game:
    """One game of a results file, for its first agent."""

    agent: str
    digest: str
    deal: int | None
    won: bool
    decisions: int
    seconds: float
    slowest: float


def load(path: Path) -> dict[str, Game]:
    """The games of an arena results file by job (``lineup:round:rotation``), for the agent in
    seat ``r`` of rotation ``r`` (the first agent of the lineup)."""
    games: dict[str, Game] = {}
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        job = str(row["job"])
        seat = int(job.split(":")[-1])
        games[job] = Game(
            str(row["seats"][seat]),
            str(row.get("digest", "")),
            int(row["deal"]) if "deal" in row else None,
            seat in row["winners"],
            int(row["decisions"][seat]),
            float(row["seconds"][seat]),
            float(row["slowest"][seat]),
        )
    return games


def by_deal(games: dict[str, Game]) -> dict[str, Game] | None:
    """``games`` keyed by lineup, deal and rotation (``lineup:dDEAL:rotation``), or ``None``
    when a row does not name its deal."""
    keyed: dict[str, Game] = {}
    for job, game in games.items():
        if game.deal is None:
            return None
        lineup, _, rotation = job.split(":")
        keyed[f"{lineup}:d{game.deal}:{rotation}"] = game
    return keyed


def sign_test(wins: int, losses: int) -> float:
    """The two-sided exact sign test's p-value for ``wins`` against ``losses`` (ties left
    out): the chance of a split at least as uneven between two equally good agents."""
    count = wins + losses
    if not count:
        return 1.0
    tail = sum(math.comb(count, k) for k in range(min(wins, losses) + 1))
    return min(1.0, 2 * tail / (1 << count))


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
    base_deals = by_deal(base)
    everything: dict[tuple[str, str, str], Game] = {}
    repeated = 0
    for path, games in runs:
        deals = by_deal(games)
        for key, game in (games if deals is None else deals).items():
            # A repeat: the same agent's game of the same deal and seats, played move for
            # move alike (rows without their deal may share a job and not a deal).
            if (game.agent, key, game.digest) in everything:
                repeated += 1
            everything[(game.agent, key, game.digest)] = game
        line = f"{path}: {summary(list(games.values()))}"
        if path is not base_path:
            ours, theirs, how = games, base, " (by job: a file without deals)"
            if deals is not None and base_deals is not None:
                ours, theirs, how = deals, base_deals, ""
            common = [key for key in ours if key in theirs]
            both = sum(ours[key].won and theirs[key].won for key in common)
            only = sum(ours[key].won and not theirs[key].won for key in common)
            only_base = sum(theirs[key].won and not ours[key].won for key in common)
            line += (
                f"; on the {len(common)} games of {base_path.name}{how}: won by both {both}, "
                f"only this {only}, only {base_path.name} {only_base} "
                f"(sign test p = {sign_test(only, only_base):.2f})"
            )
        print(line)
    if len(runs) > 1:
        left_out = f"; {repeated} repeats of a game left out" if repeated else ""
        print(f"all files: {summary(list(everything.values()))}{left_out}")


if __name__ == "__main__":
    main()
