"""Fano playout speed beside an OpenSpiel C++ card game, in one process.

Plays random full games for ``--seconds`` each and prints games per second and actions per
second:

* the Fano rules engine through the game API (``legal_actions`` and ``apply_legal`` on
  immutable states), for the 2-player classic game, the largest preset (8 players), and the
  Trionfey edition with its tribute specials (2 players, counter windows included) and its
  8-player "One for all" partnerships; uniform random games run to the turn limit (by
  default 400 turns for each player; ``--turns-per-player 0`` plays 200 turns in all, the
  limit before it became one per player, for comparison with older figures);
* the compiled fast path (:mod:`fanfold.games.fano.fast`, Numba) on the same presets: the
  same uniform random games to the turn limit, dealt, chosen and played in compiled code;
  and the fast path's start-up: importing it and its first call, with Numba's cache cold
  (compiling, in a fresh cache directory) and warm (loading the cached machine code), each in
  a fresh process;
* OpenSpiel's C++ ``hearts`` (``pip install open_spiel``, or ``.[bench]``), random moves
  driven from Python, chance outcomes included; when OpenSpiel is not installed the row says
  the peer is missing.

Run: ``python3 benchmarks/fano.py --seconds 5``; ``--json`` prints one JSON object instead
(``reference_actions_per_s``, ``fast_actions_per_s`` and ``hearts_actions_per_s`` are the
classic 2-player game's and hearts' figures).

``--search`` measures the IS-MCTS agent instead, on the same mid-game positions (random play
from seeded deals, up to a decision the strategy finds no obvious move for): the Python tree
with the strategy's playouts (the ``hard`` level's settings), the Python tree with compiled
playouts (``playout=fast-heuristic``), and the compiled tree (``tree=fast``), printing
milliseconds a decision and search iterations a second (``--json``: one object of rows).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
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


def fast_rate(
    preset: str, seconds: float, players: int | None = None, turns_per_player: int | None = None
) -> Rate:
    """The same random games as :func:`fano_rate` on the compiled fast path (deal, choices
    and reshuffles from its own generator), timed in batches."""
    from fanfold.games.fano.fast import engine, supports

    config: FanoConfig = GAME.preset(preset).config
    if players is not None:
        config = GAME.with_players(config, players)
    if turns_per_player is not None:
        config = config.replace(turns_per_player=turns_per_player or 200 // config.players)
    if not supports(config):  # pragma: no cover - every preset is covered
        raise ValueError(f"the fast path does not cover {preset}")
    engine.warm_up()
    engine.seed(1)
    games = actions = 0
    batch = 1
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += engine.random_games(config, batch)
        games += batch
        batch = min(batch * 2, 64)
    elapsed = time.perf_counter() - start
    return Rate(f"fanfold fano fast {preset} ({config.players} players)", games, actions, elapsed)


def fast_step_rate(preset: str, seconds: float, turns_per_player: int | None = None) -> Rate:
    """The fast path's step API driven from Python, one call per legal-action list and one per
    action (reshuffles exact, as the reference's): what a Python search loop gets."""
    from fanfold.games.fano.fast import engine

    config: FanoConfig = GAME.preset(preset).config
    if turns_per_player is not None:
        config = config.replace(turns_per_player=turns_per_player or 200 // config.players)
    engine.warm_up()
    rng = random.Random(1)

    def one_game(seed: int) -> int:
        state = engine.encode(GAME.new_state(config, seed))
        actions = 0
        legal = engine.legal_action_ids(state)
        while len(legal):
            state = engine.apply(state, int(legal[rng.randrange(len(legal))]))
            actions += 1
            legal = engine.legal_action_ids(state)
        return actions

    return _timed(
        f"fanfold fano fast steps from Python {preset} ({config.players} p)", seconds, one_game
    )


_FIRST_CALL = (
    "import time; start = time.perf_counter(); "
    "from fanfold.games.fano.fast import engine; imported = time.perf_counter(); "
    "engine.warm_up(); done = time.perf_counter(); "
    "print(imported - start, done - imported)"
)


def start_up(cold: bool) -> tuple[float, float]:
    """Seconds to import the fast path and to make its first calls, in a fresh process; with
    ``cold`` Numba compiles everything (an empty cache directory)."""
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        if cold:  # neither Numba's cache nor the package's compiled code (docs/fast/install.md)
            env["NUMBA_CACHE_DIR"] = cache
            env["FANFOLD_NO_PACKAGED_CACHE"] = "1"
        else:  # make sure the cache is filled, then measure loading it
            subprocess.run(
                [sys.executable, "-c", _FIRST_CALL], env=env, check=True, capture_output=True
            )
        result = subprocess.run(
            [sys.executable, "-c", _FIRST_CALL], env=env, check=True, capture_output=True, text=True
        )
    imported, first = (float(word) for word in result.stdout.split())
    return imported, first


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


#: The searches ``--search`` compares: a name, the agent (its iterations filled in), the
#: iterations of each decision.
SEARCHES = (
    ("python tree, heuristic playouts (hard)", "playout=heuristic", 150),
    ("python tree, compiled playouts", "playout=fast-heuristic", 150),
    ("compiled tree", "playout=fast-heuristic, tree=fast", 150),
    ("compiled tree", "playout=fast-heuristic, tree=fast", 3000),
)


def search_positions(preset: str, count: int) -> list[Any]:
    """``count`` mid-game positions of ``preset`` (2 players) that need a search: (state,
    player)."""
    from fanfold.agents.strategy.fano_knowledge import FanoKnowledge

    knowledge = FanoKnowledge(GAME)
    positions: list[Any] = []
    seed = 0
    while len(positions) < count:
        rng = random.Random(seed)
        state = GAME.new_state(GAME.preset(preset).config, seed)
        seed += 1
        for _ in range(30 + rng.randrange(30)):
            legal = GAME.legal_actions(state)
            if not legal:
                break
            state = GAME.apply_legal(state, legal[rng.randrange(len(legal))])
        while (player := GAME.current_player(state)) is not None:
            legal = GAME.legal_actions(state)
            if len(legal) > 1 and knowledge.obvious(GAME.observe(state, player), legal) is None:
                positions.append((state, player))
                break
            state = GAME.apply_legal(state, legal[rng.randrange(len(legal))])
    return positions


def search_rates(presets: tuple[str, ...] = ("classic", "trionfey-specials")) -> list[str]:
    """One row a search and preset: milliseconds a decision, iterations a second."""
    from fanfold.agents import create_agent

    rows = []
    for preset in presets:
        positions = search_positions(preset, 4)
        for name, options, iterations in SEARCHES:
            text = f"mcts({options}, rollout_limit=10, widening=1, iterations={iterations})"
            agent = create_agent(text, GAME, seed=1)
            state, player = positions[0]
            agent.choose(GAME.observe(state, player), GAME.legal_actions(state))  # warm up
            started = time.perf_counter()
            for state, player in positions:
                agent.choose(GAME.observe(state, player), GAME.legal_actions(state))
            spent = time.perf_counter() - started
            decisions = len(positions)
            rows.append(
                f"{preset:<18} {name:<40} {iterations:>5} it "
                f"{1e3 * spent / decisions:>9.1f} ms/decision "
                f"{iterations * decisions / spent:>10,.0f} iterations/s"
            )
    return rows


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print a table with the speed ratios (or one JSON object)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per row")
    parser.add_argument(
        "--turns-per-player", type=int, default=None, help="the limit (0: 200 turns in all)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--no-start-up", action="store_true", help="skip the fast path's start-up timings"
    )
    parser.add_argument(
        "--search", action="store_true", help="time the IS-MCTS agent's searches instead"
    )
    args = parser.parse_args(argv)
    if args.search:
        lines = search_rates()
        if args.json:
            print(json.dumps({"python": platform.python_version(), "search": lines}))
        else:
            print(f"Python {platform.python_version()} on {platform.machine()}")
            print("\n".join(lines))
        return
    limit = args.turns_per_player
    seconds = args.seconds
    classic = fano_rate("classic", seconds, turns_per_player=limit)
    fast_classic = fast_rate("classic", seconds, turns_per_player=limit)
    rows = [
        classic,
        fast_classic,
        fast_step_rate("classic", seconds, turns_per_player=limit),
        fano_rate("eight-players", seconds, turns_per_player=limit),
        fast_rate("eight-players", seconds, turns_per_player=limit),
        fano_rate("trionfey-specials", seconds, turns_per_player=limit),
        fast_rate("trionfey-specials", seconds, turns_per_player=limit),
        fano_rate("trionfey-one-for-all", seconds, players=8, turns_per_player=limit),
        fast_rate("trionfey-one-for-all", seconds, players=8, turns_per_player=limit),
    ]
    peer = openspiel_rate(seconds)
    cold = warm = None
    if not args.no_start_up:
        cold = start_up(cold=True)
        warm = start_up(cold=False)

    def per_s(rate: Rate) -> float:
        return rate.actions / rate.seconds

    if args.json:
        report: dict[str, Any] = {
            "python": platform.python_version(),
            "seconds_per_row": seconds,
            "reference_actions_per_s": round(per_s(classic)),
            "fast_actions_per_s": round(per_s(fast_classic)),
            "hearts_actions_per_s": None if isinstance(peer, str) else round(per_s(peer)),
            "fast_over_reference": round(per_s(fast_classic) / per_s(classic), 2),
            "rows": {row.name: round(per_s(row)) for row in rows},
        }
        if not isinstance(peer, str):
            report["hearts_over_fast"] = round(per_s(peer) / per_s(fast_classic), 3)
        if cold is not None and warm is not None:
            report["fast_import_s"] = round(warm[0], 3)
            report["fast_first_call_cold_s"] = round(cold[1], 3)
            report["fast_first_call_cached_s"] = round(warm[1], 3)
        print(json.dumps(report))
        return
    print(f"Python {platform.python_version()} on {platform.machine()}, {seconds:g} s per row")
    for row in rows:
        print(row.line())
    print(f"fast path / reference, classic 2 players: {per_s(fast_classic) / per_s(classic):,.1f}x")
    if cold is not None and warm is not None:
        print(
            f"fast path start-up: import {warm[0]:.2f} s; first call {cold[1]:.2f} s compiling "
            f"(cold cache), {warm[1]:.2f} s from the cache"
        )
    if isinstance(peer, str):
        print(peer)
        return
    print(peer.line())
    peer_actions = per_s(peer)
    for row in rows:
        ratio = peer_actions / per_s(row)
        print(f"OpenSpiel hearts makes {ratio:,.2f}x the actions/s of {row.name}")


if __name__ == "__main__":
    main()
