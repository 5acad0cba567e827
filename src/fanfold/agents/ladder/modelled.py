"""The look-ahead against a look-ahead: continuations whose opponents decide as ``hard`` does,
looking ahead themselves on deals of their own view (compiled, Numba).

An exploiter (:mod:`fanfold.agents.ladder.exploit`) with ``model_deals=K`` plays, in each of
its continuations (:func:`fanfold.agents.ladder.lookahead.carry_on`), every opponent decision
by :func:`model_decide`: the target member's move, then, as ``ladder(deals=K, budget=B)``
decides (:class:`fanfold.agents.ladder.agent.LadderConfig`), every kept move tried on ``K``
deals of the *deciding seat's* view (:func:`redeal`), carried on by the member for every seat
to the end of that seat's next turn, the best mean chosen (the member's move on a tie). The
searcher and its partners play the member, as in ``hard``'s own look-ahead.

**Information.** :func:`redeal` deals again every card the deciding seat cannot see, from a
pool of those cards taken in a fixed order (sorted) and shuffled by the fast path's generator:
two states the seat cannot tell apart give the same deals on the same seed, so the modelled
decision never reads the searcher's hand, nor any other hidden card, as it was dealt (tested).

Cost: each opponent decision in a continuation plays up to ``B`` continuations of its own, so
a decision costs about ``B`` times the plain look-ahead's opponent share: keep the searcher's
deals and ``B`` small.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.agents.ladder.kernels import _is_end, decide, end_state, root_values
from fanfold.agents.ladder.lookahead import LIMIT, WON, _friend, _judged, carry_on
from fanfold.agents.strategy.fano_search import decider
from fanfold.core import numba_cache
from fanfold.games.fano.cards import MAX_COMBAT, TEMP, WILD
from fanfold.games.fano.fast.kernels import apply, legal_actions, winner
from fanfold.games.fano.fast.layout import (
    C_PLAYERS,
    C_TRIONFEY,
    DOWN,
    DRAW,
    FIELD,
    HAND,
    HAND_CAP,
    HEADER,
    HIDDEN,
    K_PROMOTE,
    KNOWN,
    MAX_ACTIONS,
    P_OVER,
    PENDING_ATTACKER,
    PENDING_SUPPORT,
    PHASE,
    PILE_CAP,
    PLAYER_WIDTH,
    SHUFFLE_SIZE,
    TURN,
    TURN_PLAYER,
)

numba_cache.install()

#: The most cards one seat may hold out of its viewer's sight (hand, face-down discards, draw
#: pile, face-down cards in play).
POOL = HAND_CAP + 2 * PILE_CAP + 8


@njit(cache=True)
def _base(card):  # type: ignore[no-untyped-def]
    """The card as it is off the field (a declared joker wild again)."""
    kind = card & 15
    return kind if kind >= WILD else card


@njit(cache=True)
def _sort_zone(s, at):  # type: ignore[no-untyped-def]
    """Sort the zone at ``at`` (a count, then its cards) in place."""
    n = s[at]
    for i in range(1, n):
        card = s[at + 1 + i]
        j = i - 1
        while j >= 0 and s[at + 1 + j] > card:
            s[at + 2 + j] = s[at + 1 + j]
            j -= 1
        s[at + 2 + j] = card


@njit(cache=True)
def _shuffled(pool, n):  # type: ignore[no-untyped-def]
    """``pool[:n]`` sorted, then shuffled by the fast path's generator: the same cards in any
    order give the same result on the same seed."""
    pool[:n].sort()
    for k in range(n - 1, 0, -1):
        r = np.random.randint(0, k + 1)
        card = pool[k]
        pool[k] = pool[r]
        pool[r] = card


@njit(cache=True)
def redeal(s, cfg, viewer):  # type: ignore[no-untyped-def]
    """Deal again, in place, every card of ``s`` that ``viewer`` cannot see, as
    :func:`fanfold.games.fano.view.sample_state` deals a view: the viewer's own draw pile
    reshuffled; of every other seat, its hand cards nobody has seen (the known ones and an
    attacker's shown support stay), its face-down discards, its draw pile and its face-down
    cards in play (combat cards) dealt again among those places. Trionfey's Temporary Jokers
    lie face up on the draw pile and stay on top."""
    pool = np.empty(POOL, np.int32)
    rest = np.empty(POOL, np.int32)
    keep = np.zeros(HAND_CAP, np.bool_)
    trionfey = cfg[C_TRIONFEY] != 0
    for seat in range(cfg[C_PLAYERS]):
        p = HEADER + seat * PLAYER_WIDTH
        n = 0
        jokers = 0
        for k in range(s[p + DRAW]):
            card = s[p + DRAW + 1 + k]
            if trionfey and card == TEMP:
                jokers += 1
            else:
                pool[n] = _base(card)
                n += 1
        if seat != viewer:
            # The hand: the cards everyone has seen stay, the others join the pool.
            nhand = s[p + HAND]
            for h in range(nhand):
                keep[h] = False
            for j in range(s[p + KNOWN]):
                seen = s[p + KNOWN + 1 + j]
                for h in range(nhand):
                    if not keep[h] and s[p + HAND + 1 + h] == seen:
                        keep[h] = True
                        break
            support = s[PENDING_SUPPORT]
            if s[PENDING_ATTACKER] != 0 and support != 0 and seat == s[TURN_PLAYER]:
                known = False
                for j in range(s[p + KNOWN]):
                    if _base(s[p + KNOWN + 1 + j]) == _base(support):
                        known = True
                if not known:
                    for h in range(nhand):
                        if not keep[h] and _base(s[p + HAND + 1 + h]) == _base(support):
                            keep[h] = True
                            break
            kept = 0
            extra = 0
            for h in range(nhand):
                card = s[p + HAND + 1 + h]
                if keep[h]:
                    s[p + HAND + 1 + kept] = card
                    kept += 1
                else:
                    pool[n] = _base(card)
                    n += 1
                    extra += 1
            ndown = s[p + DOWN]
            for k in range(ndown):
                pool[n] = s[p + DOWN + 1 + k]
                n += 1
            # The face-down cards in play leave the field and join the pool.
            nhidden = s[p + HIDDEN]
            for k in range(nhidden):
                card = s[p + HIDDEN + 1 + k]
                nfield = s[p + FIELD]
                for f in range(nfield):
                    if s[p + FIELD + 1 + f] == card:
                        for g in range(f, nfield - 1):
                            s[p + FIELD + 1 + g] = s[p + FIELD + 2 + g]
                        s[p + FIELD] = nfield - 1
                        break
                pool[n] = _base(card)
                n += 1
            _shuffled(pool, n)
            # Face-down cards in play are combat cards played from hand.
            placed = 0
            m = 0
            for i in range(n):
                card = pool[i]
                value = card >> 4
                if placed < nhidden and value >= 1 and value <= MAX_COMBAT:
                    s[p + HIDDEN + 1 + placed] = card
                    s[p + FIELD + 1 + s[p + FIELD]] = card
                    s[p + FIELD] += 1
                    placed += 1
                else:
                    rest[m] = card
                    m += 1
            _sort_zone(s, p + HIDDEN)
            _sort_zone(s, p + FIELD)
            for i in range(extra):
                s[p + HAND + 1 + kept + i] = rest[i]
            _sort_zone(s, p + HAND)
            for i in range(ndown):
                s[p + DOWN + 1 + i] = rest[extra + i]
            _sort_zone(s, p + DOWN)
            n = m - extra - ndown
            for i in range(n):
                pool[i] = rest[extra + ndown + i]
        else:
            _shuffled(pool, n)
        for i in range(n):
            s[p + DRAW + 1 + i] = pool[i]
        for i in range(jokers):
            s[p + DRAW + 1 + n + i] = TEMP
        s[p + DRAW] = n + jokers


@njit(cache=True)
def model_decide(  # type: ignore[no-untyped-def]
    s,
    cfg,
    mover,
    legal,
    n,
    suits,
    weights,
    fparams,
    iparams,
    mdeals,
    mbudget,
    out,
):
    """The index in ``legal[:n]`` of ``mover``'s choice in ``s`` as ``ladder(deals=mdeals,
    budget=mbudget)`` of the member (``weights``, ``fparams``, ``iparams``) decides it: the
    member's move where it is a promotion; else the member's ``mbudget // mdeals`` best moves
    by its own search (every move, on ``max(1, mbudget // n)`` deals, where it does not search
    the turn) tried on ``mdeals`` deals of ``mover``'s view (:func:`redeal`), each carried on
    by the member for every seat (:func:`fanfold.agents.ladder.lookahead.carry_on`); the best
    mean, the member's move on a tie. ``out``: a buffer of :data:`MAX_ACTIONS` for the
    continuations (not ``legal``)."""
    own = decide(s, cfg, mover, legal, n, suits, weights, fparams, iparams)
    if n < 2 or legal[own] & 255 == K_PROMOTE:
        return own
    deals = mdeals
    kept = np.ones(n, np.bool_)
    if n * mdeals > mbudget:
        width = max(1, mbudget // mdeals)
        roots = np.full(n, -np.inf)
        if root_values(s, cfg, mover, legal, n, suits, weights, fparams, iparams, roots):
            # The member's ``width`` best: its own move first, then by value, then in order.
            roots[own] = np.inf
            order = np.argsort(-roots, kind="mergesort")
            kept[:] = False
            for i in range(min(width, n)):
                kept[order[i]] = True
        else:
            deals = max(1, mbudget // n)
    moves = legal[:n].copy()
    totals = np.zeros(n)
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    others = (weights, fparams, iparams)
    for _ in range(deals):
        deal = s.copy()
        redeal(deal, cfg, mover)
        for i in range(n):
            if kept[i]:
                t = deal.copy()
                apply(t, cfg, moves[i], shuffle)
                totals[i] += carry_on(
                    t, cfg, mover, suits, weights, fparams, iparams, others, LIMIT, out, shuffle
                )
    best = own
    for i in range(n):
        if kept[i] and totals[i] > totals[best] + 1e-9:
            best = i
    return best


@njit(cache=True)
def carry_on_modelled(  # type: ignore[no-untyped-def]
    s,
    cfg,
    seat,
    suits,
    weights,
    fparams,
    iparams,
    others,
    mdeals,
    mbudget,
    limit,
    out,
    inner,
    shuffle,
):
    """:func:`fanfold.agents.ladder.lookahead.carry_on` with every opponent decision made by
    :func:`model_decide` (the member ``others``, looking ahead on ``mdeals`` deals of its own
    view within ``mbudget`` continuations); ``inner``: the buffer its continuations use."""
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
            weights_o, fparams_o, iparams_o = others
            index = model_decide(
                s,
                cfg,
                mover,
                out,
                n,
                suits,
                weights_o,
                fparams_o,
                iparams_o,
                mdeals,
                mbudget,
                inner,
            )
        action = out[index]
        if mover == seat and s[TURN] != start and _is_end(action & 255):
            return _judged(end_state(s, cfg, seat, action), cfg, seat, suits, weights)
        apply(s, cfg, action, shuffle)
        played += 1
    return _judged(s, cfg, seat, suits, weights)


@njit(cache=True)
def look_modelled(  # type: ignore[no-untyped-def]
    deals,
    cfg,
    seat,
    legal,
    nlegal,
    suits,
    weights,
    fparams,
    iparams,
    others,
    mdeals,
    mbudget,
    limit,
    totals,
):
    """:func:`fanfold.agents.ladder.lookahead.look` with the opponents modelled by
    :func:`model_decide`."""
    out = np.empty(MAX_ACTIONS, np.int64)
    inner = np.empty(MAX_ACTIONS, np.int64)
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    for d in range(deals.shape[0]):
        for i in range(nlegal):
            s = deals[d].copy()
            apply(s, cfg, legal[i], shuffle)
            totals[i] += carry_on_modelled(
                s,
                cfg,
                seat,
                suits,
                weights,
                fparams,
                iparams,
                others,
                mdeals,
                mbudget,
                limit,
                out,
                inner,
                shuffle,
            )
