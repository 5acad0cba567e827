"""OpenSpiel's two forms of the Fan Tan (or Fano) deal side by side, and the cost of resampling.

* Random playouts of ``python_fanfold_fantan`` (standard, four players; or with ``--game fano``
  ``python_fanfold_fano``, classic, two players, 12 turns each): every chance outcome and action
  uniform among the legal ones, the mover's ``observation_tensor()`` each step, with
  ``deal=cards`` (one card a chance node: Fan Tan's 52; Fano's piles, first player and
  reshuffles) and ``deal=seed`` (16 seed bytes), in alternating half-second turns (a load that
  changes during the run falls on both alike);
* ``resample_from_infostate(0, ...)`` with ``deal=cards`` after the deal and after some random
  actions (ten games each; the median): the game is played again from a re-dealt start.

Run: ``python benchmarks/openspiel_deal.py [--turns 16] [--game fano]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pyspiel

import fanfold.envs


def playout(game: pyspiel.Game, rng: random.Random) -> None:
    """One random game, the mover's observation tensor built each step."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if not state.is_chance_node():
            state.observation_tensor(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))


#: The games measured, with their parameters.
GAMES: dict[str, dict[str, object]] = {
    "fantan": {},
    "fano": {"options": "turns_per_player=12"},
}


def load(name: str, deal: str = "cards") -> pyspiel.Game:
    """The game ``name`` of :data:`GAMES` with the ``deal`` form."""
    return pyspiel.load_game(f"python_fanfold_{name}", {**GAMES[name], "deal": deal})


def playout_rates(turns: int, name: str = "fantan") -> dict[str, float]:
    """Games per second of each form, over ``turns`` half-second turns each."""
    games = {form: load(name, form) for form in ("cards", "seed")}
    rng = random.Random(0)
    played = dict.fromkeys(games, 0)
    spent = dict.fromkeys(games, 0.0)
    for _ in range(turns):
        for form, game in games.items():
            start = time.perf_counter()
            while time.perf_counter() - start < 0.5:
                playout(game, rng)
                played[form] += 1
            spent[form] += time.perf_counter() - start
    return {form: played[form] / spent[form] for form in games}


def resample_times(actions: int, games: int = 10, name: str = "fantan") -> list[float]:
    """Seconds of one resampling for seat 0, ``actions`` random actions after the deal."""
    game = load(name)
    spent = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        for _ in range(actions):
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        start = time.perf_counter()
        state.resample_from_infostate(0, rng.random)
        spent.append(time.perf_counter() - start)
    return spent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=16, help="half-second turns of each form")
    parser.add_argument("--game", choices=sorted(GAMES), default="fantan", help="the game")
    args = parser.parse_args(argv)
    fanfold.envs.register_openspiel()
    for form, rate in playout_rates(args.turns, args.game).items():
        print(f"deal={form}: {rate:.1f} games/s")
    for actions in (0, 20, 40):
        spent = resample_times(actions, name=args.game)
        median = statistics.median(spent) * 1000
        print(f"resample after {actions} actions: median {median:.1f} ms ({len(spent)} games)")


if __name__ == "__main__":
    main()
