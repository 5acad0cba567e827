"""The bot-tables measure (``benchmarks/bot_tables.py``): its options, its reading of the
server's metrics, its figures and report, and a tiny run of its players against a server
(the 10-table measurement itself is the benchmark's run, not a test's)."""

from __future__ import annotations

import asyncio
import math
import os
from pathlib import Path

import pytest
from benchmarks import bot_tables

from fanfold.server.app import create_app
from tests.server.support import ROOMY, sqlite_url, uvicorn_thread

EXPOSITION = """# HELP fanfold_bot_budget_cut_total Bot decisions whose time cap ...
# TYPE fanfold_bot_budget_cut_total counter
fanfold_bot_budget_cut_total{game="fano.v1",level="hard"} 3.0
fanfold_bot_budget_cut_total{game="fantan.v1",level="hard"} 5.0
fanfold_bot_budget_cut_created{game="fano.v1",level="hard"} 1.7e+09
fanfold_bot_queue_wait_seconds_count 4.0
fanfold_bot_queue_wait_seconds_sum 1.5
fanfold_bot_queue_wait_seconds_bucket{le="0.1"} 2.0
"""


def test_a_metric_is_read_by_its_name_and_labels() -> None:
    read = bot_tables.metric
    assert read(EXPOSITION, "fanfold_bot_budget_cut_total", game="fano.v1", level="hard") == 3
    assert read(EXPOSITION, "fanfold_bot_budget_cut_total", level="hard") == 8
    assert read(EXPOSITION, "fanfold_bot_budget_cut_total", game="morris.v1") == 0
    assert read(EXPOSITION, "fanfold_bot_queue_wait_seconds_count") == 4
    assert read(EXPOSITION, "fanfold_bot_queue_wait_seconds_sum") == 1.5
    assert read(EXPOSITION, "fanfold_bot_queue_wait_seconds") == 0  # only whole names
    server = bot_tables.Server.read(EXPOSITION, "fano.v1", "hard")
    assert (server.cuts, server.queued, server.queue_seconds) == (3, 4, 1.5)
    assert server.since(server) == bot_tables.Server(0, 0, 0, 0, 0)


def test_the_figures_of_the_waits() -> None:
    waits = [0.1 * n for n in range(1, 101)]  # 0.1 .. 10.0
    figures = bot_tables.Figures.of(waits)
    assert figures.count == 100
    assert figures.mean == pytest.approx(5.05)
    assert figures.p50 == pytest.approx(5.0)
    assert figures.p99 == pytest.approx(9.9)
    assert figures.most == pytest.approx(10.0)
    assert bot_tables.Figures.of([0.4]).p99 == 0.4
    empty = bot_tables.Figures.of([])
    assert empty.count == 0
    assert math.isnan(empty.mean)
    assert math.isnan(empty.most)


def test_the_options_quick_mode_and_nonsense(capsys: pytest.CaptureFixture[str]) -> None:
    args = bot_tables.parse(["--quick"])
    assert (args.warm, args.seconds, args.tables, args.agent) == (*bot_tables.QUICK, 10, "hard")
    assert args.warm + args.seconds <= 120  # about two minutes with the server's start
    assert bot_tables.parse(["--tables", "3", "--bot-workers", "2"]).bot_workers == 2
    for argv in (["--tables", "0"], ["--seconds", "0"], ["--think", "-1"], ["--tables", "x"]):
        with pytest.raises(SystemExit):
            bot_tables.parse(argv)
    assert "--tables must be at least 1" in capsys.readouterr().err


def test_the_report_says_what_ran_the_load_and_the_figures() -> None:
    args = bot_tables.parse(["--tables", "10", "--seconds", "60", "--warm", "5"])
    waits = bot_tables.Waits(seconds=[0.5, 1.5], moves=3, games=1, acted=2, players={0, 3})
    waits.told_first = 1
    server = bot_tables.Server(1, 3, 0.3, 3, 3, server_cpu=0.5, workers_cpu=0.6)
    lines = bot_tables.report(args, waits, server, [2.0, 4.0], 1.5)
    text = "\n".join(lines)
    assert "10 tables of Fano (trionfey, two players)" in text
    assert "against hard; fanfold serve --bot-workers 4 --bot-seconds 1 --bot-pause 0" in text
    assert "1.5 before the server started; while timed mean 3.0, 2.0 to 4.0" in text
    assert "| 2 | 1.000 | 0.500 | 1.500 | 1.500 | 1 | 3 | 2 | 1 | 0 |" in lines
    assert "players who acted while timed: 2 of 10; actions whose next decision was the " in text
    assert "player's again, told before the ok: 1" in text
    assert "mean 0.100 s waiting for a free worker, mean 1.000 s" in text
    assert "the server's process 0.5 s, its bot workers 0.6 s, 0.200 s a decision" in text


def test_a_player_acts_on_its_own_decision_told_before_its_ok() -> None:
    """The server posts a table's new state before the ``ok`` of the action that made it: when
    that state is the player's to decide again, the player is due to act on it (waiting for
    another message would stall its table for good); a bot's turn or an ended game is not."""
    mine = {"decider": 0, "seat": 0, "legal": ["a"], "outcome": None, "version": 5}
    assert bot_tables.due(mine)
    assert not bot_tables.due({**mine, "decider": 1})
    assert not bot_tables.due({**mine, "legal": []})
    assert not bot_tables.due({**mine, "outcome": {"returns": [1, -1]}})


def test_a_tiny_run_times_the_bots_decisions_as_its_players_wait_for_them(
    tmp_path: Path,
) -> None:
    """Two tables against Fano's ``easy`` (a light search, no compiled code), one second
    timed: every wait is timed, none is negative, the server decided at least as many."""
    app = create_app(sqlite_url(tmp_path), bot_seconds=1.0, bot_pause=0.0, limits=ROOMY)
    args = bot_tables.parse(["--tables", "2", "--warm", "0.5", "--seconds", "1.5"])
    args.agent = "easy"
    with uvicorn_thread(app) as port:
        base = f"http://127.0.0.1:{port}"
        waits, server, loads = asyncio.run(bot_tables.measure(base, args, os.getpid()))
    assert waits.errors == []
    assert waits.seconds, "no decision timed"
    assert all(0 <= wait < 30 for wait in waits.seconds)
    assert waits.moves >= len(waits.seconds)
    assert waits.acted > 0
    assert waits.players <= {0, 1}
    assert waits.players  # a player who acted while timed is named
    assert server.decided >= len(waits.seconds) - 2  # each table's last may be told late
    assert server.cuts == 0
    assert loads
    assert server.server_cpu > 0  # this process serves, its bots think in its threads
