"""The timing of the ladder's compiled decision (``benchmarks/ladder_decision.py``)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from benchmarks import ladder_decision

from fanfold.games.fano.fast import engine


def test_positions_are_decisions_with_a_choice_of_the_seat_to_move() -> None:
    found = ladder_decision.positions("classic", 1, random.Random(3))
    assert len(found) > 20
    for state, seat, legal, _ in found:
        assert len(legal) > 1
        assert np.array_equal(legal, engine.legal_action_ids(state))
        assert seat == engine.decode(state).decider


def test_an_unknown_preset_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        ladder_decision.main(["--presets", "classic,nonesuch"])
    assert "unknown Fano presets: nonesuch" in capsys.readouterr().err
