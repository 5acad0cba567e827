"""Fan Tan playout speed beside an OpenSpiel C++ card game, in one process.

Plays random full hands for ``--seconds`` each way and prints hands per second and card plays
per second:

* the rules engine through the game API (``legal_actions`` and ``apply_legal`` on immutable
  states: what agents and the server use);
* the fast playout (:func:`fanfold.games.fantan.fast.random_hand`, property-tested equal to
  the engine);
* OpenSpiel's C++ ``hearts`` (``pip install open_spiel``), random moves from Python, deal
  included; when OpenSpiel is not installed the row says so.

Run: ``python3 benchmarks/fantan.py --players 4 --seconds 5``.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fanfold.games.fantan import GAME, PASS
from fanfold.games.fantan.fast import PASS_CODE, random_hand


@dataclass(frozen=True)
class Rate:
    """One benchmark row."""

    name: str
    hands: int
    plays: int
    actions: int
    seconds: float

    def line(self) -> str:
        """The row as text."""
        return (
            f"{self.name:<44} {self.hands / self.seconds:>10,.0f} hands/s "
            f"{self.plays / self.seconds:>12,.0f} card plays/s "
            f"{self.actions / self.seconds:>12,.0f} actions/s"
        )


def _timed(name: str, seconds: float, one_hand: Callable[[int], tuple[int, int]]) -> Rate:
    hands = plays = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        hand_plays, hand_actions = one_hand(hands)
        hands += 1
        plays += hand_plays
        actions += hand_actions
    return Rate(name, hands, plays, actions, time.perf_counter() - start)


def engine_rate(players: int, seconds: float) -> Rate:
    """Random hands through the game API."""
    config = GAME.default_config().replace(players=players)
    rng = random.Random(1)

    def one_hand(seed: int) -> tuple[int, int]:
        state = GAME.new_state(config, seed)
        plays = actions = 0
        while not state.finished:
            legal = GAME.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            plays += action is not PASS
            actions += 1
            state = GAME.apply_legal(state, action)
        return plays, actions

    return _timed(f"fanfold fantan engine ({players} players)", seconds, one_hand)


def fast_rate(players: int, seconds: float) -> Rate:
    """Random hands through the fast playout."""
    config = GAME.default_config().replace(players=players)
    rng = random.Random(1)

    def one_hand(seed: int) -> tuple[int, int]:
        actions = random_hand(config, seed, rng).actions
        return len(actions) - actions.count(PASS_CODE), len(actions)

    return _timed(f"fanfold fantan fast playout ({players} players)", seconds, one_hand)


def openspiel_rate(seconds: float) -> Rate | str:
    """Random hands of OpenSpiel's C++ hearts, or why it could not run."""
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError:
        return "OpenSpiel hearts: peer missing (pip install open_spiel, or .[bench])"
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)

    def one_hand(_: int) -> tuple[int, int]:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()  # the deal: uniform
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        return 52, actions  # every hand of hearts plays all 52 cards

    return _timed("OpenSpiel hearts (C++, 4 players)", seconds, one_hand)


def main(argv: list[str] | None = None) -> None:
    """Run the three measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}; random full hands")
    for row in (
        engine_rate(args.players, args.seconds),
        fast_rate(args.players, args.seconds),
        openspiel_rate(args.seconds),
    ):
        print(row if isinstance(row, str) else row.line())


if __name__ == "__main__":
    main()
