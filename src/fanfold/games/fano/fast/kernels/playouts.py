"""Random and greedy playouts, deals and whole random games.

Part of Fano's compiled kernels (:mod:`fanfold.games.fano.fast.kernels`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.core import numba_cache
from fanfold.games.fano.fast.kernels.apply import apply
from fanfold.games.fano.fast.kernels.moves import legal_actions
from fanfold.games.fano.fast.kernels.turns import _start_turn
from fanfold.games.fano.fast.kernels.zones import _seat
from fanfold.games.fano.fast.layout import (
    C_PLAYERS,
    C_TEAMS,
    DRAW,
    K_ATTACK,
    K_COMBINE,
    K_COUNTER,
    K_DECLARE,
    K_DISCARD,
    K_PLAY,
    K_PROMOTE,
    K_RECRUIT,
    K_SUBSTITUTE,
    MAX_ACTIONS,
    PRIORITY,
    SHIFT_C,
    SHUFFLE_SIZE,
)

numba_cache.install()


@njit(cache=True)
def seed_generator(seed):  # type: ignore[no-untyped-def]
    """Seed the fast path's generator (Numba's own, apart from NumPy's)."""
    np.random.seed(seed)


@njit(cache=True)
def playout(s, cfg, max_actions):  # type: ignore[no-untyped-def]
    """Uniformly random legal actions on ``s`` in place until the game ends or
    ``max_actions`` were played; returns the number played."""
    out = np.empty(MAX_ACTIONS, np.int64)
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    played = 0
    while played < max_actions:
        n = legal_actions(s, cfg, out)
        if n == 0:
            break
        apply(s, cfg, out[np.random.randint(0, n)], shuffle)
        played += 1
    return played


@njit(cache=True)
def _greedy_score(action):  # type: ignore[no-untyped-def]
    """A rough preference by kind of move: promote, make a prestige card, take material,
    fill the field; the rest last."""
    kind = action & 255
    if kind == K_PROMOTE:
        return 100
    if kind == K_COMBINE or kind == K_COUNTER:  # noqa: SIM109 - Numba
        result = (action >> SHIFT_C) & 255
        return 50 if result >> 4 >= 8 else 6
    if kind == K_ATTACK or kind == K_DECLARE:  # noqa: SIM109 - Numba
        return 20
    if kind == K_RECRUIT:
        return 15
    if kind == K_PLAY:
        return 10
    if kind == K_SUBSTITUTE:
        return 3
    if kind == K_DISCARD:
        return 1
    return 2


@njit(cache=True)
def greedy_playout(s, cfg, max_actions):  # type: ignore[no-untyped-def]
    """Like :func:`playout`, choosing by :func:`_greedy_score` (ties and one move in ten at
    random): a quick stand-in for the strategy's playout policy."""
    out = np.empty(MAX_ACTIONS, np.int64)
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    best = np.empty(MAX_ACTIONS, np.int64)
    played = 0
    while played < max_actions:
        n = legal_actions(s, cfg, out)
        if n == 0:
            break
        if np.random.random() < 0.1:
            choice = out[np.random.randint(0, n)]
        else:
            top = -1
            m = 0
            for i in range(n):
                score = _greedy_score(out[i])
                if score > top:
                    top = score
                    m = 0
                if score == top:
                    best[m] = out[i]
                    m += 1
            choice = best[np.random.randint(0, m)]
        apply(s, cfg, choice, shuffle)
        played += 1
    return played


@njit(cache=True)
def deal(s, cfg, decks):  # type: ignore[no-untyped-def]
    """A new game on the zeroed ``s``: each seat's deck (``decks[seat]``: count, then cards)
    shuffled by the fast path's generator, a random first player, turn 1 begun."""
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    players = cfg[C_PLAYERS]
    for seat in range(players):
        p = _seat(seat)
        n = decks[seat, 0]
        for k in range(n):
            s[p + DRAW + 1 + k] = decks[seat, 1 + k]
        for k in range(n - 1, 0, -1):
            r = np.random.randint(0, k + 1)
            t = s[p + DRAW + 1 + k]
            s[p + DRAW + 1 + k] = s[p + DRAW + 1 + r]
            s[p + DRAW + 1 + r] = t
        s[p + DRAW] = n
    first = np.random.randint(0, players)
    if cfg[C_TEAMS] != 0:
        s[PRIORITY] = first
    _start_turn(s, cfg, first, 1, shuffle)


@njit(cache=True)
def random_games(template, cfg, decks, games):  # type: ignore[no-untyped-def]
    """Play ``games`` uniformly random games from fresh deals; returns the actions played."""
    total = 0
    for _ in range(games):
        s = template.copy()
        deal(s, cfg, decks)
        total += playout(s, cfg, 1 << 30)
    return total
