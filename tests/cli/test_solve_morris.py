"""``fanfold solve morris``: the start report, position queries, JSON output and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.games.morris import GAME, Adjacency, MorrisConfig
from fanfold.solvers import morris as solver
from fanfold.solvers.morris import MorrisTable

runner = CliRunner()
VARIANTS = list(Adjacency)


@pytest.fixture
def cache_env(
    monkeypatch: pytest.MonkeyPatch, morris_cache: Path, tables: dict[Adjacency, MorrisTable]
) -> Path:
    monkeypatch.setenv(solver.CACHE_ENV, str(morris_cache))
    return morris_cache


@pytest.mark.parametrize("adjacency", VARIANTS)
def test_start_report_as_json(
    adjacency: Adjacency, cache_env: Path, tables: dict[Adjacency, MorrisTable]
) -> None:
    result = runner.invoke(app, ["solve", "morris", "--variant", adjacency.value, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    table = tables[adjacency]
    assert data["variant"] == adjacency.value
    assert data["positions"] == table.size == 2_462_182
    assert data["start"]["result"] == "draw"
    assert data["start"]["distance"] is None
    assert data["game_length"] is None
    assert data["counts"] == table.summary()
    assert data["from_cache"] is True
    start = GAME.new_state(MorrisConfig(adjacency))
    best = {str(action) for action in solver.best_actions(table, start)}
    assert set(data["start"]["best_moves"]) == best
    assert data["seconds"] >= 0


def test_start_report_as_text(cache_env: Path, tables: dict[Adjacency, MorrisTable]) -> None:
    result = runner.invoke(app, ["solve", "morris"])
    assert result.exit_code == 0, result.output
    assert "2,462,182 legal positions" in result.stdout
    assert "a draw with perfect play" in result.stdout
    reachable = tables[Adjacency.GEOMETRIC].summary()["reachable"]["total"]
    assert f"{reachable:,}" in result.stdout
    assert "Time:" in result.stdout


@pytest.mark.parametrize(
    "position",
    ["C/-/tc/-/-/-/T b", "-/tC/-/c/T/tC/- b", "T/Ct/c/-/-/c/C b", "CT/ct/CT/ct/-/-/- w"],
)
@pytest.mark.parametrize("adjacency", VARIANTS)
def test_position_query_matches_the_table(
    position: str, adjacency: Adjacency, cache_env: Path, tables: dict[Adjacency, MorrisTable]
) -> None:
    result = runner.invoke(
        app, ["solve", "morris", "--position", position, "-v", adjacency.value, "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    table = tables[adjacency]
    state = GAME.parse_position(position, MorrisConfig(adjacency))
    value = table.state_value(state)
    assert data["result"] == value.result.value
    assert data["distance"] == value.distance
    assert data["over"] == (GAME.outcome(state) is not None)
    assert set(data["best_moves"]) == {str(a) for a in solver.best_actions(table, state)}
    assert [move["move"] for move in data["moves"]] == [
        str(a) for a, _ in solver.rank_actions(table, state)
    ]
    # Every listed move, played, leads to a position of the value given for it.
    for move in data["moves"]:
        after = GAME.apply(state, GAME.parse_action(move["move"]))
        expected = table.state_value(after).for_mover()
        assert (move["result"], move["distance"]) == (expected.result.value, expected.distance)


def test_position_query_as_text(cache_env: Path) -> None:
    result = runner.invoke(app, ["solve", "morris", "-p", "C/-/tc/-/-/-/T b"])
    assert result.exit_code == 0, result.output
    assert "Black to move: a draw with perfect play" in result.stdout
    assert "Best moves: C2 C4 C5 C6" in result.stdout
    assert "set-up position" in result.stdout
    assert "loss in 1 ply" in result.stdout


def test_finished_position_reports_the_outcome(cache_env: Path) -> None:
    # Three circles on the circle line 1-2-4 with Black to move: White moved last and lost.
    result = runner.invoke(app, ["solve", "morris", "-p", "C/C/t/c/-/-/- b"])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout
    assert "White ended the turn with three circles on line 1-2-4" in result.stdout
    data = json.loads(
        runner.invoke(app, ["solve", "morris", "-p", "C/T/-/c/t/-/- b", "--json"]).stdout
    )
    assert data["over"] is False


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["-p", "C/-/tc b"], "not a Morris position"),
        (["-p", "CC/-/-/-/-/-/- b"], "cannot be stacked"),
        (["-p", "C/C/C/-/-/-/- b"], "only two"),
        (["-p", "C/-/-/-/-/-/- w"], "Black's turn"),
        (["--variant", "hexagonal"], "no variant"),
    ],
)
def test_bad_input_is_a_clear_error(arguments: list[str], message: str, cache_env: Path) -> None:
    result = runner.invoke(app, ["solve", "morris", *arguments])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output
