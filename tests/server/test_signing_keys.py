"""The keys that sign the session cookies: the store's own by default; in an operator's file
(``fanfold serve --key-file``) the first line signs and every line verifies, the signing key's
fingerprint is kept in the store at its first use and checked at every start (a start with
another signing key is refused with a sentence until ``fanfold keys rotate`` accepts it), and a
session signed by an older key stays signed in until its line leaves the file."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from fanfold.cli.app import app as cli
from fanfold.cli.serve import KEY_MISMATCH_STATUS, check_key_file
from fanfold.server.accounts import SESSION_COOKIE, Accounts
from fanfold.server.signing_keys import (
    FINGERPRINT_NAME,
    KEY_FILE_VARIABLE,
    KEY_NAME,
    KeyFileError,
    KeyMismatchError,
    SigningKeys,
    fingerprint,
    read_key_file,
)
from fanfold.server.store import Store
from fanfold.server.store.account_store import SqlAccounts
from tests.server.support import serve, sqlite_url
from tests.server.test_accounts import create, csrf
from tests.server.test_sign_in_limits import QUICK

OLD, NEW = secrets.token_urlsafe(48), secrets.token_urlsafe(48)


@pytest.fixture(autouse=True)
def _no_key_file_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # fanfold serve names its key file in the environment: absent again afterwards (set
    # first, so that its absence is what is put back).
    monkeypatch.setenv(KEY_FILE_VARIABLE, "")
    monkeypatch.delenv(KEY_FILE_VARIABLE)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(sqlite_url(tmp_path))
    yield opened
    opened.close()


def key_file(folder: Path, *keys: str, name: str = "keys") -> Path:
    path = folder / name
    path.write_text("# the first key signs\n" + "".join(f"{key}\n\n" for key in keys))
    return path


def test_a_key_file_holds_keys_one_a_line(tmp_path: Path) -> None:
    assert read_key_file(key_file(tmp_path, NEW, OLD)) == (NEW, OLD)
    with pytest.raises(KeyFileError, match="cannot be read"):
        read_key_file(tmp_path / "missing")
    with pytest.raises(KeyFileError, match="holds no key"):
        read_key_file(key_file(tmp_path))
    with pytest.raises(KeyFileError, match="12 characters on line 2: a key has at least 32"):
        read_key_file(key_file(tmp_path, "short-secret"))
    assert fingerprint(NEW) != fingerprint(OLD)
    assert len(fingerprint(NEW)) == 16


def test_without_a_file_the_store_keeps_the_key(store: Store) -> None:
    data = SqlAccounts(store.engine)
    first = SigningKeys.load(data, None)
    assert SigningKeys.load(data, None) == first  # every process, every restart
    assert first.accepted == (first.signing,)
    assert data.stored_key(KEY_NAME, "unused") == first.signing


def test_the_files_fingerprint_is_kept_at_first_use_and_checked_after(
    store: Store, tmp_path: Path
) -> None:
    data = SqlAccounts(store.engine)
    old = key_file(tmp_path, OLD, name="old")
    assert SigningKeys.load(data, old) == SigningKeys(OLD, (OLD,))
    assert data.stored_key(FINGERPRINT_NAME, "unused") == fingerprint(OLD)  # never the key
    # Another key added after the first: the same signing key, taken.
    assert SigningKeys.load(data, key_file(tmp_path, OLD, NEW, name="more")).accepted == (OLD, NEW)
    rotated = key_file(tmp_path, NEW, OLD, name="rotated")
    with pytest.raises(KeyMismatchError) as raised:
        SigningKeys.load(data, rotated)
    sentence = str(raised.value)
    assert f"fingerprint {fingerprint(NEW)}) is not the one this store knows" in sentence
    assert f"(fingerprint {fingerprint(OLD)})" in sentence
    assert f"fanfold keys rotate --key-file {rotated}" in sentence
    assert NEW not in sentence
    assert OLD not in sentence
    assert data.stored_key(FINGERPRINT_NAME, "unused") == fingerprint(OLD)  # nothing changed


def test_an_older_key_verifies_until_its_line_is_removed(store: Store) -> None:
    before = Accounts(store, hasher=QUICK, keys=SigningKeys(OLD, (OLD,)))
    token = asyncio.run(before.create("heidi", "password one"))[1]
    cookie = before.cookie_value(token)
    page = before.csrf_token(token)
    rotated = Accounts(store, hasher=QUICK, keys=SigningKeys(NEW, (NEW, OLD)))
    assert rotated.token_of(cookie) == token  # signed by the old key: still taken
    assert rotated.csrf_valid(token, page)  # a page loaded before the rotation
    fresh = rotated.cookie_value(token)
    assert fresh != cookie
    assert before.token_of(fresh) is None  # signed by the new key
    removed = Accounts(store, hasher=QUICK, keys=SigningKeys(NEW, (NEW,)))
    assert removed.token_of(fresh) == token
    assert removed.token_of(cookie) is None  # its key left the file: signed out
    assert not removed.csrf_valid(token, page)
    assert removed.csrf_valid(token, removed.csrf_token(token))


def test_serve_refuses_another_signing_key_until_it_is_rotated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = sqlite_url(tmp_path)
    old = key_file(tmp_path, OLD, name="old")
    check_key_file(url, old)  # the first start with a file: its fingerprint is kept
    rotated = key_file(tmp_path, NEW, OLD, name="rotated")
    runner = CliRunner()
    refused = runner.invoke(cli, ["serve", "--db", url, "--key-file", str(rotated)])
    assert refused.exit_code == KEY_MISMATCH_STATUS == 78, refused.output
    said = " ".join(refused.output.split())
    assert "is not the one this store knows" in said
    assert f"fanfold keys rotate --key-file {rotated} --db {url}" in said  # this store
    assert "Traceback" not in refused.output
    unusable = runner.invoke(cli, ["serve", "--db", url, "--key-file", str(tmp_path / "none")])
    assert unusable.exit_code == 2, unusable.output
    assert "cannot be read" in unusable.output
    done = runner.invoke(cli, ["keys", "rotate", "--key-file", str(rotated), "--db", url])
    assert done.exit_code == 0, done.output
    said = " ".join(done.output.split())
    assert f"fingerprint {fingerprint(NEW)} (it was {fingerprint(OLD)})" in said
    check_key_file(url, rotated)  # taken now, and named to the server's processes
    assert os.environ[KEY_FILE_VARIABLE] == str(rotated.resolve())
    monkeypatch.delenv(KEY_FILE_VARIABLE)
    with pytest.raises(typer.Exit) as stopped:  # the old file is refused now
        check_key_file(url, old)
    assert stopped.value.exit_code == KEY_MISMATCH_STATUS


def test_a_server_with_a_key_file_keeps_the_sessions_of_its_older_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_FILE_VARIABLE, str(key_file(tmp_path, OLD, name="old")))
    with serve(tmp_path) as client:
        create(client, "Alice")
        cookie = client.cookies[SESSION_COOKIE]
        headers = csrf(client)
    # The operator puts a new key first, keeps the old one after it, and accepts the change.
    rotated = key_file(tmp_path, NEW, OLD, name="rotated")
    done = CliRunner().invoke(
        cli, ["keys", "rotate", "--key-file", str(rotated), "--db", sqlite_url(tmp_path)]
    )
    assert done.exit_code == 0, done.output
    monkeypatch.setenv(KEY_FILE_VARIABLE, str(rotated))
    with serve(tmp_path) as client:
        client.cookies.set(SESSION_COOKIE, cookie)
        assert client.get("/api/account").json()["name"] == "Alice"
        # The page loaded before the rotation still changes state with its CSRF token.
        answer = client.post("/api/tables", json={"game": "morris"}, headers=headers)
        assert answer.status_code == 200, answer.text
    # The old key leaves the file: its sessions are signed out.
    monkeypatch.setenv(KEY_FILE_VARIABLE, str(key_file(tmp_path, NEW, name="new")))
    with serve(tmp_path) as client:
        client.cookies.set(SESSION_COOKIE, cookie)
        assert client.get("/api/account").json() == {"signed_in": False}


def test_keys_rotate_refuses_a_store_that_does_not_exist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store is made by fanfold serve: keys rotate on a missing one (a mistyped --db, or
    none given where the site's store is elsewhere) changes nothing, and makes nothing."""
    monkeypatch.delenv("FANFOLD_DB_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    rotated = key_file(tmp_path, NEW, name="rotated")
    for store in (["--db", sqlite_url(tmp_path / "none")], []):
        done = CliRunner().invoke(cli, ["keys", "rotate", "--key-file", str(rotated), *store])
        assert done.exit_code == 1, done.output
        assert "there is no SQLite file at" in done.output
    assert not (tmp_path / "none").exists()
    assert not (tmp_path / "data").exists()


def test_the_suggested_command_names_the_store_never_its_password(tmp_path: Path) -> None:
    from fanfold.cli.common import store_words
    from fanfold.server.signing_keys import mismatch

    url_file = tmp_path / "db-url"
    assert store_words(None, url_file) == f"--db-file {url_file}"
    assert store_words("sqlite:///x.db", None) == "--db sqlite:///x.db"
    masked = store_words("postgresql+psycopg://u:secret@h/db", None)
    assert "secret" not in masked
    assert masked.startswith("--db ")
    assert store_words(None, None) == ""  # FANFOLD_DB_URL or the default: rotate reads them too
    said = str(mismatch(tmp_path / "k", "a", "b", f"--db-file {url_file}"))
    assert said.endswith(f"fanfold keys rotate --key-file {tmp_path / 'k'} --db-file {url_file}")
