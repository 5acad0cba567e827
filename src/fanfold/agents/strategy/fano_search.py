"""A compiled information-set Monte Carlo tree search for Fano, and the position evaluation it
scores its playouts by.

:func:`evaluate` is the strategy's evaluation
(:func:`fanfold.agents.strategy.fano_knowledge.evaluation`: each seat's standing, its
promotions, potential and tribute less its exposed combat cards, against its best rival's,
through ``tanh``; in "One for all" a partnership's best member stands for it, in "All for one"
every other seat is a rival, partners included), or the outcome's returns when the game is over
(a win, a partnership's in "One for all", or a turn-limit draw), compiled and tested equal to the
strategy's. The weights come from the strategy (``policy_weights()``), as for :mod:`.fano_policy`.

:class:`Search` runs the whole search loop of :class:`fanfold.agents.mcts.MCTSAgent` in
compiled code, on a stack of determinizations (states dealt consistent with the searching
player's view, encoded; iteration ``i`` plays on deal ``i % D``):

1. copy the deal;
2. descend the tree (flat arrays: per node the action id that leads to it, the player who
   chose it, visits, availability count, reward sum, first child and next sibling), UCB1 with
   availability counts over the actions the node considers: with progressive widening the
   ``ceil(widening * sqrt(visits + 1))`` best by the compiled move scores
   (:func:`.fano_policy.score`; ties in legal order, as the strategy's stable sort), tried best
   first; without, every legal action, untried ones at random;
3. expand one action;
4. play up to ``rollout_limit`` actions by the compiled move scores (ties at random);
5. back up :func:`evaluate`'s per-player returns along the path.

**Memory.** The tree holds at most ``max_nodes`` nodes (each iteration adds one). A full tree
stops expanding and keeps searching: the iteration plays the action it would have expanded
and its rollout without adding a node, and backs up along the nodes it passed
(:attr:`Search.refused` counts those iterations). A path that reaches :data:`PATH_CAP` nodes
stops descending there and plays its rollout (no game of Fano gets near it).

**Randomness.** Reshuffles, rollout choices and untried actions come from the fast path's own
generator (:func:`fanfold.games.fano.fast.kernels.seed_generator`), seeded when a
:class:`Search` is made; one search at a time per process is reproducible from its seed.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from fanfold.agents.strategy.fano_policy import (
    SCRATCH,
    W_EXPOSED,
    W_LEVEL,
    W_SCALE,
    W_TRIBUTE,
    _attacks,
    _zone,
    memo,
    memo_potential,
    mover_potential,
    playout_on,
    score_from,
)
from fanfold.core import numba_cache
from fanfold.games.fano.fast.kernels import apply, legal_actions, seed_generator, winner
from fanfold.games.fano.fast.kernels.cards import ATTACK_SUPPORT
from fanfold.games.fano.fast.kernels.zones import _seat
from fanfold.games.fano.fast.layout import (
    C_PLAYERS,
    C_PROMOTIONS_TO_WIN,
    C_TEAMS,
    FIELD,
    HAND,
    HIDDEN,
    LEVEL,
    MAX_ACTIONS,
    MAX_SEATS,
    P_OVER,
    PENDING_ATTACKER,
    PENDING_DEFENDER,
    PHASE,
    PROTECTED,
    SHUFFLE_SIZE,
    TRIBUTE,
    TURN_PLAYER,
)

numba_cache.install()

#: Columns of the tree's integer array.
T_ACTION = 0
T_PLAYER = 1
T_VISITS = 2
T_AVAILABLE = 3
T_CHILD = 4  # first child, -1: none
T_SIBLING = 5  # next sibling, -1: none
T_WIDTH = 6
#: Entries of the search's counters array.
M_NODES = 0
M_REFUSED = 1
M_SIZE = 2
#: Longest path from the root the descent follows.
PATH_CAP = 1024
#: The "One for all" partnership code of the config array.
ONE_FOR_ALL = 2


# ---------------------------------------------------------------------------- evaluation
@njit(cache=True)
def decider(s):  # type: ignore[no-untyped-def]
    """The seat that decides now: the defender while an attack is pending, else the turn
    player."""
    return s[PENDING_DEFENDER] if s[PENDING_ATTACKER] != 0 else s[TURN_PLAYER]


@njit(cache=True)
def _partners(cfg, seat, other):  # type: ignore[no-untyped-def]
    """Whether ``other`` is ``seat`` or its partner (odd seats against even seats)."""
    if cfg[C_TEAMS] == 0:
        return other == seat
    count = cfg[C_PLAYERS]
    for step in range(0, count, 2):  # noqa: SIM110 - plain loops compile best in Numba
        if (seat + step) % count == other:
            return True
    return False


@njit(cache=True)
def _in_zone(s, at, card):  # type: ignore[no-untyped-def]
    for i in range(s[at]):  # noqa: SIM110 - plain loops compile best in Numba
        if s[at + 1 + i] == card:
            return True
    return False


@njit(cache=True)
def standing(s, cfg, w, seat, tmp, keys, values):  # type: ignore[no-untyped-def]
    """The strategy's ``standing``: promotions and potential in units, tribute, less a little
    for each combat card in play that a player who attacks the seat could attack."""
    p = _seat(seat)
    field = tmp[6]
    hand = tmp[7]
    nf = _zone(s, p + FIELD, field)
    nh = _zone(s, p + HAND, hand)
    units = w[W_LEVEL] * s[p + LEVEL] + memo_potential(w, field, nf, hand, nh, tmp, keys, values)
    units += w[W_TRIBUTE] * s[p + TRIBUTE]
    count = cfg[C_PLAYERS]
    for i in range(s[p + FIELD]):
        card = s[p + FIELD + 1 + i]
        value = card >> 4
        if value > 7 or _in_zone(s, p + PROTECTED, card) or _in_zone(s, p + HIDDEN, card):
            continue
        exposed = False
        for other in range(count):
            if exposed or not _attacks(cfg, other, seat):
                continue
            q = _seat(other)
            for j in range(s[q + FIELD]):
                threat = s[q + FIELD + 1 + j]
                if _in_zone(s, q + HIDDEN, threat):
                    continue
                attacker = threat >> 4
                if attacker <= 7 and ATTACK_SUPPORT[attacker, value]:
                    exposed = True
                    break
        if exposed:
            units -= w[W_EXPOSED]
    return units


@njit(cache=True)
def evaluate(s, cfg, w, returns, tmp, own, keys, values):  # type: ignore[no-untyped-def]
    """Write each seat's return into ``returns``: the outcome's when the game is over (+1 the
    winner, or its partnership in "One for all", -1 the others; 0 each at the turn limit),
    else the strategy's evaluation. ``tmp``: :func:`.fano_policy.scratch`; ``own``: two rows of
    :data:`MAX_SEATS` floats of scratch; ``keys`` and ``values``: a potential memo
    (:func:`.fano_policy.memo`)."""
    count = cfg[C_PLAYERS]
    won = winner(s, cfg)
    if won >= 0:
        for seat in range(count):
            ours = _partners(cfg, won, seat) if cfg[C_TEAMS] == ONE_FOR_ALL else seat == won
            returns[seat] = 1.0 if ours else -1.0
        return
    if s[PHASE] == P_OVER:
        for seat in range(count):
            returns[seat] = 0.0
        return
    shared = cfg[C_TEAMS] == ONE_FOR_ALL
    for seat in range(count):
        own[0, seat] = standing(s, cfg, w, seat, tmp, keys, values)
    for seat in range(count):
        side = own[0, seat]
        if shared:
            for other in range(count):
                if _partners(cfg, seat, other) and own[0, other] > side:
                    side = own[0, other]
        own[1, seat] = side
    scale = w[W_SCALE] / (w[W_LEVEL] * cfg[C_PROMOTIONS_TO_WIN]) * 3.0
    for seat in range(count):
        rival = -1e300
        for other in range(count):
            ours = _partners(cfg, seat, other) if shared else other == seat
            if not ours and own[1, other] > rival:
                rival = own[1, other]
        returns[seat] = math.tanh(scale * (own[1, seat] - rival))


# --------------------------------------------------------------------------------- search
@njit(cache=True)
def _child(tree, node, action):  # type: ignore[no-untyped-def]
    """The child of ``node`` reached by ``action``, or -1."""
    child = tree[node, T_CHILD]
    while child >= 0:
        if tree[child, T_ACTION] == action:
            return child
        child = tree[child, T_SIBLING]
    return -1


@njit(cache=True)
def run(  # type: ignore[no-untyped-def]
    dets,
    cfg,
    w,
    exploration,
    widening,
    rollout_limit,
    first,
    iterations,
    tree,
    reward,
    meta,
    keys,
    values,
):
    """Search iterations ``first`` to ``first + iterations - 1`` (iteration ``i`` on deal
    ``dets[i % len(dets)]``), growing the tree in ``tree``, ``reward`` and ``meta`` (see
    :class:`Search`); ``keys`` and ``values``: a potential memo (:func:`.fano_policy.memo`)."""
    deals = dets.shape[0]
    s = np.empty(dets.shape[1], np.int32)
    out = np.empty(MAX_ACTIONS, np.int64)
    best = np.empty(MAX_ACTIONS, np.int64)
    considered = np.empty(MAX_ACTIONS, np.int64)
    children = np.empty(MAX_ACTIONS, np.int64)
    untried = np.empty(MAX_ACTIONS, np.int64)
    scores = np.empty(MAX_ACTIONS, np.float64)
    taken = np.zeros(MAX_ACTIONS, np.bool_)
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    tmp = np.zeros((SCRATCH, 8), np.int64)
    returns = np.zeros(MAX_SEATS, np.float64)
    own = np.zeros((2, MAX_SEATS), np.float64)
    path = np.empty(PATH_CAP, np.int64)
    capacity = tree.shape[0]
    for iteration in range(first, first + iterations):
        s[:] = dets[iteration % deals]
        node = 0
        path[0] = 0
        depth = 1
        while depth < PATH_CAP:
            n = legal_actions(s, cfg, out)
            if n == 0:
                break
            if n > MAX_ACTIONS:
                raise RuntimeError("more legal actions than the fast path's buffers hold")
            player = decider(s)
            widen = widening > 0.0 and n > 1
            if widen:
                base = mover_potential(w, s, tmp, keys, values)
                for i in range(n):
                    scores[i] = score_from(w, s, cfg, out[i], tmp, base, keys, values)
                keep = min(n, math.ceil(widening * math.sqrt(tree[node, T_VISITS] + 1)))
                for k in range(keep):
                    pick = -1
                    for i in range(n):
                        if not taken[i] and (pick < 0 or scores[i] > scores[pick]):
                            pick = i
                    taken[pick] = True
                    considered[k] = pick
                for k in range(keep):
                    taken[considered[k]] = False
                    considered[k] = out[considered[k]]
                m = keep
            else:
                for i in range(n):
                    considered[i] = out[i]
                m = n
            open_count = 0
            for k in range(m):
                child = _child(tree, node, considered[k])
                children[k] = child
                if child >= 0:
                    tree[child, T_AVAILABLE] += 1
                else:
                    untried[open_count] = k
                    open_count += 1
            if open_count:
                # Widening tries the best untried action first; otherwise one at random.
                pick = untried[0] if widen else untried[np.random.randint(0, open_count)]
                action = considered[pick]
                apply(s, cfg, action, shuffle)
                if meta[M_NODES] < capacity:
                    new = meta[M_NODES]
                    meta[M_NODES] = new + 1
                    tree[new, T_ACTION] = action
                    tree[new, T_PLAYER] = player
                    tree[new, T_VISITS] = 0
                    tree[new, T_AVAILABLE] = 0
                    tree[new, T_CHILD] = -1
                    tree[new, T_SIBLING] = tree[node, T_CHILD]
                    tree[node, T_CHILD] = new
                    reward[new] = 0.0
                    path[depth] = new
                    depth += 1
                else:
                    meta[M_REFUSED] += 1
                break
            chosen = -1
            top = -math.inf
            for k in range(m):
                child = children[k]
                visits = tree[child, T_VISITS]
                mean = reward[child] / visits if visits else 0.0
                value = mean + exploration * math.sqrt(
                    math.log(max(tree[child, T_AVAILABLE], 1)) / (visits if visits else 1)
                )
                if value > top:
                    chosen = k
                    top = value
            apply(s, cfg, considered[chosen], shuffle)
            node = children[chosen]
            path[depth] = node
            depth += 1
        playout_on(s, cfg, w, rollout_limit, out, best, shuffle, tmp, keys, values)
        evaluate(s, cfg, w, returns, tmp, own, keys, values)
        for d in range(depth):
            visited = path[d]
            tree[visited, T_VISITS] += 1
            player = tree[visited, T_PLAYER]
            if player >= 0:
                reward[visited] += returns[player]
    return iterations


class Search:
    """One compiled search: the tree in arrays, grown by :meth:`run` in chunks of iterations
    (so that a caller can stop at a time cap between chunks).

    Args:
        deals: the determinizations, encoded (``int32``, one row per deal, all one config).
        options: the config array (:func:`fanfold.games.fano.fast.codec.encode_config`).
        weights: the strategy's weights (``policy_weights()``).
        player: the searching seat (the root's player).
        exploration: the UCB1 constant.
        widening: progressive widening's factor (0: every legal action).
        rollout_limit: actions in a rollout before it is scored by :func:`evaluate`.
        max_nodes: the tree's capacity, root included (at least 1).
        seed: seeds the fast path's generator.
    """

    def __init__(
        self,
        deals: npt.NDArray[np.int32],
        options: npt.NDArray[np.int32],
        weights: npt.NDArray[np.float64],
        player: int,
        *,
        exploration: float,
        widening: float,
        rollout_limit: int,
        max_nodes: int,
        seed: int,
    ) -> None:
        if deals.ndim != 2 or not len(deals):
            raise ValueError("deals must be a non-empty stack of encoded states")
        if max_nodes < 1:
            raise ValueError(f"max_nodes must be at least 1, not {max_nodes}")
        self.deals = np.ascontiguousarray(deals, np.int32)
        self.options = options
        self.weights = weights
        self.exploration = float(exploration)
        self.widening = float(widening)
        self.rollout_limit = int(rollout_limit)
        self.tree = np.zeros((max_nodes, T_WIDTH), np.int64)
        self.tree[0] = (0, player, 0, 0, -1, -1)
        self.reward = np.zeros(max_nodes, np.float64)
        self.meta = np.zeros(M_SIZE, np.int64)
        self.meta[M_NODES] = 1
        self.keys, self.values = memo()
        self.iterations = 0
        seed_generator(seed)

    def run(self, iterations: int) -> int:
        """Run ``iterations`` more iterations; the total so far."""
        if iterations > 0:
            run(
                self.deals,
                self.options,
                self.weights,
                self.exploration,
                self.widening,
                self.rollout_limit,
                self.iterations,
                iterations,
                self.tree,
                self.reward,
                self.meta,
                self.keys,
                self.values,
            )
            self.iterations += iterations
        return self.iterations

    @property
    def nodes(self) -> int:
        """Nodes in the tree, the root included."""
        return int(self.meta[M_NODES])

    @property
    def refused(self) -> int:
        """Iterations that found the tree full and expanded nothing."""
        return int(self.meta[M_REFUSED])

    def root_children(self) -> list[tuple[int, int, float]]:
        """The root's children: (action id, visits, reward sum), in the order expanded."""
        return [(action, visits, total) for action, visits, total, _ in self.children(0)]

    def children(self, node: int) -> list[tuple[int, int, float, int]]:
        """The children of ``node`` (0: the root): (action id, visits, reward sum, node), in
        the order expanded."""
        found = []
        child = int(self.tree[node, T_CHILD])
        while child >= 0:
            row = self.tree[child]
            visits = int(row[T_VISITS])
            found.append((int(row[T_ACTION]), visits, float(self.reward[child]), child))
            child = int(row[T_SIBLING])
        return found[::-1]


def evaluation(
    array: npt.NDArray[np.int32], options: npt.NDArray[np.int32], weights: npt.NDArray[np.float64]
) -> tuple[float, ...]:
    """:func:`evaluate` of one encoded state, as a tuple of the seats' returns."""
    returns = np.zeros(MAX_SEATS, np.float64)
    tmp = np.zeros((SCRATCH, 8), np.int64)
    own = np.zeros((2, MAX_SEATS), np.float64)
    keys, values = memo(1)
    evaluate(array, options, weights, returns, tmp, own, keys, values)
    return tuple(float(value) for value in returns[: int(options[C_PLAYERS])])
