"""Opening a store: its URL, its engine, and its schema brought up to date by Alembic's
migrations (:mod:`fanfold.server.migrations`).

SQLite is the default (one file, nothing to install); PostgreSQL works by URL
(``postgresql+psycopg://user@host/db``).
"""

from __future__ import annotations

import ast
import contextlib
import os
import re
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from fanfold.core.errors import FanfoldError, Refusal, templates

__all__ = [
    "CONTRACT",
    "EXPAND",
    "MIGRATION_LOCK",
    "RELEASE_HEADS",
    "SCHEMA_INFO",
    "Connection",
    "Engine",
    "SchemaTooNewError",
    "StoreOpenError",
    "default_url",
    "has_password",
    "is_postgresql",
    "libpq_url",
    "make_engine",
    "make_folder",
    "newest_revision",
    "open_error",
    "private_file",
    "serves_from",
    "shown_url",
    "sqlite_file",
    "upgrade",
]


#: A store that cannot be opened, said at the terminal (``fanfold serve``, ``fanfold keys``):
#: the database's own reason inside, as it says it.
templates(
    {
        "store.cannot_open": "the store at {store} cannot be opened: {reason}",
        "store.not_fanfold": "{store} holds tables that are not fanfold's ({tables}): give an "
        "empty file (or database) or a fanfold store",
    }
)


class StoreOpenError(FanfoldError, RuntimeError):
    """The store cannot be opened (a damaged file, a database that cannot be reached, a
    schema this version does not know): the sentence says which store and why."""


class SchemaTooNewError(StoreOpenError):
    """The store's schema is a newer release's, and that release's migrations since this
    fanfold's newest one are not all ``expand``: this fanfold cannot serve it (``fanfold
    serve`` exits with :data:`fanfold.cli.serve.SCHEMA_TOO_NEW_STATUS`).

    Attributes:
        found: the revision the store is at.
        known: this fanfold's newest revision.
        oldest: the oldest revision the schema still serves (``None``: not recorded).
    """

    def __init__(self, found: str, known: str, oldest: str | None) -> None:
        self.found, self.known, self.oldest = found, known, oldest
        serves = (
            f"it serves fanfold releases from revision {oldest} on"
            if oldest is not None
            else "it does not say which older releases it serves"
        )
        super().__init__(
            f"the store's schema is at revision {found}, newer than this fanfold knows "
            f"(its newest is {known}), and {serves}: run the newer fanfold that migrated it, "
            "or restore the backup taken before the upgrade (docs/upgrade.md)"
        )


def shown_url(url: str) -> str:
    """``url`` as it may be shown: its password, if any, masked."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError):  # a port that is no number, ...
        return url


def has_password(url: str) -> bool:
    """Whether the database ``url`` carries a password."""
    try:
        return bool(sa.engine.make_url(url).password)
    except (sa.exc.ArgumentError, ValueError):
        return False


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL (``postgresql+psycopg://...``) as libpq reads it."""
    parsed = sa.engine.make_url(url)
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


def is_postgresql(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL store (where several processes may serve)."""
    try:
        return sa.engine.make_url(url).get_backend_name() == "postgresql"
    except sa.exc.ArgumentError:
        return False


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (``sqlite:///path``), or ``None``: another database, one that
    cannot be parsed (the engine says what is wrong with it), a database in memory or a SQLite
    URI (its own options decide)."""
    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        return None
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        return None
    return Path(database).expanduser()


def make_folder(url: str) -> None:
    """Create the folder of a SQLite file when it is missing, and the file itself, empty and
    readable by its owner only (:func:`private_file`: it holds the key that signs the session
    cookies; SQLite gives its ``-wal`` and ``-shm`` files its mode). Other databases: nothing."""
    path = sqlite_file(url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        private_file(path)


def private_file(path: Path) -> None:
    """Make ``path`` an empty file that its owner alone reads and writes (0600), unless it
    exists: an existing file's mode is left as it is."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def open_error(url: str, error: BaseException) -> StoreOpenError:
    """The error for a store that cannot be opened: ``the store at URL cannot be opened:
    REASON``, the reason the database's own first line (``file is not a database``); a
    :class:`SchemaTooNewError` keeps its kind."""
    if isinstance(error, SchemaTooNewError):
        found = SchemaTooNewError(error.found, error.known, error.oldest)
        found.args = (f"the store at {shown_url(url)} cannot be served: {error}",)
        return found
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    reason = lines[0] if lines else type(cause).__name__
    return StoreOpenError(Refusal("store.cannot_open", store=shown_url(url), reason=reason))


def default_url() -> str:
    """SQLite in the user's data directory (``~/.local/share/fanfold/fanfold.db`` on Linux)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("fanfold"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'fanfold.db'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets write-ahead logging and foreign keys."""
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")  # durable across process kills in WAL
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True)


#: The PostgreSQL advisory lock that one process at a time holds while it migrates the schema
#: (the bytes of "fanfold" as a number; a table's lock is a hash of its id,
#: :func:`fanfold.server.ownership.lock_key`).
MIGRATION_LOCK = int.from_bytes(b"fanfold", "big")

#: Alembic's scripts: the server's migrations, beside this package.
MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"


#: What a migration declares itself (its module's ``KIND``): ``expand`` only adds (tables,
#: nullable columns or columns with a server default, indexes), so a process of the release
#: before still serves the schema after it; ``contract`` changes or drops what an older
#: release reads, and older releases stop at it (``tests/server/test_upgrades.py`` checks).
EXPAND = "expand"
CONTRACT = "contract"

#: Each release's newest schema revision (the first release that migrates to it), newest
#: last: the releases a schema serves are named by it (:data:`SCHEMA_INFO`).
RELEASE_HEADS: dict[str, str] = {"0.1.0": "0006"}

#: The table (outside Alembic's revisions, beside ``alembic_version``) where the schema
#: records the oldest revision, and release, whose processes it still serves: every
#: migration after that revision is ``expand``. Written by :func:`upgrade` when it migrates.
SCHEMA_INFO = "fanfold_schema"

_schema_info = sa.Table(
    SCHEMA_INFO,
    sa.MetaData(),
    sa.Column("name", sa.String(40), primary_key=True),
    sa.Column("value", sa.String(200), nullable=False),
)


def _scripts(migrations: Path) -> Any:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(migrations))
    return config, ScriptDirectory.from_config(config)


def serves_from(migrations: Path = MIGRATIONS) -> tuple[str, str | None]:
    """The oldest revision whose processes serve the newest schema of ``migrations`` (the
    newest ``contract`` migration, or the first one), and the first release whose newest
    revision it is or follows (``None``: none of :data:`RELEASE_HEADS`).

    Raises:
        ValueError: a migration declares no ``KIND`` of :data:`EXPAND` or :data:`CONTRACT`.
    """
    _, script = _scripts(migrations)
    chain = list(reversed(list(script.walk_revisions())))  # oldest first
    oldest = chain[0].revision
    for revision in chain:
        kind = getattr(revision.module, "KIND", None)
        if kind not in (EXPAND, CONTRACT):
            raise ValueError(f"migration {revision.revision} declares no KIND (expand or contract)")
        if kind == CONTRACT:
            oldest = revision.revision
    order = [revision.revision for revision in chain]
    release = next(
        (
            name
            for name, head in RELEASE_HEADS.items()
            if head in order and order.index(head) >= order.index(oldest)
        ),
        None,
    )
    return oldest, release


def _served(connection: Connection, script: Any, log_name: str) -> bool:
    """Whether the store's schema is newer than ``script`` knows but still served by it (its
    recorded oldest revision is one ``script`` knows); ``False`` for a schema it knows.

    Raises:
        SchemaTooNewError: newer, and not served by this fanfold.
    """
    from alembic.runtime.migration import MigrationContext

    current = MigrationContext.configure(connection).get_current_heads()
    known = {revision.revision for revision in script.walk_revisions()}
    unknown = [revision for revision in current if revision not in known]
    if not unknown:
        return False
    oldest: str | None = None
    if sa.inspect(connection).has_table(SCHEMA_INFO):
        oldest = connection.execute(
            sa.select(_schema_info.c.value).where(_schema_info.c.name == "oldest_revision")
        ).scalar()
    if oldest is None or oldest not in known:
        raise SchemaTooNewError(", ".join(unknown), script.get_current_head(), oldest)
    import logging

    logging.getLogger(log_name).warning(
        "the store's schema is at revision %s, newer than this fanfold's %s; every migration "
        "since is expand-only, so this fanfold serves it (docs/upgrade.md)",
        ", ".join(unknown),
        script.get_current_head(),
    )
    return True


def _record(connection: Connection, migrations: Path) -> None:
    """Record in :data:`SCHEMA_INFO` the oldest revision and release the schema serves."""
    oldest, release = serves_from(migrations)
    _schema_info.create(connection, checkfirst=True)
    connection.execute(sa.delete(_schema_info))
    rows = [{"name": "oldest_revision", "value": oldest}]
    if release is not None:
        rows.append({"name": "oldest_release", "value": release})
    connection.execute(sa.insert(_schema_info), rows)


_REVISION_LINE = re.compile(r"^(revision|down_revision) = (None|\"[^\"\n]*\")$", re.MULTILINE)


def newest_revision(migrations: Path = MIGRATIONS) -> str | None:
    """This fanfold's newest revision, read from the lines ``revision = "..."`` and
    ``down_revision = "..."`` of the migrations' files, without Alembic (whose import is
    most of a start's schema check); ``None`` where a file does not say them so plainly
    (a merge of two branches, say), or no one revision is newest: then Alembic decides."""
    revisions: set[str] = set()
    revised: set[str] = set()
    for path in (migrations / "versions").glob("*.py"):
        if path.name == "__init__.py":
            continue
        said = dict(_REVISION_LINE.findall(path.read_text(encoding="utf-8")))
        if set(said) != {"revision", "down_revision"}:
            return None
        revision, down = ast.literal_eval(said["revision"]), ast.literal_eval(said["down_revision"])
        revisions.add(revision)
        if down is not None:
            revised.add(down)
    newest = revisions - revised
    return newest.pop() if len(newest) == 1 and revised <= revisions else None


def _up_to_date(engine: Engine, migrations: Path) -> bool:
    """Whether the store's schema is at this fanfold's newest revision, its oldest served
    revision recorded (:data:`SCHEMA_INFO`): nothing to migrate, asked without Alembic."""
    newest = newest_revision(migrations)
    if newest is None:
        return False
    with engine.connect() as connection:
        tables = sa.inspect(connection)
        if not (tables.has_table("alembic_version") and tables.has_table(SCHEMA_INFO)):
            return False
        versions = connection.exec_driver_sql("SELECT version_num FROM alembic_version").all()
        recorded = connection.execute(
            sa.select(_schema_info.c.value).where(_schema_info.c.name == "oldest_revision")
        ).scalar()
        if [row[0] for row in versions] != [newest] or recorded is None:
            return False
        if engine.dialect.name == "sqlite":
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
            if broken is not None:
                raise RuntimeError(f"the store's rows do not hold together: {tuple(broken)}")
    return True


def upgrade(engine: Engine, migrations: Path = MIGRATIONS) -> None:
    """Create or upgrade the schema to the newest migration, and record the oldest release
    it serves (:data:`SCHEMA_INFO`). A schema newer than this fanfold's is left as it is and
    served when every migration since this fanfold's newest is ``expand``. A schema already
    at the newest revision is found so without Alembic (:func:`newest_revision`).

    Raises:
        SchemaTooNewError: a newer schema this fanfold does not serve.
    """
    if _up_to_date(engine, migrations):
        return
    from alembic import command

    config, script = _scripts(migrations)
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            # SQLite alters a column by copying its table; foreign keys are checked again
            # after the migration, and a PRAGMA takes effect only outside a transaction.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        with connection.begin():
            if engine.dialect.name == "postgresql":
                # Processes starting at once on one database migrate one after the other:
                # the lock is held until this transaction ends, and the next finds the schema
                # up to date.
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            if not _served(connection, script, "fanfold.server.store"):
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
                _record(connection, migrations)
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
                if broken is not None:
                    raise RuntimeError(f"the store's rows do not hold together: {tuple(broken)}")
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def sql(tx: object) -> Connection:
    """The SQL connection a :class:`~fanfold.server.store.records.Transaction` of a SQL
    store is."""
    if not isinstance(tx, Connection):
        raise TypeError(f"a SQL store's transaction is a connection, not {type(tx).__name__}")
    return tx
