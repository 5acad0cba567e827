"""The ladder's decision looked ahead: every legal move tried on deals of the seat's view, the
game carried on by the ladder itself for every seat to the end of the seat's next turn, the
position there judged by the learned evaluation (compiled, Numba).

For each deal (a state dealt consistent with the view, encoded) and each legal move: the move
is played, then every seat, the searcher included (the rest of its turn, then its next turn),
plays the member's decision (:func:`fanfold.agents.ladder.kernels.decide`): the searcher and
its partners in the searcher's style (``hard`` is the balanced member), the opponents in the
style they are modelled by (the searcher's own, or, for an exploiter, its target's member:
:mod:`fanfold.agents.ladder.exploit`), for at most
``limit`` actions, until the searcher chooses the end action of its next turn or the game
ends. The searcher's cards after that end action are worth the evaluation's logit
(:func:`fanfold.agents.ladder.kernels.evaluate`, the position the member judges its own turns
by), a game over :data:`WON` / ``-WON`` (0 for a draw at the turn limit). The move whose mean
over the deals is highest is chosen (the ladder's own move on a tie, then the first).

**Information.** Each seat in the continuation decides by the ladder's decision, which reads
only what that seat may see (tested: dealing the hidden cards again consistently with the
seat's view decides the same): an opponent's reply never reads the searcher's hand, nor the
other opponents' hands as they were dealt. The deals themselves come from the searcher's
view, so nothing the searcher may not see reaches its choice either.

The moves are compared on the same deals (each deal's continuations differ only by the move),
so that few deals tell moves apart; a deal's reshuffles come from the fast path's generator,
seeded by the caller.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.agents.ladder.kernels import _is_end, context, decide, end_state, evaluate
from fanfold.agents.strategy.fano_search import decider
from fanfold.core import numba_cache
from fanfold.games.fano.fast.kernels import apply, legal_actions, winner
from fanfold.games.fano.fast.layout import (
    C_TEAMS,
    MAX_ACTIONS,
    P_OVER,
    PHASE,
    SHUFFLE_SIZE,
    TURN,
)

numba_cache.install()

#: The value of a won game (a lost one: ``-WON``); the evaluation's logits stay within a few.
WON = 20.0
#: The most actions a continuation plays before it is judged where it stands.
LIMIT = 80


@njit(cache=True)
def _friend(cfg, seat, other):  # type: ignore[no-untyped-def]
    if cfg[C_TEAMS] == 0:
        return other == seat
    return (other - seat) % 2 == 0


@njit(cache=True)
def _judged(s, cfg, seat, suits, weights):  # type: ignore[no-untyped-def]
    """The evaluation's logit of ``s`` from ``seat``'s side."""
    ctx, later, _now, pool, npool = context(s, cfg, seat, suits)
    return evaluate(s, cfg, ctx, later, pool, npool, weights)


@njit(cache=True)
def carry_on(s, cfg, seat, suits, weights, fparams, iparams, others, limit, out, shuffle):  # type: ignore[no-untyped-def]
    """Play the ladder's decisions on ``s`` in place until ``seat`` ends its next turn (a
    turn number other than the current one), the game ends, or ``limit`` actions: ``seat``
    and its partners by ``weights``, ``fparams``, ``iparams``, the opponents by ``others``
    (a tuple of the same three arrays: the member they are modelled by); what the
    position is worth to ``seat`` there: :data:`WON`, ``-WON`` or 0 (a draw at the turn
    limit) when the game is over, else the evaluation's logit of the seat's cards after its
    end action (:func:`fanfold.agents.ladder.kernels.end_state`, as the member judges its own
    turns), or of the position where the actions ran out."""
    start = s[TURN]
    played = 0
    while played < limit:
        won = winner(s, cfg)
        if won >= 0:
            return WON if _friend(cfg, seat, won) else -WON
        if s[PHASE] == P_OVER:
            return 0.0
        n = legal_actions(s, cfg, out)
        if n == 0:
            break
        mover = decider(s)
        if _friend(cfg, seat, mover):
            index = decide(s, cfg, mover, out, n, suits, weights, fparams, iparams)
        else:
            index = decide(s, cfg, mover, out, n, suits, others[0], others[1], others[2])
        action = out[index]
        if mover == seat and s[TURN] != start and _is_end(action & 255):
            return _judged(end_state(s, cfg, seat, action), cfg, seat, suits, weights)
        apply(s, cfg, action, shuffle)
        played += 1
    return _judged(s, cfg, seat, suits, weights)


@njit(cache=True)
def look(deals, cfg, seat, legal, nlegal, suits, weights, fparams, iparams, others, limit, totals):  # type: ignore[no-untyped-def]
    """Add to ``totals[i]`` the value to ``seat`` of ``legal[i]`` carried on
    (:func:`carry_on`, the opponents playing by ``others``), on each of ``deals`` (a stack
    of encoded states)."""
    out = np.empty(MAX_ACTIONS, np.int64)
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    for d in range(deals.shape[0]):
        for i in range(nlegal):
            s = deals[d].copy()
            apply(s, cfg, legal[i], shuffle)
            worth = carry_on(
                s, cfg, seat, suits, weights, fparams, iparams, others, limit, out, shuffle
            )
            totals[i] += worth
