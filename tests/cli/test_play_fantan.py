"""Playing Fan Tan in the terminal."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.core.records import GameRecord

runner = CliRunner()


def test_agents_play_a_whole_variant_hand_and_the_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "fantan.json"
    seats = ["--seat", "random"] * 3
    result = runner.invoke(
        app,
        ["play", "fantan", "--players", "3", "--variant", "sevens-online", *seats,
         "--seed", "2", "--record", str(path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.output
    assert "penalty points after the hand" in result.output
    record = GameRecord.load(path)
    assert record.config["players"] == 3
    assert record.actions[0] == "7H"
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output


def test_a_human_sees_the_hand_and_illegal_input_changes_nothing() -> None:
    typed = "help\nbogus\npass\nlegal\nquit\n"
    result = runner.invoke(
        app, ["play", "sevens", "--players", "5", "--seed", "4", "--seat", "human"], input=typed
    )
    assert result.exit_code == 0, result.output
    assert "Your hand: 6C 7C QC  5D 6D 7D JD  JH AH  2S JS" in result.output
    assert "Player 3: 10 cards, 0 passes" in result.output
    assert "Play a card by writing it rank then suit" in result.output
    assert "'bogus' is not a Fan Tan move" in result.output
    assert "you may not pass while you can play a card: you can play 7C 7D" in result.output
    assert "Legal: 7C  7D" in result.output


def test_player_counts_outside_three_to_eight_are_refused() -> None:
    result = runner.invoke(app, ["play", "fantan", "--players", "9"])
    assert result.exit_code == 2
    assert "3 to 8 players" in result.output


def test_legal_lists_the_moves_of_a_written_position() -> None:
    from fanfold.games.fantan import GAME, FanTanConfig

    position = GAME.format_position(GAME.new_state(FanTanConfig(players=5), seed=4))
    result = runner.invoke(app, ["legal", "fantan", "--position", position])
    assert result.exit_code == 0, result.output
    assert "2 legal: 7C  7D" in result.output
