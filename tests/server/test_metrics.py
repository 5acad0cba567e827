"""The signals an operator watches, in one process (``fanfold.server.metrics``): requests
counted by their route's template (never the path: a table's id never becomes a series) and
status, refusals included; WebSockets by kind; the event loop's lag and stall; the bot
queue's length and wait; error lines; the process's CPU and memory; ``/metrics`` on the health
port, answered while the event loop is blocked; and the access log, a JSON line a request
naming the process."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from fanfold import __version__
from fanfold.core.registry import get_game
from fanfold.server.app import create_app
from fanfold.server.bots import BotPool
from fanfold.server.logs import ACCESS_ENVIRONMENT, NAME_ENVIRONMENT, json_handler
from fanfold.server.metrics import Metrics
from fanfold.server.request_metrics import UNMATCHED
from fanfold.server.throttle import ClientLimits
from tests.server.support import (
    JSON,
    free_port,
    open_table,
    serve,
    sqlite_url,
    subprocess_environment,
    uvicorn_thread,
)
from tests.server.test_bot_shares import HOG, decision

Sample = tuple[str, dict[str, str], float]


def samples(text: str) -> list[Sample]:
    """Every sample of a scrape: its name, labels and value."""
    return [
        (sample.name, dict(sample.labels), sample.value)
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    ]


def value(found: list[Sample], name: str, **labels: str) -> float:
    """The value of the one sample ``name`` with these labels (among others)."""
    matching = [
        sample
        for sample in found
        if sample[0] == name and all(sample[1].get(k) == v for k, v in labels.items())
    ]
    assert len(matching) == 1, (name, labels, [s for s in found if s[0] == name])
    return matching[0][2]


def requests(found: list[Sample]) -> dict[tuple[str, str, str], float]:
    """``fanfold_http_requests_total`` by (route, method, status)."""
    return {
        (labels["route"], labels["method"], labels["status"]): count
        for name, labels, count in found
        if name == "fanfold_http_requests_total"
    }


@pytest.fixture
def access_lines(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    """The JSON lines of fanfold's loggers from INFO up, for a process named ``s7``."""
    monkeypatch.setenv(NAME_ENVIRONMENT, "s7")
    monkeypatch.delenv(ACCESS_ENVIRONMENT, raising=False)
    stream = io.StringIO()
    handler = json_handler(stream)
    logger = logging.getLogger("fanfold")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_requests_are_counted_by_route_template_and_status(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        missing = "SOMEID123"
        assert client.get(f"/api/tables/{missing}").status_code == 404
        table = open_table(client, game="morris", seats=["you", "random"])["table"]
        assert client.get(f"/api/tables/{table}").status_code == 200
        assert client.get(f"/table/{table}").status_code == 200
        assert client.get("/no/such/page/xyz").status_code == 404
        too_big = client.post(
            "/api/tables",
            content=b"{" + b" " * 2_000_000 + b"}",
            headers={"content-type": "application/json"},
        )
        assert too_big.status_code == 413  # refused before routing: still its route's template
        client.get("/health")
        text = client.get("/metrics").text
    found = samples(text)
    counted = requests(found)
    assert counted[("/api/tables/{table_id}", "GET", "404")] == 1
    assert counted[("/api/tables/{table_id}", "GET", "200")] == 1
    assert counted[("/table/{table_id}", "GET", "200")] == 1
    assert counted[("/api/tables", "POST", "200")] == 1
    assert counted[("/api/tables", "POST", "413")] == 1
    assert counted[(UNMATCHED, "GET", "404")] == 1
    assert counted[("/health", "GET", "200")] == 1
    # No label anywhere holds a path: not the id asked for, not the table's, not the page's.
    for _, labels, _ in found:
        for label in labels.values():
            assert missing not in label, labels
            assert table not in label, labels
            assert "xyz" not in label, labels
    assert value(found, "fanfold_http_request_seconds_count", route="/api/tables") == 2


def test_refusals_by_a_limit_are_counted_under_their_route(tmp_path: Path) -> None:
    with serve(tmp_path, limits=ClientLimits(requests_per_minute=2)) as client:
        statuses = [client.get("/api/tables/ABCDEF").status_code for _ in range(4)]
        assert 429 in statuses, statuses
        counted = requests(samples(client.get("/metrics").text))
    assert counted[("/api/tables/{table_id}", "GET", "429")] == statuses.count(429)


def test_sockets_by_kind_loop_process_and_errors(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        table = open_table(client, game="morris", seats=["you", "random"])["table"]
        with (
            client.websocket_connect(f"/ws/tables/{table}"),
            client.websocket_connect("/ws/lobby"),
            client.websocket_connect("/ws/lobby"),
        ):
            time.sleep(0.6)  # the loop's probe runs a few times
            logging.getLogger("fanfold.tests.metrics").error("an error the test logs")
            during = samples(client.get("/metrics").text)
        after = samples(client.get("/metrics").text)
    assert value(during, "fanfold_websockets_open", kind="table") == 1
    assert value(during, "fanfold_websockets_open", kind="lobby") == 2
    assert value(after, "fanfold_websockets_open", kind="table") == 0
    assert value(after, "fanfold_websockets_open", kind="lobby") == 0
    assert value(during, "fanfold_event_loop_lag_seconds_count") >= 1
    assert 0 <= value(during, "fanfold_event_loop_stall_seconds") < 5
    assert value(during, "fanfold_log_errors_total", logger="fanfold.tests.metrics") == 1
    assert value(during, "process_resident_memory_bytes") > 10_000_000
    assert value(during, "process_cpu_seconds_total") > 0
    assert value(during, "fanfold_info", version=__version__) == 1
    names = {name for name, _, _ in during}
    for name in (
        "fanfold_bot_queue",
        "fanfold_bot_workers_busy",
        "fanfold_bot_workers",
        "fanfold_bot_queue_wait_seconds_count",
        "fanfold_table_handovers_total",
        "fanfold_act_seconds_count",
        "fanfold_store_write_seconds_count",
        "fanfold_tables_live",
        "fanfold_info",
        "process_open_fds",
    ):
        assert name in names, name
    assert value(during, "fanfold_table_handovers_total", direction="taken") == 0


#: A bot that thinks a whole second (the queue test's: long enough to be seen waiting on a
#: loaded machine).
THINKER = HOG.replace("seconds=0.2", "seconds=1.0")


async def seen(check: Callable[[], bool], limit: float = 20.0) -> bool:
    """Whether ``check()`` holds within ``limit`` seconds (looked at every 10 ms)."""
    deadline = time.monotonic() + limit
    while not check():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


def test_the_bot_queue_and_its_wait() -> None:
    """One worker, two tables whose bots think a second: one decision waits for the other."""
    metrics = Metrics()

    def queue() -> float:
        return value(samples(metrics.exposition().decode()), "fanfold_bot_queue")

    async def play() -> float:
        pool = BotPool(1)
        metrics.watch_pool(pool)
        first = asyncio.create_task(pool.decide(decision("t1", THINKER)))
        assert await seen(lambda: pool.busy == 1)  # the worker decides the first
        second = asyncio.create_task(pool.decide(decision("t2", THINKER)))
        assert await seen(lambda: pool.waiting == 1)
        queued = queue()
        await asyncio.gather(first, second)
        pool.shutdown()
        return queued

    assert asyncio.run(play()) == 1
    found = samples(metrics.exposition().decode())
    assert value(found, "fanfold_bot_queue") == 0
    assert value(found, "fanfold_bot_queue_wait_seconds_count") == 2
    assert value(found, "fanfold_bot_queue_wait_seconds_sum") >= 0.1  # the second's wait


def test_a_decision_whose_time_cap_cuts_its_budget_is_counted() -> None:
    """``hard``'s budget is its deals, its time cap a guard: a cap far under the deals' time
    cuts (counted by game and agent), the deals alone do not (nothing counted)."""
    metrics = Metrics()
    fano = get_game("fano")

    async def play() -> tuple[object, object]:
        pool = BotPool(1)
        metrics.watch_pool(pool)
        cut = await pool.decide(decision("t1", "hard(seconds=0.001)", fano))
        whole = await pool.decide(decision("t2", "ladder(deals=2)", fano))
        pool.shutdown()
        return cut, whole

    cut, whole = asyncio.run(play())
    found = samples(metrics.exposition().decode())
    named = decision("t1", "hard(seconds=0.001)", fano)
    assert cut in named.legal
    assert whole in named.legal
    assert value(found, "fanfold_bot_budget_cut_total", game="fano.v1", level="hard") == 1
    counted = [labels for name, labels, _ in found if name == "fanfold_bot_budget_cut_total"]
    assert counted == [{"game": "fano.v1", "level": "hard"}]


def test_health_port_metrics_answer_while_the_loop_is_blocked(tmp_path: Path) -> None:
    health = free_port()
    app = create_app(sqlite_url(tmp_path), health_port=health, bot_seconds=0.5)

    @app.get("/test-block-the-loop")
    async def block() -> JSON:
        time.sleep(2.0)  # holds the event loop, as a runaway computation would
        return {"blocked": True}

    with uvicorn_thread(app) as port:
        blocking = threading.Thread(
            target=httpx.get, args=(f"http://127.0.0.1:{port}/test-block-the-loop",), daemon=True
        )
        blocking.start()
        time.sleep(1.0)
        started = time.monotonic()
        answer = httpx.get(f"http://127.0.0.1:{health}/metrics", timeout=5)
        took = time.monotonic() - started
        blocking.join(timeout=30)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    assert took < 0.5, took  # not queued behind the blocked loop
    found = samples(answer.text)
    assert value(found, "fanfold_event_loop_stall_seconds") >= 0.5
    assert value(found, "process_cpu_seconds_total") > 0


def test_access_log(tmp_path: Path, access_lines: io.StringIO) -> None:
    with serve(tmp_path) as client:
        table = open_table(client, game="morris", seats=["you", "random"])["table"]
        client.get(f"/api/tables/{table}?invite=not-for-the-log")
        client.get("/health")
        client.get("/metrics")
    lines = [json.loads(line) for line in access_lines.getvalue().splitlines()]
    assert all(line["process_name"] == "s7" for line in lines), lines
    access = [line for line in lines if line["logger"] == "fanfold.access"]
    assert [line["path"] for line in access] == ["/api/tables", f"/api/tables/{table}"]
    read = access[1]
    assert read["route"] == "/api/tables/{table_id}"
    assert read["method"] == "GET"
    assert read["status"] == 200
    assert read["table"] == table
    assert read["message"] == f"GET /api/tables/{table} 200"  # no query
    assert "not-for-the-log" not in access_lines.getvalue()
    assert read["ms"] >= 0
    assert read["bytes"] > 0
    assert read["client"] == "testclient"
    assert access[0]["table"] == table  # the table the request opened


def test_access_log_off(
    tmp_path: Path, access_lines: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ACCESS_ENVIRONMENT, "off")
    with serve(tmp_path) as client:
        client.get("/api/games")
    assert "fanfold.access" not in access_lines.getvalue()


#: Counts error lines in a process whose logging is Python's default, as a plain-text
#: ``fanfold serve`` has it: its warnings and errors still reach standard error.
DEFAULT_LOGGING = """
import asyncio, logging
from fanfold.server.metrics import Metrics

async def main() -> None:
    metrics = Metrics()
    stop = metrics.start()
    logging.getLogger("fanfold.x").warning("a warning, printed as before")
    logging.getLogger("fanfold.x").error("an error, printed as before")
    logging.getLogger("fanfold.x").info("not printed, as before")
    stop()
    print(metrics.exposition().decode())

asyncio.run(main())
"""


def test_counting_errors_keeps_the_default_log() -> None:
    ran = subprocess.run(
        [sys.executable, "-c", DEFAULT_LOGGING],
        capture_output=True,
        text=True,
        timeout=120,
        env=subprocess_environment(),
        check=True,
    )
    assert ran.stderr.splitlines()[-2:] == [
        "a warning, printed as before",
        "an error, printed as before",
    ]
    assert value(samples(ran.stdout), "fanfold_log_errors_total", logger="fanfold.x") == 1
