"""The Python face of Fano's compiled strategy: playouts by the compiled playout policy
(:mod:`.fano_policy`) and the warm-up of everything compiled that Fano's bots use (the engine,
:mod:`fanfold.games.fano.fast.engine`, the policy and the search, :mod:`.fano_search`, and the
ladder's decision and look-ahead, :mod:`fanfold.agents.ladder.kernels`, which ``hard`` plays).

Importing this module imports Numba; :mod:`.fano` imports it only when first used.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from fanfold.agents.strategy import fano_policy, fano_search
from fanfold.games.fano.config import FanoConfig
from fanfold.games.fano.fast import engine
from fanfold.games.fano.fast.engine import FastState
from fanfold.games.fano.rules import new_state


def heuristic_playout(
    state: FastState, weights: npt.NDArray[np.float64], max_actions: int = 1 << 30
) -> tuple[FastState, int]:
    """Like :func:`fanfold.games.fano.fast.engine.playout`, the moves chosen by the compiled
    part of the strategy's playout policy (:mod:`.fano_policy`: the classic game's common
    moves; the rest roughly), with the strategy's ``weights`` (indexed by the ``W_`` constants
    of :mod:`.fano_policy`)."""
    array = state.array.copy()
    played = fano_policy.heuristic_playout(array, state.options, weights, max_actions)
    return FastState(state.config, state.seed, array, state.options), int(played)


def warm_up() -> None:
    """Compile (or load from Numba's cache) the engine's kernels, the playout policy, the
    search and the ladder's decision, on a tiny game."""
    engine.warm_up()
    config = FanoConfig(turns_per_player=2)
    weights = np.ones(fano_policy.WEIGHTS)
    heuristic_playout(engine.encode(new_state(config, 1)), weights, 5)
    start = engine.encode(new_state(config, 1))
    fano_search.evaluation(start.array, start.options, weights)
    tree = fano_search.Search(
        start.array[None, :],
        start.options,
        weights,
        0,
        exploration=0.7,
        widening=1.0,
        rollout_limit=5,
        max_nodes=8,
        seed=0,
    )
    tree.run(4)
    from fanfold.agents.ladder import compiled as ladder

    ladder.warm_up()
