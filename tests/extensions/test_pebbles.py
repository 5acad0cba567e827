"""Pebbles, the toy game of ``toy_pkg``, found through its entry point and played through every
layer: the core API (the conformance suite and its golden playthroughs), the play layer, the
command line and a table at the server; and it has every piece a built-in game has."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fanfold.agents.base import agent_names
from fanfold.agents.levels import level_agent
from fanfold.cli.app import app
from fanfold.core.conformance import check_playouts
from fanfold.core.plugin import GamePlugin
from fanfold.core.records import GameRecord
from fanfold.core.registry import all_games, get_game
from fanfold.play.playthrough import cases, dumps
from fanfold.play.setup import play_game
from tests.extensions.conftest import TOY
from tests.game_pieces import Places, missing_pieces
from tests.golden.test_golden import first_difference
from tests.server.support import act, look, my_turn, open_table, serve, wait_for

GOLDEN = TOY / "golden"


def test_the_game_is_found_through_its_entry_point(pebbles: GamePlugin) -> None:
    game = pebbles.game
    assert get_game("pebbles") is game
    assert get_game("nim-pile") is game
    assert all_games()[-1] is game  # after the built-in games
    assert "onestep" in agent_names(game)  # the package's bot, by its own entry point
    assert level_agent(game, "medium") == "onestep"


def test_it_has_every_piece_a_built_in_game_has(pebbles: GamePlugin) -> None:
    places = Places(golden=GOLDEN, tests=Path(__file__).parent)
    assert missing_pieces(pebbles, places) == []


def test_it_keeps_every_promise_of_the_game_api(pebbles: GamePlugin) -> None:
    for preset in pebbles.game.presets():
        reports = check_playouts(pebbles.game, preset.config, range(12))
        assert all(report.outcome_reason.endswith("the last pebble and wins") for report in reports)


def test_its_golden_playthroughs_are_played_again_exactly(pebbles: GamePlugin) -> None:
    for case in cases([pebbles.game]):
        expected = json.loads((GOLDEN / case.path).read_text(encoding="utf-8"))
        actual = json.loads(dumps(case.play()))
        assert first_difference(expected, actual) is None, case.path
        assert actual["outcome"] is None or actual["outcome"]["termination"] == "last_pebble"


def test_the_play_layer_plays_it_between_its_levels(pebbles: GamePlugin) -> None:
    table = play_game(pebbles.game, None, ["easy", "hard"], seed=3)
    outcome = table.outcome
    assert outcome is not None
    assert outcome.termination.value == "last_pebble"
    record = table.finish()
    assert record.players == ("easy", "hard")
    assert GameRecord.from_json(record.to_json()).replay() == table.state


def test_the_command_line_lists_it_and_plays_it(pebbles: GamePlugin, tmp_path: Path) -> None:
    del pebbles
    runner = CliRunner()
    listed = runner.invoke(app, ["games"])
    assert listed.exit_code == 0, listed.output
    assert "pebbles (pebbles.v1): Pebbles" in listed.output
    path = tmp_path / "pebbles.json"
    played = runner.invoke(
        app,
        ["play", "pebbles", "--variant", "short", "--seat", "random", "--seat", "onestep",
         "--seed", "1", "--record", str(path)],
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    assert "Game over:" in played.output
    assert GameRecord.load(path).game == "pebbles.v1"
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert "The record replays under the rules." in replayed.output


def test_a_server_table_opens_and_plays_it(pebbles: GamePlugin, tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        catalogue = client.get("/api/games").json()
        assert catalogue[-1]["name"] == "pebbles"
        bots = {bot["name"] for bot in catalogue[-1]["bots"]}
        assert {"easy", "medium", "hard", "onestep"} <= bots
        web = {entry["name"]: entry for entry in client.get("/api/games/web").json()}
        assert web["pebbles"]["renderer"] == "/static/plugins/pebbles.js"
        assert web["pebbles"]["dealt"] is False
        assert web["pebbles"]["board_hint"] == pebbles.web.board_hint
        board = client.get("/static/plugins/pebbles.js")
        assert board.status_code == 200
        assert board.headers["content-type"].startswith("text/javascript")
        assert "export function render" in board.text
        assert client.get("/static/plugins/morris.js").status_code == 404
        howto = client.get("/how-to-play/pebbles")
        assert howto.status_code == 200
        assert "Whoever takes the last pebble wins." in howto.text
        exact = client.get("/rules/pebbles/exact")
        assert "the termination <code>last_pebble</code>" in exact.text
        assert web["pebbles"]["lessons"] is True
        assert client.get("/learn/pebbles/leave-four").status_code == 200
        tried = client.post("/api/lessons/pebbles/leave-four/try", json={"step": 0, "action": "2"})
        assert tried.json()["verdict"] == "correct", tried.text

        created = open_table(client, game="pebbles", seats=["you", "onestep"])
        table, token = created["table"], created["token"]
        message = wait_for(client, table, token, my_turn(0))
        assert message["game"]["name"] == "pebbles"
        assert message["choices"][0]["label"] == "Take 1 pebble"
        while message["outcome"] is None:
            answer = act(client, table, token, message["legal"][-1], message["version"])
            assert answer.status_code == 200, answer.text
            message = wait_for(client, table, token, my_turn(0))
        assert message["outcome"]["termination"] == "last_pebble"
        assert look(client, table)["outcome"] == message["outcome"]  # a spectator's view too
