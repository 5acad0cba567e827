"""Fano playout speed beside an OpenSpiel C++ card game, in one process.

Plays random full games for ``--seconds`` each and prints games per second and actions per
second:

* the Fano rules engine through the game API (``legal_actions`` and ``apply_legal`` on
  immutable states), for the 2-player classic game, the largest preset (8 players), and the
  Trionfey edition with its tribute specials (2 players, counter windows included) and its
  8-player "One for all" partnerships; uniform random games run to the turn limit (by
  default 400 turns for each player; ``--turns-per-player 0`` plays 200 turns in all, the
  limit before it became one per player, for comparison with older figures);
* OpenSpiel's C++ ``hearts`` (``pip install open_spiel``, or ``.[bench]``), random moves
  driven from Python, chance outcomes included; when OpenSpiel is not installed the row says
  the peer is missing.

Run: ``python3 benchmarks/fano.py --seconds 5``.
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

from fanfold.games.fano import GAME, FanoConfig


@dataclass(frozen=True)
class Rate:
    """One benchmark row."""

    name: str
    games: int
    actions: int
    seconds: float

    def line(self) -> str:
        """The row as text."""
        return (
            f"{self.name:<46} {self.games / self.seconds:>9,.1f} games/s "
            f"{self.actions / self.seconds:>11,.0f} actions/s  ({self.games} games)"
        )


def _timed(name: str, seconds: float, one_game: Callable[[int], int]) -> Rate:
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += one_game(games)
        games += 1
    return Rate(name, games, actions, time.perf_counter() - start)


def fano_rate(
    preset: str, seconds: float, players: int | None = None, turns_per_player: int | None = None
) -> Rate:
    """Random full Fano games of ``preset`` (with ``players`` seats) through the game API;
    ``turns_per_player`` 0 gives 200 turns in all."""
    config: FanoConfig = GAME.preset(preset).config
    if players is not None:
        config = GAME.with_players(config, players)
    if turns_per_player is not None:
        config = config.replace(turns_per_player=turns_per_player or 200 // config.players)
    rng = random.Random(1)

    def one_game(seed: int) -> int:
        state = GAME.new_state(config, seed)
        actions = 0
        legal = GAME.legal_actions(state)
        while legal:
            state = GAME.apply_legal(state, legal[rng.randrange(len(legal))])
            actions += 1
            legal = GAME.legal_actions(state)
        return actions

    return _timed(f"fanfold fano {preset} ({config.players} players)", seconds, one_game)


def openspiel_rate(seconds: float) -> Rate | str:
    """Random full games of OpenSpiel's hearts, or why it could not run."""
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError:
        return "OpenSpiel hearts: peer missing (pip install open_spiel, or .[bench])"
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)

    def one_game(_: int) -> int:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        return actions

    return _timed("OpenSpiel hearts (C++, from Python)", seconds, one_game)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print a table with the speed ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per row")
    parser.add_argument(
        "--turns-per-player", type=int, default=None, help="the limit (0: 200 turns in all)"
    )
    args = parser.parse_args(argv)
    limit = args.turns_per_player
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.seconds:g} s per row")
    rows = [
        fano_rate("classic", args.seconds, turns_per_player=limit),
        fano_rate("eight-players", args.seconds, turns_per_player=limit),
        fano_rate("trionfey-specials", args.seconds, turns_per_player=limit),
        fano_rate("trionfey-one-for-all", args.seconds, players=8, turns_per_player=limit),
    ]
    peer = openspiel_rate(args.seconds)
    for row in rows:
        print(row.line())
    if isinstance(peer, str):
        print(peer)
        return
    print(peer.line())
    peer_actions = peer.actions / peer.seconds
    for row in rows:
        ratio = peer_actions / (row.actions / row.seconds)
        print(f"OpenSpiel hearts makes {ratio:,.1f}x the actions/s of {row.name}")


if __name__ == "__main__":
    main()
