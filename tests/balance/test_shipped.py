"""The experiments behind docs/balance.md: every file is valid, the Fano ones seat the lab's
player rather than the strategy Fano's ``medium`` replaced, and an experiment that names no
player seats the game's lab player."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fanfold.balance import build_experiment, load_experiment
from fanfold.balance.experiment import LAB_PLAYERS, parse_player
from fanfold.cli.app import app
from fanfold.core.errors import ConfigError
from fanfold.core.registry import get_game

EXPERIMENTS = Path(__file__).resolve().parents[2] / "docs" / "balance" / "experiments"
FILES = sorted(EXPERIMENTS.glob("*.toml"))


def test_the_experiments_are_there() -> None:
    assert len(FILES) >= 18


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_every_shipped_experiment_is_valid(path: Path) -> None:
    experiment = load_experiment(path)
    assert experiment.variants
    assert experiment.title


@pytest.mark.parametrize(
    "path",
    [path for path in FILES if path.stem.startswith("fano-")],
    ids=lambda path: path.stem,
)
def test_fano_experiments_seat_no_player_of_the_old_medium(path: Path) -> None:
    # `heuristic` is the strategy Fano's medium was before the turn planner; a measurement
    # against that player names it as the pinned `heuristic-v1`.
    experiment = load_experiment(path)
    agents = {player.agent for variant in experiment.variants for player in variant.players}
    assert "heuristic" not in agents


def test_the_lab_players_are_valid_agents() -> None:
    for name, text in LAB_PLAYERS.items():
        assert parse_player(text, get_game(name)).agent == text


def test_an_experiment_without_players_seats_the_lab_player() -> None:
    experiment = build_experiment("fano", [{"preset": "trionfey"}], [], games=2)
    assert [str(player) for player in experiment.variants[0].players] == [LAB_PLAYERS["fano"]]
    named = build_experiment("fano", [{"players": ["random"]}], [], games=2)
    assert [str(player) for player in named.variants[0].players] == ["random"]


def test_a_game_without_a_lab_player_still_asks_for_players() -> None:
    with pytest.raises(ConfigError, match="name the players"):
        build_experiment("fan", [{}], [], games=1)


def test_the_command_line_seats_the_lab_player(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["balance", "--game", "morris", "--games", "2", "--json", "--out", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    assert '"agent": "medium"' in result.output
    refused = CliRunner().invoke(
        app, ["balance", "--game", "fan", "--games", "1", "--out", str(tmp_path / "fan")]
    )
    assert refused.exit_code != 0
    assert "name the players" in refused.output


def test_the_first_partnership_is_counted_by_the_first_movers_parity() -> None:
    spec = importlib.util.spec_from_file_location(
        "balance_partnerships", EXPERIMENTS.parents[2] / "scripts" / "balance_partnerships.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows = [
        {"job": "0:0:0", "winners": [2], "first": 0},  # seat 3 with seat 1: first partnership
        {"job": "0:0:1", "winners": [1], "first": 0},
        {"job": "1:0:0", "winners": [1, 3], "first": 3},  # one for all: both partners win
        {"job": "1:0:1", "winners": [], "first": 1},  # a draw
    ]
    assert module.first_partnership_wins(rows) == {"0": (1, 2), "1": (1, 2)}
    with pytest.raises(ValueError, match="not a row"):
        module.first_partnership_wins([{"job": "0:0:0", "winners": None, "first": 0}])
