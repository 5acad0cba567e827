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

* **Fano** (two and four seats, classic and Trionfey) and **Fan Tan** (four seats): games of
  ``medium`` bots, every seat reviewed as a human's would be, each decision from its seat's view
  (:mod:`fanfold.play.review_cards`, the review's seed ``seed + i``; with ``--stored``, the
  human seats only: the first two). Their rows also give the processor seconds of each review
  (on a busy machine, the wall time of a quiet one). ``--cards`` runs these rows only, and
``--only fano:classic,fantan:default`` (game and preset) some of them.

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

``--floor`` measures the noise floor of the Fano and Fan Tan marks instead
(:data:`fanfold.play.review_cards.NOISE_FLOOR`): at the judged decisions of ``--games`` games of
``medium`` bots (at most 12 a game), the move with the best expected result under one seed is
taken as the move played, the decision is judged again under ``--seeds`` other seeds, and the
best move's expected result less that move's is counted; it prints the 50th, 90th, 95th and
99th percentiles per game (the floor is the 99th)::

    python3 benchmarks/review.py --floor --games 12 --seeds 4

``--impact`` measures what reviews running cost the games being played instead
(:mod:`benchmarks.review_impact`: ``--tables``, ``--seconds``, ``--think``, ``--reviews``,
``--pairs``; ``--interleave SECONDS``: one server, the reviews switched on and off in
windows, :mod:`benchmarks.review_interleave`; ``--save FILE`` keeps such a run's samples and
``--pool FILE [FILE ...]`` prints the verdict over the pairs of kept runs of one tree,
:mod:`benchmarks.review_pool`);
``--loop-cost`` the processor time a review's polls and steps cost the server's process
(:mod:`benchmarks.review_loop`), a measure a busy machine does not move much;
``--store-wait`` what a review's writes cost the live commits on one SQLite file
(:mod:`benchmarks.review_store_wait`).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import shlex
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fanfold.core.config import JSONObject
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play.review import REVIEW_VERSION, Review, review
from fanfold.play.review_cards import (
    NOISE_FLOOR,
    decision_seed,
    default_deals,
    review_cards,
    values_of,
)
from fanfold.play.setup import play_game
from fanfold.server.reviews import Reviews, review_seed, review_step
from fanfold.server.store import Store
from fanfold.server.store.review_memory import review_store
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


async def _in_process(
    record: GameRecord, stop: int, budget: int | None, seed: str, start: int
) -> JSONObject:
    return review_step(record.to_json(), stop, budget, seed, start)


def stored_seconds(records: Sequence[GameRecord]) -> list[float]:
    """The seconds from opening each record's stored review to its end, on a new SQLite file
    (the moves stored step by step, the summary at the end)."""
    seconds = []
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'reviews.db'}")
        try:
            reviews = Reviews(review_store(store), _in_process, owner="benchmark")

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


#: The card rows: the game, its preset, and the seats.
CARD_ROWS = (
    ("fano", "classic"),
    ("fano", "four-players"),
    ("fano", "trionfey"),
    ("fano", "trionfey-all-for-one"),
    ("fantan", None),
)


def card_records(name: str, preset: str | None, games: int, seed: int) -> list[GameRecord]:
    """``games`` finished games of ``medium`` bots, labelled as played by humans (every seat
    reviewed)."""
    game = get_game(name)
    config = game.default_config() if preset is None else game.preset(preset).config
    seats = game.num_players(config)
    records = []
    for number in range(games):
        record = play_game(
            game, config, ["medium"] * seats, seed=seed + number, agent_seed=seed + number
        ).finish()
        records.append(dataclasses.replace(record, players=("human",) * seats))
    return records


def card_row(name: str, preset: str | None, games: int, seed: int, *, stored: bool) -> Row:
    """Review ``games`` Fano or Fan Tan games of medium bots, every seat judged (``stored``:
    the stored job, the first two seats judged)."""
    records = card_records(name, preset, games, seed)
    if stored:
        records = [
            dataclasses.replace(
                record,
                players=tuple(
                    "human" if seat < 2 else "medium" for seat in range(len(record.players))
                ),
            )
            for record in records
        ]
        review_cards(records[0], seed=0, seats=[0])  # first use: the compiled code loaded
        seconds = stored_seconds(records)
        reviews = [
            review_cards(record, seed=review_seed(f"t{number}"))
            for number, record in enumerate(records)
        ]
    else:
        review_cards(records[0], seed=0, seats=[0])
        seconds, reviews, cpu = [], [], []
        for number, record in enumerate(records):
            started, used = time.perf_counter(), time.process_time()
            reviews.append(review_cards(record, seed=seed + number))
            seconds.append(time.perf_counter() - started)
            cpu.append(time.process_time() - used)
    moves: list[Any] = [move for result in reviews for move in result["moves"]]  # type: ignore[union-attr]
    judged = sum(move["judged"] == "yes" for move in moves)
    marks = Counter(str(move["mark"]) for move in moves if move["mark"] is not None)
    found = f"{judged} decisions judged; marks: " + (
        ", ".join(f"{mark} {count}" for mark, count in sorted(marks.items())) or "none"
    )
    if not stored:  # the processor's seconds: a quiet machine's wall time, one core
        found += f"; CPU s p50 {percentile(cpu, 0.5):.2f}, max {max(cpu):.2f}"
    game = get_game(name)
    config = game.default_config() if preset is None else game.preset(preset).config
    title = f"{game.title} ({preset or 'default'}, {game.num_players(config)} seats)"
    judged_seats = "first two seats human" if stored else "every seat"
    return Row(title, f"medium, {judged_seats}", tuple(seconds), found)


def floor_losses(name: str, games: int, seed: int, seeds: int) -> list[float]:
    """The losses counted when the move played is the best one under another seed (see the
    module's docstring, ``--floor``)."""
    game = get_game(name)
    evaluate = values_of(game)
    deals = default_deals(game)
    losses = []
    for record in card_records(name, None, games, seed):
        states = record.states()
        taken = 0
        for number in range(1, len(record.actions) + 1):
            before = states[number - 1]
            legal = list(game.legal_actions(before))
            mover = game.current_player(before)
            if len(legal) < 2 or mover is None or taken >= 12 or number % 3:
                continue
            taken += 1
            view = game.observe(before, mover)
            first = evaluate(view, legal, decision_seed("floor", number), deals)
            played = max(range(len(legal)), key=lambda i: first[i])
            for other in range(seeds):
                found = evaluate(view, legal, decision_seed(f"floor{other}", number), deals)
                losses.append(max(found) - found[played])
    return losses


def floor_main(games: int, seed: int, seeds: int) -> None:
    """Print the noise floor's measurement."""
    print("| game | deals | decisions x seeds | p50 | p90 | p95 | p99 | floor in use |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in ("fano", "fantan"):
        losses = floor_losses(name, games, seed, seeds)
        cuts = " | ".join(f"{percentile(losses, share):.3f}" for share in (0.5, 0.9, 0.95, 0.99))
        print(
            f"| {get_game(name).title} | {default_deals(get_game(name))} | {len(losses)} | "
            f"{cuts} | {NOISE_FLOOR[name]:.3f} |"
        )


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
    parser.add_argument(
        "--floor", action="store_true", help="measure the card reviews' noise floor instead"
    )
    parser.add_argument("--seeds", type=int, default=4, help="--floor: seeds a decision")
    parser.add_argument(
        "--cards", action="store_true", help="review the Fano and Fan Tan rows only"
    )
    parser.add_argument(
        "--impact",
        action="store_true",
        help="measure what reviews running cost the games being played (a served load)",
    )
    parser.add_argument(
        "--loop-cost",
        action="store_true",
        help="measure the server process's processor time per review poll and step",
    )
    parser.add_argument(
        "--store-wait",
        action="store_true",
        help="measure what a review's writes cost the live commits on SQLite: to the main file "
        "(two ways) or to the reviews' own file "
        "(--tables, --reviews, --every, --seconds a mode a round, --rounds)",
    )
    parser.add_argument(
        "--every", type=float, default=0.1, help="--store-wait: seconds between a review's writes"
    )
    parser.add_argument("--rounds", type=int, default=3, help="--store-wait: rounds of the modes")
    parser.add_argument("--tables", type=int, default=200, help="--impact: tables at once")
    parser.add_argument("--seconds", type=float, default=30.0, help="--impact: seconds a run")
    parser.add_argument("--think", type=float, default=2.0, help="--impact: players' think s")
    parser.add_argument("--reviews", type=int, default=4, help="--impact: reviews asked for")
    parser.add_argument(
        "--pairs",
        type=int,
        help="--impact: rounds of a noise pair (no reviews) and a pair with the reviews, in "
        "turn first, then the median and range of each's p99 changes side by side",
    )
    parser.add_argument(
        "--hold",
        type=float,
        help="--impact: the review worker's hold limit in seconds (0: no hold; default the "
        "server's, FANFOLD_REVIEW_HOLD or 2)",
    )
    parser.add_argument(
        "--interleave",
        type=float,
        metavar="SECONDS",
        help="--impact: one server, the reviews on and off in windows of SECONDS (--seconds: "
        "the windows' total, after a warm-up), a p99 change on vs off beside an A/A control",
    )
    parser.add_argument(
        "--guard",
        type=float,
        default=0.5,
        help="--interleave: seconds dropped at each window's start (default 0.5)",
    )
    parser.add_argument(
        "--played",
        action="store_true",
        help="--interleave: review the tables the players finished, not loaded records",
    )
    parser.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="--interleave: keep the run's samples in FILE, for --pool",
    )
    parser.add_argument(
        "--pool",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="the verdict over the pairs of interleaved runs kept with --save (one tree's)",
    )
    parser.add_argument(
        "--pool-any",
        action="store_true",
        help="--pool: pool runs of different trees too",
    )
    parser.add_argument(
        "--only",
        help="the card rows to run, e.g. fano:classic,fantan:default (default: all)",
    )
    options = parser.parse_args(given)
    if options.games < 1:
        parser.error("--games must be at least 1")
    if options.reviews < 0:
        parser.error("--reviews must be 0 or more")
    if options.pairs is not None and options.pairs < 1:
        parser.error("--pairs must be at least 1")
    if options.played and options.interleave is None:
        parser.error("--played goes with --interleave")
    if options.save is not None and options.interleave is None:
        parser.error("--save goes with --interleave")
    if options.pool_any and options.pool is None:
        parser.error("--pool-any goes with --pool")
    if options.pool is not None:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script
        from benchmarks.review_pool import pool_main

        print(f"command: {shlex.join(['python3', 'benchmarks/review.py', *given])}")
        try:
            pool_main(options.pool, options.pool_any)
        except ValueError as refused:
            parser.error(str(refused))
        return
    if options.interleave is not None:
        if not options.impact:
            parser.error("--interleave goes with --impact")
        if options.pairs is not None:
            parser.error("--interleave and --pairs are two protocols: give one")
        if options.reviews < 1:
            parser.error("--interleave needs --reviews of 1 or more")
        if not 1.0 <= options.interleave <= 600.0:
            parser.error("--interleave must be from 1 to 600 seconds")
        if not 0.0 <= options.guard < options.interleave:
            parser.error("--guard must be 0 or more and shorter than a window")
        if options.seconds < 2 * options.interleave:
            parser.error("--seconds must hold at least one pair of windows (2 x --interleave)")
    if options.impact:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script
        from benchmarks.review_impact import impact_main
        from benchmarks.review_interleave import interleave_main

        print(f"command: {shlex.join(['python3', 'benchmarks/review.py', *given])}")
        if options.hold is not None:
            os.environ["FANFOLD_REVIEW_HOLD"] = f"{options.hold:g}"  # the server reads it
        if options.interleave is not None:
            interleave_main(
                options.tables,
                options.seconds,
                options.interleave,
                options.think,
                options.reviews,
                options.guard,
                options.played,
                options.save,
            )
            return
        impact_main(
            options.tables,
            options.seconds,
            options.think,
            options.reviews,
            options.hold,
            options.pairs,
        )
        return
    if options.store_wait:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script
        from benchmarks.review_store_wait import store_wait

        print(f"command: {shlex.join(['python3', 'benchmarks/review.py', *given])}")
        store_wait(
            tables=options.tables,
            reviews=options.reviews,
            every=options.every,
            seconds=options.seconds,
            rounds=options.rounds,
        )
        return
    if options.loop_cost:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script
        from benchmarks.review_loop import loop_cost_main

        print(f"command: {shlex.join(['python3', 'benchmarks/review.py', *given])}")
        loop_cost_main()
        return
    if options.floor:
        print(f"command: {shlex.join(['python3', 'benchmarks/review.py', *given])}")
        floor_main(options.games, options.seed, options.seeds)
        return
    started = time.perf_counter()
    load_table(get_game("morris").default_config().adjacency)
    loaded = time.perf_counter() - started
    rows = []
    if not options.cards:
        rows.append(morris_row(options.games, options.seed, stored=options.stored))
        rows += [
            fan_row(player, options.games, options.seed, stored=options.stored)
            for player in FAN_PLAYERS
        ]
    wanted = None if options.only is None else set(options.only.split(","))
    rows += [
        card_row(name, preset, options.games, options.seed, stored=options.stored)
        for name, preset in CARD_ROWS
        if wanted is None or f"{name}:{preset or 'default'}" in wanted
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
