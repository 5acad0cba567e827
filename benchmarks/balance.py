"""Throughput of the balance lab's simulator: games per second against plain play.

The same seeded games (a balance experiment's jobs) are played four ways:

* plain: a loop in one process calling :func:`fanfold.play.setup.play_game` for each game,
  nothing counted beyond the outcome;
* the simulator with 1 worker: the batch runner in this process, the arena worker counting
  decisions, times and action kinds;
* the simulator with 2 worker processes (the scaling from 1 to 2);
* with ``--ray``, the simulator on a local Ray instance with 2 CPUs (its start-up timed
  apart).

The outcomes must agree between all of them (the script stops otherwise). It ends with the
simulator's speed against plain play (1 worker) and the scaling from 1 to 2 workers. Run::

    PYTHONPATH=src python3 benchmarks/balance.py --game fantan --agent random --games 400
    PYTHONPATH=src python3 benchmarks/balance.py --game fano --agent random \\
        --option turns_per_player=100 --games 200

Timings depend on the machine and on what else runs on it; ``os.getloadavg()`` is printed
beside them.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable

from fanfold.balance import build_experiment, run_experiment
from fanfold.core.config import JSONObject
from fanfold.core.registry import get_game
from fanfold.play.backends import import_ray
from fanfold.play.setup import play_game


def _plain(jobs: list[JSONObject]) -> list[list[int]]:
    winners = []
    for payload in jobs:
        game = get_game(str(payload["game"]))
        config = payload["config"]
        seats = payload["seats"]
        seed, agent_seed = payload["seed"], payload["agent_seed"]
        assert isinstance(config, dict)
        assert isinstance(seats, list)
        assert isinstance(seed, int)
        assert isinstance(agent_seed, int)
        table = play_game(
            game,
            game.config_from_json(config),
            [str(seat) for seat in seats],
            seed,
            agent_seed=agent_seed,
        )
        outcome = table.outcome
        assert outcome is not None
        winners.append(list(outcome.winners))
    return winners


def _timed(
    label: str, games: int, run: Callable[[], list[list[int]]]
) -> tuple[list[list[int]], float]:
    """The outcomes of ``run`` and its games per second (printed)."""
    start = time.perf_counter()
    winners = run()
    seconds = time.perf_counter() - start
    print(f"{label:<34} {games / seconds:>9.1f} games/s  ({games} games in {seconds:.2f} s)")
    return winners, games / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="fantan")
    parser.add_argument("--agent", default="random")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--option", action="append", default=[], help="name=value")
    parser.add_argument("--ray", action="store_true", help="also run on a local Ray instance")
    args = parser.parse_args()
    options = dict(text.split("=", 1) for text in args.option)
    experiment = build_experiment(
        args.game, [{"options": options}] if options else [], [args.agent], games=args.games
    )
    jobs = experiment.jobs()
    payloads = [job.payload for job in jobs]
    print(
        f"{experiment.game.title}, {args.agent} in every seat, {len(jobs)} games; "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )

    def simulator(workers: int, ray: str | None = None) -> Callable[[], list[list[int]]]:
        def run() -> list[list[int]]:
            rows = run_experiment(experiment, workers=workers, ray=ray)
            return [[int(str(seat)) for seat in row["winners"]] for row in rows]  # type: ignore[union-attr]

        return run

    plain, plain_rate = _timed("plain play, one process", len(jobs), lambda: _plain(payloads))
    runs = [("simulator, 1 worker", simulator(1)), ("simulator, 2 worker processes", simulator(2))]
    rates = []
    for label, run in runs:
        winners, rate = _timed(label, len(jobs), run)
        if winners != plain:
            raise SystemExit(f"{label}: the outcomes differ from plain play")
        rates.append(rate)
    if args.ray:
        ray = import_ray()
        start = time.perf_counter()
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            _system_config={"worker_niceness": 0},  # as --ray local starts it
        )
        print(f"{'local Ray with 2 CPUs: start-up':<34} {time.perf_counter() - start:>9.1f} s")
        try:
            if _timed("simulator on that Ray", len(jobs), simulator(2, "auto"))[0] != plain:
                raise SystemExit("Ray: the outcomes differ from plain play")
        finally:
            ray.shutdown()
    print("every way gave the same outcomes")
    one, two = rates
    print(f"{'simulator (1 worker) / plain play':<34} {one / plain_rate:>9.2f}")
    print(f"{'scaling, 2 workers / 1 worker':<34} {two / one:>9.2f}")
    print(f"load after the runs {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
