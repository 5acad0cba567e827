"""The HTTP API: catalogue, opening tables, acting, every refusal (changing nothing), undo,
records, replays, analyses, rules pages and whole games played through it."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fanfold.core.errors import Refusal
from fanfold.core.registry import get_game
from fanfold.play import analysis
from fanfold.play.setup import play_game
from tests.server.support import (
    JSON,
    TOKEN,
    act,
    fingerprint,
    friends_table,
    look,
    my_turn,
    open_table,
    refused,
    serve,
    wait_for,
)

GAMES = {"morris", "fantan", "fan", "fano"}
MORRIS = get_game("morris")
JSON_TYPE = {"content-type": "application/json"}


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with serve(tmp_path) as test_client:
        yield test_client


# ------------------------------------------------------------------ catalogue


def test_the_catalogue_lists_every_game_preset_and_bot(client: TestClient) -> None:
    answer = client.get("/api/games")
    assert answer.status_code == 200
    games = {entry["name"]: entry for entry in answer.json()}
    assert set(games) == GAMES
    for name, entry in games.items():
        game = get_game(name)
        assert entry["id"] == game.id
        assert entry["hidden_information"] == game.has_hidden_information
        assert [preset["name"] for preset in entry["presets"]] == [
            preset.name for preset in game.presets()
        ]
        for preset in entry["presets"]:
            counts = preset["players"]
            assert counts, preset
            assert all(isinstance(count, int) and 1 <= count <= 8 for count in counts)
            assert preset["default_players"] in counts, (name, preset)
            assert preset["description"]
        bots = [bot["name"] for bot in entry["bots"]]
        assert {"random", "mcts"} <= set(bots), (name, bots)
        strengths = [bot["strength"] for bot in entry["bots"]]
        assert strengths == sorted(strengths)
        levels = {bot["name"]: bot["agent"] for bot in entry["bots"] if bot["level"]}
        assert list(levels) == ["easy", "medium", "hard"], (name, levels)
        assert all(agent and agent not in levels for agent in levels.values())
    assert "perfect" in [bot["name"] for bot in games["morris"]["bots"]]
    assert "perfect" not in [bot["name"] for bot in games["fantan"]["bots"]]
    assert games["fantan"]["presets"][0]["players"] == [3, 4, 5, 6, 7, 8]
    assert games["fan"]["presets"][0]["players"] == [1]
    assert games["fan"]["analyses"] == ["hint", "winnable"]
    assert games["morris"]["analyses"] == ["values"]
    assert games["fano"]["analyses"] == games["fantan"]["analyses"] == []


# -------------------------------------------------------------------- opening


@pytest.mark.parametrize(
    ("body", "bots"),
    [
        ({"game": "morris", "seats": ["you", "random"], "seed": 5}, {1}),
        ({"game": "morris", "variant": "complete", "seats": ["you", "friend"]}, set()),
        ({"game": "morris", "seats": ["you", "hotseat"]}, set()),
        (
            {"game": "fantan", "seats": ["you", "random", "mcts(iterations=20)", "friend"]},
            {1, 2},
        ),
        ({"game": "fantan", "players": 3, "seats": ["you", "random", "random"]}, {1, 2}),
        ({"game": "fan", "seats": ["you"], "deal": 1}, set()),
        ({"game": "fano", "seats": ["you", "mcts(iterations=20)"], "seed": 2}, {1}),
        ({"game": "fano", "variant": "trionfey", "seats": ["you", "random"], "seed": 2}, {1}),
    ],
)
def test_opening_a_table_for_each_game(client: TestClient, body: JSON, bots: set[int]) -> None:
    created = open_table(client, **body, public=True)
    table, token = created["table"], created["token"]
    seats = body["seats"]
    friend_seats = {n for n, kind in enumerate(seats) if kind == "friend"}
    assert {int(seat) for seat in created["friends"]} == friend_seats
    mine = {n for n, kind in enumerate(seats) if kind in ("you", "hotseat")}
    message = look(client, table, token)
    assert message["table"] == table
    assert message["game"]["name"] == body["game"]
    assert set(message["yours"]) == mine
    assert message["seat"] in mine
    assert [seat["bot"] for seat in message["seats"]] == [n in bots for n in range(len(seats))]
    for number in bots:
        player = message["seats"][number]["player"]
        assert player.startswith(seats[number].split("(")[0])
    if "iterations=20" in json.dumps(seats):
        assert any("iterations=20" in seat["player"] for seat in message["seats"])
    assert message["options"]["hotseat"] == (len(mine) > 1)
    if message["decider"] == message["seat"]:
        assert message["legal"], message
    else:
        assert message["legal"] == []
    for seat, friend in created["friends"].items():
        theirs = look(client, table, friend)
        assert theirs["yours"] == [int(seat)]
        assert theirs["seat"] == int(seat)
    listed = client.get("/api/tables").json()
    assert [entry["table"] for entry in listed] == [table]
    assert listed[0]["game"] == body["game"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess"}, (400, 404), "chess"),
        ({"game": "morris", "variant": "hexagonal"}, (400, 404), "hexagonal"),
        ({"game": "morris", "seats": ["you", "deep-blue"]}, (400, 404), "deep-blue"),
        ({"game": "fantan", "seats": ["you", "perfect", "random", "random"]}, 400, "perfect"),
        ({"game": "morris", "seats": ["you"]}, 400, "seats"),
        ({"game": "morris", "seats": ["you", "mcts(iterations=lots)"]}, 400, "iterations"),
        ({"game": "fano", "seats": ["you", "hard(seconds=nan)"]}, 400, "finite number"),
        ({"game": "fantan", "seats": ["you"] + ["mcts(seconds=inf)"] * 3}, 400, "finite number"),
        ({"game": "fantan", "players": 2}, 400, "players"),
        ({"game": "morris", "options": {"bogus": "1"}}, 400, "bogus"),
        ({"game": "morris", "position": "x/y/z"}, 400, "position"),
        ({"game": "fan", "seed": 1, "deal": 2, "seats": ["you"]}, 400, "not both"),
        ({"game": "morris", "colour": "white"}, 422, "colour"),
        ({"game": "morris", "players": 0}, 422, "players"),
        ({"game": "morris", "seed": -1}, 422, "seed"),
        ({"game": "morris", "seats": "you"}, 422, "seats"),
        ({"seats": ["you"]}, 422, "game"),
    ],
)
def test_opening_refusals(client: TestClient, body: JSON, status: Any, words: str) -> None:
    error = refused(client.post("/api/tables", json=body), status)
    assert words in error["error"]
    assert client.get("/api/tables").json() == []


# ------------------------------------------------------------------ refusals


def test_every_refused_action_changes_nothing(client: TestClient) -> None:
    table, token, friend = friends_table(client)
    before = look(client, table, token)
    assert (before["decider"], before["version"]) == (0, 2)
    url = f"/api/tables/{table}/act"
    legal = before["legal"][0]
    assert "C1" not in before["legal"]  # a circle cannot go on a circle

    def unchanged() -> None:
        assert fingerprint(look(client, table, token)) == fingerprint(before)

    cases: list[tuple[Any, Any, str]] = [
        (act(client, table, "forged-token", legal, 2), 403, "no seat"),
        (act(client, table, "", legal, 2), 403, "no seat"),
        (client.post(url, json={"action": legal, "version": 2}), (403, 422), "token"),
        # the friend holds Black only: acting for White is refused...
        (act(client, table, friend, legal, 2, seat=0), 403, "White"),
        # ... and so is a seat the table does not have
        (act(client, table, friend, legal, 2, seat=9), 403, "seat"),
        # not Black's turn, whether Black says which seat it acts for or not
        (act(client, table, friend, legal, 2), 409, "White's decision"),
        (act(client, table, friend, legal, 2, seat=1), 409, "White's decision"),
        (act(client, table, friend, legal), 409, "White's decision"),
        (act(client, table, token, legal, 1), 409, "moved on"),
        (act(client, table, token, legal, 7), 409, "moved on"),
        (act(client, table, token, "Q9"), 400, "not a Morris move"),
        (act(client, table, token, "", 2), 400, "Morris"),
        (act(client, table, token, "C1", 2), 400, "circle"),
        # a body that cannot be read: 400 (docs/server/security.md); its fields: 422
        (client.post(url, content=b"{not json", headers=JSON_TYPE), 400, "not valid JSON"),
        (client.post(url, json=[token, legal]), 400, "not a JSON object"),
        (client.post(url, json={"token": token, "action": legal, "colour": "w"}), 422, "colour"),
        (client.post(url, json={"token": token, "action": 5}), 422, "action"),
        (client.post(url, json={"token": token, "action": legal, "version": "x"}), 422, "version"),
        (client.post(url, json={"token": token, "action": legal, "version": -1}), 422, "version"),
        (client.post(url, json={"token": token, "action": "C" * 401}), 422, "action"),
        (client.post(url, json={"token": token, "action": legal, "seat": 99}), 422, "seat"),
        (client.post(url, json={"token": token, "action": legal, "p": "x" * 2**19}), 413, "large"),
        (act(client, "no-such-table", token, legal, 2), 404, "no table"),
    ]
    for answer, status, words in cases:
        error = refused(answer, status)
        assert words in error["error"], (words, error)
        unchanged()
    # the kinds name what went wrong
    unparsed = refused(act(client, table, token, "Q9"), 400)  # a move that does not parse
    assert (unparsed["kind"], unparsed["code"]) == ("NotationError", "morris.not_a_move_text")
    assert unparsed["params"] == {"text": "Q9"}
    illegal = refused(act(client, table, token, "C1"), 400)
    assert illegal["kind"] == "IllegalActionError"
    # a refusal of the rules or the table has its code and params: the sentence is the code's
    assert illegal["code"].startswith("morris.")
    assert illegal["error"] == Refusal(illegal["code"], **illegal["params"])
    stale = refused(act(client, table, token, legal, 1), 409)
    assert (stale["kind"], stale["code"], stale["params"]) == (
        "StaleVersionError",
        "table.stale",
        {"version": 1, "now": 2},
    )
    turn = refused(act(client, table, friend, legal), 409)
    assert (turn["kind"], turn["code"]) == ("TurnError", "table.not_your_decision")
    forbidden = refused(act(client, table, "x", legal), 403)
    assert (forbidden["kind"], forbidden["code"]) == ("ForbiddenError", "server.no_seat_held")
    unchanged()
    # and the right submission still goes through
    answer = act(client, table, token, legal, 2)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"ok": True, "played": legal, "number": 3, "version": 3}
    entry = look(client, table, token)["log"][-1]
    assert {key: entry[key] for key in ("number", "seat", "text")} == {
        "number": 3,
        "seat": 0,
        "text": legal,
    }
    assert entry["words"].startswith("You placed a circle on point")
    assert entry["highlight"] == [f"point:{legal[1]}"]
    assert look(client, table, friend)["log"][-1]["text"].startswith(legal)


def test_a_body_sent_in_chunks_is_held_to_the_same_limit(client: TestClient) -> None:
    created = open_table(client, game="morris", seats=["you", "you"], seed=2)
    table, token = created["table"], created["token"]
    url = f"/api/tables/{table}/act"
    legal = look(client, table, token)["legal"][0]

    def chunks(data: bytes, size: int) -> Any:
        for start in range(0, len(data), size):
            yield data[start : start + size]

    big = json.dumps({"token": token, "action": legal, "p": "x" * 2**20}).encode()
    answer = client.post(url, content=chunks(big, 2**16), headers=JSON_TYPE)
    assert "content-length" not in answer.request.headers  # sent in chunks
    error = refused(answer, 413)
    assert "large" in error["error"]
    assert look(client, table, token)["version"] == 0  # nothing changed
    small = json.dumps({"token": token, "action": legal}).encode()
    assert client.post(url, content=chunks(small, 8), headers=JSON_TYPE).status_code == 200
    assert look(client, table, token)["version"] == 1


def test_every_error_has_the_same_shape(client: TestClient) -> None:
    """Errors that the framework raises (an unreadable body, an unknown path, a wrong method)
    answer ``{"error", "kind"}`` like the API's own."""
    table, token, _ = friends_table(client)
    before = fingerprint(look(client, table, token))
    url = f"/api/tables/{table}/act"
    refused(client.post(url, content=b"0\x00000", headers=JSON_TYPE), (400, 422))
    refused(client.get(url), 405)
    refused(client.get("/api/no-such-thing"), 404)
    refused(client.delete(f"/api/tables/{table}"), 405)
    assert fingerprint(look(client, table, token)) == before


def test_reading_a_table_is_refused_to_whoever_may_not_see_it(client: TestClient) -> None:
    table, token, _ = friends_table(client)
    refused(client.get(f"/api/tables/{table}", params={"seat": 1}, headers={TOKEN: token}), 403)
    refused(client.get(f"/api/tables/{table}", params={"seat": 5}, headers={TOKEN: token}), 403)
    refused(client.get(f"/api/tables/{table}", params={"seat": -1}), 422)
    refused(client.get("/api/tables/nothing-here"), 404)
    # Morris hides nothing: a spectator (or a forged token) sees the board but holds no seat
    for headers in ({}, {TOKEN: "forged"}):
        watcher = client.get(f"/api/tables/{table}", headers=headers).json()
        assert (watcher["seat"], watcher["yours"], watcher["legal"]) == (None, [], [])
        assert watcher["view"]["player"] is None
        assert watcher["can_undo"] is False
    # Fan Tan hides hands: nobody reads another seat; a spectator sees no hand at all
    created = open_table(client, game="fantan", seats=["you", "friend", "random", "random"])
    cards, token = created["table"], created["token"]
    for headers in ({}, {TOKEN: "forged"}, {TOKEN: created["friends"]["1"]}):
        answer = client.get(f"/api/tables/{cards}", params={"seat": 0}, headers=headers)
        error = refused(answer, 403)
        assert "seat" in error["error"]
    mine = look(client, cards, token)
    assert mine["seat"] == 0
    assert len(mine["view"]["hand"]) == 13
    theirs = look(client, cards, created["friends"]["1"])
    for headers in ({}, {TOKEN: "forged"}):
        watcher = client.get(f"/api/tables/{cards}", headers=headers).json()
        assert (watcher["seat"], watcher["yours"], watcher["legal"]) == (None, [], [])
        assert watcher["view"]["hand"] == []
        assert watcher["view"]["hand_counts"] == [13, 13, 13, 13]
        shown = json.dumps(watcher)
        for card in mine["view"]["hand"] + theirs["view"]["hand"]:
            assert f'"{card}"' not in shown
    # Fano hides hands, draw piles and face-down cards: a spectator sees the public part only
    created = open_table(client, game="fano", seats=["you", "random"])
    mine = look(client, created["table"], created["token"])
    assert mine["seat"] == 0
    assert len(mine["view"]["hand"]) == 3
    for headers in ({}, {TOKEN: "forged"}):
        refused(
            client.get(f"/api/tables/{created['table']}", params={"seat": 0}, headers=headers), 403
        )
        watcher = client.get(f"/api/tables/{created['table']}", headers=headers).json()
        assert (watcher["seat"], watcher["legal"], watcher["text"]) == (None, [], "")
        assert watcher["view"]["hand"] == []
        assert watcher["view"]["players"][0]["hand_count"] == 3
        shown = json.dumps(watcher)
        for card in mine["view"]["hand"]:
            assert f'"{card}"' not in shown


# ------------------------------------------------------------------------ undo


def test_undo_solo_against_a_bot(client: TestClient) -> None:
    created = open_table(client, game="morris", seats=["you", "random"], seed=4)
    table, token = created["table"], created["token"]
    url = f"/api/tables/{table}/undo"
    start = look(client, table, token)
    assert start["can_undo"] is False
    assert client.post(url, json={"token": token, "version": 0}).json() == {
        "ok": False,
        "version": 0,
    }
    assert act(client, table, token, start["legal"][0], 0).status_code == 200
    moved = wait_for(client, table, token, my_turn(0))
    assert moved["version"] == 2
    assert moved["can_undo"] is True
    refused(client.post(url, json={"token": "forged", "version": 2}), 403)
    refused(client.post(url, json={"token": token, "version": 1}), 409)
    refused(client.post(url, json={"token": token, "version": 2, "all": True}), 422)
    assert fingerprint(look(client, table, token)) == fingerprint(moved)
    answer = client.post(url, json={"token": token, "version": 2})
    assert answer.json() == {"ok": True, "version": 3}
    back = look(client, table, token)
    assert (back["version"], back["log"], back["decider"]) == (3, [], 0)
    assert back["view"] == start["view"]
    assert back["legal"] == start["legal"]
    # the table goes on from there
    assert act(client, table, token, start["legal"][-1], 3).status_code == 200
    wait_for(client, table, token, lambda m: m["version"] == 5)


def test_undo_is_not_offered_before_the_person_moved(client: TestClient) -> None:
    """The bot moves first: nothing of the person's is there to take back, so the state says
    so (the page's Undo is disabled) until the person has moved."""
    created = open_table(client, game="morris", seats=["random", "you"], seed=4)
    table, token = created["table"], created["token"]
    first = wait_for(client, table, token, my_turn(1))
    assert (first["version"], len(first["log"])) == (1, 1)
    assert first["can_undo"] is False
    url = f"/api/tables/{table}/undo"
    assert client.post(url, json={"token": token, "version": 1}).json() == {
        "ok": False,
        "version": 1,
    }
    assert act(client, table, token, first["legal"][0], 1).status_code == 200
    moved = wait_for(client, table, token, lambda m: m["version"] == 3)
    assert moved["can_undo"] is True
    assert client.post(url, json={"token": token, "version": 3}).json()["ok"] is True
    back = look(client, table, token)
    assert (len(back["log"]), back["decider"], back["can_undo"]) == (1, 1, False)


def test_undo_is_refused_at_a_table_with_a_friend(client: TestClient) -> None:
    table, token, friend = friends_table(client)
    before = look(client, table, token)
    assert before["can_undo"] is False
    for holder in (token, friend):
        answer = client.post(f"/api/tables/{table}/undo", json={"token": holder, "version": 2})
        assert answer.status_code in (200, 400, 403, 409)
        body = answer.json()
        assert body.get("ok") is False or "error" in body
        assert fingerprint(look(client, table, token)) == fingerprint(before)


def test_a_refused_undo_does_not_stop_the_bots(tmp_path: Path) -> None:
    """A friend presses undo (refused) while bots are between moves: the bots go on."""
    with serve(tmp_path, bot_pause=0.3) as client:
        created = open_table(
            client, game="fantan", seats=["random", "random", "you", "friend"], seed=8
        )
        table, token = created["table"], created["token"]
        answer = client.post(f"/api/tables/{table}/undo", json={"token": token})
        assert answer.status_code == 200
        assert answer.json()["ok"] is False
        message = wait_for(client, table, token, my_turn(2), timeout=10)
        assert message["decider"] == 2
        assert [entry["seat"] for entry in message["log"]] == [0, 1]


# --------------------------------------------------------- records and replays


def test_records_are_refused_while_cards_are_hidden_and_given_after(client: TestClient) -> None:
    created = open_table(client, game="fantan", seats=["you", "random", "random", "random"], seed=6)
    table, token = created["table"], created["token"]
    error = refused(client.get(f"/api/tables/{table}/record"), 403)
    assert "over" in error["error"]
    refused(client.get(f"/api/tables/{table}/replay", params={"step": 0, "seat": 0}), 403)
    finished = play_first_legal(client, table, token, seat=0)
    answer = client.get(f"/api/tables/{table}/record")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    record = json.loads(answer.text)
    assert record["game"] == "fantan.v1"
    assert len(record["actions"]) == finished["version"]
    assert [entry["text"] for entry in finished["log"] if entry["seat"] == 0] == [
        record["actions"][entry["number"] - 1] for entry in finished["log"] if entry["seat"] == 0
    ]
    assert record["outcome"]["returns"] == finished["outcome"]["returns"]
    # a finished game replays from any seat's side
    frame = client.get(f"/api/tables/{table}/replay", params={"step": 5, "seat": 2}).json()
    assert (frame["step"], frame["steps"], len(frame["log"])) == (5, finished["version"], 5)
    assert len(frame["view"]["hand"]) <= 13
    assert frame["view"]["player"] == 2
    # without a seat, a game with hidden cards has no public view to show: a clear refusal
    answer = client.get(f"/api/tables/{table}/replay", params={"step": 5})
    assert answer.status_code < 500, answer.text
    if answer.status_code != 200:
        refused(answer, (400, 403, 404))


def test_replay_frames_follow_the_game(client: TestClient) -> None:
    created = open_table(client, game="morris", seats=["you", "hotseat"], seed=1)
    table, token = created["table"], created["token"]
    views = [look(client, table)["view"]]
    for _ in range(4):
        message = look(client, table, token)
        assert act(client, table, token, message["legal"][0], message["version"]).status_code == 200
        views.append(look(client, table)["view"])
    log = look(client, table)["log"]  # as a spectator hears it, like a seatless replay
    assert log != look(client, table, token)["log"]  # a seat hears its own moves plainly
    for step, view in enumerate(views):
        frame = client.get(f"/api/tables/{table}/replay", params={"step": step})
        assert frame.status_code == 200, frame.text
        body = frame.json()
        assert (body["type"], body["step"], body["steps"]) == ("replay", step, 4)
        assert body["view"] == view
        assert body["log"] == log[:step]
    seated = client.get(f"/api/tables/{table}/replay", params={"step": 2, "seat": 1}).json()
    assert seated["view"]["player"] == 1
    refused(client.get(f"/api/tables/{table}/replay", params={"step": 5}), 404)
    refused(client.get(f"/api/tables/{table}/replay", params={"step": 1, "seat": 2}), 404)
    refused(client.get(f"/api/tables/{table}/replay", params={"step": -1}), 422)
    refused(client.get("/api/tables/nothing/replay", params={"step": 0}), 404)


def morris_record(seed: int) -> JSON:
    table = play_game(get_game("morris"), None, ["random", "random"], seed=seed, agent_seed=seed)
    record: JSON = table.finish().to_json()
    return record


def test_loading_records(client: TestClient) -> None:
    finished = morris_record(29)
    actions = list(finished["actions"])
    assert len(actions) >= 6
    answer = client.post("/api/records", json={"record": finished})
    assert answer.status_code == 200, answer.text
    loaded = answer.json()
    message = look(client, loaded["table"], loaded["token"])
    assert message["outcome"] is not None
    assert message["outcome"]["returns"] == finished["outcome"]["returns"]
    assert [(entry["number"], entry["seat"]) for entry in message["log"]] == [
        (number, (number - 1) % 2) for number in range(1, len(actions) + 1)
    ]
    assert message["version"] == len(actions)
    download = client.get(f"/api/tables/{loaded['table']}/record")
    assert json.loads(download.text)["actions"] == actions
    assert message["decider"] is None
    refused(act(client, loaded["table"], loaded["token"], "C1"), (400, 409))
    # an unfinished record is played on from where it stops
    partial = dict(finished, actions=actions[:3], outcome=None)
    answer = client.post("/api/records", json={"record": partial, "seats": ["you", "you"]})
    assert answer.status_code == 200, answer.text
    table, token = answer.json()["table"], answer.json()["token"]
    message = look(client, table, token)
    assert (message["version"], message["outcome"]) == (3, None)
    assert set(message["yours"]) == {0, 1}
    assert actions[3] in message["legal"]
    assert act(client, table, token, actions[3], 3).status_code == 200
    # a downloaded record loads back
    download = client.get(f"/api/tables/{table}/record")
    assert download.status_code == 200
    again = client.post("/api/records", json={"record": json.loads(download.text)})
    assert again.status_code == 200, again.text
    assert look(client, again.json()["table"], again.json()["token"])["version"] == 4


@pytest.mark.parametrize(
    ("change", "status", "words"),
    [
        ({"format": "chess-pgn"}, 400, "record"),
        ({"game": "chess.v1"}, (400, 404), "chess"),
        ({"config": {"adjacency": "hexagonal"}}, 400, ""),
        ({"config": "geometric"}, 400, "config"),
        ({"seed": "seven"}, 400, "seed"),
        ({"seed": 2**70}, 400, ""),
        ({"actions": "C1 T2"}, 400, "actions"),
        ({"actions": ["C1", "Q9"]}, 400, "Q9"),
        ({"actions": ["C1", "T2", "C1"]}, 400, "circle"),
        ({"actions": [*morris_record(29)["actions"], "C1"]}, 400, ""),
        ({"start_position": "nonsense"}, 400, ""),
        ({"players": "two"}, 400, "players"),
    ],
)
def test_bad_records_are_refused_clearly(
    client: TestClient, change: JSON, status: Any, words: str
) -> None:
    record = dict(morris_record(29), **change)
    error = refused(client.post("/api/records", json={"record": record}), status)
    assert words in error["error"]
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"record": "not an object"}, 422),
        ({"record": [1, 2]}, 422),
        ({}, 400),
        ({"record": {}, "text": "{}"}, 400),
        ({"record": {}, "extra": 1}, 422),
        ({"record": {}}, 400),
    ],
)
def test_malformed_record_requests(client: TestClient, body: JSON, status: int) -> None:
    refused(client.post("/api/records", json=body), status)


def test_a_record_with_the_wrong_seats_is_refused(client: TestClient) -> None:
    record = morris_record(29)
    refused(client.post("/api/records", json={"record": record, "seats": ["you"]}), 400)
    refused(client.post("/api/records", json={"record": record, "seats": ["you", "x"]}), 400)
    assert client.get("/api/tables").json() == []


# ----------------------------------------------------------------- analyses


def test_fan_analyses(client: TestClient) -> None:
    created = open_table(client, game="fan", seats=["you"], deal=1)
    table, token = created["table"], created["token"]
    message = look(client, table, token)
    assert [entry["name"] for entry in message["analyses"]] == ["hint", "winnable"]
    for name in ("hint", "winnable"):
        answer = client.get(f"/api/tables/{table}/analysis/{name}", headers={TOKEN: token})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert (body["name"], body["version"]) == (name, 0)
        assert body["text"]
    winnable = client.get(f"/api/tables/{table}/analysis/winnable", headers={TOKEN: token})
    assert winnable.json()["text"].startswith(("Yes", "No"))
    hint = client.get(f"/api/tables/{table}/analysis/hint", headers={TOKEN: token}).json()
    assert hint["text"].startswith("This deal cannot be won")  # deal 1, nothing to undo yet
    assert hint["data"] == {"move": None, "points": []}
    refused(client.get(f"/api/tables/{table}/analysis/hint"), 403)
    refused(client.get(f"/api/tables/{table}/analysis/hint", headers={TOKEN: "forged"}), 403)
    refused(client.get(f"/api/tables/{table}/analysis/solve", headers={TOKEN: token}), 404)
    assert fingerprint(look(client, table, token)) == fingerprint(message)


def test_morris_values(client: TestClient) -> None:
    created = open_table(client, game="morris", seats=["you", "random"], seed=2)
    table, token = created["table"], created["token"]
    message = look(client, table, token)
    answer = client.get(f"/api/tables/{table}/analysis/values", headers={TOKEN: token})
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert data["value"]["result"] in ("win", "loss", "draw")
    assert sorted(move["action"] for move in data["moves"]) == sorted(message["legal"])
    assert "with perfect play" in answer.json()["text"]
    refused(client.get(f"/api/tables/{table}/analysis/values"), 403)
    # two people at the table: no analysis (it would help one against the other)
    table2, token2, _ = friends_table(client)
    assert look(client, table2, token2)["analyses"] == []
    refused(client.get(f"/api/tables/{table2}/analysis/values", headers={TOKEN: token2}), 404)


def test_no_analysis_for_hidden_cards(client: TestClient) -> None:
    for body in (
        {"game": "fantan", "seats": ["you", "random", "random", "random"]},
        {"game": "fano", "seats": ["you", "random"]},
    ):
        created = open_table(client, **body)
        table, token = created["table"], created["token"]
        assert look(client, table, token)["analyses"] == []
        for name in ("hint", "winnable", "values"):
            answer = client.get(f"/api/tables/{table}/analysis/{name}", headers={TOKEN: token})
            refused(answer, 404)


# --------------------------------------------------------------------- pages


def test_rules_pages(client: TestClient) -> None:
    answer = client.get("/rules/morris")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert "<html" in answer.text
    assert "Fano330-R-Morris" in answer.text
    assert "<h" in answer.text.split("<main", 1)[1]
    assert client.get("/rules/chess").status_code == 404


# --------------------------------------------------------------- whole games


def play_first_legal(
    client: TestClient, table: str, token: str, seat: int, limit: int = 400
) -> JSON:
    """Play the first legal move for ``seat`` whenever it decides, until the end; checks that
    each action moves the version on by exactly one and is logged. Returns the last message."""
    message = wait_for(client, table, token, my_turn(seat))
    for _ in range(limit):
        if message["outcome"] is not None or not message["legal"]:
            return message
        version, logged = message["version"], len(message["log"])
        assert logged == version
        answer = act(client, table, token, message["legal"][0], version)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["version"] == version + 1
        assert body["number"] == logged + 1
        assert body["played"] == message["legal"][0]
        message = wait_for(client, table, token, my_turn(seat))
        entry = message["log"][logged]
        assert (entry["number"], entry["seat"], entry["text"]) == (
            logged + 1,
            seat,
            body["played"],
        )
        assert entry["words"].startswith("You ")  # the seat's own move, in words
        assert message["version"] == len(message["log"])
        numbers = [entry["number"] for entry in message["log"]]
        assert numbers == list(range(1, len(numbers) + 1))
    raise AssertionError(f"no end after {limit} moves")


def test_a_whole_game_of_morris_against_random(client: TestClient) -> None:
    created = open_table(client, game="morris", seats=["you", "random"], seed=11, public=True)
    last = play_first_legal(client, created["table"], created["token"], seat=0)
    assert last["outcome"] is not None
    assert last["outcome"]["reason"]
    assert last["decider"] is None
    assert last["legal"] == []
    summary = client.get("/api/tables").json()[0]
    assert (summary["over"], summary["moves"]) == (True, last["version"])


def test_a_whole_game_of_fan_tan_against_three_bots(client: TestClient) -> None:
    created = open_table(client, game="fantan", seats=["you", "random", "random", "random"], seed=2)
    last = play_first_legal(client, created["table"], created["token"], seat=0)
    assert last["outcome"] is not None
    assert "went out" in last["outcome"]["reason"]
    assert last["view"]["revealed"] is not None
    assert {entry["seat"] for entry in last["log"]} == {0, 1, 2, 3}


def test_fan_deal_one_to_its_end(client: TestClient) -> None:
    created = open_table(client, game="fan", seats=["you"], deal=1)
    last = play_first_legal(client, created["table"], created["token"], seat=0)
    assert last["outcome"] is not None
    assert last["version"] == len(last["log"]) >= 10
    assert last["outcome"]["reason"]


def test_an_analysis_names_the_version_it_analysed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move made while an analysis runs: the answer is labelled with the position's version,
    not the table's newer one (a front end shows it as current otherwise)."""
    started, go = threading.Event(), threading.Event()

    def slow(state: Any) -> str:
        started.set()
        assert go.wait(10)
        return MORRIS.format_position(state)

    monkeypatch.setitem(analysis._ANALYSES, "morris", (analysis.Analysis("values", "", slow),))
    created = open_table(client, game="morris", seats=["you", "hotseat"], seed=1)
    table, token = created["table"], created["token"]
    answers: list[Any] = []
    asking = threading.Thread(
        target=lambda: answers.append(
            client.get(f"/api/tables/{table}/analysis/values", headers={TOKEN: token})
        )
    )
    asking.start()
    assert started.wait(10)
    assert act(client, table, token, "C1", 0).status_code == 200
    go.set()
    asking.join(10)
    body = answers[0].json()
    assert body["text"] == MORRIS.format_position(MORRIS.new_state(MORRIS.default_config()))
    assert body["version"] == 0
