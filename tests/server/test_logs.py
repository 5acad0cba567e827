"""JSON log lines (``fanfold serve --log-format json``): one object a line, each with its
time, level, logger, message and process, and the table on every line logged while a table
is handled (its requests, its socket's messages, its bots' moves, the store's writes), never
on a line about no table; and the default text lines, the same records one readable line
each, at the same level."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from fanfold.server.logs import (
    ENVIRONMENT,
    LEVEL_ENVIRONMENT,
    NAME_ENVIRONMENT,
    TextFormatter,
    about,
    configure,
    json_handler,
    say,
    table_of_path,
    text_handler,
)
from tests.server.support import (
    JSON,
    ROOT,
    act,
    free_port,
    look,
    my_turn,
    serve,
    subprocess_environment,
    wait_for,
)

#: What Python's multiprocessing resource tracker, a helper process that fanfold does not
#: configure, may print when the server stops with its bot workers' queues open.
TRACKER = "resource_tracker: There appear to be"


@pytest.fixture
def lines() -> Iterator[io.StringIO]:
    """Everything fanfold's loggers write from DEBUG up, as JSON lines."""
    stream = io.StringIO()
    handler = json_handler(stream)
    logger = logging.getLogger("fanfold")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def parsed(stream: io.StringIO) -> list[JSON]:
    """Each line as its JSON object, each with the fields every line has."""
    found: list[JSON] = []
    for line in stream.getvalue().splitlines():
        record: JSON = json.loads(line)
        assert {"time", "level", "logger", "message", "pid"} <= set(record), record
        assert record["time"].endswith("+00:00"), record  # ISO 8601, UTC
        found.append(record)
    return found


def test_the_table_is_read_from_each_path_that_names_one() -> None:
    assert table_of_path("/table/abc") == "abc"
    assert table_of_path("/api/tables/abc/act") == "abc"
    assert table_of_path("/ws/tables/abc") == "abc"
    assert table_of_path("/api/tables") is None
    assert table_of_path("/api/tables/") is None
    assert table_of_path("/api/games") is None
    assert table_of_path("/") is None
    assert table_of_path("/players/abc") is None


def test_a_line_names_its_table_only_inside(lines: io.StringIO) -> None:
    log = logging.getLogger("fanfold.test")
    with about("t1"):
        log.warning("inside")
    log.warning("outside")
    inside, outside = parsed(lines)
    assert inside["table"] == "t1"
    assert inside["message"] == "inside"
    assert inside["level"] == "WARNING"
    assert inside["logger"] == "fanfold.test"
    assert inside["pid"] == os.getpid()
    assert "table" not in outside


def _played(records: list[JSON], table: str, words: str) -> list[JSON]:
    """The lines about ``table`` (alone, or among the tables of a group commit) that say
    ``words``."""
    return [r for r in records if table in r.get("table", "").split() and words in r["message"]]


def test_actions_and_bot_moves_name_their_table(tmp_path: Path, lines: io.StringIO) -> None:
    with serve(tmp_path) as client:
        # A route about no table logs a line: it names none.
        quiet = logging.getLogger("fanfold.server.test")

        def lobby() -> JSON:
            quiet.warning("a request about no table")
            return {}

        client.app.add_api_route("/api/test-lobby", lobby)  # type: ignore[attr-defined]
        tables = []
        for seed in (1, 2):
            answer = client.post(
                "/api/tables", json={"game": "morris", "seats": ["you", "random"], "seed": seed}
            )
            assert answer.status_code == 200, answer.text
            tables.append((answer.json()["table"], answer.json()["token"]))
        (first, first_token), (second, second_token) = tables
        # An action over HTTP at one table, and over its WebSocket at the other.
        message = look(client, first, first_token)
        assert act(client, first, first_token, message["legal"][0], message["version"]).is_success
        with client.websocket_connect(f"/ws/tables/{second}") as socket:
            socket.send_json({"type": "hello", "token": second_token})
            state = socket.receive_json()
            assert state["type"] == "state"
            socket.send_json(
                {"type": "act", "version": state["version"], "action": state["legal"][0]}
            )
            while socket.receive_json()["type"] != "ok":
                pass
        for table, token in tables:  # each table's bot moved
            wait_for(client, table, token, lambda m: m["version"] >= 2 and my_turn(0)(m))
        assert client.get("/api/test-lobby").status_code == 200
        records = {table: look(client, table, token)["log"] for table, token in tables}
    found = parsed(lines)
    assert any(r["message"] == "a request about no table" and "table" not in r for r in found)
    for table, _ in tables:
        assert _played(found, table, "seat 0 played")  # the person's action
        assert _played(found, table, "seat 1's bot played")  # the bot's move
        assert _played(found, table, "actions stored")  # the store's write
        assert _played(found, table, "table opened")
        assert len(records[table]) >= 2
    # Every line about an action names the table it was played at, never the other one.
    for record in found:
        if " played " in record["message"]:
            assert record.get("table") in (first, second), record
            number = int(record["message"].rsplit("action ", 1)[1].rstrip(")"))
            text = record["message"].split(" played ", 1)[1].split(" (", 1)[0]
            played_here = records[record["table"]][number - 1]
            assert text in json.dumps(played_here), (record, played_here)


def _wait_answering(port: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while True:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "fanfold serve did not answer"
        time.sleep(0.1)


def test_serve_writes_json_lines(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "fanfold", "serve", "--port", str(port)),
            *("--db", f"sqlite:///{tmp_path / 'x.db'}", "--log-format", "json"),
            *("--bot-workers", "1"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=subprocess_environment(),
    )
    try:
        _wait_answering(port, process)
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=60)
    records: list[JSON] = []
    for line in errors.splitlines():
        if TRACKER in line:
            continue  # Python's helper process at the server's exit (docs/deploy.md, "Logs")
        try:
            records.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"not a JSON line: {line!r}") from None
    assert records, errors
    for record in records:
        assert {"time", "level", "logger", "message", "pid"} <= set(record), record
    # The new store's migrations ran: Alembic's lines are JSON lines too.
    assert any(r["logger"] == "alembic.runtime.migration" for r in records), errors
    serving = [r for r in records if r["message"].startswith("fanfold is serving on")]
    assert serving
    assert serving[0]["pid"] == process.pid
    assert serving[0]["logger"] == "fanfold.server.progress"
    assert "table" not in serving[0]


def test_an_unknown_log_format_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fanfold", "serve", "--db", f"sqlite:///{tmp_path / 'x.db'}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(subprocess_environment(), FANFOLD_LOG_FORMAT="xml"),
        timeout=120,
    )
    assert done.returncode == 2
    assert "'xml' is not one of 'text', 'json'" in done.stderr
    assert not (tmp_path / "x.db").exists()


def test_the_text_lines_start_at_the_level_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", list(root.handlers))  # put back at the end
    monkeypatch.setenv(ENVIRONMENT, "json")
    monkeypatch.setenv(LEVEL_ENVIRONMENT, "warning")
    level, shown = root.level, warnings.showwarning
    try:
        configure("text")
        assert os.environ[ENVIRONMENT] == "text"  # the bot workers write plain text too
        assert root.level == logging.WARNING
        (handler,) = root.handlers
        assert isinstance(handler.formatter, TextFormatter)
        monkeypatch.delenv(LEVEL_ENVIRONMENT)
        configure("text")
        assert root.level == logging.INFO  # the default, as for JSON
        assert warnings.showwarning is not shown  # Python's warnings become lines too
    finally:
        root.setLevel(level)
        logging.captureWarnings(False)


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_the_supervisors_lines_are_written_as_its_processes_are(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], log_format: str
) -> None:
    """``fanfold serve --processes N``'s own lines (a process started, ready) are log lines
    at INFO in either format, named by the supervisor, as its processes' are; below the level
    asked for, none."""
    monkeypatch.delenv(LEVEL_ENVIRONMENT, raising=False)
    configure("json" if log_format == "json" else "text", "supervisor")
    log = logging.getLogger("fanfold.supervisor")
    say(log, logging.INFO, "s1 started on port 8001 (pid 4242)")
    say(log, logging.WARNING, "s2 stopped (exit status 1): started again in 1 s")
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 2, lines
    if log_format == "json":
        entries = [json.loads(line) for line in lines]
        assert [(e["level"], e["process_name"]) for e in entries] == [
            ("INFO", "supervisor"),
            ("WARNING", "supervisor"),
        ]
    else:
        assert " INFO fanfold.supervisor [supervisor " in lines[0]
        assert lines[0].endswith("] s1 started on port 8001 (pid 4242)")
        assert " WARNING fanfold.supervisor [supervisor " in lines[1]
    monkeypatch.setenv(LEVEL_ENVIRONMENT, "warning")
    configure("json" if log_format == "json" else "text", "supervisor")
    say(log, logging.INFO, "s1 ready")
    assert capsys.readouterr().err == ""


def test_a_text_line_holds_the_time_level_logger_message_and_fields() -> None:
    stream = io.StringIO()
    logger = logging.getLogger("fanfold.test.text")
    handler = text_handler(stream)
    logger.addHandler(handler)
    try:
        with about("t1 t2"):
            logger.warning("stored %d", 2, extra={"route": "/api/tables/{table_id}", "ms": 1.5})
    finally:
        logger.removeHandler(handler)
    line = stream.getvalue()
    assert line.endswith("\n"), line
    assert line.count("\n") == 1, line
    when, level, name, rest = line.split(" ", 3)
    assert when.endswith("+00:00")
    assert (level, name) == ("WARNING", "fanfold.test.text")
    assert f" {os.getpid()}] stored 2 route=/api/tables/{{table_id}} ms=1.5" in rest
    assert rest.rstrip().endswith('table="t1 t2"')


def test_the_json_lines_start_at_the_level_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", list(root.handlers))  # put back at the end
    monkeypatch.setenv(ENVIRONMENT, "text")
    monkeypatch.setenv(LEVEL_ENVIRONMENT, "debug")
    level, shown = root.level, warnings.showwarning
    try:
        configure("json")
        assert root.level == logging.DEBUG
        assert len(root.handlers) == 1
        monkeypatch.delenv(LEVEL_ENVIRONMENT)
        configure("json")
        assert root.level == logging.INFO  # the default
        assert warnings.showwarning is not shown  # Python's warnings become lines too
    finally:
        root.setLevel(level)
        logging.captureWarnings(False)


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_an_unknown_log_level_is_refused(tmp_path: Path, log_format: str) -> None:
    done = subprocess.run(
        [
            *(sys.executable, "-m", "fanfold", "serve", "--log-format", log_format),
            *("--db", f"sqlite:///{tmp_path / 'x.db'}", "--port", str(free_port())),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(subprocess_environment(), FANFOLD_LOG_LEVEL="chatty"),
        timeout=120,
    )
    assert done.returncode == 2
    assert "FANFOLD_LOG_LEVEL='CHATTY' is no log level" in done.stderr
    assert not (tmp_path / "x.db").exists()


def test_serve_writes_text_lines_by_default(tmp_path: Path) -> None:
    """The default format logs what JSON does, a line each: the access lines, and the stop
    (a lone process keeps its tables in the store)."""
    port = free_port()
    environment = subprocess_environment()
    for name in (ENVIRONMENT, LEVEL_ENVIRONMENT, NAME_ENVIRONMENT):
        environment.pop(name, None)
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "fanfold", "serve", "--port", str(port)),
            *("--db", f"sqlite:///{tmp_path / 'x.db'}", "--bot-workers", "1"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=environment,
    )
    try:
        _wait_answering(port, process)
        table = httpx.post(
            f"http://127.0.0.1:{port}/api/tables",
            json={"game": "morris", "seats": ["you", "random"], "seed": 1},
            timeout=30,
        )
        assert table.status_code == 200, table.text
        assert httpx.get(f"http://127.0.0.1:{port}/api/tables/zzz").status_code == 404
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=60)
    access = [line for line in errors.splitlines() if " INFO fanfold.access [serve " in line]
    assert any(
        "GET /api/tables/zzz 404 " in line
        and " route=/api/tables/{table_id} status=404 " in line
        and line.endswith(" table=zzz")
        for line in access
    ), errors
    assert len([line for line in access if "/api/tables/zzz" in line]) == 1  # never doubled
    assert "stopping: 1 table kept in the store for the next start" in errors, errors
    assert "other processes" not in errors
