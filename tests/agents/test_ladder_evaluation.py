"""The ladder's evaluation made cheaper without a bit of its numbers changed: the tabulated
binomials give the integer loop's chances, a decision's evaluations keep what they read of the
opponents alone while the opponents' cards stay the same (and notice when they change), and
the search's memo hashes tell positions apart."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from fanfold.agents.ladder import compiled
from fanfold.agents.ladder import features as fx
from fanfold.agents.ladder.styles import Style, params
from fanfold.games.fano.fast import engine, layout
from fanfold.games.fano.rules import new_state
from tests.games.fano.helpers import FANO


def _states(preset: str, seed: int, most: int) -> Iterator[tuple[Any, int, Any]]:
    """(fast state, deciding seat, legal ids) along a game of random moves."""
    config = FANO.preset(preset).config.replace(turns_per_player=30)
    rng = random.Random(seed)
    state = engine.encode(new_state(config, seed))
    for _ in range(most):
        if engine.outcome(state) is not None:
            return
        legal = engine.legal_action_ids(state)
        array = state.array
        attacked = array[layout.PENDING_ATTACKER] != 0
        seat = int(array[layout.PENDING_DEFENDER] if attacked else array[layout.TURN_PLAYER])
        yield state, seat, legal
        state = engine.apply(state, int(legal[rng.randrange(len(legal))]))


def test_the_tabulated_chances_are_the_integer_loop_s_bit_for_bit() -> None:
    """:func:`kernels.hyper` reads two floats of the binomial table where it fits and runs the
    integer loop beyond it; either way its number is the Python twin's (whose quotient of two
    integers is rounded once, as the table's quotient of two exact floats is)."""
    from fanfold.agents.ladder import kernels

    assert kernels.COMB.shape == (kernels.COMB_N, kernels.COMB_K)
    assert kernels.COMB[52, 3] == 22100.0
    checked = 0
    for pool in range(-1, kernels.COMB_N + 3):
        for copies in range(-1, min(pool, 12) + 2):
            for draws in range(-1, kernels.COMB_K + 2):
                assert kernels.hyper(pool, copies, draws) == fx.hyper(pool, copies, draws), (
                    pool,
                    copies,
                    draws,
                )
                checked += 1
    assert checked > 10_000
    # beyond the table (the loop's own arithmetic): still the twin's number
    assert kernels.hyper(kernels.COMB_N + 40, 5, 3) == fx.hyper(kernels.COMB_N + 40, 5, 3)
    assert 0.0 < kernels.hyper(40, 4, 3) < 1.0


def test_the_draw_chances_counted_with_the_pool_are_the_ones_each_evaluation_computed() -> None:
    """:func:`kernels.pool_counts` tabulates, for one to ``HAND`` draws, the chance that the
    seat's draw pile brings each value (a joker, value 0, counts for every value): the number
    the Python twin's ``_own`` computes for a seat holding none of it, on piles of every
    size (empty, shorter than the draws, long) and with and without jokers."""
    from fanfold.agents.ladder import kernels

    rng = random.Random(7)
    work = kernels.scratch()
    ints, _, floats, _ = work
    checked = 0
    for size in (0, 1, 2, 3, 5, 17, 40):
        for jokers in (0, 1, 2):
            values = [rng.randrange(1, 11) for _ in range(size)]
            for i in range(min(jokers, size)):
                values[i] = 0
            pool = np.array([*values, 0], np.int64)  # never empty: an empty pile too
            kernels.pool_counts(pool, size, ints, floats)
            for draws in range(1, fx.HAND + 1):
                for value in range(11):
                    expected = fx._own(value, [], 0, draws, values)
                    got = floats[kernels.V_DRAWS + draws - 1, value]
                    assert got == expected, (size, jokers, draws, value)
                    checked += 1
    assert checked == 7 * 3 * fx.HAND * 11


@pytest.mark.parametrize("preset", ["classic", "trionfey", "four-players", "specials"])
def test_a_decision_s_evaluations_reuse_the_opponents_part_only_while_it_is_the_same(
    preset: str,
) -> None:
    """Within a decision (its context fixed), evaluations of positions whose opponents'
    cards differ (from all over a game, in a shuffled order, some twice in a row) each give
    the number an evaluation afresh gives, bit for bit: the kept part of the opponents is
    computed again whenever their level, tribute or cards in play change."""
    from fanfold.agents.ladder import kernels

    found = list(_states(preset, 11, 160))
    assert len(found) > 60
    rng = random.Random(3)
    weights, _, _ = compiled._arrays(params(Style.BALANCED, found[0][0].config))
    suits = compiled._suits(found[0][0].config)
    ws = compiled.workspace(len(found[0][0].array))
    work = ws[1]
    ints = work[0]
    reused = 0
    for base, seat, _ in found[::10]:
        ctx, later, _, pool, npool = kernels.context(base.array, base.options, seat, suits)
        # a decision's scope, as decide_with opens it
        ints[kernels.W_STATE, kernels.E_DECISION] = 1
        ints[kernels.W_STATE, kernels.E_KNOWN] = 0
        kernels.pool_counts(pool, npool, ints, work[2])
        order = [state for state, _, _ in found]
        rng.shuffle(order)
        order = order[:30] + [order[0]] * 3 + order[30:40]
        previous = None
        for state in order:
            expected = kernels.evaluate(
                state.array, state.options, ctx, later, pool, npool, weights
            )
            value = kernels.value_of(
                state.array, state.options, ctx, later, pool, npool, weights, work
            )
            assert value == expected
            if previous is state:
                reused += 1
            previous = state
        # the kept part is read, not computed again: spoiled, it shows in the next number of
        # the same opponents, and is computed afresh for other opponents
        partners = [bool(ctx[kernels.X_PARTNER + o]) for o in range(base.config.players)]
        first, other = order[0], _other_opponents(order[0], order, partners)
        kernels.value_of(first.array, first.options, ctx, later, pool, npool, weights, work)
        work[2][kernels.V_RIVAL, :] += 1.0
        spoiled = kernels.value_of(
            first.array, first.options, ctx, later, pool, npool, weights, work
        )
        assert spoiled != kernels.evaluate(
            first.array, first.options, ctx, later, pool, npool, weights
        )
        value = kernels.value_of(other.array, other.options, ctx, later, pool, npool, weights, work)
        assert value == kernels.evaluate(
            other.array, other.options, ctx, later, pool, npool, weights
        )
        ints[kernels.W_STATE, kernels.E_DECISION] = 0
    assert reused >= 2 * len(found[::10])


def _other_opponents(state: Any, states: list[Any], partners: list[bool]) -> Any:
    """A state of ``states`` whose cards in play of some opponent (not a partner) differ."""
    for other in states:
        for o in range(state.config.players):
            if partners[o]:
                continue
            at = layout.HEADER + o * layout.PLAYER_WIDTH + layout.FIELD
            zone = slice(at, at + 1 + layout.FIELD_CAP)
            if not np.array_equal(state.array[zone], other.array[zone]):
                return other
    raise AssertionError("no state with other opponents' cards")


def test_a_decision_closes_its_scope_so_a_later_evaluation_counts_afresh() -> None:
    """After :func:`kernels.decide_with` the workspace's evaluation memo is closed: evaluating
    in it with another context (another seat's) gives the fresh number."""
    from fanfold.agents.ladder import kernels

    found = [item for item in _states("trionfey", 5, 120) if len(item[2]) > 1]
    state, seat, legal = found[20]
    chosen = params(Style.BALANCED, state.config)
    weights, fparams, iparams = compiled._arrays(chosen)
    suits = compiled._suits(state.config)
    ws = compiled.workspace(len(state.array))
    roots = np.full(len(legal), -np.inf)
    kernels.decide_with(
        state.array, state.options, seat, legal, len(legal), suits, weights, fparams, iparams,
        roots, ws,
    )  # fmt: skip
    assert ws[1][0][kernels.W_STATE, kernels.E_DECISION] == 0
    other = (seat + 1) % state.config.players
    ctx, later, _, pool, npool = kernels.context(state.array, state.options, other, suits)
    expected = kernels.evaluate(state.array, state.options, ctx, later, pool, npool, weights)
    value = kernels.value_of(state.array, state.options, ctx, later, pool, npool, weights, ws[1])
    assert value == expected


def _read(array: Any) -> list[bool]:
    """Whether :func:`kernels.state_hash` reads each entry of ``array``: the header, each
    seat's zones to their counts and the rest of its block, any part of a block whole."""
    from fanfold.agents.ladder import kernels

    n = array.shape[0]
    read = [True] * n
    p = layout.HEADER
    while p + layout.PLAYER_WIDTH <= n:
        for offset, cap in kernels.HASH_ZONES:
            at = p + int(offset)
            count = min(max(int(array[at]), 0), int(cap))
            for i in range(at + 1 + count, at + 1 + int(cap)):
                read[i] = False
        p += layout.PLAYER_WIDTH
    return read


def test_the_memo_hash_tells_apart_positions_one_entry_apart() -> None:
    """Equal arrays hash equal; changing any one entry the hash reads (the header, a zone's
    count or card, a seat's specials and counters, a part of a block past the last whole
    one) gives a new hash every time; an entry past a zone's count (0 in the engine's
    arrays) is not part of the position and changes nothing."""
    from fanfold.agents.ladder import kernels

    state = engine.encode(new_state(FANO.preset("classic").config, 2)).array
    for array in (state, state[:-3].copy()):
        base = kernels.state_hash(array)
        assert kernels.state_hash(array.copy()) == base
        read = _read(array)
        assert 0 < sum(read) < array.shape[0]
        seen = {base}
        for i in range(array.shape[0]):
            for delta in (1, -1, 1 << 20):
                changed = array.copy()
                changed[i] += delta
                key = int(kernels.state_hash(changed))
                if read[i]:
                    seen.add(key)
                else:
                    assert key == base
        assert len(seen) == 1 + 3 * sum(read)


@pytest.mark.parametrize("preset", ["classic", "trionfey", "trionfey-specials", "four-players"])
def test_the_hash_of_the_entries_read_is_the_whole_array_s(preset: str) -> None:
    """Along seeded games (random moves, every phase) every entry past a zone's count is 0,
    so that the hash, which reads the zones to their counts, is the whole array's weighted
    sum (recomputed here over every entry, modulo 2**64) mixed: two arrays of the engine
    hash equal exactly when their weighted sums are equal."""
    from fanfold.agents.ladder import kernels

    checked = 0
    for seed in range(3, 9):
        for state, _, _ in _states(preset, seed, 300):
            array = state.array
            read = _read(array)
            assert not any(array[i] for i in range(array.shape[0]) if not read[i])
            weights = kernels.HASH_WEIGHTS[: array.shape[0]]
            total = (array.astype(np.int64).astype(np.uint64) * weights).sum(dtype=np.uint64)
            assert kernels.state_hash(array) == kernels._mixed(np.int64(total))
            checked += 1
    assert checked > 300


def test_the_evaluation_s_new_kernels_count_no_references() -> None:
    from fanfold.agents.ladder import kernels

    assert kernels.pool_counts.targetoptions.get("_nrt") is False
    assert kernels.state_hash.targetoptions.get("_nrt") is False
