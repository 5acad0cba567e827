"""Game records: JSON round trip, exact replay, and clear errors for broken records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fanfold.core.errors import RecordError
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play import play_game

GAME = get_game("morris")


def test_a_played_game_replays_to_the_same_final_position(tmp_path: Path) -> None:
    table = play_game(GAME, None, ["random", "random"], seed=0, agent_seed=1)
    final, record = table.state, table.finish()
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    assert GAME.format_position(loaded.replay()) == GAME.format_position(final)
    assert record.outcome is not None
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert record.outcome["reason"] == outcome.reason
    assert len(loaded.states()) == len(record.actions) + 1


def test_a_record_can_start_from_a_position() -> None:
    record = GameRecord.start(
        GAME, GAME.default_config(), 0, start_position="C/T/-/c/t/-/- w"
    ).extend(GAME, "C4")
    outcome = GAME.outcome(GameRecord.loads(record.dumps()).replay())
    assert outcome is not None
    assert "White" in outcome.reason


def _valid() -> dict[str, Any]:
    return GameRecord.start(GAME, GAME.default_config(), 0).extend(GAME, "C1").to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "not a fanfold record"),
        ({"game": 3}, "'game'"),
        ({"game": "chess"}, "no game called"),
        ({"config": []}, "'config'"),
        ({"config": {"adjacency": "hexagonal"}}, "adjacency"),
        ({"seed": 1}, "'seed'"),  # the current format writes it as digits in a string
        ({"seed": "-1"}, "'seed'"),
        ({"seed": "1e5"}, "'seed'"),
        ({"seed": "1" * 61}, "'seed'"),
        ({"actions": "C1"}, "'actions'"),
        ({"actions": [1]}, "'actions'"),
        ({"players": [1]}, "'players'"),
        ({"start_position": 5}, "'start_position'"),
    ],
)
def test_malformed_records_are_refused_with_the_reason(
    change: dict[str, Any], message: str
) -> None:
    data = _valid() | change
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(data)


def test_a_seed_of_128_bits_survives_the_round_trip_as_text() -> None:
    seed = 2**128 - 159
    record = GameRecord.start(GAME, GAME.default_config(), seed)
    data = json.loads(record.dumps())
    assert data["format"] == "fanfold.record/2"
    assert data["seed"] == str(seed)  # a string: JSON readers keep numbers to 53 bits
    assert GameRecord.loads(record.dumps()).seed == seed


def test_records_of_the_first_format_still_load() -> None:
    old = {
        "format": "fanfold.record/1",
        "game": "morris.v1",
        "config": {"adjacency": "geometric"},
        "seed": 2**60 + 7,
        "actions": ["C1"],
    }
    record = GameRecord.from_json(old)
    assert (record.seed, record.actions) == (2**60 + 7, ("C1",))
    with pytest.raises(RecordError, match="'seed'"):
        GameRecord.from_json(old | {"seed": "12"})  # the first format wrote numbers


def test_an_illegal_action_in_a_record_names_its_number() -> None:
    data = _valid() | {"actions": ["C1", "c1", "C1"]}
    record = GameRecord.from_json(data)
    with pytest.raises(RecordError, match=r"action 3 \('C1'\)"):
        record.replay()
    data = _valid() | {"actions": ["C1", "Z9"]}
    with pytest.raises(RecordError, match="action 2"):
        GameRecord.from_json(data).replay()


def test_unreadable_files_are_record_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON"):
        GameRecord.load(broken)
    broken.write_text(json.dumps([1, 2]), encoding="utf-8")
    with pytest.raises(RecordError, match="JSON object"):
        GameRecord.load(broken)
    broken.write_bytes(b"\x00\xff\xfe garbage")
    with pytest.raises(
        RecordError, match=r"cannot read .*: it is not UTF-8 text \(byte 2 is not\)"
    ):
        GameRecord.load(broken)


def test_a_record_saved_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = tmp_path / "marked.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(_valid()).encode("utf-8"))
    assert GameRecord.load(path).to_json() == GameRecord.from_json(_valid()).to_json()
    path.write_bytes(b"\xef\xbb\xbf{\xff}")
    with pytest.raises(RecordError, match=r"byte 5 is not"):
        GameRecord.load(path)
