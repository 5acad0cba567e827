"""OpenSpiel's CFR on a Fan Tan end game dealt by chance, with its NashConv over time.

The whole game is far too large for ``exploitability.nash_conv`` (a 128-bit deal, then up to
208 actions), and fanfold's Fan Tan has no smaller deck. An end game is small: a random hand
of the standard game (``--players`` seats) is played to ``--back`` actions from its end, and
``python_fanfold_fantan`` starts from that position (``position``) with the cards seat 0 does
not see re-dealt by chance among ``--deals`` equally likely deals (``deals``: each deal is the
game's own ``sample_state`` from seat 0's view with its own seed). Seat 0 knows its hand; the
others know theirs; nobody sees the deal. OpenSpiel's ``cfr.CFRSolver`` (or
``CFRPlusSolver``) runs on it unmodified, and ``exploitability.nash_conv`` of the average
policy is printed every ``--every`` iterations, with the CPU seconds spent.

Run: ``python examples/openspiel_nashconv.py --iterations 200 --every 10``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability, get_all_states

import fanfold.envs
from fanfold.core.errors import FanfoldError
from fanfold.core.registry import set_up


def end_game_position(players: int, seed: int, back: int) -> str:
    """The position ``back`` actions before the end of a random hand of standard Fan Tan."""
    game, config = set_up("fantan", "standard", {"players": players})
    rng = random.Random(seed)
    states = [game.new_state(config, seed)]
    while game.legal_actions(states[-1]):
        states.append(game.apply_legal(states[-1], rng.choice(game.legal_actions(states[-1]))))
    if back >= len(states):
        raise SystemExit(f"the hand of seed {seed} has only {len(states) - 1} actions")
    return str(game.format_position(states[-1 - back]))


def load(players: int, seed: int, back: int, deals: int) -> Any:
    """The end game as an OpenSpiel game."""
    fanfold.envs.register_openspiel()
    position = end_game_position(players, seed, back)
    return pyspiel.load_game(
        "python_fanfold_fantan", {"players": players, "position": position, "deals": deals}
    )


def main(argv: list[str] | None = None) -> list[tuple[int, float, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3, help="seats, 3 to 8 (Fan Tan's)")
    parser.add_argument("--seed", type=int, default=6, help="the random hand's seed")
    parser.add_argument("--back", type=int, default=12, help="actions from the hand's end")
    parser.add_argument("--deals", type=int, default=4, help="deals chance chooses among")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--every", type=int, default=10, help="iterations between NashConvs")
    parser.add_argument("--solver", choices=("cfr", "cfr+"), default="cfr")
    args = parser.parse_args(argv)
    try:
        game = load(args.players, args.seed, args.back, args.deals)
    except FanfoldError as error:
        parser.error(str(error))
    states = get_all_states.get_all_states(game, include_terminals=True, include_chance_states=True)
    print(f"end game: {game.get_parameters()['position']}")
    print(
        f"{len(states)} states ({args.deals} deals, {args.players} players); "
        f"information-state tensor {game.information_state_tensor_size()} numbers"
    )
    uniform = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    print(f"{'iteration':>9} {'CPU s':>8} {'NashConv':>10}")
    print(f"{0:>9} {0.0:>8.1f} {uniform:>10.5f}   (uniform random policy)")
    solver = cfr.CFRPlusSolver(game) if args.solver == "cfr+" else cfr.CFRSolver(game)
    rows: list[tuple[int, float, float]] = [(0, 0.0, uniform)]
    spent = 0.0
    for iteration in range(1, args.iterations + 1):
        start = time.process_time()
        solver.evaluate_and_update_policy()
        spent += time.process_time() - start
        if iteration % args.every == 0 or iteration == args.iterations:
            value = exploitability.nash_conv(game, solver.average_policy())
            rows.append((iteration, spent, value))
            print(f"{iteration:>9} {spent:>8.1f} {value:>10.5f}", flush=True)
    return rows


if __name__ == "__main__":
    main()
