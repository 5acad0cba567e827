"""A start's schema check without Alembic: a store already at this fanfold's newest revision
(its oldest served revision recorded) is found so by one query, without importing Alembic
(most of the check's time at a start); the newest revision is read from the migrations'
files and agrees with Alembic's; where the files do not say it plainly, Alembic decides."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from fanfold.server.store import Store, make_engine, upgrade
from fanfold.server.store.engine import newest_revision
from tests.server.support import schema_head, sqlite_url


def test_the_newest_revision_read_from_the_files_is_alembics() -> None:
    assert newest_revision() == schema_head()


def test_a_store_at_the_newest_revision_opens_without_alembic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = sqlite_url(tmp_path)
    Store(url).close()  # created and migrated, by Alembic
    monkeypatch.setitem(sys.modules, "alembic", None)  # any import of it now fails
    store = Store(url)
    store.close()
    engine = make_engine(url)
    try:
        with engine.begin() as connection:  # one revision behind: Alembic is needed again
            connection.execute(sa.text("UPDATE alembic_version SET version_num = '0010'"))
        with pytest.raises(ImportError):
            upgrade(engine)
    finally:
        engine.dispose()


def revisions(folder: Path, *files: tuple[str, str]) -> Path:
    """A migrations folder whose ``versions`` holds ``files`` (name, text)."""
    (folder / "versions").mkdir(parents=True)
    for name, text in files:
        (folder / "versions" / name).write_text(text)
    return folder


def test_files_that_do_not_say_one_newest_revision_leave_it_to_alembic(tmp_path: Path) -> None:
    chain = revisions(
        tmp_path / "chain",
        ("a.py", 'revision = "0001"\ndown_revision = None\n'),
        ("b.py", 'revision = "0002"\ndown_revision = "0001"\n'),
    )
    assert newest_revision(chain) == "0002"
    branches = revisions(
        tmp_path / "branches",
        ("a.py", 'revision = "0001"\ndown_revision = None\n'),
        ("b.py", 'revision = "0002"\ndown_revision = "0001"\n'),
        ("c.py", 'revision = "0003"\ndown_revision = "0001"\n'),
    )
    assert newest_revision(branches) is None  # two heads
    merge = revisions(
        tmp_path / "merge",
        ("a.py", 'revision = "0001"\ndown_revision = None\n'),
        ("b.py", 'revision = "0002"\ndown_revision = ("0001", "0009")\n'),
    )
    assert newest_revision(merge) is None  # not a plain string
    unknown = revisions(
        tmp_path / "unknown", ("a.py", 'revision = "0002"\ndown_revision = "0001"\n')
    )
    assert newest_revision(unknown) is None  # revises a revision that is not there
