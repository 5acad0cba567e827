"""The ladder's compiled decision in a workspace allocated once (:func:`fanfold.agents.ladder.
kernels.workspace`): it chooses as a decision with fresh arrays does, allocates nothing, and
its hot kernels and the engine's count no references."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from numba import njit

from fanfold.agents.ladder import Style, compiled, kernels
from fanfold.agents.ladder.styles import params
from fanfold.games.fano.fast import engine, layout
from fanfold.games.fano.rules import new_state
from tests.games.fano.helpers import FANO


def _positions(preset: str, seed: int, most: int = 60) -> Iterator[tuple[Any, ...]]:
    """(fast state, deciding seat, legal ids, params) of a game of random moves and the
    ladder's choices, every style in turn."""
    config = FANO.preset(preset).config.replace(turns_per_player=30)
    styles = list(Style)
    rng = random.Random(seed)
    state = engine.encode(new_state(config, seed))
    found = 0
    while engine.outcome(state) is None and found < most:
        legal = engine.legal_action_ids(state)
        array = state.array
        attacked = array[layout.PENDING_ATTACKER] != 0
        seat = int(array[layout.PENDING_DEFENDER] if attacked else array[layout.TURN_PLAYER])
        chosen = params(styles[found % len(styles)], config, (300, 30)[found % 2])
        if len(legal) > 1:
            found += 1
            yield state, seat, legal, chosen
        if rng.random() < 0.3:
            index = rng.randrange(len(legal))
        else:
            index = compiled.decide_array(state, seat, legal, chosen)
        state = engine.apply(state, int(legal[index]))


def _with(ws: tuple[Any, ...], state: Any, seat: int, legal: Any, chosen: Any, roots: Any) -> int:
    from fanfold.agents.ladder import kernels

    weights, fparams, iparams = compiled._arrays(chosen)
    return int(
        kernels.decide_with(
            state.array,
            state.options,
            seat,
            legal,
            len(legal),
            compiled._suits(state.config),
            weights,
            fparams,
            iparams,
            roots,
            ws,
        )
    )


@pytest.mark.parametrize("preset", ["classic", "trionfey", "trionfey-specials", "specials"])
def test_a_reused_workspace_decides_and_values_as_fresh_arrays_do(preset: str) -> None:
    from fanfold.agents.ladder import kernels

    found = list(_positions(preset, 7))
    assert len(found) >= 40
    first = found[0][0]
    ws = compiled.workspace(len(first.array))
    # twice through, the second time backwards: nothing of one decision leaks into the next
    for state, seat, legal, chosen in found + found[::-1]:
        weights, fparams, iparams = compiled._arrays(chosen)
        fresh = np.full(len(legal), -np.inf)
        reused = np.full(len(legal), -np.inf)
        expected = kernels.decide_into(
            state.array,
            state.options,
            seat,
            legal,
            len(legal),
            compiled._suits(state.config),
            weights,
            fparams,
            iparams,
            fresh,
        )
        assert _with(ws, state, seat, legal, chosen, reused) == expected
        assert np.array_equal(fresh, reused)
        assert compiled.decide_array(state, seat, legal, chosen) == expected


@pytest.fixture
def allocations() -> Iterator[Any]:
    """A counter of Numba's allocations (its runtime's statistics, on while the test runs)."""
    nrt: Any = importlib.import_module("numba.core.runtime._nrt_python")
    rtsys: Any = importlib.import_module("numba.core.runtime.nrt").rtsys

    was_on = nrt.memsys_stats_enabled()
    nrt.memsys_enable_stats()
    yield lambda: rtsys.get_allocation_stats().alloc
    if not was_on:
        nrt.memsys_disable_stats()


@njit
def _decide_many(  # type: ignore[no-untyped-def]
    states, cfg, seats, legal, counts, suits, weights, fparams, iparams, ws, out
):
    """Each position's decision in the one workspace ``ws``, in compiled code (as the
    environments' kernels call it: a call from Python unboxes every array it is given)."""
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


@pytest.mark.parametrize("preset", ["classic", "trionfey"])
def test_a_decision_in_a_workspace_allocates_nothing(preset: str, allocations: Any) -> None:
    found = list(_positions(preset, 11, most=40))
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
    ws = compiled.workspace(len(first.array))
    out = np.zeros(len(found), np.int64)

    def calls(n: int) -> int:
        """The allocations of one compiled call deciding the first ``n`` positions."""
        before = allocations()
        _decide_many(
            states[:n],
            first.options,
            seats,
            legal,
            counts,
            suits,
            weights,
            fparams,
            iparams,
            ws,
            out,
        )
        return int(allocations() - before)

    calls(len(found))  # compiled and warm
    expected = [compiled.decide_array(*position) for position in found]
    # the call's own unboxing of its arguments, the same for one decision or forty
    one = calls(1)
    assert calls(len(found)) == one
    assert out.tolist() == expected
    # a decision with fresh arrays allocates its workspace (the counter counts)
    before = allocations()
    compiled.decide_array(*found[0])
    assert allocations() - before > 10


def test_the_search_loop_and_the_engine_count_no_references() -> None:
    """The search's loop, everything it calls and the engine's apply and legal actions are
    compiled without Numba's reference counts (``_nrt=False``); Numba refuses to compile such
    a kernel if it allocates, so they stay allocation-free."""
    from fanfold.agents.ladder import kernels
    from fanfold.games.fano.fast.kernels import actions, attacks, deck, moves, turns

    # the package's ``apply`` is the function: the module by its full name
    apply = importlib.import_module("fanfold.games.fano.fast.kernels.apply")

    hot = [
        kernels._search_loop,
        kernels._counter_chance,
        kernels._is_end,
        kernels._byte,
        kernels._spends,
        apply.apply,
        moves.legal_actions,
        moves._end_actions,
        moves._combines,
        moves._team_promotions,
        attacks._window_opens,
        attacks._declarations,
        attacks._react_actions,
        attacks._resolve,
        deck._reshuffle,
        deck._draw_to_three,
        turns._end_turn,
        actions._unique,
    ]
    for kernel in hot:
        assert kernel.targetoptions.get("_nrt") is False, kernel.py_func.__name__
