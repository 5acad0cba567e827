"""``fanfold check-config``: with ``fanfold serve``'s own options it says, without changing
anything, whether ``fanfold serve`` would take them (exit 2 if not), whether the store answers
and its schema is one this fanfold serves (exit 3 if not), and whether HAProxy's file was
rendered for these processes and passes ``haproxy -c`` (exit 4 if not), and whether a key
file's signing key is the store's (exit 78 if not, as ``fanfold serve``), each with a
sentence."""

from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from fanfold.cli.check_config import FLAGS, HAPROXY, KEY, STORE, haproxy_servers
from fanfold.cli.common import store_words
from fanfold.cli.serve import KEY_MISMATCH_STATUS, check_key_file
from fanfold.server.signing_keys import (
    FINGERPRINT_NAME,
    KEY_FILE_VARIABLE,
    fingerprint,
    mismatch,
)
from fanfold.server.store import Store
from fanfold.server.store.engine import CONTRACT, EXPAND
from tests.deploy.support import fanfold, tool
from tests.server.support import sqlite_url
from tests.server.test_haproxy_config import make_certificate, privileges
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)
from tests.server.test_upgrades import NEWER, _newer_release

#: A PostgreSQL URL whose socket folder does not exist: nothing answers there.
NOWHERE = "postgresql+psycopg://fanfold@/fanfold?host=/nonexistent/socket/folder"


@pytest.fixture(autouse=True)
def _no_url_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("FANFOLD_DB_URL", "FANFOLD_ALLOCATOR", "FANFOLD_PUBLIC_ORIGIN"):
        monkeypatch.delenv(variable, raising=False)


def check(*arguments: str) -> tuple[int, str]:
    result = fanfold("check-config", *arguments)
    return result.exit_code, result.output


def haproxy_file(folder: Path, processes: int, *options: str) -> Path:
    out = folder / "haproxy.cfg"
    made = fanfold(
        *("deploy", "haproxy", "--processes", str(processes), "--base-port", "8001"),
        *("--health-base-port", "9001", *options, "--out", str(out)),
    )
    assert made.exit_code == 0, made.output
    return out


def test_a_lone_process_on_a_new_sqlite_file(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "not-yet", "site.db")
    code, said = check("--port", "8001", "--db", url)
    assert code == 0, said
    assert "ok: fanfold serve's options: 1 process on 127.0.0.1, ports 8001" in said
    store = tmp_path / "not-yet" / "site.db"
    assert f"warning: the store: no store yet at {store}: fanfold serve makes" in said
    assert "if a backup was to be restored there, it is not there" in " ".join(said.split())
    reviews = tmp_path / "not-yet" / "site-reviews.sqlite3"
    assert f"ok: the reviews: to be kept in {reviews}, made by fanfold serve at start" in said
    assert not (tmp_path / "not-yet").exists()  # nothing made


def test_a_store_up_to_date_and_one_behind(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    Store(url).close()
    code, said = check("--db", url)
    assert code == 0, said
    assert "its schema is up to date" in said
    reviews = tmp_path / "fanfold-reviews.sqlite3"
    assert f"ok: the reviews: kept in {reviews}, beside the store's file: back up both" in said
    with sqlite3.connect(tmp_path / "fanfold.db") as connection:
        (head,) = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        connection.execute("UPDATE alembic_version SET version_num = 'f00dfeedbeef'")
        connection.execute("DELETE FROM fanfold_schema")  # it says nothing of what it serves
    code, said = check("--db", url)
    assert code == STORE
    assert "schema is at revision f00dfeedbeef, newer than this fanfold knows" in said
    assert "it does not say which older releases it serves" in said
    assert head != "f00dfeedbeef"


def test_a_newer_schema_is_taken_while_it_still_serves_this_release(tmp_path: Path) -> None:
    expanded = _newer_release(tmp_path / "expand", EXPAND)
    code, said = check("--db", expanded)
    assert code == 0, said
    assert f"its schema is at revision {NEWER}, newer than this fanfold's" in said
    assert "serves releases from revision" in said
    contracted = _newer_release(tmp_path / "contract", CONTRACT)
    code, said = check("--db", contracted)
    assert code == STORE, said
    refusal = [line for line in said.splitlines() if f"revision {NEWER}" in line]
    assert len(refusal) == 1  # one sentence
    assert f"it serves fanfold releases from revision {NEWER} on" in refusal[0]
    assert "run the newer fanfold that migrated it" in refusal[0]


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("--no-such-option",), "No such option: --no-such-option"),
        (("--port", "70000"), "'--port'"),
        (("--processes", "2"), "--processes 2 needs a PostgreSQL store"),
        (("--processes", "2", "--db", NOWHERE, "--health-port", "8001"), "overlap"),
        (("--server-name", "no spaces"), "server name"),
        (("--trusted-proxy", "not-an-address"), "--trusted-proxy"),
        (("--public-origin", "ftp://x"), "--public-origin"),
        (("--host", "192.0.2.1"), "--host 192.0.2.1: not an address of this machine"),
        (("--host", "nohost.invalid"), "--host nohost.invalid: no address of this machine has"),
    ],
)
def test_options_fanfold_serve_refuses(arguments: tuple[str, ...], said: str) -> None:
    code, output = check("--no-store", *arguments)
    assert code == FLAGS, output
    assert said in output
    assert output.startswith("error: fanfold serve's options: ")


def test_a_database_url_given_two_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FANFOLD_DB_URL", sqlite_url(tmp_path, "a.db"))
    code, said = check("--db", sqlite_url(tmp_path, "b.db"))
    assert code == FLAGS
    assert "name different databases" in said


def test_a_store_that_does_not_answer(tmp_path: Path) -> None:
    code, said = check("--processes", "2", "--db", NOWHERE, "--store-timeout", "2")
    assert code == STORE, said
    assert "ok: fanfold serve's options: 2 processes" in said
    assert "error: the store: the store at postgresql+psycopg://fanfold@/fanfold" in said
    assert "cannot be reached" in said
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(b"not a database at all, " * 100)
    code, said = check("--db", f"sqlite:///{damaged}")
    assert code == STORE
    assert "cannot be opened: file is not a database" in said


def test_a_postgresql_store_that_answers(pg_url: str) -> None:  # noqa: F811 (fixture)
    code, said = check("--processes", "2", "--db", pg_url, "--health-port", "9001")
    assert code == 0, said
    assert "answers; its schema is up to date" in said
    assert "the reviews" not in said  # kept in the database itself


def test_haproxy_file_for_these_processes(tmp_path: Path) -> None:
    config = haproxy_file(tmp_path, 2)
    servers = haproxy_servers(config.read_text())
    assert servers["pages"] == {"s1": (8001, 9001), "s2": (8002, 9002)}
    assert servers["tables"] == {"s1": (8001, 9001), "s2": (8002, 9002)}  # backups left out
    common = ("--db", NOWHERE, "--no-store", "--haproxy", str(config), "--no-haproxy-check")
    code, said = check("--processes", "2", "--port", "8001", "--health-port", "9001", *common)
    assert code == 0, said
    assert "ok: HAProxy: HAProxy's file" in said
    code, said = check("--processes", "3", "--port", "8001", "--health-port", "9001", *common)
    assert code == HAPROXY
    assert "it has no server s3 (port 8003)" in said
    assert "fanfold deploy haproxy --processes 3 --base-port 8001 --health-base-port 9001" in said
    code, said = check("--processes", "2", "--port", "8011", "--health-port", "9001", *common)
    assert code == HAPROXY
    assert "its server s1 is on port 8001, not 8011" in said
    code, said = check("--processes", "2", "--port", "8001", *common)
    assert code == HAPROXY
    assert "no --health-port" in said
    code, said = check("--processes", "2", "--port", "8001", "--server-name", "b", *common)
    assert code == HAPROXY


def test_a_missing_haproxy_file(tmp_path: Path) -> None:
    code, said = check("--db", NOWHERE, "--no-store", "--haproxy", str(tmp_path / "none.cfg"))
    assert code == HAPROXY
    assert "cannot be read" in said


def test_haproxy_checks_the_file(tmp_path: Path) -> None:
    """``haproxy -c`` runs on the file: it accepts the rendered file with its certificate, and
    refuses it without (the sentence is HAProxy's)."""
    tool("haproxy", "haproxy")
    certificate = make_certificate(tmp_path)
    config = haproxy_file(
        tmp_path,
        2,
        *("--certificate", str(certificate), "--stats-socket", str(tmp_path / "admin.sock")),
        *privileges(),
    )
    serving = ("--processes", "2", "--port", "8001", "--health-port", "9001", "--db", NOWHERE)
    code, said = check(*serving, "--no-store", "--haproxy", str(config))
    assert code == 0, said
    assert "haproxy -c accepts it" in said
    certificate.unlink()
    code, said = check(*serving, "--no-store", "--haproxy", str(config))
    assert code == HAPROXY
    assert "refuses it" in said
    assert "SSL certificate" in said


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_key_files_signing_key_against_the_stores_fingerprint(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    """``--key-file PATH``: the file's signing key against the fingerprint in ``server_keys``,
    read only: none stored yet is no fault (and none is stored by the check); another key
    is refused with exit 78 and ``fanfold serve``'s own sentence, the stored one unchanged."""
    # Absent during the test and after it: set first, so that the variable's absence is
    # what is put back (fanfold serve's check writes it into the environment).
    monkeypatch.setenv(KEY_FILE_VARIABLE, "")
    monkeypatch.delenv(KEY_FILE_VARIABLE)
    url = sqlite_url(tmp_path) if kind == "sqlite" else str(request.getfixturevalue("pg_url"))
    Store(url).close()
    old, new = secrets.token_urlsafe(48), secrets.token_urlsafe(48)
    first = tmp_path / "first"
    first.write_text(f"{old}\n")
    rotated = tmp_path / "rotated"
    rotated.write_text(f"{new}\n{old}\n")

    code, said = check("--db", url, "--key-file", str(first))
    assert code == 0, said
    assert f"fingerprint {fingerprint(old)}): the store knows none yet" in " ".join(said.split())
    assert stored_fingerprint(url) is None  # the check stored nothing

    check_key_file(url, first)  # fanfold serve's first start with the file stores it
    monkeypatch.delenv(KEY_FILE_VARIABLE, raising=False)
    code, said = check("--db", url, "--key-file", str(first))
    assert code == 0, said
    assert f"is the store's (fingerprint {fingerprint(old)})" in " ".join(said.split())

    code, said = check("--db", url, "--key-file", str(rotated))
    assert code == KEY == KEY_MISMATCH_STATUS == 78, said
    sentence = str(mismatch(rotated, fingerprint(new), fingerprint(old), store_words(url, None)))
    assert sentence in " ".join(said.split())
    assert f"fanfold keys rotate --key-file {rotated} --db " in sentence  # this store
    served = fanfold("serve", "--db", url, "--key-file", str(rotated))
    assert served.exit_code == KEY_MISMATCH_STATUS, served.output
    assert sentence in " ".join(served.output.split())  # the same sentence
    assert stored_fingerprint(url) == fingerprint(old)  # unchanged

    code, said = check("--db", url, "--key-file", str(tmp_path / "none"))
    assert code == FLAGS, said
    assert "cannot be read" in said
    # named by the environment, as fanfold serve reads it
    monkeypatch.setenv(KEY_FILE_VARIABLE, str(rotated))
    code, said = check("--db", url)
    assert code == KEY, said


def test_a_database_of_another_application_is_refused(tmp_path: Path) -> None:
    """A database with tables and no fanfold schema (a wrong file restored, another
    application's): check-config refuses it, and fanfold serve adds nothing to it."""
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE foo (x INTEGER)")
    url = sqlite_url(tmp_path, "other.db")
    code, said = check("--db", url)
    assert code == STORE, said
    assert "holds tables that are not fanfold's (foo)" in " ".join(said.split())
    served = fanfold("serve", "--db", url)
    assert served.exit_code == 1, served.output
    assert "holds tables that are not fanfold's (foo)" in " ".join(served.output.split())
    rotated = fanfold("keys", "rotate", "--key-file", str(other), "--db", url)
    assert rotated.exit_code != 0, rotated.output
    with sqlite3.connect(other) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert tables == {"foo"}  # nothing added


def test_a_store_readable_by_other_users_is_warned_about(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    Store(url).close()
    code, said = check("--db", url)
    assert code == 0, said
    assert "can be read by every user" not in said  # made 0600
    (tmp_path / "fanfold.db").chmod(0o644)
    code, said = check("--db", url)
    assert code == 0, said
    assert f"chmod 600 {tmp_path / 'fanfold.db'}" in " ".join(said.split())
    assert (tmp_path / "fanfold.db").stat().st_mode & 0o777 == 0o644  # left as it was


def stored_fingerprint(url: str) -> str | None:
    """The signing key's fingerprint the store keeps (``server_keys``), if any."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            found = connection.execute(
                sa.text("SELECT value FROM server_keys WHERE name = :name"),
                {"name": FINGERPRINT_NAME},
            ).scalar()
    finally:
        engine.dispose()
    return None if found is None else str(found)
