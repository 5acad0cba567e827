"""How often the engine-assistance check flags honest strong players, and the solver's copier.

The check (:mod:`fanfold.play.assistance`) flags an account whose moves keep the solved
table's best value in at least :data:`~fanfold.play.assistance.THRESHOLD` of its critical
Fano330-R-Morris positions, once it has 40 of them over 5 games. This script plays seeded games
of ``perfect(mistakes=P)``, the table player that plays a second-best move with probability
``P`` at each critical position, against the Morris levels (``easy``, ``medium``, ``hard``,
and ``mixed``: the three in turn), the player's colour alternating game by game. The games of
each (``P``, opponent) pair are cut into *accounts* of ``N`` consecutive games (5 and 10 by
default) and each account is judged. It prints, for every ``P`` and ``N``:

* the accounts, those with enough evidence for a verdict, and those flagged;
* the flag rate among all accounts and among those judged, with Wilson 95% intervals; for
  ``P = 0`` (a player copying the solver) that rate is the check's detection rate;
* the mean critical positions of an account and its mean share of matches;

then the same per opponent; the flag rate among judged accounts at other thresholds, the
measurement the threshold is chosen from (``docs/fairplay.md``); and the same accounts judged
by the result class alone (win, draw or loss, without the distance), the measurement behind
the check's definition of a critical position. Every game is seeded by its place in the run,
so the tables are the same on every run and with any number of workers.

Run (32,000 games: about 2 minutes of processor time, 4 minutes on 2 cores of a busy
machine)::

    python3 benchmarks/assistance.py

``--quick`` plays a few accounts only (the tests run it); ``--accounts`` sets the accounts of
the largest size per (``P``, opponent) pair.
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from fanfold.agents.levels import LEVELS
from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.registry import get_game
from fanfold.play.assistance import THRESHOLD, AssistanceStats, Verdict, critical_decisions, verdict
from fanfold.play.batch import Job, run_batch
from fanfold.play.setup import play_game
from fanfold.play.stats import Proportion

#: The mistake rates played by default: the solver's copier, then honest strong players.
MISTAKES = (0.0, 0.02, 0.05, 0.1)
#: The opponents: each level, and ``mixed`` (the levels in turn, game by game).
MIXED = "mixed"
OPPONENTS = (*LEVELS, MIXED)
#: Games per account.
SIZES = (5, 10)
#: The thresholds the flag rates are also shown at.
THRESHOLDS = (1.0, 0.99, 0.98, 0.975, 0.95)


def player(mistakes: float) -> str:
    """The agent text of the player measured."""
    return f"perfect(mistakes={mistakes:g})"


def opponent_of(opponent: str, game_number: int) -> str:
    """The level met in a game of a pool: the pool's level, or the levels in turn."""
    return LEVELS[game_number % len(LEVELS)] if opponent == MIXED else opponent


def play_block(payload: JSONObject) -> JSONObject:
    """The worker: a block of seeded games of one player against one pool's opponents, each
    game's critical positions and matches for the player."""
    mistakes, opponent = payload["mistakes"], payload["opponent"]
    first, games, seed = payload["first"], payload["games"], payload["seed"]
    if not (
        isinstance(mistakes, int | float)
        and isinstance(opponent, str)
        and isinstance(first, int)
        and isinstance(games, int)
        and isinstance(seed, int)
    ):
        raise TypeError(f"not a block of games: {payload!r}")
    game = get_game("morris")
    critical: list[JSONValue] = []
    matched: list[JSONValue] = []
    by_class: list[JSONValue] = []
    for number in range(first, first + games):
        seat = number % 2  # the player's colour alternates
        seats = [player(float(mistakes)), opponent_of(opponent, number)]
        if seat:
            seats.reverse()
        key = f"{seed}:{mistakes}:{opponent}:{number}"
        table = play_game(game, None, seats, agent_seed=zlib.crc32(key.encode()))
        decisions = critical_decisions(table.record, seat)
        stats = AssistanceStats().add_game(decisions)
        critical.append(stats.critical)
        matched.append(stats.matched)
        classed = [decision for decision in decisions if decision.class_critical]
        by_class.append([len(classed), sum(decision.kept_class for decision in classed)])
    return {"critical": critical, "matched": matched, "by_class": by_class}


@dataclass(frozen=True)
class Pool:
    """The games of one player against one opponent: each game's counts, and the same counted
    by the result class alone (a critical position: some move changes win, draw or loss; a
    match: the move kept the best class)."""

    mistakes: float
    opponent: str
    games: tuple[AssistanceStats, ...]
    by_class: tuple[AssistanceStats, ...]

    def accounts(self, size: int, *, by_class: bool = False) -> list[AssistanceStats]:
        """The pool cut into accounts of ``size`` consecutive games (a remainder is left)."""
        games = self.by_class if by_class else self.games
        return [
            sum(games[start : start + size], AssistanceStats())
            for start in range(0, len(games) - size + 1, size)
        ]


def play_pools(
    mistakes: Sequence[float],
    opponents: Sequence[str],
    games: int,
    *,
    seed: int,
    workers: int,
    block: int,
) -> list[Pool]:
    """Play ``games`` games for every (mistakes, opponent) pair, in blocks of ``block``."""
    jobs = [
        Job(
            f"{rate:g}:{opponent}:{first}",
            {
                "mistakes": rate,
                "opponent": opponent,
                "first": first,
                "games": min(block, games - first),
                "seed": seed,
            },
        )
        for rate in mistakes
        for opponent in opponents
        for first in range(0, games, block)
    ]
    rows = {str(row["job"]): row for row in run_batch(play_block, jobs, workers=workers)}
    pools = []
    for rate in mistakes:
        for opponent in opponents:
            counts: list[AssistanceStats] = []
            classed: list[AssistanceStats] = []
            for first in range(0, games, block):
                row = rows[f"{rate:g}:{opponent}:{first}"]
                critical, matched, by_class = row["critical"], row["matched"], row["by_class"]
                if not (
                    isinstance(critical, list)
                    and isinstance(matched, list)
                    and isinstance(by_class, list)
                ):
                    raise TypeError(f"not a row of play_block: {row!r}")
                counts += [
                    AssistanceStats(1, int(str(c)), int(str(m)))
                    for c, m in zip(critical, matched, strict=True)
                ]
                for pair in by_class:
                    if not isinstance(pair, list):
                        raise TypeError(f"not a row of play_block: {row!r}")
                    classed.append(AssistanceStats(1, int(str(pair[0])), int(str(pair[1]))))
            pools.append(Pool(rate, opponent, tuple(counts), tuple(classed)))
    return pools


@dataclass(frozen=True)
class Line:
    """The verdicts on a group of accounts."""

    accounts: int
    judged: int
    flagged: int
    critical: float
    share: float

    @classmethod
    def of(cls, accounts: Sequence[AssistanceStats], threshold: float) -> Line:
        judgements = [verdict(stats, threshold) for stats in accounts]
        judged = sum(j.verdict is not Verdict.NOT_ENOUGH_EVIDENCE for j in judgements)
        count = max(len(accounts), 1)
        return cls(
            len(accounts),
            judged,
            sum(j.flagged for j in judgements),
            sum(stats.critical for stats in accounts) / count,
            sum(stats.matched / max(stats.critical, 1) for stats in accounts) / count,
        )


def rate(successes: int, trials: int) -> str:
    """``12.5% [9.1-16.9]`` (Wilson 95%), or ``-`` with no trials."""
    if not trials:
        return "-"
    low, high = Proportion(successes, trials).interval
    return f"{successes / trials:.1%} [{low:.1%}-{high:.1%}]"


def report(
    pools: Sequence[Pool], sizes: Sequence[int], threshold: float, thresholds: Sequence[float]
) -> list[str]:
    """The tables, as Markdown lines."""
    rates = list(dict.fromkeys(pool.mistakes for pool in pools))
    opponents = list(dict.fromkeys(pool.opponent for pool in pools))

    def accounts(
        rate_: float, size: int, opponent: str | None = None, *, by_class: bool = False
    ) -> list[AssistanceStats]:
        return [
            stats
            for pool in pools
            if pool.mistakes == rate_ and opponent in (None, pool.opponent)
            for stats in pool.accounts(size, by_class=by_class)
        ]

    lines = [
        f"Threshold {threshold:g} (flagged: at least that share of critical positions matched; "
        "a verdict needs 40 critical positions over 5 games). All opponents together:",
        "",
        "| player | games/account | accounts | judged | flagged | flag rate (all) "
        "| flag rate (judged) | critical/account | matched |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for rate_ in rates:
        for size in sizes:
            line = Line.of(accounts(rate_, size), threshold)
            lines.append(
                f"| {player(rate_)} | {size} | {line.accounts} | {line.judged} | {line.flagged} "
                f"| {rate(line.flagged, line.accounts)} | {rate(line.flagged, line.judged)} "
                f"| {line.critical:.1f} | {line.share:.1%} |"
            )
    lines += ["", "Flag rate among judged accounts, per opponent:", ""]
    lines.append("| player | games/account | " + " | ".join(opponents) + " |")
    lines.append("|---|---|" + "---|" * len(opponents))
    for rate_ in rates:
        for size in sizes:
            cells = []
            for opponent in opponents:
                line = Line.of(accounts(rate_, size, opponent), threshold)
                cells.append(f"{rate(line.flagged, line.judged)} ({line.judged})")
            lines.append(f"| {player(rate_)} | {size} | " + " | ".join(cells) + " |")
    lines += ["", "Flag rate among judged accounts at other thresholds:", ""]
    lines.append("| player | games/account | " + " | ".join(f"{t:g}" for t in thresholds) + " |")
    lines.append("|---|---|" + "---|" * len(thresholds))
    for rate_ in rates:
        for size in sizes:
            cells = []
            for other in thresholds:
                line = Line.of(accounts(rate_, size), other)
                cells.append(rate(line.flagged, line.judged))
            lines.append(f"| {player(rate_)} | {size} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"The same accounts judged by the result class alone (threshold {threshold:g}: a "
        "critical position is one where some move changes win, draw or loss; a slower win or "
        "a faster loss is no miss):",
        "",
        "| player | games/account | judged | flag rate (judged) | critical/account | matched |",
        "|---|---|---|---|---|---|",
    ]
    for rate_ in rates:
        for size in sizes:
            line = Line.of(accounts(rate_, size, by_class=True), threshold)
            lines.append(
                f"| {player(rate_)} | {size} | {line.judged} | {rate(line.flagged, line.judged)} "
                f"| {line.critical:.1f} | {line.share:.1%} |"
            )
    copier = [rate_ for rate_ in rates if rate_ == 0]
    if copier:
        lines.append("")
        for size in sizes:
            line = Line.of(accounts(0.0, size), threshold)
            lines.append(
                f"Detection of the solver's copier (perfect, mistakes 0), {size} games an "
                f"account: {rate(line.flagged, line.judged)} of {line.judged} judged accounts "
                f"({rate(line.flagged, line.accounts)} of all {line.accounts})."
            )
    return lines


def _numbers(text: str) -> list[float]:
    return [float(part) for part in text.split(",") if part.strip()]


def main(arguments: Sequence[str] | None = None) -> None:
    given = list(sys.argv[1:] if arguments is None else arguments)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--accounts",
        type=int,
        default=200,
        help="accounts of the largest size per (mistakes, opponent) pair (default 200)",
    )
    parser.add_argument(
        "--mistakes",
        default=",".join(f"{rate:g}" for rate in MISTAKES),
        help="the players' mistake rates, comma separated",
    )
    parser.add_argument(
        "--opponents", default=",".join(OPPONENTS), help="levels, or mixed, comma separated"
    )
    parser.add_argument(
        "--sizes", default=",".join(map(str, SIZES)), help="games per account, comma separated"
    )
    parser.add_argument("--threshold", type=float, default=THRESHOLD, help="the check's threshold")
    parser.add_argument(
        "--thresholds",
        default=",".join(f"{t:g}" for t in THRESHOLDS),
        help="other thresholds to show",
    )
    parser.add_argument("--seed", type=int, default=0, help="seeds every game")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--quick", action="store_true", help="a few accounts against medium only (for tests)"
    )
    options = parser.parse_args(given)
    opponents = [part.strip() for part in options.opponents.split(",") if part.strip()]
    for opponent in opponents:
        if opponent not in OPPONENTS:
            parser.error(f"an opponent is one of {', '.join(OPPONENTS)}, not {opponent!r}")
    sizes = [int(size) for size in _numbers(options.sizes)]
    accounts = options.accounts
    if options.quick:
        opponents, accounts = ["medium"], 2
    if accounts < 1 or not sizes or min(sizes) < 1:
        parser.error("--accounts and --sizes must be at least 1")
    block = math.lcm(*sizes)
    games = accounts * max(sizes)
    games += -games % block
    started = time.perf_counter()
    pools = play_pools(
        _numbers(options.mistakes),
        opponents,
        games,
        seed=options.seed,
        workers=options.workers,
        block=block,
    )
    elapsed = time.perf_counter() - started
    played = sum(len(pool.games) for pool in pools)
    print(f"command: {shlex.join(['python3', 'benchmarks/assistance.py', *given])}")
    print(f"{played} games in {elapsed:.0f} s with {options.workers} worker(s)")
    print()
    for line in report(pools, sizes, options.threshold, _numbers(options.thresholds)):
        print(line)


if __name__ == "__main__":
    main()
