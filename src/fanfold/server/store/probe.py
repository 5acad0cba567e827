"""Reach a store without changing it (``fanfold check-config``): whether it answers, the
schema revisions it is at, beside this fanfold's own (the Alembic migrations), the oldest
revision its schema still serves (``fanfold_schema``, :data:`~.engine.SCHEMA_INFO`) and, when
asked, one of its server keys' values (``server_keys``: a signing key's fingerprint)."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from fanfold.server.store.engine import MIGRATIONS, SCHEMA_INFO

#: The query of the oldest revision a schema still serves (:data:`SCHEMA_INFO`).
_OLDEST = f"SELECT value FROM {SCHEMA_INFO} WHERE name = 'oldest_revision'"
#: The query of a server key's value (``server_keys``), by its name (``:name``).
_KEY = "SELECT value FROM server_keys WHERE name = :name"


class ProbeError(Exception):
    """The store cannot be reached or opened: the sentence says why."""


@dataclass(frozen=True)
class Probe:
    """What reaching a store found.

    Attributes:
        kind: ``"answers"`` (it answered a query), ``"absent"`` (an SQLite file not made
            yet, whose folder ``fanfold serve`` may write), or ``"own"`` (an in-memory or
            ``file:`` SQLite store ``fanfold serve`` opens itself).
        revisions: the schema revisions the store is at (empty: no schema yet).
        oldest: the oldest revision its schema still serves, as the release that migrated
            it recorded (``None``: not recorded).
        key: the value of the server key asked for (``None``: not asked, or none stored).
        tables: the names of its tables (SQLite's own left out), fanfold's or not: a database
            with tables and no schema revision holds another application's.
    """

    kind: str
    revisions: tuple[str, ...] = ()
    oldest: str | None = None
    key: str | None = None
    tables: tuple[str, ...] = ()


def schema_revisions() -> tuple[set[str], set[str]]:
    """This fanfold's schema revisions: the newest (heads), and all."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    script = ScriptDirectory.from_config(config)
    return set(script.get_heads()), {revision.revision for revision in script.walk_revisions()}


def probe(url: str, timeout: float, *, key: str | None = None) -> Probe:
    """Reach the store at ``url`` without changing it: a query answered within ``timeout``
    seconds, its schema's revisions and, with ``key``, the value of that server key.

    Raises:
        ProbeError: not a database URL, or the store cannot be reached or opened.
    """
    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        raise ProbeError("it is no database URL") from None
    if parsed.get_backend_name() == "sqlite":
        return _probe_sqlite(parsed.database or "", key)
    arguments: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql":
        arguments["connect_timeout"] = max(1, round(timeout))
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool, connect_args=arguments)
    try:
        with engine.connect() as connection:
            connection.execute(sa.text("SELECT 1"))
            revisions: list[str] = []
            oldest: str | None = None
            inspector = sa.inspect(connection)
            names = tuple(sorted(inspector.get_table_names()))
            if inspector.has_table("alembic_version"):
                rows = connection.execute(sa.text("SELECT version_num FROM alembic_version"))
                revisions = [str(row[0]) for row in rows]
            if inspector.has_table(SCHEMA_INFO):
                found = connection.execute(sa.text(_OLDEST)).scalar()
                oldest = None if found is None else str(found)
            value: str | None = None
            if key is not None and inspector.has_table("server_keys"):
                stored = connection.execute(sa.text(_KEY), {"name": key}).scalar()
                value = None if stored is None else str(stored)
    except sa.exc.SQLAlchemyError as error:
        cause = getattr(error, "orig", None) or error
        lines = str(cause).strip().splitlines()
        raise ProbeError(
            f"it cannot be reached: {lines[0] if lines else type(cause).__name__}"
        ) from None
    finally:
        engine.dispose()
    return Probe("answers", tuple(revisions), oldest, value, names)


def _probe_sqlite(database: str, key: str | None) -> Probe:
    if not database or database == ":memory:" or database.startswith("file:"):
        return Probe("own")
    path = Path(database).expanduser()
    if not path.exists():
        folder = path.parent
        while not folder.exists():
            folder = folder.parent
        if not os.access(folder, os.W_OK | os.X_OK):
            raise ProbeError(
                f"it does not exist, and {folder} is not writable: fanfold serve cannot make it"
            )
        return Probe("absent")
    if not os.access(path, os.R_OK | os.W_OK):
        raise ProbeError("it is not readable and writable by this user")
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
            tables = {
                str(row[0])
                for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            revisions = (
                [
                    str(row[0])
                    for row in connection.execute("SELECT version_num FROM alembic_version")
                ]
                if "alembic_version" in tables
                else []
            )
            oldest = None
            if SCHEMA_INFO in tables:
                row = connection.execute(_OLDEST).fetchone()
                oldest = None if row is None else str(row[0])
            value = None
            if key is not None and "server_keys" in tables:
                row = connection.execute(_KEY.replace(":name", "?"), (key,)).fetchone()
                value = None if row is None else str(row[0])
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise ProbeError(f"it cannot be opened: {error}") from None
    names = tuple(sorted(name for name in tables if not name.startswith("sqlite_")))
    return Probe("answers", tuple(revisions), oldest, value, names)


__all__ = ["Probe", "ProbeError", "probe", "schema_revisions"]
