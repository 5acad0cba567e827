"""How long the engines take to review a finished game (:mod:`fanfold.play.review`).

Plays seeded games with the existing agents, then times :func:`fanfold.play.review.review` on
each finished record (the game's replay, every move's value and the summary; the Morris table
is loaded once beforehand, as a server holds it, and its load is shown apart; one untimed
review of each row's first game pays for first use):

* **Fano330-R-Morris**: ``medium`` (White) against ``easy`` (Black), agent seed ``seed + i``
  for game ``i``: moves that lose value on both sides;
* **Fan**: deals ``seed + i`` played by ``heuristic`` (the ``easy`` level, a greedy player that
  loses most deals it could win) and by ``random``, so that the reviews meet won games, deals
  never winnable and deals lost by a move, the last found by bisection with the exact solver.

It prints its command, then one row per game and player: the games, the seconds per review at
the median (p50), the 99th percentile (p99, nearest rank) and the slowest, and what the reviews
found. Every game is seeded by its place in the run, so the games are the same on every run.

Run (a few seconds)::

    python3 benchmarks/review.py

``--games`` sets the games per row (default 50), ``--seed`` the first seed. ``--stored``
times the server's stored review instead (:mod:`fanfold.server.reviews`): from the request
that opens the job to its end, its moves stored step by step in a SQLite file (Morris 16 moves
a step, each step a review of the game cut after it; Fan one step, the solver's budget
:data:`fanfold.server.reviews.FAN_BUDGET` per question), computed in this process rather than
the bot pool.
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fanfold.core.config import JSONObject
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play.review import REVIEW_VERSION, Review, review
from fanfold.play.setup import play_game
from fanfold.server.reviews import Reviews, review_step
from fanfold.server.store import Store
from fanfold.server.store.review_store import SqlReviews
from fanfold.solvers.morris import load_table

#: The Morris pairing: White's level, then Black's.
MORRIS_SEATS = ("medium", "easy")
#: The Fan players.
FAN_PLAYERS = ("heuristic", "random")


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` 0.5: the median)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


@dataclass(frozen=True)
class Row:
    """The reviews of one set of games: what was played, each review's seconds, the findings."""

    game: str
    players: str
    seconds: tuple[float, ...]
    found: str

    def line(self) -> str:
        """The row of the Markdown table."""
        p50, p99 = percentile(self.seconds, 0.5), percentile(self.seconds, 0.99)
        return (
            f"| {self.game} | {self.players} | {len(self.seconds)} | {p50:.4f} | {p99:.4f} | "
            f"{max(self.seconds):.4f} | {self.found} |"
        )


def timed_reviews(
    records: Sequence[GameRecord], *, stored: bool = False
) -> tuple[list[float], list[Review]]:
    """Each record's review and its seconds (after one untimed review of the first record,
    which pays for first use: the table's checksum, the code's first runs); with
    ``stored``, the seconds of the stored job instead (:func:`stored_seconds`)."""
    review(records[0])
    seconds, reviews = [], []
    for record in records:
        started = time.perf_counter()
        reviews.append(review(record))
        seconds.append(time.perf_counter() - started)
    if stored:
        seconds = stored_seconds(records)
    return seconds, reviews


async def _in_process(record: GameRecord, stop: int, budget: int | None) -> JSONObject:
    return review_step(record.to_json(), stop, budget)


def stored_seconds(records: Sequence[GameRecord]) -> list[float]:
    """The seconds from opening each record's stored review to its end, on a new SQLite file
    (the moves stored step by step, the summary at the end)."""
    seconds = []
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'reviews.db'}")
        try:
            reviews = Reviews(SqlReviews(store.engine), _in_process, owner="benchmark")

            async def one(table: str, record: GameRecord) -> float:
                started = time.perf_counter()
                await reviews.open(table, record)
                await reviews.tasks[(table, REVIEW_VERSION)]
                return time.perf_counter() - started

            for number, record in enumerate(records):
                seconds.append(asyncio.run(one(f"t{number}", record)))
        finally:
            store.close()
    return seconds


def morris_row(games: int, seed: int, *, stored: bool = False) -> Row:
    """Review ``games`` Morris games of medium against easy."""
    game = get_game("morris")
    records = [
        play_game(game, None, list(MORRIS_SEATS), agent_seed=seed + number).finish()
        for number in range(games)
    ]
    seconds, reviews = timed_reviews(records, stored=stored)
    marks = Counter(str(move.mark) for result in reviews for move in result.marked)
    moves = sum(len(result.moves) for result in reviews)
    found = f"{moves} moves; marks: " + ", ".join(
        f"{name} {count}" for name, count in sorted(marks.items())
    )
    return Row(game.title, " vs ".join(MORRIS_SEATS), tuple(seconds), found)


def fan_row(player: str, games: int, seed: int, *, stored: bool = False) -> Row:
    """Review ``games`` Fan deals played by ``player``."""
    game = get_game("fan")
    records = [
        play_game(game, None, [player], seed=seed + number, agent_seed=seed + number).finish()
        for number in range(games)
    ]
    seconds, reviews = timed_reviews(records, stored=stored)
    verdicts = Counter(result.deal.verdict.value for result in reviews if result.deal)
    solves = sum(result.deal.solves for result in reviews if result.deal)
    found = (
        ", ".join(f"{name} {count}" for name, count in sorted(verdicts.items()))
        + f"; {solves} solver calls"
    )
    return Row(game.title, player, tuple(seconds), found)


def main(arguments: Sequence[str] | None = None) -> None:
    given = list(sys.argv[1:] if arguments is None else arguments)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games per row (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument(
        "--stored",
        action="store_true",
        help="time the server's stored review job (SQLite), not the computation alone",
    )
    options = parser.parse_args(given)
    if options.games < 1:
        parser.error("--games must be at least 1")
    started = time.perf_counter()
    load_table(get_game("morris").default_config().adjacency)
    loaded = time.perf_counter() - started
    rows = [morris_row(options.games, options.seed, stored=options.stored)]
    rows += [
        fan_row(player, options.games, options.seed, stored=options.stored)
        for player in FAN_PLAYERS
    ]
    print(f"command: {shlex.join(['python3', 'benchmarks/review.py', *given])}")
    print(f"Morris table loaded in {loaded:.2f} s (once, before the reviews)")
    if options.stored:
        print("seconds: the stored review job, from its request to its end (SQLite)")
    print()
    print("| game | players | games | p50 s | p99 s | max s | found |")
    print("|---|---|---:|---:|---:|---:|---|")
    for row in rows:
        print(row.line())


if __name__ == "__main__":
    main()
