"""``fanfold solve fan``: one deal, a board file, and a resumable census."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.games.fan import FanConfig, FanGame
from fanfold.solvers.fan import SOLVED, check_solution

GAME = FanGame()
runner = CliRunner()


def test_cli_solves_a_deal_and_a_board(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", "fan", "--deal", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verdict"] == SOLVED
    state = GAME.new_state(FanConfig(), 3)
    assert check_solution(state, [GAME.parse_action(text) for text in data["moves"]]).is_won
    result = runner.invoke(app, ["solve", "fan", "--deal", "1"])
    assert result.exit_code == 0
    assert "unsolvable" in result.output
    board = tmp_path / "deal3.txt"
    board.write_text("".join(" ".join(map(str, fan)) + "\n" for fan in state.fans))
    result = runner.invoke(app, ["solve", "fan", "--board", str(board), "--json"])
    assert json.loads(result.output)["verdict"] == SOLVED
    board.write_text("4C 2C XX\n")
    result = runner.invoke(app, ["solve", "fan", "--board", str(board)])
    assert result.exit_code == 2
    assert "line 1" in result.output
    board.write_bytes(b"4C 2C\n\xff\xfe\n")
    result = runner.invoke(app, ["solve", "fan", "--board", str(board)])
    assert result.exit_code == 2
    assert "it is not UTF-8 text (byte 7 is not)" in result.output
    result = runner.invoke(app, ["solve", "fan"])
    assert result.exit_code == 2


def test_cli_census_is_resumable(tmp_path: Path) -> None:
    results = tmp_path / "census.jsonl"
    args = ["solve", "fan", "--deals", "1-6", "--results", str(results), "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    summary = json.loads(first.output)
    assert summary["deals"] == 6
    assert summary["unknown"] == 0
    assert summary["solved"] + summary["unsolvable"] == 6
    low, high = summary["wilson_95"]
    assert low <= summary["winnable_fraction"] <= high
    lines = results.read_text().splitlines()
    assert len(lines) == 6
    again = runner.invoke(app, [*args[:3], "1-8", *args[4:], "--workers", "2"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["deals"] == 8
    assert len(results.read_text().splitlines()) == 8  # deals 1-6 were not decided again
    text = runner.invoke(app, [*args[:3], "1-8", "--results", str(results)])
    assert text.exit_code == 0, text.output
    assert "95% Wilson interval" in text.output


def test_cli_census_refuses_a_file_it_did_not_write(tmp_path: Path) -> None:
    results = tmp_path / "census.jsonl"
    results.write_text("not json\n")
    result = runner.invoke(app, ["solve", "fan", "--deals", "1-2", "--results", str(results)])
    assert result.exit_code == 2
    assert "line 1 is not a result row" in result.output
    assert results.read_text() == "not json\n"  # nothing appended
