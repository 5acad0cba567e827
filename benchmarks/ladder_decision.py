"""The ladder's compiled decision timed: CPU microseconds a decision on every Fano preset.

Positions come from games played from the preset's deals (``--games`` a preset from seed 100,
30 turns a seat, 200 actions at most): at each position with more than one legal action a
ladder style is drawn (and ``nodes`` 300 or 30), the position is kept with it, and the game
goes on by that member's choice or, one time in three, a random legal action. Each preset's
positions are then decided by the compiled decision
(:func:`fanfold.agents.ladder.kernels.decide_with`) in a compiled loop with one workspace, as
the environments' kernels call it, ``--turns`` times; the table gives the best turn's CPU
time a decision (the process's CPU time: other work on a shared machine does not count) and a
digest of the choices, equal between two versions of the kernels when every choice is.

Run::

    python benchmarks/ladder_decision.py [--games 3] [--turns 5] [--presets classic,trionfey]
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numba import njit

from fanfold.agents.ladder import compiled, kernels
from fanfold.agents.ladder.styles import Style, params
from fanfold.games.fano.config import PRESETS
from fanfold.games.fano.fast import engine, layout
from fanfold.games.fano.rules import new_state


@njit
def _decide_all(  # type: ignore[no-untyped-def]
    states, cfg, seats, legal, counts, suits, weights, fparams, iparams, out
):
    ws = kernels.workspace(states[0])  # one for the batch, as the environments' kernels
    for i in range(states.shape[0]):
        out[i] = kernels.decide_with(
            states[i],
            cfg,
            seats[i],
            legal[i],
            counts[i],
            suits,
            weights[i],
            fparams[i],
            iparams[i],
            ws[3][6],
            ws,
        )


def positions(preset: str, games: int, rng: random.Random) -> list[tuple[Any, ...]]:
    """(state, seat, legal ids, params) of each position met in ``games`` games of ``preset``."""
    config = replace(next(p.config for p in PRESETS if p.name == preset), turns_per_player=30)
    styles = list(Style)
    found: list[tuple[Any, ...]] = []
    for game in range(games):
        state = engine.encode(new_state(config, 100 + game))
        for _ in range(200):
            if engine.outcome(state) is not None:
                break
            legal = engine.legal_action_ids(state)
            array = state.array
            attacked = array[layout.PENDING_ATTACKER] != 0
            seat = int(array[layout.PENDING_DEFENDER] if attacked else array[layout.TURN_PLAYER])
            chosen = params(styles[rng.randrange(len(styles))], config, rng.choice((300, 300, 30)))
            if len(legal) > 1:
                found.append((state, seat, legal, chosen))
            if rng.random() < 0.3:
                index = rng.randrange(len(legal))
            else:
                index = compiled.decide_array(state, seat, legal, chosen)
            state = engine.apply(state, int(legal[index]))
    return found


def measure(found: list[tuple[Any, ...]], turns: int) -> tuple[float, str]:
    """The best turn's CPU microseconds a decision over ``found``, and the choices' digest."""
    first = found[0][0]
    states = np.stack([state.array for state, _, _, _ in found])
    seats = np.array([seat for _, seat, _, _ in found], np.int64)
    counts = np.array([len(legal) for _, _, legal, _ in found], np.int64)
    legal = np.zeros((len(found), layout.MAX_ACTIONS), np.int64)
    for i, (_, _, ids, _) in enumerate(found):
        legal[i, : len(ids)] = ids
    arrays = [compiled._arrays(chosen) for _, _, _, chosen in found]
    weights = np.stack([a[0] for a in arrays])
    fparams = np.stack([a[1] for a in arrays])
    iparams = np.stack([a[2] for a in arrays])
    suits = compiled._suits(first.config)
    out = np.zeros(len(found), np.int64)
    arguments = (states, first.options, seats, legal, counts, suits, weights, fparams, iparams)
    _decide_all(*arguments, out)
    best = float("inf")
    for _ in range(turns):
        start = time.process_time()
        _decide_all(*arguments, out)
        best = min(best, time.process_time() - start)
    return best / len(found) * 1e6, hashlib.sha256(out.tobytes()).hexdigest()[:12]


def main(argv: Sequence[str] | None = None) -> None:
    """Print a Markdown table: each preset's positions, microseconds a decision, digest."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games a preset")
    parser.add_argument("--turns", type=int, default=5, help="timed turns (the best kept)")
    parser.add_argument("--presets", default="", help="only these presets (comma-separated)")
    args = parser.parse_args(argv)
    chosen = [p.name for p in PRESETS]
    if args.presets:
        chosen = [name for name in args.presets.split(",") if name]
        unknown = sorted(set(chosen) - {p.name for p in PRESETS})
        if unknown:
            parser.error(f"unknown Fano presets: {', '.join(unknown)}")
    rng = random.Random(5)
    print(f"Python {platform.python_version()}; CPU microseconds a decision, best of {args.turns}")
    print("| preset | positions | us a decision | choices digest |")
    print("|---|---:|---:|---|")
    total = 0.0
    count = 0
    for name in chosen:
        found = positions(name, args.games, rng)
        micro, digest = measure(found, args.turns)
        total += micro * len(found)
        count += len(found)
        print(f"| {name} | {len(found)} | {micro:.1f} | {digest} |", flush=True)
    print(f"| all | {count} | {total / max(count, 1):.1f} | |")


if __name__ == "__main__":
    main()
