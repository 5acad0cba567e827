"""Opening the store: a damaged file or a database that cannot be reached is a sentence
(and ``fanfold serve`` stops with it, exit status 1), and a SQLite file's missing folder is
made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.core.errors import FanfoldError
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
