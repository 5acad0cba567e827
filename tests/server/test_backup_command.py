"""``fanfold backup``: a copy of the store into a folder of dated copies, the copies older
than ``--keep-days`` deleted. SQLite by its online backup API (the copy opens as a store with
the same tables), PostgreSQL by ``pg_dump --format=custom`` (the dump restores), the password
in ``pg_dump``'s environment and never in its arguments; a copy that fails leaves nothing."""

from __future__ import annotations

import os
import re
import subprocess
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

from fanfold.server.store import Store
from fanfold.server.store.backup import BackupError, copy_store
from fanfold.server.store.review_file import FileReviews
from fanfold.server.store.review_memory import review_store
from tests.deploy.support import fanfold
from tests.server.support import PG_BIN, sqlite_url
from tests.server.test_store import (
    _postgres_url,
    create_table,
    postgres_cluster,  # noqa: F401 (fixture)
)

NAMED = re.compile(r"fanfold-\d{8}-\d{6}\.(dump|db)")


def test_a_sqlite_store_is_copied_and_old_copies_are_deleted(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    store = Store(url)
    create_table(store, "t1", outcome={"winner": 0})  # a finished game, and its review
    review_store(store).open("t1", 1, game="morris", moves=3, seed="1", budget=None, now=0)
    copies = tmp_path / "copies"
    copies.mkdir()
    old = copies / "fanfold-20200101-000000.db"
    recent = copies / "fanfold-20200102-000000.db"
    other = copies / "notes-20200101.txt"  # not a copy: never deleted
    for path in (old, recent, other):
        path.write_text("x")
    os.utime(old, (0, 0))
    os.utime(other, (0, 0))
    made = fanfold("backup", "--db", url, "--dir", str(copies), "--keep-days", "3")
    assert made.exit_code == 0, made.output
    written = [path for path in copies.iterdir() if NAMED.fullmatch(path.name) and path != recent]
    assert len(written) == 1, sorted(copies.iterdir())
    # The reviews' file beside it, named so that the copy served finds it.
    beside = copies / f"{written[0].stem}-reviews.sqlite3"
    assert f"deleted {old}" in made.output
    assert sorted(path.name for path in copies.iterdir()) == sorted(
        [written[0].name, beside.name, recent.name, other.name]
    )
    assert made.output.index(str(beside)) < made.output.index(str(written[0]))  # copied first
    store.close()
    again = fanfold("backup", "--db", url, "--dir", str(copies), "--keep-days", "0")
    assert again.exit_code == 0, again.output  # a stopped site's store is copied too
    assert "deleted" not in again.output
    copy = Store(sqlite_url(copies, written[0].name))
    try:
        assert copy.load("t1") is not None
        found = review_store(copy)
        assert isinstance(found, FileReviews)
        assert found.engine.url.database == str(beside)
        assert found.job("t1", 1) is not None
    finally:
        copy.close()


def test_a_store_that_cannot_be_copied_leaves_nothing(tmp_path: Path) -> None:
    copies = tmp_path / "copies"
    missing = fanfold("backup", "--db", sqlite_url(tmp_path / "nowhere"), "--dir", str(copies))
    assert missing.exit_code == 1, missing.output
    assert "no copy" in missing.output
    assert not copies.exists()  # the folder it made is gone too
    copies.mkdir()
    again = fanfold("backup", "--db", sqlite_url(tmp_path / "nowhere"), "--dir", str(copies))
    assert again.exit_code == 1, again.output
    assert list(copies.iterdir()) == []  # a folder that was there stays
    odd = fanfold("backup", "--db", "mysql://x@y/z", "--dir", str(copies))
    assert odd.exit_code == 2, odd.output
    assert "fanfold keeps its store in SQLite or PostgreSQL, not mysql" in odd.output
    with pytest.raises(BackupError, match="parameter"):
        copy_store("postgresql+psycopg://u@h/d?options=-c", copies / "x.dump")
    assert list(copies.iterdir()) == []
    deep = tmp_path / "a" / "b"
    nested = fanfold("backup", "--db", sqlite_url(tmp_path / "nowhere"), "--dir", str(deep))
    assert nested.exit_code == 1, nested.output
    assert not (tmp_path / "a").exists()


def test_a_file_given_as_the_folder_is_said_to_be_a_file(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    Store(url).close()
    afile = tmp_path / "afile"
    afile.write_text("x")
    refused = fanfold("backup", "--db", url, "--dir", str(afile))
    assert refused.exit_code == 2, refused.output
    assert f"{afile} is a file, not a folder" in " ".join(refused.output.split())
    assert afile.read_text() == "x"


def test_copies_and_the_folder_made_are_the_owners_only(tmp_path: Path) -> None:
    """The store holds the key that signs the session cookies: so does every copy."""
    url = sqlite_url(tmp_path)
    store = Store(url)
    create_table(store, "t1", outcome={"winner": 0})
    review_store(store).open("t1", 1, game="morris", moves=3, seed="1", budget=None, now=0)
    store.close()
    copies = tmp_path / "copies"
    before = os.umask(0o022)
    try:
        made = fanfold("backup", "--db", url, "--dir", str(copies))
    finally:
        os.umask(before)
    assert made.exit_code == 0, made.output
    assert copies.stat().st_mode & 0o777 == 0o700
    written = sorted(copies.iterdir())
    assert len(written) == 2, written  # the store's copy and its reviews'
    assert {path.stat().st_mode & 0o777 for path in written} == {0o600}


def test_the_password_goes_to_pg_dump_in_its_environment(tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    fake = tmp_path / "pg_dump"
    fake.write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$@" > {seen}\n'
        f'echo "$PGPASSWORD $PGHOST $PGPORT $PGUSER $PGDATABASE" >> {seen}\n'
        'for a in "$@"; do case $a in --file=*) : > "${a#--file=}";; esac; done\n'
    )
    fake.chmod(0o755)
    target = tmp_path / "out.dump"
    copy_store(
        "postgresql+psycopg://site:s3cret@/fanfold?host=/run/postgresql&port=5433",
        target,
        pg_dump=str(fake),
    )
    lines = seen.read_text().splitlines()
    assert lines[:-1] == ["--format=custom", f"--file={target}"]
    assert lines[-1] == "s3cret /run/postgresql 5433 site fanfold"
    assert target.exists()


@pytest.mark.postgres
def test_a_postgresql_store_is_dumped_and_restores(
    postgres_cluster: str,  # noqa: F811 (the imported fixture, by name)
    tmp_path: Path,
) -> None:
    name = f"b_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(
        _postgres_url(postgres_cluster, "postgres"), isolation_level="AUTOCOMMIT"
    )
    with admin.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {name}"))
        connection.execute(sa.text(f"CREATE DATABASE {name}_r"))
    admin.dispose()
    store = Store(_postgres_url(postgres_cluster, name))
    create_table(store, "t1")
    store.close()
    url_file = tmp_path / "db-url"
    url_file.write_text(_postgres_url(postgres_cluster, name) + "\n")
    made = fanfold("backup", "--db-file", str(url_file), "--dir", str(tmp_path / "copies"))
    assert made.exit_code == 0, made.output
    (dump,) = (tmp_path / "copies").iterdir()
    assert NAMED.fullmatch(dump.name)
    assert dump.suffix == ".dump"
    restored = subprocess.run(
        [
            str(PG_BIN / "pg_restore"),
            "--exit-on-error",
            f"--dbname=postgresql://postgres@/{name}_r?host={postgres_cluster}&port=5432",
            str(dump),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert restored.returncode == 0, restored.stderr
    copy = Store(_postgres_url(postgres_cluster, f"{name}_r"))
    try:
        assert copy.load("t1") is not None
    finally:
        copy.close()
