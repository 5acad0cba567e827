"""When the store fails: the player gets a short sentence with an error id (never the
database's own text, with its host, port and SQL), the log gets the id and the whole
exception, and a refused write leaves no gap in the table's versions."""

from __future__ import annotations

import ast
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from fanfold.core.errors import TEMPLATES, template_fields
from fanfold.server import i18n
from fanfold.server.hub import basics
from fanfold.server.live import StorageError, storage_failure
from fanfold.server.ownership import ElsewhereError
from fanfold.server.store import Store
from fanfold.server.store.account_store import SqlAccounts
from tests.server.support import act, hello, look, open_table, receive, refused, serve

HOST, PORT = "db-7.example.internal", "6543"
SQL = "INSERT INTO actions (table_id, number, seat, text) VALUES"


def _database_down(*_args: Any, **_kwargs: Any) -> None:
    raise OperationalError(
        SQL,
        {"table_id": "x"},
        Exception(
            f'connection to server at "{HOST}" (10.1.2.3), port {PORT} failed: '
            "server closed the connection unexpectedly"
        ),
    )


def _error_id(sentence: str) -> str:
    for leaked in (HOST, PORT, "INSERT", "actions"):
        assert leaked not in sentence, sentence
    assert "10.1.2.3" not in sentence, sentence
    found = re.search(r"error ([0-9a-f]{8})\b", sentence)
    assert found is not None, sentence
    return found.group(1)


def test_a_storage_error_tells_the_player_an_id_and_the_log_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    with serve(tmp_path) as client:
        created = open_table(client, game="morris", seats=["you", "hotseat"], seed=1)
        table, token = created["table"], created["token"]
        monkeypatch.setattr(Store, "append_many", _database_down)
        body = refused(act(client, table, token, "C1", version=0), 503)
        assert body["kind"] == "StorageError"
        assert body["error"].startswith("the move could not be stored")
        error_id = _error_id(body["error"])
        # a code and params, what was being done a refusal inside: a page words it in French
        assert (body["code"], body["params"]) == (
            "store.failed",
            {"doing": {"code": "store.move", "params": {}}, "error": error_id},
        )
        assert i18n.messages("fr").worded(body) == (
            f"le coup n\u2019a pas pu être enregistré : le stockage a échoué (erreur {error_id})"
            " ; réessayez"
        )
        logged = [r for r in caplog.records if error_id in r.getMessage()]
        assert len(logged) == 1
        assert logged[0].exc_info is not None  # the whole exception, with its traceback
        for detail in (HOST, PORT, SQL):
            assert detail in caplog.text

        with client.websocket_connect(f"/ws/tables/{table}") as socket:
            hello(socket, token)
            socket.send_json({"type": "act", "version": 0, "action": "C1"})
            answer = receive(socket)
            assert (answer["type"], answer["kind"]) == ("error", "StorageError")
            assert answer["code"] == "store.failed"
            other_id = _error_id(answer["error"])
            assert other_id != error_id
            assert other_id in caplog.text
        assert look(client, table, token)["version"] == 0  # nothing changed


def test_a_refused_write_leaves_no_gap_in_the_versions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(tmp_path) as client:
        created = open_table(client, game="morris", seats=["you", "hotseat"], seed=1)
        table, token = created["table"], created["token"]
        assert act(client, table, token, "C1", version=0).json()["version"] == 1
        with monkeypatch.context() as patched:
            patched.setattr(Store, "append_many", _database_down)
            refused(act(client, table, token, "T2", version=1), 503)
            refused(act(client, table, token, "T2", version=1), 503)
        assert look(client, table, token)["version"] == 1
        answer = act(client, table, token, "T2", version=1)  # the version the player saw
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] == 2
        assert look(client, table, token)["version"] == 2
        hub = client.app.state.hub  # type: ignore[attr-defined]
        stored = hub.store.load(table)
        assert stored is not None
        assert (stored.version, len(stored.actions)) == (2, 2)


SERVER = Path(__file__).resolve().parents[2] / "src" / "fanfold" / "server"
#: The calls that name what was being done when the store failed, and where that name is.
FAILING = {"storage_failure": 0, "_storage_failure": 0, "_keep": 2, "_kept": 0}


def test_every_store_failure_a_player_sees_carries_a_code() -> None:
    """What a player is told when the store fails, or a table is held by another server
    process, is a refusal: ``storage_failure`` is given a ``store.*`` code that takes no
    params, and a storage error is raised with a refusal, never English alone."""
    named = 0
    for path in SERVER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in FAILING and len(node.args) > FAILING[name]:
                given = node.args[FAILING[name]]
                if isinstance(given, ast.Constant):
                    code = str(given.value)
                    assert code.startswith("store."), f"{path.name}:{node.lineno}"
                    assert template_fields(TEMPLATES[code]) == frozenset(), code
                    named += 1
            if name in ("StorageError", "ElsewhereError") and node.args:
                given = node.args[0]
                made = isinstance(given, ast.Call) and getattr(given.func, "id", "") in (
                    "refusal",
                    "Refusal",
                )
                assert made or getattr(given, "id", "") == "MOVED_ON", f"{path}:{node.lineno}"
    assert named > 20
    assert basics.MOVED_ON.code == "store.moved_on"
    failure = storage_failure("store.table", RuntimeError("the database's own words"))
    assert isinstance(failure, StorageError)
    assert failure.refusal is not None
    assert "database" not in str(failure)
    assert failure.refusal.to_json()["params"]["doing"] == {"code": "store.table", "params": {}}
    elsewhere = ElsewhereError(basics.MOVED_ON)
    assert i18n.messages("fr").text(elsewhere) == (
        "cette table a avancé dans un autre processus du serveur ; regardez à nouveau"
    )


def test_an_account_the_store_cannot_keep_is_a_coded_failure_in_french(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(tmp_path) as client:
        monkeypatch.setattr(SqlAccounts, "add_account", _database_down)
        answer = client.post("/api/accounts", json={"name": "alice", "password": "correct horse"})
        assert answer.status_code == 503, answer.text
        body = answer.json()
        error_id = _error_id(body["error"])
        assert body["error"].startswith("the account could not be made: the store failed")
        assert body["params"]["doing"] == {"code": "store.account_create", "params": {}}
        assert i18n.messages("fr").worded(body) == (
            f"le compte n\u2019a pas pu être créé : le stockage a échoué (erreur {error_id})"
            " ; réessayez"
        )
        monkeypatch.undo()
        made = client.post("/api/accounts", json={"name": "alice", "password": "correct horse"})
        assert made.status_code == 200, made.text  # nothing was kept: the name is free
        client.cookies.clear()  # signed out: a new sign-in
        monkeypatch.setattr(SqlAccounts, "find", _database_down)
        refused_in = client.post("/api/session", json={"name": "alice", "password": "x" * 9})
        assert refused_in.status_code == 503, refused_in.text
        assert refused_in.json()["params"]["doing"]["code"] == "store.account_read"
        # a refusal of the rules' own (a wrong password) is never told as the store's failure
        monkeypatch.undo()
        wrong = client.post("/api/session", json={"name": "alice", "password": "x" * 9})
        assert wrong.json()["code"] == "account.wrong"
