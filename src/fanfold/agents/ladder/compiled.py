"""The Python face of the ladder's compiled decision (:mod:`fanfold.agents.ladder.kernels`).

Importing this module imports Numba and loads (or compiles) the kernels.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from fanfold.agents.ladder import kernels
from fanfold.agents.ladder.search import Params
from fanfold.games.fano.actions import FanoAction
from fanfold.games.fano.config import FanoConfig
from fanfold.games.fano.fast import codec, engine
from fanfold.games.fano.fast.layout import MAX_ACTIONS, MAX_SEATS
from fanfold.games.fano.state import FanoState


@lru_cache(maxsize=64)
def _suits(config: FanoConfig) -> npt.NDArray[np.int64]:
    suits = np.zeros(MAX_SEATS, np.int64)
    for seat in range(config.players):
        suits[seat] = len(config.suits_of(seat))
    return suits


@lru_cache(maxsize=256)
def _arrays(
    params: Params,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    weights = np.array(params.weights, np.float64)
    fparams = np.zeros(kernels.F_SIZE, np.float64)
    fparams[kernels.F_FRESH] = params.fresh
    fparams[kernels.F_BELIEF] = params.counter_belief
    fparams[kernels.F_BLUFF_GAIN] = params.bluff_gain
    fparams[kernels.F_BLUFF_BONUS] = params.bluff_bonus
    fparams[kernels.F_WEAKEST] = params.weakest
    iparams = np.zeros(kernels.I_SIZE, np.int64)
    iparams[kernels.I_BLUFF] = params.bluff
    iparams[kernels.I_REACT] = params.react
    iparams[kernels.I_HOARD] = int(params.hoard)
    iparams[kernels.I_NODES] = params.nodes
    return weights, fparams, iparams


def workspace(size: int) -> tuple[Any, ...]:
    """The ladder's working arrays for states of ``size`` entries
    (:func:`fanfold.agents.ladder.kernels.workspace`): a batch of tables allocates one and
    hands it to every compiled decision (:func:`~fanfold.agents.ladder.kernels.decide_with`)."""
    result: tuple[Any, ...] = kernels.workspace(np.zeros(size, np.int32))
    return result


def decide_array(
    state: engine.FastState, seat: int, legal: npt.NDArray[np.int64], params: Params
) -> int:
    """The index in ``legal`` (packed action ids) of the seat's choice in ``state``."""
    weights, fparams, iparams = _arrays(params)
    return int(
        kernels.decide(
            state.array,
            state.options,
            seat,
            legal,
            len(legal),
            _suits(state.config),
            weights,
            fparams,
            iparams,
        )
    )


def decide(state: FanoState, seat: int, legal: Sequence[FanoAction], params: Params) -> int:
    """:func:`fanfold.agents.ladder.search.decide` in compiled code."""
    ids = np.array([codec.action_id(action) for action in legal], np.int64)
    return decide_array(engine.encode(state), seat, ids, params)


def root_values(
    state: FanoState, seat: int, legal: npt.NDArray[np.int64], params: Params
) -> npt.NDArray[np.float64] | None:
    """The member's value of each of ``legal`` (packed action ids) in ``state``, its turn
    searched on (:func:`fanfold.agents.ladder.kernels.root_values`; ``-inf``: refused by the
    style); ``None`` where the member decides without searching its turn (a shuffle, a
    mulligan, a defender's answer, a promotion)."""
    weights, fparams, iparams = _arrays(params)
    fast = engine.encode(state)
    values = np.full(len(legal), -np.inf)
    searched = kernels.root_values(
        fast.array,
        fast.options,
        seat,
        legal,
        len(legal),
        _suits(fast.config),
        weights,
        fparams,
        iparams,
        values,
    )
    return values if searched else None


def look_ahead(
    deals: Sequence[engine.FastState],
    seat: int,
    legal: npt.NDArray[np.int64],
    params: Params,
    totals: npt.NDArray[np.float64],
    opponents: Params | None = None,
    model: tuple[int, int] | None = None,
) -> None:
    """Add to ``totals[i]`` the value to ``seat`` of ``legal[i]`` (packed action ids) carried
    on by the ladder on each of ``deals`` (:func:`fanfold.agents.ladder.lookahead.look`): the
    seat and its partners by ``params``, the opponents by ``opponents`` (``None``: ``params``
    too); with ``model`` (deals, budget), each opponent decision looks ahead itself on that
    many deals of its own view within that many continuations
    (:func:`fanfold.agents.ladder.modelled.look_modelled`)."""
    from fanfold.agents.ladder import lookahead

    weights, fparams, iparams = _arrays(params)
    others = _arrays(opponents) if opponents is not None else (weights, fparams, iparams)
    first = deals[0]
    if model is not None:
        from fanfold.agents.ladder import modelled

        modelled.look_modelled(
            np.stack([deal.array for deal in deals]),
            first.options,
            seat,
            legal,
            len(legal),
            _suits(first.config),
            weights,
            fparams,
            iparams,
            others,
            model[0],
            model[1],
            lookahead.LIMIT,
            totals,
        )
        return
    lookahead.look(
        np.stack([deal.array for deal in deals]),
        first.options,
        seat,
        legal,
        len(legal),
        _suits(first.config),
        weights,
        fparams,
        iparams,
        others,
        lookahead.LIMIT,
        totals,
    )


def modelled_decide(
    state: FanoState,
    seat: int,
    legal: Sequence[FanoAction],
    params: Params,
    deals: int,
    budget: int,
    seed: int,
) -> int:
    """The index in ``legal`` of the seat's choice as an exploiter's continuation models a
    look-ahead opponent: ``ladder(deals=deals, budget=budget)`` of the member ``params``, its
    deals dealt from the seat's view by the fast path's generator seeded with ``seed``
    (:func:`fanfold.agents.ladder.modelled.model_decide`)."""
    from fanfold.agents.ladder import modelled

    weights, fparams, iparams = _arrays(params)
    fast = engine.encode(state)
    ids = np.array([codec.action_id(action) for action in legal], np.int64)
    engine.seed(seed)
    buffer = np.empty(MAX_ACTIONS, np.int64)
    return int(
        modelled.model_decide(
            fast.array,
            fast.options,
            seat,
            ids,
            len(ids),
            _suits(fast.config),
            weights,
            fparams,
            iparams,
            deals,
            budget,
            buffer,
        )
    )


def redealt(state: FanoState, viewer: int, seed: int) -> FanoState:
    """``state`` with every card ``viewer`` cannot see dealt again in compiled code
    (:func:`fanfold.agents.ladder.modelled.redeal`), the fast path's generator seeded with
    ``seed``."""
    from fanfold.agents.ladder import modelled

    fast = engine.encode(state)
    array = fast.array.copy()
    engine.seed(seed)
    modelled.redeal(array, fast.options, viewer)
    return codec.decode_state(array, state.config, state.seed)


def warm_up() -> None:
    """Compile (or load from Numba's cache) the kernels on a small game."""
    from fanfold.agents.ladder.styles import Style, params
    from fanfold.games.fano.rules import legal_actions, new_state

    config = FanoConfig(turns_per_player=2)
    state = new_state(config, 1)
    legal = legal_actions(state)
    chosen = params(Style.BALANCED, config)
    decide(state, state.turn_player, legal, chosen)
    ids = np.array([codec.action_id(action) for action in legal], np.int64)
    look_ahead([engine.encode(state)], state.turn_player, ids, chosen, np.zeros(len(ids)))
    # ``hard``'s budget ranks the moves by the member's own search (``keep``'s ranking).
    root_values(state, state.turn_player, ids, chosen)
