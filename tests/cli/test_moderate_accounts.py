"""``fanfold moderate grant/revoke/close/reopen/flags/reports/appeals/log`` on a server's store:
roles, closing and reopening with notes, refunds once, the lists with the accounts' names, the
reading commands leaving the store as it was, and clear errors (a bad URL, a missing file, a
foreign database, a store older than the moderation tables, an unknown account)."""

from __future__ import annotations

import hashlib
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.server.accounts import MODERATOR, PLAYER
from fanfold.server.moderation import closed_account_keys
from fanfold.server.ratings import RatedGame
from fanfold.server.store import (
    Store,
    accounts,
    appeals,
    fairplay_flags,
    make_engine,
    moderation_log,
    rating_refunds,
    ratings,
    reports,
    sessions,
)
from fanfold.server.store.engine import MIGRATIONS
from tests.server.support import sqlite_url
from tests.server.test_store import (
    postgres_cluster,  # noqa: F401 (fixture)
    store_url,  # noqa: F401 (fixture)
)

runner = CliRunner()


def moderate(*words: str) -> Any:
    return runner.invoke(app, ["moderate", *words])


def _fill(store: Store) -> None:
    """Three accounts (alice, bob, carol), a session of bob's, a rated Morris game bob won
    against alice, a flag of alice and bob, a report of carol's about bob and an appeal."""
    now = time.time()
    with store.engine.begin() as connection:
        connection.execute(
            accounts.insert(),
            [
                {"id": n, "name": name, "name_key": name, "password_hash": "x", "created": now}
                for n, name in ((1, "alice"), (2, "bob"), (3, "carol"))
            ],
        )
        connection.execute(
            sessions.insert().values(token_hash="h", account_id=2, created=now, expires=now + 60)
        )
        assert RatedGame("g1", "morris", "morris", ("a:1", "a:2"), ((0,), (1,)), (-1.0, 1.0)).apply(
            connection
        )
        connection.execute(
            fairplay_flags.insert().values(
                table_id="g1", kind="same-device", first_account=1, second_account=2, at=now
            )
        )
        connection.execute(
            reports.insert().values(
                reporter_id=3,
                reported_id=2,
                table_ref="g7",
                game="morris",
                seat=1,
                rated=True,
                moves=12,
                reason="abuse",
                note="rude",
                at=now,
            )
        )
        connection.execute(appeals.insert().values(account_id=1, note="let me back", at=now))


@pytest.fixture
def url(store_url: str) -> str:  # noqa: F811 (the imported fixture, by name)
    """A store (SQLite or PostgreSQL) with :func:`_fill`'s rows."""
    store = Store(store_url)
    _fill(store)
    store.close()
    return store_url


def _rows(url: str, table: sa.Table) -> list[Any]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return list(connection.execute(sa.select(table)).all())
    finally:
        engine.dispose()


def _account(url: str, name: str) -> Any:
    return next(row for row in _rows(url, accounts) if row.name == name)


def test_roles_are_granted_and_revoked_and_logged(url: str) -> None:
    granted = moderate("grant", "ALICE", "--db", url, "--note", "trusted")
    assert granted.exit_code == 0, granted.output
    assert "alice is a moderator now." in granted.output
    assert _account(url, "alice").role == MODERATOR
    again = moderate("grant", "alice", "--db", url)
    assert again.exit_code == 2
    assert "alice is a moderator already" in again.output
    unknown = moderate("grant", "nobody", "--db", url)
    assert unknown.exit_code == 2
    assert "no account is called 'nobody'" in unknown.output
    revoked = moderate("revoke", "alice", "--db", url)
    assert revoked.exit_code == 0, revoked.output
    assert _account(url, "alice").role == PLAYER
    assert moderate("revoke", "alice", "--db", url).exit_code == 2
    logged = [(row.action, row.account, row.note) for row in _rows(url, moderation_log)]
    assert logged == [("grant", "alice", "trusted"), ("revoke", "alice", "")]
    shown = moderate("log", "--db", url)
    assert shown.exit_code == 0, shown.output
    assert "grant" in shown.output
    assert "revoke" in shown.output
    assert "trusted" in shown.output


def test_closing_needs_a_note_ends_sessions_refunds_once_and_reopening_keeps_it(
    url: str,
) -> None:
    missing = moderate("close", "bob", "--db", url)
    assert missing.exit_code == 2
    assert "--note" in missing.output
    blank = moderate("close", "bob", "--db", url, "--note", "  ")
    assert blank.exit_code == 2
    assert "a note is needed" in blank.output
    assert not _account(url, "bob").closed

    closed = moderate("close", "bob", "--db", url, "--note", "engine use")
    assert closed.exit_code == 0, closed.output
    assert "bob is closed: 1 session(s) ended, 1 report(s) settled" in closed.output
    assert "alice" in closed.output  # the refund's line
    assert _account(url, "bob").closed
    assert _rows(url, sessions) == []
    refunds = _rows(url, rating_refunds)
    assert [(row.rated_table, row.player) for row in refunds] == [("g1", "a:1")]
    mu = next(row.mu for row in _rows(url, ratings) if row.player == "a:1")
    assert mu == pytest.approx(1500.0)  # alice lost her only game to bob: all of it back
    assert _rows(url, reports)[0].resolution == "account closed: engine use"

    assert moderate("reopen", "alice", "--db", url, "--note", "x").exit_code == 2  # not closed
    reopened = moderate("reopen", "bob", "--db", url, "--note", "appeal heard")
    assert reopened.exit_code == 0, reopened.output
    assert "refunds stay given" in reopened.output
    assert not _account(url, "bob").closed
    assert _rows(url, rating_refunds) == refunds
    again = moderate("close", "bob", "--db", url, "--note", "again")
    assert again.exit_code == 0, again.output
    assert "0.0 point(s) given back over 0 refund(s)" in again.output
    assert _rows(url, rating_refunds) == refunds
    engine = make_engine(url)
    with engine.connect() as connection:
        assert closed_account_keys(connection) == {"a:2"}
    engine.dispose()
    log = moderate("log", "--db", url)
    assert log.exit_code == 0, log.output
    for words in ("close", "reopen", "engine use", "appeal heard", "command line"):
        assert words in log.output


def test_the_lists_name_the_accounts_and_only_read(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    store = Store(url)
    _fill(store)
    store.close()

    def files() -> dict[str, str]:
        """The store's file, and its write-ahead log if it has one with anything in it (a
        read-only reader of a WAL store may leave an empty one, and the shared-memory index)."""
        return {
            path.name: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(tmp_path.iterdir())
            if path.is_file() and not path.name.endswith("-shm")
            if not path.name.endswith("-wal") or path.stat().st_size
        }

    before = files()
    flags = moderate("flags", "--db", url)
    assert flags.exit_code == 0, flags.output
    assert "same-device" in flags.output
    assert "alice" in flags.output
    assert "bob" in flags.output
    found = moderate("reports", "--db", url)
    assert found.exit_code == 0, found.output
    for words in ("abuse", "rude", "carol", "bob", "g7", "12 moves when filed"):
        assert words in found.output
    appealed = moderate("appeals", "--db", url)
    assert appealed.exit_code == 0, appealed.output
    assert "let me back" in appealed.output
    empty = moderate("log", "--db", url)
    assert empty.exit_code == 0, empty.output
    assert "The log is empty." in empty.output
    assert files() == before

    assert moderate("close", "bob", "--db", url, "--note", "abuse").exit_code == 0
    settled = moderate("reports", "--db", url)
    assert "No open reports." in settled.output
    everything = moderate("reports", "--db", url, "--all")
    assert "account closed: abuse" in everything.output
    assert "bob (closed)" in moderate("flags", "--db", url).output


def test_clear_errors_for_a_bad_url_a_foreign_or_old_database(tmp_path: Path) -> None:
    for words in (["grant", "alice"], ["flags"], ["reports"], ["log"]):
        bad = moderate(*words, "--db", "not a url")
        assert bad.exit_code == 2
        assert "--db is no database URL: give sqlite:///" in bad.output
        missing = moderate(*words, "--db", sqlite_url(tmp_path, "missing.db"))
        assert missing.exit_code == 2
        assert "there is no SQLite file at" in missing.output
        assert not (tmp_path / "missing.db").exists()
    with sqlite3.connect(tmp_path / "other.db") as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    for words in (["close", "bob", "--note", "x"], ["log"]):
        foreign = moderate(*words, "--db", sqlite_url(tmp_path, "other.db"))
        assert foreign.exit_code == 2
        assert "holds no fanfold store" in foreign.output

    old = sqlite_url(tmp_path, "old.db")
    engine = make_engine(old)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0005")
    engine.dispose()
    for words in (["grant", "alice"], ["flags"], ["log"]):
        older = moderate(*words, "--db", old)
        assert older.exit_code == 2
        assert "older than this fanfold" in older.output
        assert "fanfold serve" in older.output


def test_the_store_is_named_by_db_file_or_the_environment(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As fanfold serve takes it: a URL with a password never needs the command line."""
    monkeypatch.delenv("FANFOLD_DB_URL", raising=False)
    url_file = tmp_path / "db-url"
    url_file.write_text(url + "\n")
    granted = moderate("grant", "alice", "--db-file", str(url_file), "--note", "by file")
    assert granted.exit_code == 0, granted.output
    assert _account(url, "alice").role == MODERATOR
    monkeypatch.setenv("FANFOLD_DB_URL", url)
    for words in (["log", "--limit", "1"], ["flags"], ["reports"], ["appeals"], ["assistance"]):
        read = moderate(*words)
        assert read.exit_code == 0, (words, read.output)
    assert "by file" in moderate("log").output
    revoked = moderate("revoke", "alice")
    assert revoked.exit_code == 0, revoked.output
    other = moderate("log", "--db", sqlite_url(tmp_path, "other.db"))
    assert other.exit_code == 2, other.output
    assert "name different databases" in " ".join(other.output.split())
    helped = runner.invoke(app, ["moderate", "close", "--help"])
    assert "--db-file" in helped.output


def test_the_help_names_every_command() -> None:
    group = runner.invoke(app, ["moderate", "--help"])
    assert group.exit_code == 0
    for name in ("grant", "revoke", "close", "reopen", "flags", "reports", "appeals", "log"):
        assert name in group.output
    close = runner.invoke(app, ["moderate", "close", "--help"])
    assert close.exit_code == 0
    assert "--note" in close.output
    assert "back" in close.output
