"""The cost of ``GET /api/me/waiting``: a signed-in player at 40 unfinished daily
Fano330-R-Morris tables against another account, 20 of them waiting for the player's move,
each a few moves in. Times the answer with every table in memory, then with none (each one
replayed from the SQLite store, read only). Prints how many were listed and the median (and
the slowest replayed) time of one request.

Run: ``python3 benchmarks/waiting.py`` (``--tables 40 --asks 20``).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from fanfold.server.accounts import CSRF_COOKIE, CSRF_HEADER
from fanfold.server.app import create_app
from fanfold.server.throttle import ClientLimits

#: Limits no measurement reaches.
ROOMY = ClientLimits(
    tables_per_minute=100_000, requests_per_minute=1_000_000, sockets=10_000, spectators=10_000
)


def csrf(client: TestClient) -> dict[str, str]:
    """The header a signed-in page sends with every state-changing request."""
    return {CSRF_HEADER: client.cookies[CSRF_COOKIE]}


def signed_up(client: TestClient, name: str) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": "correct horse"})
    assert answer.status_code == 200, answer.text


Seats = dict[int, tuple[TestClient, str]]


def daily_table(alice: TestClient, bob: TestClient) -> tuple[str, Seats]:
    """A rated daily table: ``alice`` opens it at seat 0, ``bob`` claims seat 1."""
    body = {"game": "morris", "seats": ["you", "friend"], "rated": True, "speed": "daily"}
    made = alice.post("/api/tables", json=body, headers=csrf(alice)).json()
    [invite] = made["invites"].values()
    claimed = bob.post(
        f"/api/tables/{made['table']}/claim", json={"invite": invite}, headers=csrf(bob)
    ).json()
    return made["table"], {0: (alice, made["token"]), 1: (bob, claimed["token"])}


def timed(client: TestClient, asks: int) -> tuple[list[float], int]:
    """The milliseconds each of ``asks`` requests took, and how many games the last listed."""
    times: list[float] = []
    found = 0
    for _ in range(asks):
        start = time.perf_counter()
        answer = client.get("/api/me/waiting")
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, answer.text
        found = len(answer.json())
    return times, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--asks", type=int, default=20)
    args = parser.parse_args()
    url = f"sqlite:///{Path(tempfile.mkdtemp()) / 'fanfold.db'}"
    app = create_app(url, bot_seconds=0.5, limits=ROOMY)
    with TestClient(app) as alice:
        bob = TestClient(app)  # another browser (its own cookies) on the same server
        bob.portal = alice.portal
        signed_up(alice, "alice")
        signed_up(bob, "bob")
        hub = app.state.hub
        for n in range(args.tables):
            table, players = daily_table(alice, bob)
            for _ in range(4 + n % 2):  # 4 moves: the player's turn; 5: the other's
                live = hub.live[table].table
                client, token = players[live.decider]
                body = {"token": token, "action": live.legal_texts()[0], "version": live.version}
                played = client.post(f"/api/tables/{table}/act", json=body, headers=csrf(client))
                assert played.status_code == 200, played.text
        held, listed = timed(alice, args.asks)
        hub.live.clear()  # as if let go from memory: each table replayed from the store
        replayed, _ = timed(alice, args.asks)
    print(
        f"listed {listed} of {args.tables} tables; in memory: median "
        f"{statistics.median(held):.1f} ms; replayed: median "
        f"{statistics.median(replayed):.1f} ms, slowest {max(replayed):.1f} ms"
    )


if __name__ == "__main__":
    main()
