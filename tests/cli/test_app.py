"""The fanfold command: games, play, legal, replay."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.core.records import GameRecord

runner = CliRunner()


def test_games_lists_every_game_and_variant() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for text in ("morris", "morris.v1", "geometric", "complete", "random"):
        assert text in result.output


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert "fanfold" in result.output


def test_legal_lists_the_moves_of_a_position() -> None:
    result = runner.invoke(app, ["legal", "morris", "--position", "C/-/tc/-/-/-/T b"])
    assert result.exit_code == 0
    assert "Black to move (placement phase)" in result.output
    assert "12 legal: C1  C2  C4" in result.output


def test_legal_reports_a_finished_game_and_refuses_bad_positions() -> None:
    over = runner.invoke(app, ["legal", "morris", "-p", "-/-/cC/-/tT/cT/tC b"])
    assert over.exit_code == 0
    assert "Black has no legal move and loses" in over.output
    bad = runner.invoke(app, ["legal", "morris", "-p", "C/C/C/-/-/-/- w"])
    assert bad.exit_code == 2
    assert "each side has only two" in bad.output
    unknown = runner.invoke(app, ["legal", "chess", "-p", "x"])
    assert unknown.exit_code == 2
    assert "no game called 'chess'" in unknown.output


def test_play_between_agents_runs_to_the_end_and_saves_a_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "morris", "--white", "random", "--black", "random", "--seed", "3",
         "--record", str(path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.output
    record = GameRecord.load(path)
    assert record.players == ("random", "random")
    assert record.outcome is not None
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0
    assert "The record replays under the rules." in replayed.output
    assert str(record.outcome["reason"]) in replayed.output


def test_a_human_gets_help_and_bad_input_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "partial.json"
    typed = "\n".join(["help", "bogus", "C1", "legal", "C1", f"save {path}", "quit"]) + "\n"
    result = runner.invoke(
        app, ["play", "morris", "--seat", "human", "--seat", "human", "--seed", "1"], input=typed
    )
    assert result.exit_code == 0, result.output
    assert "Placement: the shape and a point" in result.output
    assert "Not played: 'bogus' is not a Morris move" in result.output
    assert "Legal: C1  C2" in result.output  # black may put a circle on white's circle
    record = GameRecord.load(path)
    assert record.actions == ("C1", "C1")
    assert "Game left unfinished." in result.output


def test_undo_takes_back_the_humans_move_and_the_agents_reply() -> None:
    typed = "C1\nundo\nposition\nquit\n"
    result = runner.invoke(
        app, ["play", "morris", "--white", "human", "--black", "random", "--seed", "1"],
        input=typed,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Took back the last move." in result.output
    assert "-/-/-/-/-/-/- w" in result.output


def test_play_refuses_bad_seats_and_variants() -> None:
    result = runner.invoke(app, ["play", "morris", "--seat", "grandmaster"])
    assert result.exit_code == 2
    assert "no agent called 'grandmaster'" in result.output
    result = runner.invoke(app, ["play", "morris", "--variant", "hexagonal"])
    assert result.exit_code == 2
    assert "no variant 'hexagonal'" in result.output
    result = runner.invoke(app, ["play", "morris", "--players", "3"])
    assert result.exit_code == 2
    assert "for 2 players" in result.output
    result = runner.invoke(app, ["play", "morris", "-o", "adjacency"])
    assert result.exit_code == 2
    assert "name=value" in result.output


def test_replay_refuses_broken_records(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    record = {
        "format": "fanfold.record/1",
        "game": "morris.v1",
        "config": {"adjacency": "geometric"},
        "seed": 0,
        "actions": ["C1", "C1", "C1"],
    }
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "action 3 ('C1') does not replay" in result.output
    del record["actions"]
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "'actions' must be a list" in result.output


def test_replay_refuses_a_record_whose_outcome_is_not_its_game_s(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    played = runner.invoke(
        app,
        [
            "play",
            "morris",
            "--white",
            "random",
            "--black",
            "perfect",
            "--seed",
            "1",
            "--record",
            str(path),
        ],
    )
    assert played.exit_code == 0, played.output
    record = json.loads(path.read_text(encoding="utf-8"))
    outcome = record["outcome"]
    assert runner.invoke(app, ["replay", str(path)]).exit_code == 0
    forged = {
        **outcome,
        "returns": outcome["returns"][::-1],
        "winners": [1 - outcome["winners"][0]],
    }
    path.write_text(json.dumps({**record, "outcome": forged}), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    real = json.dumps(outcome["returns"])
    assert f"is not its game's: its actions give returns {real}" in result.output
    cut = {**record, "actions": record["actions"][:-1]}
    path.write_text(json.dumps(cut), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "its game is unfinished after its actions" in result.output
    path.write_text(json.dumps({k: v for k, v in cut.items() if k != "outcome"}), encoding="utf-8")
    assert runner.invoke(app, ["replay", str(path)]).exit_code == 0  # no outcome: nothing to check


def test_a_face_down_discard_by_an_agent_is_not_revealed_to_the_human() -> None:
    from fanfold.core.registry import get_game

    fano = get_game("fano")
    state = fano.new_state(fano.default_config(), 1)
    discard = next(a for a in fano.legal_actions(state) if str(a).startswith("discard"))
    mover = fano.current_player(state)
    assert mover is not None
    other = 1 - mover
    hidden = fano.public_action_text(state, discard, other)
    assert "face down" in hidden
    assert str(discard)[len("discard ") :] not in hidden
    assert fano.public_action_text(state, discard, mover) == str(discard)


def test_reference_texts_are_prompt_commands() -> None:
    result = runner.invoke(
        app, ["play", "fano", "--seat", "human", "--seat", "random", "--seed", "2"],
        input="plane\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "plane" in result.output
    assert "->" in result.output or "→" in result.output


def test_a_match_of_two_games_swaps_colours(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    result = runner.invoke(
        app,
        ["play", "morris", "--white", "mcts(iterations=40)", "--black", "random", "--games", "2",
         "--record", str(path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game 1 of 2" in result.output
    assert "Game 2 of 2" in result.output
    first, second = (
        GameRecord.load(tmp_path / "match-1.json"),
        GameRecord.load(tmp_path / "match-2.json"),
    )
    assert first.players == ("mcts(iterations=40)", "random")
    assert second.players == ("random", "mcts(iterations=40)")
    assert "Match:" in result.output
    assert "mcts(iterations=40) (first game White):" in result.output
    refused = runner.invoke(app, ["play", "morris", "--games", "0"])
    assert refused.exit_code == 2
    assert "--games must be at least 1" in refused.output


def test_agents_and_their_parameters_are_listed() -> None:
    listed = runner.invoke(app, ["games"])
    assert "mcts: information-set Monte Carlo tree search" in listed.output
    assert "iterations=200, exploration=0.7, rollout_limit=400, seconds=none" in listed.output
    assert "perfect: " in listed.output
    helped = runner.invoke(app, ["play", "--help"])
    assert helped.exit_code == 0
    assert "iterations=1000" in helped.output  # mcts-strong's parameters


def test_agent_parameters_are_checked_before_play() -> None:
    result = runner.invoke(app, ["play", "morris", "--seat", "mcts(iterations=0)"])
    assert result.exit_code == 2
    assert "iterations must be at least 1" in result.output
