"""Records written by earlier versions (tests/golden/records, see its README): today's code
replays each to the position the old version wrote, and to the same result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fanfold.core.records import RECORD_FORMAT, RECORD_FORMAT_1, GameRecord
from fanfold.core.registry import get_game

RECORDS = Path(__file__).resolve().parent / "records"
FILES = sorted(RECORDS.glob("*/*-s*.json"))


def test_both_versions_and_every_game_are_kept() -> None:
    assert {path.parent.name for path in FILES} == {"3339806", "ad0f2e4"}
    formats = {json.loads(path.read_text(encoding="utf-8"))["format"] for path in FILES}
    assert formats == {RECORD_FORMAT_1, RECORD_FORMAT}
    for folder in ("3339806", "ad0f2e4"):
        games = {GameRecord.load(path).game for path in FILES if path.parent.name == folder}
        assert games == {"fan.v1", "fano.v1", "fantan.v1", "morris.v1"}


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_an_old_record_replays_to_the_end_it_wrote(path: Path) -> None:
    record = GameRecord.load(path)
    finals = json.loads((path.parent / "final-positions.json").read_text(encoding="utf-8"))
    game = get_game(record.game)
    state = record.replay()
    assert game.format_position(state) == finals[path.name]
    outcome = game.outcome(state)
    assert outcome is not None
    assert record.outcome is not None
    # The result is what the old version decided; the sentence may be worded anew.
    assert list(outcome.returns) == record.outcome["returns"]
    assert list(outcome.winners) == record.outcome["winners"]
