"""Fano330-R-Morris speed: random playouts, the full solve, the cache and the perfect agent.

For each adjacency variant it prints

* random playouts per second through the rules engine (``legal_actions`` and ``apply`` on
  immutable states, from the empty board to the end of the game);
* the time to solve every legal position by retrograde analysis (no cache), with the number of
  legal positions and of those reachable from the start;
* the time to write the table to a cache file and to read it back (with validation), and the
  file's size;
* perfect-agent moves per second (a table lookup for each legal move).

Run: ``python3 benchmarks/morris.py`` (``--seconds`` per playout measurement, ``--solves``
repetitions of each solve, the best time reported).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import tempfile
import time
from pathlib import Path

from fanfold.agents.perfect import PerfectAgent
from fanfold.games.morris import GAME, Adjacency, MorrisConfig
from fanfold.games.morris.notation import format_key
from fanfold.solvers import morris as solver


def playouts(adjacency: Adjacency, seconds: float) -> tuple[int, int, float]:
    """Random games until ``seconds`` pass: (games, actions, elapsed seconds)."""
    config = MorrisConfig(adjacency)
    rng = random.Random(1)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = GAME.new_state(config)
        while True:
            legal = GAME.legal_actions(state)
            if not legal:
                break
            state = GAME.apply_legal(state, legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def perfect_moves(adjacency: Adjacency, cache: Path, seconds: float) -> tuple[int, float]:
    """Perfect-agent decisions in random positions until ``seconds`` pass."""
    config = MorrisConfig(adjacency)
    agent = PerfectAgent(GAME, 1, cache_dir=cache)
    codes = solver.legal_codes()
    rng = random.Random(2)
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board, side = solver.decode(int(codes[rng.randrange(len(codes))]))
        state = GAME.parse_position(format_key((board, side)), config)
        legal = GAME.legal_actions(state)
        if legal:
            agent.choose(GAME.observe(state, side), legal)
            moves += 1
    return moves, time.perf_counter() - start


def main() -> None:
    """Run every measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per playout run")
    parser.add_argument("--solves", type=int, default=1, help="solves per variant (best kept)")
    arguments = parser.parse_args()
    print(
        f"Fano330-R-Morris benchmark: Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {platform.machine()}"
    )
    header = (
        f"{'variant':<10} {'games/s':>9} {'actions/s':>10} {'solve s':>8} {'positions':>10} "
        f"{'reachable':>10} {'save s':>7} {'load s':>7} {'cache MB':>8} {'perfect mv/s':>12}"
    )
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as directory:
        cache = Path(directory)
        for adjacency in Adjacency:
            games, actions, elapsed = playouts(adjacency, arguments.seconds)
            start = time.perf_counter()
            table = solver.build_table(adjacency)
            best = time.perf_counter() - start
            for _ in range(arguments.solves - 1):
                start = time.perf_counter()
                solver.build_table(adjacency)
                best = min(best, time.perf_counter() - start)
            path = solver.cache_path(adjacency, cache)
            start = time.perf_counter()
            solver.save_table(table, path)
            saved = time.perf_counter() - start
            start = time.perf_counter()
            solver.read_table(path, adjacency)
            loaded = time.perf_counter() - start
            moves, move_seconds = perfect_moves(adjacency, cache, min(arguments.seconds, 2.0))
            print(
                f"{adjacency.value:<10} {games / elapsed:>9,.0f} {actions / elapsed:>10,.0f} "
                f"{best:>8.2f} {table.size:>10,} {int(table.reachable.sum()):>10,} "
                f"{saved:>7.2f} {loaded:>7.3f} {path.stat().st_size / 1e6:>8.2f} "
                f"{moves / move_seconds:>12,.0f}"
            )


if __name__ == "__main__":
    main()
