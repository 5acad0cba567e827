"""A copy of the store while the site runs (``fanfold backup``): PostgreSQL's ``pg_dump
--format=custom``, or SQLite's online backup API, of the main file and of the reviews' file
beside it (:mod:`fanfold.server.store.review_file`): the reviews' first, so that every review
in the copy is of a game the main file's copy holds (a game finished between the two copies
is reviewed again when asked for).

The database's password goes to ``pg_dump`` in its environment (``PGPASSWORD``), never on its
command line, which every user of the machine can read (``ps``)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import sqlalchemy as sa

from fanfold.core.errors import FanfoldError
from fanfold.server.store.engine import private_file
from fanfold.server.store.review_file import review_path

#: The query parameters of a URL that ``pg_dump`` takes, by their environment variable.
_LIBPQ_QUERY = {"host": "PGHOST", "port": "PGPORT", "sslmode": "PGSSLMODE"}


class BackupError(FanfoldError):
    """The copy could not be made (the sentence says why); nothing was kept of it."""


def backup_suffix(url: str) -> str:
    """The file name's ending of a copy of the store at ``url``: ``.dump`` (PostgreSQL's
    custom format) or ``.db`` (a SQLite database)."""
    backend = _parse(url).get_backend_name()
    if backend == "postgresql":
        return ".dump"
    if backend == "sqlite":
        return ".db"
    raise BackupError(f"a store on {backend} cannot be backed up: PostgreSQL or SQLite only")


def copy_store(url: str, target: Path, *, pg_dump: str = "pg_dump") -> None:
    """Copy the store at ``url`` into the new file ``target`` (made readable by its owner
    only, 0600: a copy holds the key that signs the session cookies) while the site runs; a
    copy that fails leaves no file."""
    parsed = _parse(url)
    try:
        if parsed.get_backend_name() == "postgresql":
            _dump_postgresql(parsed, target, pg_dump)
        elif parsed.get_backend_name() == "sqlite":
            _copy_sqlite(parsed, target)
        else:
            backup_suffix(url)
    except BaseException:
        target.unlink(missing_ok=True)
        raise


def copy_reviews(url: str, target: Path) -> bool:
    """Copy the reviews' own file of the SQLite store at ``url`` into the new file ``target``
    while the site runs (before the main file: :func:`copy_store`); false when the store keeps
    no such file (PostgreSQL, or a SQLite store whose site never started since it has one). A
    copy that fails leaves no file."""
    found = review_path(url)
    if found is None or not found.is_file():
        return False
    try:
        _copy_file(found, target)
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    return True


def _parse(url: str) -> sa.engine.URL:
    try:
        return sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        raise BackupError(
            "the database URL is not one: postgresql://... or sqlite:///..."
        ) from None


def _dump_postgresql(parsed: sa.engine.URL, target: Path, pg_dump: str) -> None:
    found = shutil.which(pg_dump)
    if found is None:
        raise BackupError(f"{pg_dump} is missing: install PostgreSQL's client (postgresql-client)")
    environment = dict(os.environ)
    for name, value in (
        ("PGHOST", parsed.host),
        ("PGPORT", None if parsed.port is None else str(parsed.port)),
        ("PGUSER", parsed.username),
        ("PGPASSWORD", parsed.password),
        ("PGDATABASE", parsed.database),
    ):
        if value:
            environment[name] = str(value)
    for key, given in parsed.query.items():
        if key not in _LIBPQ_QUERY:
            raise BackupError(f"the database URL's parameter {key} is not one pg_dump takes")
        environment[_LIBPQ_QUERY[key]] = given if isinstance(given, str) else given[-1]
    private_file(target)  # pg_dump writes into it, keeping its mode
    done = subprocess.run(
        [found, "--format=custom", f"--file={target}"],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise BackupError(f"pg_dump failed (status {done.returncode}): {done.stderr.strip()}")


def _copy_sqlite(parsed: sa.engine.URL, target: Path) -> None:
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError("the SQLite URL names no file: sqlite:///path/to/fanfold.db")
    source = Path(parsed.database)
    if not source.is_file():
        raise BackupError(f"{source} is not a file: no SQLite store there to copy")
    _copy_file(source, target)


def _copy_file(source: Path, target: Path) -> None:
    private_file(target)
    try:
        original = sqlite3.connect(source)  # read-write: a stopped site's WAL is folded in
        try:
            copy = sqlite3.connect(target)
            try:
                original.backup(copy)
            finally:
                copy.close()
        finally:
            original.close()
    except sqlite3.Error as error:
        raise BackupError(f"SQLite's backup of {source} failed: {error}") from None
