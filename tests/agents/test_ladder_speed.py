"""The ladder's compiled decision without reference counts from its entry point down, and the
seat's block restored by an unsigned-index copy: the same choices, the memo's growth kept."""

from __future__ import annotations

from typing import Any

import numpy as np

from fanfold.agents.ladder import Style, compiled, kernels, search
from fanfold.agents.ladder.styles import params
from fanfold.games.fano import FanoState
from fanfold.games.fano.fast import codec, engine
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
    after them in the same workspace is unchanged by them."""
    grown = 0
    checked = 0
    ws: tuple[Any, ...] | None = None
    for state in _positions("trionfey-all-for-one", 2, 11, most=60):
        seat = _decider(state)
        legal = FANO.legal_actions(state)
        ids = np.array([codec.action_id(action) for action in legal], np.int64)
        if ws is None:
            ws = compiled.workspace(len(engine.encode(state).array))
        chosen = params(Style.RUSH, state.config, 300)
        choice = _grows(state, seat, ids, chosen, ws)
        loop = ws[2][15]
        if loop[kernels.L_MEMO_COUNT] * 2 < kernels.MEMO_START:
            continue
        grown += 1
        assert choice == search.decide(state, seat, legal, chosen)
        assert choice == compiled.decide(state, seat, legal, chosen)
        checked += 1
    assert grown >= 3, grown
    assert checked == grown
