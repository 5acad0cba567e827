"""Fano's compiled engine (``fanfold.games.fano.fast``) along the golden playthroughs: at every
step its legal actions, in order, must be those the file pins, and its positions the file's.

Like tests/games/fano/test_fast_engine.py, this loads the compiled kernels (Numba compiles them
on a fresh checkout, once; the session's ``fano_compiled`` fixture does it before any test).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fanfold.core.registry import get_game
from fanfold.games.fano import fast
from fanfold.games.fano.fast import engine
from fanfold.play.playthrough import digest

GOLDEN = Path(__file__).resolve().parent
FANO = get_game("fano")
FILES = sorted((GOLDEN / FANO.id).glob("*.json"))


def test_there_are_fano_playthroughs_of_every_preset() -> None:
    presets = {json.loads(path.read_text(encoding="utf-8"))["preset"] for path in FILES}
    assert presets == {preset.name for preset in FANO.presets()}


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_the_compiled_engine_plays_the_golden_playthrough(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    config = FANO.config_from_json(data["config"])
    assert fast.supports(config)
    quick = engine.encode(FANO.new_state(config, int(data["seed"])))
    assert FANO.format_position(engine.decode(quick)) == data["start"]
    for number, decider, text, count, pinned in data["steps"]:
        texts = [FANO.action_text(action) for action in engine.legal_actions(quick)]
        where = f"{path.name}, step {number}"
        assert (len(texts), digest(texts)) == (count, pinned), f"{where}: legal actions {texts}"
        assert data["legal"].get(str(number), texts) == texts, where
        assert FANO.current_player(engine.decode(quick)) == decider, where
        quick = engine.apply(quick, FANO.parse_action(text))
        position = data["positions"].get(str(number))
        if position is not None:
            assert FANO.format_position(engine.decode(quick)) == position, where
    outcome = engine.outcome(quick)
    assert (outcome.to_json() if outcome else None) == data["outcome"]
