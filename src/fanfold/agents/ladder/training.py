"""How the ladder's evaluation is fitted (:mod:`fanfold.agents.ladder.model`).

Games are played between agents (by default the yardstick, ``planner(deals=1, nodes=20)``,
against itself, the first seat alternating); at every end action of a turn the features
(:mod:`fanfold.agents.ladder.features`) of the position that end action leaves are taken
from the mover's side, as the ladder's search sees them, and labelled 1 when the mover went
on to win the game, 0 when it lost (games drawn at the turn limit are left out). A logistic
regression (Newton's method, an L2 penalty of 1) fits one weight per feature. Seeded:
the same arguments give the same weights.

Run (half a minute an edition on two quiet cores; the defaults are the model's fit, which
this reproduces exactly)::

    python3 -m fanfold.agents.ladder.training --edition classic --workers 2
    python3 -m fanfold.agents.ladder.training --edition trionfey --workers 2

The weights are printed as the Python tuple that :mod:`fanfold.agents.ladder.model` holds.
"""

from __future__ import annotations

import argparse
import multiprocessing
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from fanfold.agents.ladder.features import NAMES, SIZE

YARDSTICK = "planner(deals=1,nodes=20)"

Rows = list[tuple[list[float], float]]


def play(job: tuple[str, int, tuple[str, ...]]) -> Rows:
    """One game of ``job`` (preset, seed, agent texts by seat): its labelled positions."""
    from fanfold.agents import create_agent
    from fanfold.agents.ladder.search import Decision, Params, end_player
    from fanfold.core.registry import get_game
    from fanfold.games.fano.actions import Discard, Pass, Play, Substitute

    preset, seed, texts = job
    game = get_game("fano")
    config = game.preset(preset).config
    agents = [create_agent(text, game, seed * 10 + seat) for seat, text in enumerate(texts)]
    state = game.new_state(config, seed)
    zero = Params((0.0,) * SIZE)
    taken: list[tuple[int, list[float]]] = []
    while (seat := game.current_player(state)) is not None:
        legal = game.legal_actions(state)
        action = (
            agents[seat].choose(game.observe(state, seat), legal) if len(legal) > 1 else legal[0]
        )
        if isinstance(action, Play | Substitute | Discard | Pass) and state.turn_player == seat:
            me = end_player(state, state.players[seat], action)
            # Only what the mover may know is read (see Decision).
            taken.append((seat, Decision(state, seat, zero).features(state, me)))
        state = game.apply_legal(state, action)
    outcome = game.outcome(state)
    winners = outcome.winners if outcome is not None else ()
    if len(winners) != 1:
        return []
    return [(values, 1.0 if seat in winners else 0.0) for seat, values in taken]


def collect(
    preset: str, games: int, agents: Sequence[str], seed: int, workers: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The labelled positions of ``games`` games of ``preset`` from ``seed``, the agents'
    seats swapped every other game."""
    jobs = [
        (preset, seed + number, tuple(agents) if number % 2 == 0 else tuple(reversed(agents)))
        for number in range(games)
    ]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(play, jobs, chunksize=4)
    else:
        results = [play(job) for job in jobs]
    rows = [row for result in results for row in result]
    features = np.array([values for values, _ in rows], np.float64).reshape(-1, SIZE)
    labels = np.array([label for _, label in rows], np.float64)
    return features, labels


def fit(
    features: npt.NDArray[np.float64], labels: npt.NDArray[np.float64], l2: float = 1.0
) -> npt.NDArray[np.float64]:
    """Logistic-regression weights (Newton's method, an L2 penalty of ``l2``)."""
    weights = np.zeros(features.shape[1])
    for _ in range(30):
        chance = 1.0 / (1.0 + np.exp(-(features @ weights)))
        gradient = features.T @ (chance - labels) + l2 * weights
        curvature = (features * (chance * (1.0 - chance))[:, None]).T @ features
        weights -= np.linalg.solve(curvature + l2 * np.eye(len(weights)), gradient)
    return weights


def main(arguments: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", default="classic", help="a Fano preset")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=50000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--agents", default=f"{YARDSTICK};{YARDSTICK}", help="';'-separated")
    options = parser.parse_args(arguments)
    features, labels = collect(
        options.edition, options.games, options.agents.split(";"), options.seed, options.workers
    )
    weights = fit(features, labels)
    print(f"# {len(labels)} positions of {options.games} games of {options.edition}")
    print("(")
    for name, weight in zip(NAMES, weights, strict=True):
        print(f"    {float(weight)!r},  # {name}")
    print(")")


if __name__ == "__main__":
    main()
