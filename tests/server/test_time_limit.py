"""The time limit per decision (``time_limit`` when a table is opened): when a person's time runs
out the server plays the game's passive choice for them (Fano: ``allow`` in a counter window,
``keep``, ``shuffle``, ``pass``), through the same checks and the same store as any action."""

from __future__ import annotations

from pathlib import Path

from fanfold.core.registry import get_game
from tests.server.support import act, look, open_table, refused, serve, wait_for

#: Trionfey, Player 1 (hearts) to play: 4H attacks 6C with 3H in hand; Player 2's AC and 6C
#: could combine for the 7C they hold, so a counter window opens.
WINDOW = "fano player=1 phase=main | hand=3H,5H field=4H | hand=7C,2C field=6C,AC"


def test_only_games_with_a_passive_choice_take_a_time_limit(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        error = refused(client.post("/api/tables", json={"game": "morris", "time_limit": 30}), 400)
        assert "time limit" in error["error"]
        for wrong in (0, -5, 4000, "soon"):
            body = {"game": "fano", "time_limit": wrong}
            refused(client.post("/api/tables", json=body), 422)
        flags = {game["name"]: game["time_limit"] for game in client.get("/api/games").json()}
        assert flags == {"fano": True, "morris": False, "fantan": False, "fan": False}
        created = open_table(client, game="fano", seats=["you", "random"], seed=2)
        assert look(client, created["table"], created["token"])["clock"] is None  # no limit


def test_the_counter_window_runs_out_to_allow_and_the_turn_to_pass(tmp_path: Path) -> None:
    game = get_game("fano")
    assert game.passive_action(game.parse_position(WINDOW, game.preset("trionfey").config))
    with serve(tmp_path) as client:
        created = open_table(
            client,
            game="fano",
            variant="trionfey",
            seats=["you", "friend"],
            position=WINDOW,
            time_limit=1,
        )
        table, token, friend = created["table"], created["token"], created["friends"]["1"]
        first = look(client, table, token)
        assert first["clock"]["limit"] == 1
        assert 0 < first["clock"]["left"] <= 1
        assert act(client, table, token, "4H>6C", version=first["version"]).status_code == 200
        window = look(client, table, friend)
        assert window["decider"] == 1
        assert window["view"]["phase"] == "react"
        assert "allow" in window["legal"]
        assert window["clock"] is not None
        assert window["clock"]["left"] > 0.5  # a new decision, a new timer
        # Player 2 does not answer: the server allows, the support is shown and the attack
        # completes; then Player 1 does not end the turn: the server passes.
        done = wait_for(client, table, token, lambda m: len(m["log"]) >= 3, timeout=10)
        texts = [entry["text"] for entry in done["log"]]
        assert texts[:3] == ["4H>6C", "allow", "pass"]
        assert [entry["seat"] for entry in done["log"][:3]] == [0, 1, 0]
        players = done["view"]["players"]
        assert "3H" in players[0]["field"]
        assert "6C" in players[1]["face_up_discards"]
        # what the table stored is what was played: it replays after a restart
    with serve(tmp_path, resume=False) as client:
        again = look(client, table, token)
        assert [entry["text"] for entry in again["log"]][:3] == texts[:3]


def test_a_decision_in_time_is_the_players_own(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        created = open_table(
            client,
            game="fano",
            variant="trionfey",
            seats=["you", "friend"],
            position=WINDOW,
            time_limit=2,
        )
        table, token, friend = created["table"], created["token"], created["friends"]["1"]
        assert act(client, table, token, "4H>6C", version=0).status_code == 200
        answer = act(client, table, friend, "counter AC+6C=7C", version=1)
        assert answer.status_code == 200, answer.text
        message = look(client, table, token)
        assert [entry["text"] for entry in message["log"]] == ["4H>6C", "counter AC+6C=7C"]
        # the attack turned on the 7C: 4 can not attack 7 (wrong direction), so the attacker
        # alone was discarded and Player 1 decides again, on a fresh timer
        assert message["decider"] == 0
        assert message["clock"]["left"] > 1.0


def test_a_table_loaded_after_a_restart_gets_its_timer_again(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        created = open_table(
            client,
            game="fano",
            variant="trionfey",
            seats=["you", "friend"],
            position=WINDOW,
            time_limit=60,
        )
        table, token = created["table"], created["token"]
        assert look(client, table, token)["clock"]["left"] > 50
    with serve(tmp_path) as client:  # start-up loads the unfinished table, timer and all
        message = look(client, table, token)
        assert message["version"] == 0
        assert 50 < message["clock"]["left"] <= 60
