"""A group of two ``fanfold serve`` processes on PostgreSQL (``--processes 2``, JSON logs),
scraped as an operator's Prometheus scrapes them: each process's ``/metrics`` on its game port
and on its health port carries the signals of ``fanfold.server.metrics``, the requests by
their route's template only (a request for ``/api/tables/SOMEID`` is counted under
``/api/tables/{table_id}``), the hand-over of a table from one process to the other on both
sides, and the sockets by kind. Prometheus itself (Debian's ``prometheus``), with the
configuration ``fanfold deploy prometheus`` renders and its alert rules, scrapes both. Every
line of the group's log is JSON naming its process, the supervisor's too (a process killed and
started again)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.sync.client import connect

from fanfold.cli.app import app as cli
from fanfold.server.ownership import opened_by
from tests.server.support import JSON, ROOT, free_port, subprocess_environment
from tests.server.test_metrics import Sample, requests, samples, value
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_secrets import free_pair
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

#: What Python's multiprocessing resource tracker may print, in plain text, as a process stops.
TRACKER = "resource_tracker: There appear to be"
#: The names the group's lines carry.
NAMES = {"supervisor", "s1", "s2", "s1/bot", "s2/bot"}


def json_lines(log: Path) -> list[JSON]:
    """Every line of the group's log, each a JSON object (the test fails on any other)."""
    found: list[JSON] = []
    for line in log.read_text().splitlines():
        if not line.strip() or TRACKER in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            pytest.fail(f"a line of the group's log is not JSON: {line!r}")
        assert isinstance(record, dict), line
        found.append(record)
    return found


def wait_until(what: str, done: Any, log: Path, seconds: float = 300.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        try:
            result = done()
        except (httpx.HTTPError, OSError, ValueError):
            result = None
        if result:
            return result
        assert time.monotonic() < deadline, f"{what}: {log.read_text()[-4000:]}"
        time.sleep(0.2)


@contextmanager
def prometheus(config: Path, log: Path) -> Iterator[int]:
    """Prometheus on ``config``, storing in a folder beside it; yields its port."""
    binary = shutil.which("prometheus") or "/usr/bin/prometheus"
    if not Path(binary).exists():
        pytest.fail(
            "prometheus is missing: the test set-up installs Debian's prometheus package",
            pytrace=False,
        )
    port = free_port()
    with log.open("w") as output:
        process = subprocess.Popen(
            [
                binary,
                f"--config.file={config}",
                f"--storage.tsdb.path={config.parent / 'data'}",
                f"--web.listen-address=127.0.0.1:{port}",
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


def query(port: int, promql: str) -> list[JSON]:
    answer = httpx.get(f"http://127.0.0.1:{port}/api/v1/query", params={"query": promql}, timeout=5)
    answer.raise_for_status()
    result: list[JSON] = answer.json()["data"]["result"]
    return result


@pytest.mark.postgres
@pytest.mark.slow
def test_a_group_of_two_scraped(
    pg_url: str,  # noqa: F811 (fixture)
    tmp_path: Path,
) -> None:
    port, health = free_pair(), free_pair()
    log = tmp_path / "group.log"
    environment = subprocess_environment()
    environment["FANFOLD_DB_URL"] = pg_url
    environment.pop("FANFOLD_ACCESS_LOG", None)
    environment.pop("FANFOLD_PROCESS_NAME", None)
    with log.open("w") as output:
        group = subprocess.Popen(
            [
                *(sys.executable, "-m", "fanfold", "serve", "--processes", "2"),
                *("--port", str(port), "--health-port", str(health), "--log-format", "json"),
                *("--bot-workers", "1", "--bot-pause", "0", "--bot-seconds", "0.2"),
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=environment,
        )
    try:
        for check in (health, health + 1):
            wait_until(
                f"the process with health port {check} ready",
                lambda check=check: (
                    httpx.get(f"http://127.0.0.1:{check}/ready", timeout=5).status_code == 200
                ),
                log,
            )
        s1, s2 = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}"
        assert httpx.get(f"{s1}/api/tables/SOMEID", timeout=30).status_code == 404
        opened = httpx.post(
            f"{s1}/api/tables", json={"game": "morris", "seats": ["you", "random"]}, timeout=30
        )
        assert opened.status_code == 200, opened.text
        table = opened.json()["table"]
        assert opened_by(table) == "s1"
        # s2 is asked for s1's table: s1 hands it over.
        shown = httpx.get(f"{s2}/api/tables/{table}", timeout=30)
        assert shown.status_code == 200, shown.text
        with (
            connect(f"ws://127.0.0.1:{port + 1}/ws/tables/{table}") as watching,
            connect(f"ws://127.0.0.1:{port + 1}/ws/lobby"),
        ):
            watching.send(json.dumps({"type": "hello"}))
            watching.recv(timeout=30)  # the state: the socket is the table's
            time.sleep(0.6)  # the loops' probes run
            scraped: dict[str, list[Sample]] = {}
            for name, game, checks in (("s1", port, health), ("s2", port + 1, health + 1)):
                on_game = httpx.get(f"http://127.0.0.1:{game}/metrics", timeout=30)
                on_health = httpx.get(f"http://127.0.0.1:{checks}/metrics", timeout=30)
                assert on_game.status_code == on_health.status_code == 200
                scraped[name] = samples(on_health.text)
                game_names = {sample[0] for sample in samples(on_game.text)}
                assert game_names == {sample[0] for sample in scraped[name]}
        first, second = scraped["s1"], scraped["s2"]
        assert requests(first)[("/api/tables/{table_id}", "GET", "404")] == 1
        assert requests(first)[("/api/tables", "POST", "200")] == 1
        assert requests(second)[("/api/tables/{table_id}", "GET", "200")] == 1
        for found in (first, second):
            for _, labels, _ in found:
                for label in labels.values():
                    assert "SOMEID" not in label, labels
                    assert table not in label, labels
            assert value(found, "fanfold_event_loop_lag_seconds_count") >= 1
            assert value(found, "fanfold_event_loop_stall_seconds") < 5
            assert value(found, "process_resident_memory_bytes") > 10_000_000
            assert value(found, "process_cpu_seconds_total") > 0
            assert value(found, "fanfold_bot_workers") == 1
            assert value(found, "fanfold_bot_queue") >= 0
            assert "fanfold_bot_queue_wait_seconds_count" in {sample[0] for sample in found}
        assert value(first, "fanfold_table_handovers_total", direction="let_go") == 1
        assert value(second, "fanfold_table_handovers_total", direction="taken") == 1
        assert value(second, "fanfold_websockets_open", kind="table") == 1
        assert value(second, "fanfold_websockets_open", kind="lobby") == 1
        assert value(first, "fanfold_websockets_open", kind="table") == 0

        # Prometheus scrapes both, with the configuration and the rules fanfold renders.
        folder = tmp_path / "prometheus"
        folder.mkdir()
        rendered = CliRunner().invoke(
            cli,
            [
                *("deploy", "prometheus", "--processes", "2", "--base-port", str(port)),
                *("--health-base-port", str(health), "--scrape-interval", "1s"),
                *("--out", str(folder / "prometheus.yml")),
            ],
        )
        assert rendered.exit_code == 0, rendered.output
        with prometheus(folder / "prometheus.yml", tmp_path / "prometheus.log") as web:
            up = wait_until(
                "Prometheus scraping both processes",
                lambda: (
                    len([r for r in query(web, 'up{job="fanfold"}') if r["value"][1] == "1"]) == 2
                ),
                tmp_path / "prometheus.log",
                seconds=120,
            )
            assert up
            counted = query(
                web,
                'fanfold_http_requests_total{route="/api/tables/{table_id}", status="404"}',
            )
            assert [(r["metric"]["server"], r["value"][1]) for r in counted] == [("s1", "1")]
            handed = query(web, "fanfold_table_handovers_total")
            assert {
                (r["metric"]["server"], r["metric"]["direction"], r["value"][1]) for r in handed
            } >= {("s1", "let_go", "1"), ("s2", "taken", "1")}
            rules = httpx.get(f"http://127.0.0.1:{web}/api/v1/rules", timeout=5).json()
            loaded = [rule for group in rules["data"]["groups"] for rule in group["rules"]]
            assert len(loaded) >= 10
            assert all(rule["health"] in ("ok", "unknown") for rule in loaded), loaded

        # The supervisor's lines are JSON too: s2 is killed and started again.
        started = [
            line
            for line in json_lines(log)
            if line.get("logger") == "fanfold.supervisor" and "s2 started" in line["message"]
        ]
        assert len(started) == 1, started
        child = int(started[0]["message"].rsplit("pid ", 1)[1].rstrip(")"))
        os.kill(child, signal.SIGKILL)
        wait_until(
            "the supervisor's line about s2",
            lambda: any(
                "s2, the process on port" in line["message"]
                for line in json_lines(log)
                if line.get("process_name") == "supervisor"
            ),
            log,
            seconds=60,
        )
        lines = json_lines(log)
    finally:
        if group.poll() is None:
            group.send_signal(signal.SIGTERM)
        try:
            group.wait(timeout=60)
        except subprocess.TimeoutExpired:
            group.kill()
            group.wait(timeout=30)
    for line in lines:
        assert line.get("process_name") in NAMES, line
        assert {"time", "level", "logger", "message", "pid"} <= set(line), line
    supervisor = [line for line in lines if line["process_name"] == "supervisor"]
    assert all(line["pid"] == group.pid for line in supervisor), supervisor
    restarted = [line for line in supervisor if "stopped" in line["message"]]
    assert len(restarted) == 1
    assert restarted[0]["level"] == "WARNING"
    access = [line for line in lines if line["logger"] == "fanfold.access"]
    missing = [line for line in access if line["path"] == "/api/tables/SOMEID"]
    assert len(missing) == 1
    assert missing[0]["process_name"] == "s1"
    assert missing[0]["route"] == "/api/tables/{table_id}"
    assert missing[0]["status"] == 404
    handed = [line for line in access if line["path"] == f"/api/tables/{table}"]
    assert [line["process_name"] for line in handed] == ["s2"]
    assert handed[0]["table"] == table
    json_lines(log)  # after the stop too
