"""The rolling-restart measure (``benchmarks/rolling_restart.py``, also ``benchmarks/server.py
--rolling-restart``): its options, the players' shares among the load-generator processes, and
one load-generator process playing its share against a server (the restart itself, with
PostgreSQL and HAProxy, is the benchmark's run, not a test's)."""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import websockets
from benchmarks import rolling_restart, server
from websockets.datastructures import Headers
from websockets.frames import Close
from websockets.http11 import Response

from fanfold.server.app import create_app
from tests.server.support import ROOMY, sqlite_url, uvicorn_thread


def test_server_benchmark_runs_the_rolling_restart_with_the_options_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran: list[argparse.Namespace] = []
    monkeypatch.setattr(rolling_restart, "measure", ran.append)
    server.main(["--rolling-restart", "--tables", "500", "--clients", "6", "--think", "1.5"])
    [args] = ran
    assert (args.tables, args.clients, args.think, args.spread) == (500, 6, 1.5, 0.0)
    rolling_restart.main(["--tables", "7", "--spread", "0.3"])  # the other name: the same
    assert (ran[1].tables, ran[1].clients, ran[1].spread) == (7, 4, 0.3)


def test_rolling_restart_options_refuse_nonsense(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--tables", "0"], ["--clients", "0"], ["--tables", "many"]):
        with pytest.raises(SystemExit):
            rolling_restart.parse(argv)
    assert "positive count" in capsys.readouterr().err
    assert rolling_restart.parse(["--tables", "2", "--clients", "5"]).clients == 2


def test_players_are_shared_among_the_clients_each_once() -> None:
    for tables, clients in ((500, 4), (10, 3), (2, 5), (1, 1)):
        parts = rolling_restart.shares(tables, clients)
        assert len(parts) == min(tables, clients)
        assert sorted(n for part in parts for n in part) == list(range(tables))
        assert max(map(len, parts)) - min(map(len, parts)) <= 1


def test_a_load_generator_process_plays_its_share_and_hands_back_what_they_met(
    tmp_path: Path,
) -> None:
    app = create_app(sqlite_url(tmp_path), bot_seconds=0.05, limits=ROOMY)
    with uvicorn_thread(app) as port:
        ours, theirs = multiprocessing.Pipe()
        crowd = rolling_restart.crowd([3, 250], f"127.0.0.1:{port}", (0.05, 0.0), theirs)
        thread = threading.Thread(target=lambda: theirs.send(asyncio.run(crowd)))
        thread.start()
        assert ours.poll(60), "no word that the tables are open"
        assert ours.recv() == "open"
        assert not ours.poll(1.0)  # playing until told to stop
        ours.send("stop")
        assert ours.poll(60), "no results"
        met = ours.recv()
        thread.join(timeout=30)
    assert [player.number for player in met] == [3, 250]
    assert all(player.failed == {} and not player.waiting for player in met)
    assert all(player.gaps == [] for player in met)  # no 1012: nobody moved


def test_a_failed_reconnect_is_told_by_its_kind() -> None:
    closed = websockets.ConnectionClosed(Close(1011, "the store failed"), None)
    assert rolling_restart.failure(closed) == "closed 1011"
    assert rolling_restart.failure(websockets.ConnectionClosed(None, None)) == (
        "closed without a code"
    )
    refused = websockets.InvalidStatus(Response(503, "Service Unavailable", Headers()))
    assert rolling_restart.failure(refused) == "handshake answered 503"
    assert rolling_restart.failure(ConnectionRefusedError()) == "ConnectionRefusedError"


def test_processor_time_counts_a_tree_and_its_children_that_ended() -> None:
    """A group's processor seconds: its root's, its live children's, and those of children
    that ended and were reaped (a server process restarted by its supervisor)."""
    me = os.getpid()
    before = rolling_restart.tree_cpu({"here": [me], "nobody": [2**22 + 1]})
    assert before["nobody"] == 0.0  # no such process: nothing
    busy = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"
    subprocess.run([sys.executable, "-c", busy], check=True)
    after = rolling_restart.tree_cpu({"here": [me], "nobody": [2**22 + 1]})
    assert after["here"] - before["here"] >= 0.25
    said = rolling_restart.spent(before, after)
    assert said.startswith(f"{after['here'] - before['here']:.1f} s (here ")
