"""The ladder's compiled decision without reference counts from its entry point down, the
seat's block restored by an unsigned-index copy, and discards and passes bounded before they
are evaluated: the same choices, the memo's growth kept."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from fanfold.agents.ladder import Style, compiled, kernels, search
from fanfold.agents.ladder.styles import params
from fanfold.games.fano import FanoState
from fanfold.games.fano.fast import codec, engine, layout
from fanfold.games.fano.fast.kernels.zones import _seat
from tests.agents.test_ladder import _decider, _positions
from tests.games.fano.helpers import FANO


def test_the_decision_counts_no_references_from_its_entry_point_down() -> None:
    """Every kernel a decision passes its workspace through is compiled without reference
    counts (each counted call counted the workspace's thirty-odd arrays up and down); only
    the memo's growth, which allocates, is counted, and says so explicitly (a kernel called
    from an uncounted one inherits ``_nrt=False`` unless it sets it)."""
    uncounted = [
        kernels.decide_with,
        kernels._decide_in,
        kernels.context_into,
        kernels.search,
        kernels._react,
        kernels._attacked,
        kernels._hit,
        kernels._copy_block,
    ]
    for kernel in uncounted:
        assert kernel.targetoptions.get("_nrt") is False, kernel.py_func.__name__
    for kernel in (kernels._search_grown, kernels._grown):
        assert kernel.targetoptions.get("_nrt") is True, kernel.py_func.__name__


def test_the_block_copy_copies_the_block_and_nothing_else() -> None:
    rng = np.random.default_rng(3)
    source = rng.integers(-1000, 1000, 712).astype(np.int32)
    for start, width in ((0, 175), (12, 175), (537, 175), (700, 12), (5, 0)):
        target = rng.integers(-1000, 1000, 712).astype(np.int32)
        before = target.copy()
        kernels._copy_block(target, source, start, width)
        assert np.array_equal(target[start : start + width], source[start : start + width])
        assert np.array_equal(target[:start], before[:start])
        assert np.array_equal(target[start + width :], before[start + width :])


def _grows(state: FanoState, seat: int, ids: Any, chosen: Any, ws: tuple[Any, ...]) -> int:
    """The compiled choice in ``ws``; ``ws``'s loop integers then say whether its memo grew."""
    weights, fparams, iparams = compiled._arrays(chosen)
    fast = engine.encode(state)
    ws[2][15][:] = 0  # the search's loop integers, written only when its memo must grow
    return int(
        kernels.decide_with(
            fast.array,
            fast.options,
            seat,
            ids,
            len(ids),
            compiled._suits(fast.config),
            weights,
            fparams,
            iparams,
            ws[3][6],
            ws,
        )
    )


def test_a_search_whose_memo_table_grows_chooses_as_its_python_twin() -> None:
    """Searches that remember more than half the workspace's memo table go on in the counted
    :func:`kernels._search_grown`; they choose what the Python twin chooses, and a decision
    after them in the same workspace is unchanged by them. The workspace here is given a
    table of 64 positions, so that searches outgrow it (the workspace's own,
    :data:`kernels.MEMO_START`, holds most searches of a node budget of 300 whole)."""
    grown = 0
    checked = 0
    small = 64
    ws: tuple[Any, ...] | None = None
    for state in _positions("trionfey-all-for-one", 2, 11, most=60):
        seat = _decider(state)
        legal = FANO.legal_actions(state)
        ids = np.array([codec.action_id(action) for action in legal], np.int64)
        if ws is None:
            made = compiled.workspace(len(engine.encode(state).array))
            memo = (
                np.zeros(small, np.int64),
                np.zeros(small, np.float64),
                np.zeros(small, np.bool_),
                np.full(small, -1, np.int64),
            )
            ws = (*made[:4], memo, made[5])
        chosen = params(Style.RUSH, state.config, 300)
        choice = _grows(state, seat, ids, chosen, ws)
        loop = ws[2][15]
        if loop[kernels.L_MEMO_COUNT] * 2 < small:
            continue
        grown += 1
        assert choice == search.decide(state, seat, legal, chosen)
        assert choice == compiled.decide(state, seat, legal, chosen)
        checked += 1
    assert grown >= 3, grown
    assert checked == grown


@njit
def _bounded(s, cfg, seat, legal, nlegal, suits, weights, ws, out):  # type: ignore[no-untyped-def]
    """For each discard and pass of ``legal``: its bound (:func:`kernels._hand_bound` on
    :func:`kernels._field_bound`, the action not applied) and its value (:func:`value_of` of
    the position after it) into a row of ``out``, in a decision's context; how many."""
    ctx, later, now, pool = ws[0]
    work = ws[1]
    ints = work[0]
    npool = kernels.context_into(s, cfg, seat, suits, ctx, later, now, pool)
    kernels.pool_counts(pool, npool, ints, work[2])
    ints[kernels.W_STATE, kernels.E_DECISION] = 1
    ints[kernels.W_STATE, kernels.E_KNOWN] = 0
    field = kernels._field_bound(s, cfg, ctx, later, weights, work)
    u = ws[3][1]
    n = 0
    for i in range(nlegal):
        kind = legal[i] & 255
        if kind == layout.K_DISCARD or kind == layout.K_PASS:
            out[n, 0] = kernels._hand_bound(
                s, _seat(seat), cfg, legal[i], field, weights, ints, work[2], npool
            )
            kernels.end_into(u, s, cfg, seat, legal[i])
            out[n, 1] = kernels.value_of(u, cfg, ctx, later, pool, npool, weights, work)
            n += 1
    ints[kernels.W_STATE, kernels.E_DECISION] = 0
    return n


def test_a_discard_or_pass_is_never_worth_more_than_its_bound() -> None:
    """The search skips a discard or a pass whose bound is at most the best value found at its
    frame, so the bound must never be below the value the evaluation computes (every style's
    weights, with both signs, in classic and Trionfey positions); and it must be tight enough
    to skip some: many bounds fall at or below the best value among the position's discards
    and passes."""
    checked = 0
    below_best = 0
    for preset in ("classic", "trionfey", "trionfey-specials"):
        ws: tuple[Any, ...] | None = None
        for state in _positions(preset, 1, 21, most=60):
            fast = engine.encode(state)
            if fast.array[layout.PHASE] != layout.P_MAIN:
                continue
            seat = _decider(state)
            ids = engine.legal_action_ids(fast)
            if ws is None:
                ws = compiled.workspace(len(fast.array))
            out = np.zeros((len(ids), 2), np.float64)
            for style in Style:
                weights = compiled._arrays(params(style, state.config))[0]
                n = _bounded(
                    fast.array,
                    fast.options,
                    seat,
                    ids,
                    len(ids),
                    compiled._suits(fast.config),
                    weights,
                    ws,
                    out,
                )
                bounds, values = out[:n, 0], out[:n, 1]
                assert np.all(values <= bounds), (preset, style, bounds - values)
                checked += n
                below_best += int(np.sum(bounds <= values.max())) if n else 0
    assert checked >= 500, checked
    assert below_best >= checked // 20, (below_best, checked)


def test_a_closing_block_searched_best_bound_first_keeps_the_first_best_action() -> None:
    """The frame's discards and pass are evaluated in the order of their bounds, not of the
    legal actions: at the root an equal value replaces the best only when its action comes
    first, and a bound equal to the best is still evaluated there when its action does; below
    the root only the best value counts, so a bound at most that value is skipped."""
    never = kernels.NEVER
    best = np.full(2, never)
    top = np.array([never, 0.0])
    for index, value in ((5, 1.0), (3, 1.0), (4, 1.0)):
        kernels._record_any(0, value, index, best, top)
    assert list(top) == [1.0, 3.0]
    kernels._record_any(0, 2.0, 7, best, top)
    assert list(top) == [2.0, 7.0]
    bounds = np.array([1.0, 2.0, 2.0, 3.0])
    assert kernels._next_bound(bounds, 4, 0, 4, best, top) == 3  # the highest first
    bounds[3] = never  # evaluated
    # index 5 comes before the best's (7) with an equal bound; index 6 too; index 4 is below
    assert kernels._next_bound(bounds, 4, 0, 4, best, top) == 1
    top[1] = 5.0
    assert kernels._next_bound(bounds, 4, 0, 4, best, top) == 1  # 5 is the best's own index
    top[1] = 4.0
    assert kernels._next_bound(bounds, 4, 0, 4, best, top) == -1  # 5 and 6 come after
    best[1] = 2.0
    assert kernels._next_bound(bounds, 4, 1, 4, best, top) == -1  # below the root: at most
    best[1] = 1.5
    assert kernels._next_bound(bounds, 4, 1, 4, best, top) == 1  # the first of two equal
    kernels._record_any(1, 1.75, 5, best, top)
    assert best[1] == 1.75
    kernels._record_any(1, 1.0, 6, best, top)
    assert best[1] == 1.75


def test_every_value_held_at_once_is_each_value_held_alone() -> None:
    """A decision's context reads each rival's zones once for all values
    (:func:`kernels.holds_into`); each chance, later and now, is exactly :func:`kernels.holds`
    of that value (jokers, known cards and face-down cards in play included)."""
    compared = 0
    certain = 0
    for preset in ("classic", "jokers-wild", "trionfey", "trionfey-all-for-one"):
        for state in _positions(preset, 1, 33, most=40):
            fast = engine.encode(state)
            suits = compiled._suits(fast.config)
            later = np.full((8, 11), -1.0)
            now = np.full((8, 11), -1.0)
            for o in range(state.config.players):
                q = int(_seat(o))
                kernels.holds_into(fast.array, q, suits[o], later, now, o)
                for v in range(1, 11):
                    assert later[o, v] == kernels.holds(fast.array, q, suits[o], v, True)
                    assert now[o, v] == kernels.holds(fast.array, q, suits[o], v, False)
                    compared += 1
                    certain += int(now[o, v] == 1.0)
                assert later[o, 0] == now[o, 0] == -1.0  # value 0 is no card's
    assert compared >= 2000, compared
    assert certain > 0  # some known cards or jokers met


@njit
def _block_bounded(s, cfg, seat, actions, nlegal, suits, weights, ws, out):  # type: ignore[no-untyped-def]
    """The closing block (the discards and pass that end ``actions[0, :nlegal]``): each
    action's :func:`kernels._hand_bound` and value into ``out``'s rows, and the block's
    :func:`kernels._block_bound` returned (``-inf`` and no rows where the block is empty)."""
    ctx, later, now, pool = ws[0]
    work = ws[1]
    ints = work[0]
    npool = kernels.context_into(s, cfg, seat, suits, ctx, later, now, pool)
    kernels.pool_counts(pool, npool, ints, work[2])
    ints[kernels.W_STATE, kernels.E_DECISION] = 1
    ints[kernels.W_STATE, kernels.E_KNOWN] = 0
    field = kernels._field_bound(s, cfg, ctx, later, weights, work)
    first = nlegal
    while first > 0 and (
        actions[0, first - 1] & 255 == layout.K_DISCARD
        or actions[0, first - 1] & 255 == layout.K_PASS
    ):
        first -= 1
    p = _seat(seat)
    u = ws[3][1]
    for j in range(first, nlegal):
        out[j - first, 0] = kernels._hand_bound(
            s, p, cfg, actions[0, j], field, weights, ints, work[2], npool
        )
        kernels.end_into(u, s, cfg, seat, actions[0, j])
        out[j - first, 1] = kernels.value_of(u, cfg, ctx, later, pool, npool, weights, work)
    whole = -np.inf
    if first < nlegal:
        whole = kernels._block_bound(
            s, p, cfg, actions, 0, first, nlegal, field, weights, ints, work[2]
        )
    ints[kernels.W_STATE, kernels.E_DECISION] = 0
    return whole, nlegal - first


def test_a_closing_block_s_bound_is_never_below_any_of_its_actions_bounds() -> None:
    """The search skips a whole closing block when :func:`kernels._block_bound` is at most
    the frame's best value, so it must never be below the bound (and so the value) of any of
    the block's discards and pass (every style's weights, with both signs, in positions of
    classic and Trionfey presets); and it must be tight enough to skip blocks: in many of
    them no looser than the highest of its actions' own bounds."""
    blocks = 0
    tight = 0
    for preset in ("classic", "trionfey", "trionfey-specials", "trionfey-all-for-one"):
        ws: tuple[Any, ...] | None = None
        for state in _positions(preset, 1, 21, most=60):
            fast = engine.encode(state)
            if fast.array[layout.PHASE] != layout.P_MAIN:
                continue
            seat = _decider(state)
            ids = engine.legal_action_ids(fast)
            if ws is None:
                ws = compiled.workspace(len(fast.array))
            out = np.zeros((len(ids), 2), np.float64)
            for style in Style:
                weights = compiled._arrays(params(style, state.config))[0]
                whole, n = _block_bounded(
                    fast.array,
                    fast.options,
                    seat,
                    ids.reshape(1, -1),
                    len(ids),
                    compiled._suits(fast.config),
                    weights,
                    ws,
                    out,
                )
                if n == 0:
                    continue
                bounds, values = out[:n, 0], out[:n, 1]
                assert np.all(bounds <= whole), (preset, style, whole, bounds)
                assert np.all(values <= whole)
                blocks += 1
                # as tight as its tightest action's bound (its margin aside)
                tight += int(whole - bounds.max() < 1e-6)
    assert blocks >= 300, blocks
    assert tight >= blocks // 4, (tight, blocks)
