"""Opening the store: a damaged file or a database that cannot be reached is a sentence
(and ``fanfold serve`` stops with it, exit status 1), a SQLite file's missing folder is made,
and ``fanfold serve`` opens its store once (the application serves the store it checked)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.cli.serve import collector_off
from fanfold.core.errors import FanfoldError
from fanfold.server.app import create_app
from fanfold.server.store import Store, StoreOpenError
from tests.server.support import no_server_started, sqlite_url

runner = CliRunner()


def _garbage(folder: Path) -> Path:
    path = folder / "damaged.db"
    path.write_bytes(b"these bytes are not a SQLite database, whatever the name says\n" * 100)
    return path


def test_a_damaged_file_is_a_sentence(tmp_path: Path) -> None:
    path = _garbage(tmp_path)
    with pytest.raises(StoreOpenError) as raised:
        Store(f"sqlite:///{path}")
    assert isinstance(raised.value, FanfoldError)
    assert str(raised.value) == (
        f"the store at sqlite:///{path} cannot be opened: file is not a database"
    )


def test_a_password_is_not_shown(tmp_path: Path) -> None:
    url = "postgresql+psycopg://fanfold:s3cret@127.0.0.1:1/fanfold?connect_timeout=2"
    with pytest.raises(StoreOpenError) as raised:
        Store(url)
    sentence = str(raised.value)
    assert sentence.startswith("the store at postgresql+psycopg://fanfold:***@127.0.0.1:1/")
    assert "s3cret" not in sentence
    assert "\n" not in sentence


def test_a_missing_folder_is_made(tmp_path: Path) -> None:
    folder = tmp_path / "not" / "there" / "yet"
    store = Store(sqlite_url(folder))
    try:
        assert (folder / "fanfold.db").is_file()
        assert store.unfinished() == []
    finally:
        store.close()


def test_serve_stops_with_the_sentence_and_status_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_server_started(
        monkeypatch, refuse="the server must not start on a store that cannot be opened"
    )
    path = _garbage(tmp_path)
    result = runner.invoke(app, ["serve", "--db", f"sqlite:///{path}"])
    assert result.exit_code == 1, result.output
    assert "cannot be opened: file is not a database" in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_serve_makes_the_folder_of_its_sqlite_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[Any] = []
    no_server_started(monkeypatch, started)
    folder = tmp_path / "new" / "folder"
    result = runner.invoke(app, ["serve", "--db", sqlite_url(folder), "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert (folder / "fanfold.db").is_file()
    assert [config.port for config in started] == [8123]


def _counting_openings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs of the stores opened from now on (each :class:`Store` made)."""
    opened: list[str] = []
    real = Store.__init__

    def counting(self: Store, url: str) -> None:
        opened.append(url)
        real(self, url)

    monkeypatch.setattr(Store, "__init__", counting)
    return opened


def test_serve_opens_its_store_once_and_hands_it_to_the_application(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[Any] = []
    no_server_started(monkeypatch, started)
    keys = tmp_path / "keys"
    keys.write_text("k" * 48 + "\n")
    opened = _counting_openings(monkeypatch)
    url = sqlite_url(tmp_path)
    result = runner.invoke(app, ["serve", "--db", url, "--key-file", str(keys)])
    assert result.exit_code == 0, result.output
    assert opened == [url]  # checked, its key file checked, and served: one opening
    [config] = started
    handed = config.app.state.opened_store
    assert isinstance(handed, Store)
    assert handed.url == url
    handed.close()


def test_the_application_serves_the_store_it_was_handed_and_closes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(sqlite_url(tmp_path))
    opened = _counting_openings(monkeypatch)
    closed: list[bool] = []
    real_close = Store.close

    def close(self: Store) -> None:
        closed.append(self is store)
        real_close(self)

    monkeypatch.setattr(Store, "close", close)
    application = create_app(sqlite_url(tmp_path), bot_seconds=0.05, bot_workers=1, store=store)
    with TestClient(application) as client:
        assert client.get("/ready").status_code == 200
        assert application.state.hub.store is store
        assert client.post("/api/tables", json={"game": "morris"}).status_code == 200
    assert (opened, closed) == ([], [True])
    with TestClient(application):  # a second run of the application opens its own
        assert application.state.hub.store is not store
    assert (opened, closed) == ([sqlite_url(tmp_path)], [True, False])


def test_collector_off_within_and_as_it_was_after() -> None:
    assert gc.isenabled()
    with collector_off():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_off():
            assert not gc.isenabled()
        assert not gc.isenabled()  # left off, as it was
    finally:
        gc.enable()


def test_a_new_sqlite_store_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    """The store holds the key that signs the session cookies: a new file (its reviews' file,
    its -wal and -shm too) is made 0600 whatever the umask; an existing file keeps its mode."""
    import os

    before = os.umask(0o022)
    try:
        store = Store(sqlite_url(tmp_path / "site"))
        try:
            made = sorted((tmp_path / "site").iterdir())
            assert {path.name for path in made} >= {"fanfold.db", "fanfold-reviews.sqlite3"}
            assert {path.stat().st_mode & 0o777 for path in made} == {0o600}, made
        finally:
            store.close()
        existing = tmp_path / "existing.db"
        existing.touch(mode=0o640)
        existing.chmod(0o640)
        Store(sqlite_url(tmp_path, "existing.db")).close()
        assert existing.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(before)
