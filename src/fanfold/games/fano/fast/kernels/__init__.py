"""The compiled Fano kernels: legal actions, apply and random playouts on the array layout,
one module per part of the rules (:mod:`fanfold.games.fano.rules`): :mod:`.cards`,
:mod:`.actions`, :mod:`.zones`, :mod:`.specials`, :mod:`.deck`, :mod:`.turns`, :mod:`.attacks`,
:mod:`.moves`, :mod:`.apply` and :mod:`.playouts`. This module gathers what the engine uses.

Every kernel is ``@njit(cache=True)``: Numba compiles it on first call and keeps the machine
code in its cache (``__pycache__`` next to its file, or Numba's user-wide cache directory when
that is not writable; ``NUMBA_CACHE_DIR`` overrides both), so later processes load it instead
of compiling. Importing this package imports Numba: only
:mod:`fanfold.games.fano.fast.engine` does, on first use.

The kernels import the rules' constants (hand size, tribute cost and cap, Joker supply, field
slots, the plane's tables) from the rules modules; :mod:`fanfold.core.numba_cache` makes a
change to any of them compile the kernels afresh instead of loading stale code.

The kernels follow the reference rules (:mod:`fanfold.games.fano.rules`) step by step, in the
same order, so the legal actions come out in the reference's order; the tests check this
action by action. Reshuffles use the fast path's own generator (``np.random``, seeded per
playout) unless the shuffle buffer says exact mode, where the reference's permutation must be
given (see :data:`fanfold.games.fano.fast.layout.NEEDS_SHUFFLE`).
"""

from fanfold.games.fano.fast.kernels.apply import apply
from fanfold.games.fano.fast.kernels.moves import legal_actions
from fanfold.games.fano.fast.kernels.playouts import (
    deal,
    greedy_playout,
    playout,
    random_games,
    seed_generator,
)
from fanfold.games.fano.fast.kernels.turns import winner

__all__ = [
    "apply",
    "deal",
    "greedy_playout",
    "legal_actions",
    "playout",
    "random_games",
    "seed_generator",
    "winner",
]
