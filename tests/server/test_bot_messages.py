"""What a table's watchers are told while its bots play: without a pause between bots, a run
of instant bots (``random``) that ends at a person's decision is one message, every move of
it in the log; with a pause, or at a table of bots only, each move is its own message."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests.server.support import JSON, hello, open_table, receive_until, serve


def _after_a_move(client: TestClient, seats: list[str]) -> tuple[JSON, list[JSON]]:
    """Seat 0 plays its first legal action at a new Fan Tan table; the state it acted on, and
    the state messages it is sent until it decides again (or the game ends)."""
    created = open_table(client, game="fantan", seats=seats, seed=5)
    with client.websocket_connect(f"/ws/tables/{created['table']}") as socket:
        before = hello(socket, created["token"])
        assert before["decider"] == 0
        assert before["legal"]
        socket.send_json(
            {"type": "act", "version": before["version"], "action": before["legal"][0]}
        )
        seen = receive_until(
            socket,
            lambda m: (
                m["type"] == "state"
                and m["version"] > before["version"] + 1
                and (m["decider"] == 0 or m["outcome"] is not None)
            ),
        )
    return before, [m for m in seen if m["type"] == "state"]


def test_an_instant_bots_run_to_a_persons_decision_is_one_message_with_every_move_logged(
    tmp_path: Path,
) -> None:
    with serve(tmp_path) as client:  # no pause between bots (the default)
        before, states = _after_a_move(client, ["you", "random", "random", "random"])
    versions = [m["version"] for m in states]
    start = before["version"]
    assert versions == [start + 1, start + 4]  # the person's move, then the three bots'
    last = states[-1]
    assert [entry["seat"] for entry in last["log"][len(before["log"]) :]] == [0, 1, 2, 3]
    assert last["decider"] == 0
    assert last["legal"]


def test_with_a_pause_between_bots_each_bots_move_is_its_own_message(tmp_path: Path) -> None:
    with serve(tmp_path, bot_pause=0.05) as client:
        before, states = _after_a_move(client, ["you", "random", "random", "random"])
    start = before["version"]
    assert [m["version"] for m in states] == [start + 1, start + 2, start + 3, start + 4]


def test_a_bots_move_before_a_bot_that_takes_its_time_is_told_at_once(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        before, states = _after_a_move(client, ["you", "random", "mcts(iterations=20)", "random"])
    start = before["version"]
    # seat 1's move is told before seat 2 thinks; seats 2 and 3 are told together
    assert [m["version"] for m in states] == [start + 1, start + 2, start + 4]


def test_a_table_of_bots_only_tells_each_move(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        created = open_table(client, game="fantan", seats=["random"] * 4, seed=3)
        with client.websocket_connect(f"/ws/tables/{created['table']}") as socket:
            first = hello(socket)
            seen = receive_until(socket, lambda m: m.get("outcome") is not None, timeout=30)
    versions = sorted({first["version"]} | {m["version"] for m in seen if m["type"] == "state"})
    assert versions[-1] - versions[0] >= 10
    assert versions == list(range(versions[0], versions[-1] + 1))  # no move left untold
