"""``fanfold review RECORD.json``: the table and summary, ``--json``, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.games.morris import GAME as MORRIS
from fanfold.play.review import review
from fanfold.play.setup import play_game

runner = CliRunner()


def _morris_file(tmp_path: Path) -> tuple[Path, GameRecord]:
    record = play_game(MORRIS, None, ["medium", "easy"], agent_seed=1).finish()
    path = tmp_path / "morris.json"
    record.save(path)
    return path, record


def test_the_review_of_a_record_file(tmp_path: Path) -> None:
    path, record = _morris_file(tmp_path)
    result = runner.invoke(app, ["review", str(path)])
    assert result.exit_code == 0, result.output
    expected = review(record)
    assert expected.marked  # medium against easy: some moves lose value
    for sentence in expected.summary:
        assert sentence in result.stdout
    assert "worse result" in result.stdout
    assert f"{len(record.actions)} moves" in result.stdout


def test_json_parses_and_is_the_review(tmp_path: Path) -> None:
    path, record = _morris_file(tmp_path)
    result = runner.invoke(app, ["review", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data == review(record).to_json()
    fan = get_game("fan")
    won = play_game(fan, None, ["solver"], seed=3).finish()
    won.save(tmp_path / "fan.json")
    result = runner.invoke(app, ["review", str(tmp_path / "fan.json"), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["deal"]["verdict"] == "won"


def test_a_fan_review_shows_the_losing_move(tmp_path: Path) -> None:
    fan = get_game("fan")
    record = play_game(fan, None, ["random"], seed=2, agent_seed=2).finish()
    record.save(tmp_path / "fan.json")
    result = runner.invoke(app, ["review", str(tmp_path / "fan.json")])
    assert result.exit_code == 0, result.output
    assert "lost the deal" in result.stdout
    assert "A winning line from just before it" in result.stdout
    assert "winnable" in result.stdout


def test_a_broken_file_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "fanfold.record/2", "game": ')
    result = runner.invoke(app, ["review", str(broken)])
    assert result.exit_code == 2
    assert "error: the record is not valid JSON" in result.output
    result = runner.invoke(app, ["review", str(tmp_path / "missing.json")])
    assert result.exit_code == 2
    assert "error: cannot read" in result.output
    record = GameRecord.start(MORRIS, MORRIS.default_config(), 0).extend(MORRIS, "C1")
    data = record.to_json()
    data["actions"] = ["C1", "C1", "C1"]  # the third C1 does not replay
    broken.write_text(json.dumps(data))
    result = runner.invoke(app, ["review", str(broken)])
    assert result.exit_code == 2
    assert "error: action 3 ('C1') does not replay" in result.output


def test_an_unsupported_game_is_refused(tmp_path: Path) -> None:
    fano = get_game("fano")
    path = tmp_path / "fano.json"
    GameRecord.start(fano, fano.default_config(), 0).save(path)
    result = runner.invoke(app, ["review", str(path)])
    assert result.exit_code == 2
    assert "error: no engine review for Fano here" in result.output
