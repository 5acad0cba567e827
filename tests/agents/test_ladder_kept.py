"""The ladder's kept search (:class:`fanfold.agents.ladder.search.Kept`; the compiled
workspace's ``ws[5]``): a complete search's memo kept for the seat's next decision changes
no choice, compiled and Python keep it at the same decisions, and it is dropped wherever the
position, the context or the parameters differ, where root values are asked for, and after
a search cut by its node budget."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from fanfold.agents.ladder import compiled, kernels, search
from fanfold.agents.ladder.styles import Style, params
from fanfold.games.fano import FanoConfig
from fanfold.games.fano.fast import engine, layout
from tests.games.fano.helpers import FANO


def _config(preset: str) -> FanoConfig:
    config: FanoConfig = FANO.preset(preset).config
    return config.replace(turns_per_player=12)


def _seat(array: Any) -> int:
    attacked = array[layout.PENDING_ATTACKER] != 0
    return int(array[layout.PENDING_DEFENDER] if attacked else array[layout.TURN_PLAYER])


def _used(ws: tuple[Any, ...]) -> int:
    return int(ws[5][0][kernels.PL_USED])


def _kept(ws: tuple[Any, ...]) -> bool:
    return bool(ws[5][0][kernels.PL_KEPT])


class _Member:
    """One ladder member's compiled decision with a workspace of its own."""

    def __init__(self, config: FanoConfig, chosen: search.Params) -> None:
        self.arrays = compiled._arrays(chosen)
        self.suits = compiled._suits(config)
        self.ws = compiled.workspace(len(engine.encode(FANO.new_state(config, 1)).array))

    def decide(self, state: engine.FastState, legal: Any, roots: Any = None) -> int:
        weights, fparams, iparams = self.arrays
        array = state.array
        if roots is None:
            roots = self.ws[3][6]
        return int(
            kernels.decide_with(
                array,
                state.options,
                _seat(array),
                legal,
                len(legal),
                self.suits,
                weights,
                fparams,
                iparams,
                roots,
                self.ws,
            )
        )


def _played(config: FanoConfig, chosen: search.Params, seed: int) -> Iterator[Any]:
    """Each decision (the state, its legal ids) of a game every seat of which ``chosen``
    plays by the fresh compiled decision."""
    fresh = _Member(config, chosen)
    state = engine.encode(FANO.new_state(config, seed))
    while engine.outcome(state) is None:
        legal = engine.legal_action_ids(state)
        yield state, legal
        kernels.forget(fresh.ws)
        state = engine.apply(state, int(legal[fresh.decide(state, legal)]))


@pytest.mark.parametrize(
    ("preset", "style", "nodes"),
    [
        ("classic", Style.RUSH, 300),
        ("trionfey", Style.RUSH, 300),
        ("trionfey", Style.BLUFF, 30),
        ("four-players", Style.BALANCED, 300),
        ("trionfey-all-for-one", Style.ATTACK, 300),
        ("trionfey-one-for-all", Style.RUSH, 30),
    ],
)
def test_a_kept_search_chooses_as_a_fresh_one_decision_by_decision(
    preset: str, style: Style, nodes: int
) -> None:
    """Every seat's decisions in a game, made with one workspace kept from decision to
    decision and with a workspace forgotten before each: the same choice each time, and the
    kept memo used at many of them, most of those answered by the position's first best
    action that the kept search found, with no root searched."""
    config = _config(preset)
    chosen = params(style, config, nodes)
    kept = _Member(config, chosen)
    fresh = _Member(config, chosen)
    decisions = 0
    for seed in (3, 4):
        kernels.forget(kept.ws)
        for state, legal in _played(config, chosen, seed):
            kernels.forget(fresh.ws)
            assert kept.decide(state, legal) == fresh.decide(state, legal)
            decisions += 1
    assert _used(fresh.ws) == 0
    assert _used(kept.ws) > decisions // 8
    assert int(kept.ws[5][0][kernels.PL_ANSWERED]) > _used(kept.ws) // 2


@pytest.mark.parametrize("nodes", [300, 3])
@pytest.mark.parametrize("preset", ["classic", "trionfey"])
def test_the_python_twin_keeps_its_memo_at_the_same_decisions(preset: str, nodes: int) -> None:
    """The Python twin with a :class:`search.Kept` and the compiled decision with its
    workspace: the same choice and the same count of kept searches after each decision (with
    a budget of three positions, most searches are cut and keep nothing)."""
    config = _config(preset).replace(turns_per_player=5)
    chosen = params(Style.RUSH, config, nodes)
    member = _Member(config, chosen)
    kept = search.Kept()
    state = FANO.new_state(config, 11)
    previous = None
    checked = False
    while (seat := FANO.current_player(state)) is not None:
        legal = FANO.legal_actions(state)
        fast_state = engine.encode(state)
        ids = engine.legal_action_ids(fast_state)
        used = kept.used
        python = search.decide(state, seat, legal, chosen, kept)
        assert member.decide(fast_state, ids) == python
        assert _used(member.ws) == kept.used
        if kept.used > used and previous is not None and not checked:
            # the same two decisions with other parameters at the second: searched afresh
            checked = True
            other = search.Kept()
            search.decide(*previous, chosen, other)
            attack = params(Style.ATTACK, config, nodes)
            assert search.decide(state, seat, legal, attack, other) == search.decide(
                state, seat, legal, attack
            )
            assert other.used == 0
            search.decide(*previous, chosen, other)
            other.forget()
            assert search.decide(state, seat, legal, chosen, other) == python
            assert other.used == 0
        previous = (state, seat, legal)
        state = FANO.apply_legal(state, legal[python])
    assert checked or nodes == 3
    assert kept.used > (2 if nodes > 3 else 0)


def _pair(preset: str) -> tuple[search.Params, engine.FastState, Any, engine.FastState, Any]:
    """A decision and the same seat's next one, which goes on from the first's kept memo."""
    config = _config(preset)
    chosen = params(Style.RUSH, config)
    member = _Member(config, chosen)
    last = None
    for state, legal in _played(config, chosen, 5):
        used = _used(member.ws)
        member.decide(state, legal)
        if _used(member.ws) > used and last is not None:
            return chosen, last[0], last[1], state, legal
        last = (state, legal)
    raise AssertionError("no decision went on from a kept memo")


def test_a_kept_memo_is_dropped_where_the_position_context_or_parameters_differ() -> None:
    chosen, first, first_legal, second, legal = _pair("trionfey")
    config = first.config
    member = _Member(config, chosen)

    def after_first(state: engine.FastState, other: _Member | None = None) -> int:
        kernels.forget(member.ws)
        member.decide(first, first_legal)
        assert _kept(member.ws)
        deciding = member if other is None else other
        if other is not None:
            other.ws = member.ws
        used = _used(member.ws)
        deciding.decide(state, engine.legal_action_ids(state))
        return _used(member.ws) - used

    assert after_first(second) == 1
    # the seat's draw pile in another order (what a draw would show): searched afresh
    array = second.array.copy()
    p = layout.HEADER + _seat(array) * layout.PLAYER_WIDTH
    pile = array[p + layout.DRAW + 1 : p + layout.DRAW + 1 + array[p + layout.DRAW]].copy()
    assert len(set(pile >> 4)) > 1
    array[p + layout.DRAW + 1 : p + layout.DRAW + 1 + len(pile)] = pile[::-1]
    assert after_first(engine.FastState(second.config, second.seed, array, second.options)) == 0
    # a position of another game: searched afresh
    other_game = engine.encode(FANO.new_state(config, 99))
    assert after_first(other_game) == 0
    # other parameters (the same seat, the same position): searched afresh
    assert after_first(second, _Member(config, params(Style.ATTACK, config))) == 0
    # the root values asked for: searched afresh, and nothing kept after
    kernels.forget(member.ws)
    member.decide(first, first_legal)
    roots = np.full(len(legal), -np.inf)
    used = _used(member.ws)
    member.decide(second, legal, roots)
    assert _used(member.ws) == used
    assert not _kept(member.ws)
    assert np.isfinite(roots).any()


def test_a_search_cut_by_its_node_budget_keeps_nothing() -> None:
    """At each decision of a game: the whole search keeps its memo where it left nothing
    unsearched; the same decision with a budget of one position keeps nothing where that
    budget cut it, as at many decisions it does; :func:`kernels.forget` drops what is kept."""
    config = _config("trionfey")
    chosen = params(Style.RUSH, config)
    member = _Member(config, chosen)
    cut = _Member(config, params(Style.RUSH, config, 1))
    cut.ws = member.ws
    dropped = 0
    for state, legal in _played(config, chosen, 6):
        kernels.forget(member.ws)
        member.decide(state, legal)
        if not _kept(member.ws):
            continue
        cut.decide(state, legal)
        dropped += not _kept(member.ws)
        kernels.forget(member.ws)
        assert not _kept(member.ws)
    assert dropped > 10


def test_a_search_of_a_few_hundred_positions_fits_the_workspace_and_is_kept() -> None:
    """A complete search that remembers more positions than half of 256 (the memo table's
    first capacity before, where the table grew and the search was not kept) fits the
    workspace's table now: it is kept, the seat's next decision goes on from it, and every
    choice is the fresh search's."""
    config = _config("trionfey")
    chosen = params(Style.RUSH, config)
    kept = _Member(config, chosen)
    fresh = _Member(config, chosen)
    big = 0
    followed = 0
    for seed in range(20, 40):
        kernels.forget(kept.ws)
        after_big = False
        for state, legal in _played(config, chosen, seed):
            kernels.forget(fresh.ws)
            used = _used(kept.ws)
            kept.ws[2][15][:] = 0  # the search's loop integers: zero where nothing is searched
            assert kept.decide(state, legal) == fresh.decide(state, legal)
            if after_big:
                followed += _used(kept.ws) > used
            loop = kept.ws[2][15]
            after_big = loop[kernels.L_MEMO_COUNT] > 128 and loop[kernels.L_CUT] == 0
            if after_big:
                big += 1
                assert _kept(kept.ws)
                assert kept.ws[4][0].shape[0] == kernels.MEMO_START >= 1024
        if big >= 3:
            break
    assert big >= 3, big
    assert followed >= 1, followed
