"""The real server in its own process, killed mid-game (SIGKILL) and started again on the same
database: every table goes on from its last acknowledged action, and a game between bots that
was playing on by itself is resumed and played to its end."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.server.support import JSON, ROOT, TOKEN, free_port, sqlite_url, subprocess_environment


@contextmanager
def server(
    database: str, log: Path, bot_pause: float, *options: str
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``fanfold serve`` on a free port (with ``options`` more); yields the process and its
    address once it answers. Killed at the end if it still runs."""
    port = free_port()
    with log.open("a") as output:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "fanfold",
                "serve",
                "--port",
                str(port),
                "--db",
                database,
                "--bot-pause",
                f"{bot_pause:g}",
                "--bot-seconds",
                "0.2",
                *options,
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
            env=subprocess_environment(),
        )
    address = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, f"the server stopped: {log.read_text()}"
            try:
                if httpx.get(f"{address}/api/games", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"the server did not answer: {log.read_text()}"
            time.sleep(0.1)
        yield process, address
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def state(client: httpx.Client, table: str, token: str | None = None) -> JSON:
    answer = client.get(f"/api/tables/{table}", headers={TOKEN: token} if token else {})
    assert answer.status_code == 200, answer.text
    message: JSON = answer.json()
    return message


def wait_until(client: httpx.Client, table: str, token: str | None, ready: Any) -> JSON:
    deadline = time.monotonic() + 60  # a busy machine: the bots' workers start first
    while True:
        message = state(client, table, token)
        if ready(message):
            return message
        assert time.monotonic() < deadline, message
        time.sleep(0.05)


def play(client: httpx.Client, table: str, token: str, seat: int | None = None) -> JSON:
    """Play the first legal move when it is this token's turn; returns the acknowledgement."""
    message = wait_until(
        client, table, token, lambda m: m["decider"] in m["yours"] and m["legal"] != []
    )
    body: JSON = {"token": token, "version": message["version"], "action": message["legal"][0]}
    if seat is not None:
        body["seat"] = seat
    answer = client.post(f"/api/tables/{table}/act", json=body)
    assert answer.status_code == 200, answer.text
    acknowledged: JSON = answer.json()
    assert acknowledged["version"] == message["version"] + 1
    return acknowledged


def open_table(client: httpx.Client, **body: Any) -> JSON:
    """Open a table and claim every friend's seat (``friends``: the tokens that hold them)."""
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 200, answer.text
    created: JSON = answer.json()
    created["friends"] = {}
    for seat, invite in created["invites"].items():
        claimed = client.post(f"/api/tables/{created['table']}/claim", json={"invite": invite})
        assert claimed.status_code == 200, claimed.text
        created["friends"][seat] = claimed.json()["token"]
    return created


def test_the_command_line_knows_serve() -> None:
    general, serve = [
        subprocess.Popen(
            [sys.executable, "-m", "fanfold", *arguments],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=subprocess_environment(),
        )
        for arguments in (["--help"], ["serve", "--help"])
    ]
    out, err = general.communicate(timeout=60)
    assert general.returncode == 0, err
    assert "serve" in out
    out, err = serve.communicate(timeout=60)
    assert serve.returncode == 0, err
    for option in ("--port", "--db", "--bot-pause", "--bot-seconds"):
        assert option in out


def test_a_killed_server_resumes_every_table(tmp_path: Path) -> None:
    database = sqlite_url(tmp_path, "x.db")
    log = tmp_path / "server.log"
    seen: dict[str, JSON] = {}
    tokens: dict[str, str] = {}
    with server(database, log, bot_pause=0.25) as (process, address):
        with httpx.Client(base_url=address, timeout=10) as client:
            friends = open_table(client, game="morris", seats=["you", "friend"], seed=3)
            for holder in (friends["token"], friends["friends"]["1"], friends["token"]):
                play(client, friends["table"], holder)
            cards = open_table(
                client, game="fantan", seats=["you", "random", "random", "random"], seed=4
            )
            for _ in range(2):
                play(client, cards["table"], cards["token"])
            patience = open_table(client, game="fan", seats=["you"], deal=1)
            for _ in range(4):
                play(client, patience["table"], patience["token"])
            undone = client.post(
                f"/api/tables/{patience['table']}/undo",
                json={"token": patience["token"], "version": 4},
            )
            assert undone.json() == {"ok": True, "version": 5}
            for created in (friends, cards, patience):
                tokens[created["table"]] = created["token"]
                seen[created["table"]] = wait_until(  # once the bots have stopped for a human
                    client,
                    created["table"],
                    created["token"],
                    lambda m: m["decider"] is not None and not m["seats"][m["decider"]]["bot"],
                )
            movers = dict(tokens)
            movers[friends["table"]] = friends["friends"]["1"]  # Black moves next
            bots = open_table(
                client, game="morris", seats=["random", "random"], seed=29, public=True
            )
            before = wait_until(client, bots["table"], None, lambda m: m["version"] >= 2)
            assert before["outcome"] is None, "the bots' game ended before the kill"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    assert seen[patience["table"]]["version"] == 5
    assert len(seen[patience["table"]]["log"]) == 3

    with server(database, log, bot_pause=0) as (process, address):
        with httpx.Client(base_url=address, timeout=10) as client:
            for table, message in seen.items():
                again = state(client, table, tokens[table])
                assert again["version"] == message["version"], table
                assert again["log"] == message["log"], table
                assert again["view"] == message["view"], table
                assert again["decider"] == message["decider"], table
                assert again["legal"] == message["legal"], table
                # the same link holds the same seat, and play goes on from there
                acknowledged = play(client, table, movers[table])
                assert acknowledged["number"] == len(message["log"]) + 1
            finished = wait_until(client, bots["table"], None, lambda m: m["outcome"] is not None)
            assert finished["log"][: len(before["log"])] == before["log"]
            assert finished["version"] == len(finished["log"]) > len(before["log"])
            listed = {entry["table"]: entry for entry in client.get("/api/tables").json()}
            assert listed[bots["table"]]["over"] is True
            assert set(listed) == {bots["table"]}  # the only table opened to the public
        process.terminate()
