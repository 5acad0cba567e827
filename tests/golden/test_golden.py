"""The golden playthroughs: every file under tests/golden is played again now and must match.

A playthrough pins what a seed deals and the order of legal actions (see
:mod:`fanfold.play.playthrough`); the server rebuilds unfinished games from a seed and action
texts, so a change to either breaks stored games. ``scripts/write_golden.py`` writes the files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fanfold.core.registry import all_games
from fanfold.play.playthrough import Case, cases, dumps

GOLDEN = Path(__file__).resolve().parent
CASES = list(cases())
#: What a failure says besides the first difference.
ADVICE = (
    "a change to what a seed deals or to the order of legal actions needs a new game id or a "
    "record migration (docs/api.md); rewrite the file with scripts/write_golden.py only then"
)


def load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def first_difference(expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    """Where two playthroughs first differ, in words (``None`` when they are equal): the deal,
    then the first step whose decider, action or legal actions differ, then the rest."""
    if expected.get("start") != actual.get("start"):
        return (
            f"the start position differs: {expected.get('start')!r} became {actual.get('start')!r}"
        )
    old_steps, new_steps = expected.get("steps", []), actual.get("steps", [])
    for old, new in zip(old_steps, new_steps, strict=False):
        if old != new:
            number = old[0]
            lines = [f"step {number} differs: {old} became {new}"]
            old_legal = expected.get("legal", {}).get(str(number))
            new_legal = actual.get("legal", {}).get(str(number))
            if old_legal != new_legal:
                lines.append(f"legal actions were {old_legal}, are {new_legal}")
            return "; ".join(lines)
    if len(old_steps) != len(new_steps):
        return f"the playthrough had {len(old_steps)} steps, now {len(new_steps)}"
    for key in expected.keys() | actual.keys():
        if key in ("legal", "positions", "views"):
            old_map, new_map = expected.get(key, {}), actual.get(key, {})
            for step in sorted(old_map.keys() | new_map.keys(), key=int):
                if old_map.get(step) != new_map.get(step):
                    old, new = old_map.get(step), new_map.get(step)
                    return f"{key} at step {step} differ: {old} became {new}"
        elif expected.get(key) != actual.get(key):
            return f"{key!r} differs: {expected.get(key)!r} became {actual.get(key)!r}"
    return None


@pytest.mark.parametrize("case", CASES, ids=[case.path for case in CASES])
def test_the_playthrough_is_played_again_exactly(case: Case) -> None:
    path = GOLDEN / case.path
    assert path.exists(), f"{case.path} is missing: write it with scripts/write_golden.py"
    actual = json.loads(dumps(case.play()))
    difference = first_difference(load(path), actual)
    assert difference is None, f"{case.path}: {difference}; {ADVICE}"


def test_every_file_is_a_case_and_every_game_has_some() -> None:
    on_disk = {path.relative_to(GOLDEN).as_posix() for path in GOLDEN.glob("*/*.json")}
    assert on_disk == {case.path for case in CASES}
    assert {case.game.id for case in CASES} == {game.id for game in all_games()}


def test_files_stay_small() -> None:
    total = sum(path.stat().st_size for path in GOLDEN.glob("*/*.json"))
    assert total < 800_000


def test_a_changed_step_is_named_with_the_advice() -> None:
    case = CASES[0]
    expected = load(GOLDEN / case.path)
    actual = json.loads(json.dumps(expected))
    actual["steps"][3][2] = "something else"
    difference = first_difference(expected, actual)
    assert difference is not None
    assert difference.startswith("step 4 differs")
    changed_deal = {**expected, "start": "another deal"}
    assert "start position" in (first_difference(expected, changed_deal) or "")
    changed_view = json.loads(json.dumps(expected))
    changed_view["views"]["0"] = {}
    assert (first_difference(expected, changed_view) or "").startswith("views at step 0")
    assert first_difference(expected, expected) is None


def test_a_file_that_was_edited_fails() -> None:
    # The comparison reads the file: a playthrough whose legal actions came in another order
    # is caught at the step where they did.
    case = next(case for case in CASES if case.game.name == "morris")
    data = load(GOLDEN / case.path)
    data["legal"]["1"] = list(reversed(data["legal"]["1"]))
    actual = json.loads(dumps(case.play()))
    difference = first_difference(data, actual)
    assert difference is not None
    assert difference.startswith("legal at step 1 differ")
