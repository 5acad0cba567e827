"""Upgrades with a schema change (issue 50, item 4): each migration declares itself expand or
contract, and expand ones only add; the schema records the oldest release it serves, so an
older process serves a newer expand-only schema and refuses any other with one sentence and
exit status 78; the supervisor starts a process that keeps stopping again after pauses that
double (1 s to 60 s), in JSON lines when the log is JSON."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.cli.serve import SCHEMA_TOO_NEW_STATUS, _ready, restart_delay
from fanfold.server.store import Store
from fanfold.server.store.engine import (
    CONTRACT,
    EXPAND,
    MIGRATIONS,
    SCHEMA_INFO,
    SchemaTooNewError,
    make_engine,
    serves_from,
    upgrade,
)
from tests.server.support import no_server_started, schema_head, sqlite_url

runner = CliRunner()


# ----------------------------------------------------------------- the supervisor's back-off


def test_the_restart_pause_doubles_up_to_a_minute() -> None:
    assert [restart_delay(stops) for stops in range(1, 10)] == [1, 2, 4, 8, 16, 32, 60, 60, 60]
    assert restart_delay(0) == 0
    assert restart_delay(10_000) == 60


_SUPERVISED = """
import os, signal, sys, threading
from fanfold.cli import serve
from fanfold.server.logs import configure

configure("json", "supervisor")
serve.RESTART_SECONDS = 0.1
serve._child_command = lambda *_: [sys.executable, "-c", "import sys; sys.exit(78)"]
threading.Timer(2.5, lambda: os.kill(os.getpid(), signal.SIGTERM)).start()
serve._supervise([8101], [], None, ["s1"], "sqlite://")
"""


def test_a_rolling_restart_waits_for_ready_and_then_for_warm_bots() -> None:
    """The supervisor's check of a restarted process: ready is a 200 from ``/ready``; warm is
    a 200 whose bots are no longer warming (an older answer without ``bots`` counts warm)."""
    answers: list[tuple[int, bytes]] = []

    class Answer(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status, body = answers.pop(0)
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    warming = json.dumps({"status": "ready", "tables": 0, "bots": "warming"}).encode()
    warm = json.dumps({"status": "ready", "tables": 0, "bots": "ready"}).encode()
    unready = json.dumps({"status": "unready", "reason": "draining"}).encode()
    try:
        cases = [
            ((200, warming), False, True),
            ((200, warming), True, False),
            ((200, warm), True, True),
            ((200, b'{"status": "ready"}'), True, True),
            ((503, unready), False, False),
            ((503, unready), True, False),
            ((200, b"not json"), True, False),
        ]
        for answer, wanting_warm, expected in cases:
            answers.append(answer)
            assert _ready("127.0.0.1", port, warm=wanting_warm) is expected, answer
    finally:
        server.shutdown()
        server.server_close()
    assert not _ready("127.0.0.1", port)  # nothing listens: not ready


def test_the_supervisor_backs_off_a_process_that_keeps_stopping_in_json() -> None:
    environment = {**os.environ, "FANFOLD_LOG_FORMAT": "json"}
    done = subprocess.run(
        [sys.executable, "-c", _SUPERVISED],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]
    assert lines
    assert all(line["process_name"] == "supervisor" for line in lines)
    assert not done.stdout.strip()  # nothing in plain text
    stops = [line["message"] for line in lines if "stopped" in line["message"]]
    pauses = [float(re.search(r"again in ([0-9.]+) s", stop)[1]) for stop in stops]  # type: ignore[index]
    assert 3 <= len(pauses) <= 6, stops  # 0.1 + 0.2 + 0.4 + 0.8 + ...: no spinning
    assert pauses == [0.1 * 2**n for n in range(len(pauses))]
    assert "(status 78): the store's schema is a newer release's" in stops[0]


# ----------------------------------------------------------------- expand and contract


def _script() -> ScriptDirectory:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config)


def _chain() -> list[Any]:
    return list(reversed(list(_script().walk_revisions())))


def test_every_migration_declares_expand_or_contract() -> None:
    kinds = {revision.revision: revision.module.KIND for revision in _chain()}
    assert set(kinds.values()) <= {EXPAND, CONTRACT}
    assert kinds["0002"] == CONTRACT  # seeds changed type


def _schema(connection: sa.Connection) -> dict[str, Any]:
    inspector = sa.inspect(connection)
    found: dict[str, Any] = {}
    for table in inspector.get_table_names():
        if table in ("alembic_version", SCHEMA_INFO):
            continue
        found[table] = {
            "columns": {
                column["name"]: (str(column["type"]), column["nullable"], column.get("default"))
                for column in inspector.get_columns(table)
            },
            "primary": tuple(inspector.get_pk_constraint(table)["constrained_columns"]),
            "indexes": {
                (index["name"], tuple(index["column_names"]))
                for index in inspector.get_indexes(table)
            },
        }
    return found


def _breaks(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What a migration from ``before`` to ``after`` does that an expand one may not."""
    problems: list[str] = []
    for table, old in before.items():
        new = after.get(table)
        if new is None:
            problems.append(f"table {table} dropped or renamed")
            continue
        if new["primary"] != old["primary"]:
            problems.append(f"{table}'s primary key changed")
        problems += [
            f"{table}'s index {index} dropped" for index in old["indexes"] - new["indexes"]
        ]
        for name, (kind, nullable, _default) in old["columns"].items():
            if name not in new["columns"]:
                problems.append(f"{table}.{name} dropped or renamed")
            elif new["columns"][name][:2] != (kind, nullable):
                problems.append(f"{table}.{name} altered: {kind} -> {new['columns'][name][0]}")
        for name, (_, nullable, default) in new["columns"].items():
            if name not in old["columns"] and not nullable and default is None:
                problems.append(f"{table}.{name} added NOT NULL without a server default")
    return problems


def test_expand_migrations_only_add(tmp_path: Path) -> None:
    engine = make_engine(sqlite_url(tmp_path))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    found: dict[str, list[str]] = {}
    try:
        with engine.connect() as connection:
            config.attributes["connection"] = connection
            before = _schema(connection)
            connection.commit()
            for revision in _chain():
                with connection.begin():
                    command.upgrade(config, revision.revision)
                after = _schema(connection)
                connection.commit()
                found[revision.revision] = _breaks(before, after)
                before = after
    finally:
        engine.dispose()
    kinds = {revision.revision: revision.module.KIND for revision in _chain()}
    assert {
        rev: problems for rev, problems in found.items() if kinds[rev] == EXPAND and problems
    } == {}
    assert any("seed altered" in problem for problem in found["0002"])  # the check sees it


# ----------------------------------------------------------------- older processes, newer schemas


def test_the_schema_records_the_oldest_release_it_serves(tmp_path: Path) -> None:
    assert serves_from() == ("0002", "0.1.0")
    store = Store(sqlite_url(tmp_path))
    try:
        with store.engine.connect() as connection:
            found = connection.execute(sa.text(f"SELECT name, value FROM {SCHEMA_INFO}")).all()
    finally:
        store.close()
    rows: dict[str, str] = {str(name): str(value) for name, value in found}
    assert rows == {"oldest_revision": "0002", "oldest_release": "0.1.0"}


_NEXT = '''
"""A newer release's migration."""

import sqlalchemy as sa
from alembic import op

revision = "{newer}"
down_revision = "{head}"
KIND = "{kind}"


def upgrade() -> None:
    op.create_table("newer_things", sa.Column("id", sa.Integer, primary_key=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("newer_note", sa.Text, nullable=True))
'''


#: This release's newest revision, and the one a newer release adds after it.
HEAD = schema_head()
NEWER = f"{int(HEAD) + 1:04d}"


def _newer_release(tmp_path: Path, kind: str) -> str:
    """A store migrated by a release one migration newer than this one, of ``kind``."""
    migrations = tmp_path / "newer"
    shutil.copytree(MIGRATIONS, migrations, ignore=shutil.ignore_patterns("__pycache__"))
    (migrations / "versions" / f"r{NEWER}_newer.py").write_text(
        textwrap.dedent(_NEXT.format(kind=kind, newer=NEWER, head=HEAD))
    )
    url = sqlite_url(tmp_path)
    engine = make_engine(url)
    try:
        upgrade(engine, migrations)
    finally:
        engine.dispose()
    return url


def test_an_older_release_serves_a_newer_expand_schema(tmp_path: Path) -> None:
    url = _newer_release(tmp_path, EXPAND)
    store = Store(url)  # this release's migrations end at HEAD
    try:
        assert store.unfinished() == []
        with store.engine.connect() as connection:
            version = connection.execute(sa.text("SELECT version_num FROM alembic_version")).all()
        assert [row[0] for row in version] == [NEWER]  # left as the newer release made it
    finally:
        store.close()


def test_an_older_release_refuses_a_newer_contract_schema(tmp_path: Path) -> None:
    url = _newer_release(tmp_path, CONTRACT)
    with pytest.raises(SchemaTooNewError) as raised:
        Store(url)
    sentence = str(raised.value)
    assert "\n" not in sentence
    assert (
        f"schema is at revision {NEWER}, newer than this fanfold knows (its newest is {HEAD})"
        in sentence
    )
    assert sentence.endswith(
        f"from revision {NEWER} on: run the newer fanfold that migrated it, "
        "or restore the backup taken before the upgrade (docs/upgrade.md)"
    )


def test_serve_refuses_a_newer_schema_with_a_sentence_and_status_78(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_server_started(monkeypatch, refuse="the server must not start on a schema it does not serve")
    url = _newer_release(tmp_path, CONTRACT)
    result = runner.invoke(app, ["serve", "--db", url])
    assert result.exit_code == SCHEMA_TOO_NEW_STATUS == 78, result.output
    assert f"schema is at revision {NEWER}" in result.output
    assert "Traceback" not in result.output


def test_serve_refuses_a_newer_schema_in_one_json_line(tmp_path: Path) -> None:
    url = _newer_release(tmp_path, CONTRACT)
    environment = {**os.environ, "FANFOLD_LOG_FORMAT": "json"}
    done = subprocess.run(
        [sys.executable, "-m", "fanfold", "serve", "--db", url, "--port", "8109"],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
    )
    assert done.returncode == 78, done.stderr
    # Every line the server writes is JSON (a library's warning at import may come first).
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    refusals = [line for line in lines if "exit_status" in line]
    assert [line["exit_status"] for line in refusals] == [78]
    assert refusals[0]["level"] == "ERROR"
    assert f"schema is at revision {NEWER}" in refusals[0]["message"]
    assert "Traceback" not in done.stderr


def test_the_upgrade_check_says_when_there_is_no_previous_release() -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "upgrade_check.sh"
    done = subprocess.run(
        [str(script), "no-such-tag-here"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("note: no previous release to check (no-such-tag-here is no")
