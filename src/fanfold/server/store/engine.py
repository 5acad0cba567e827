"""Opening a store: its URL, its engine, and its schema brought up to date by Alembic's
migrations (:mod:`fanfold.server.migrations`).

SQLite is the default (one file, nothing to install); PostgreSQL works by URL
(``postgresql+psycopg://user@host/db``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from fanfold.core.errors import FanfoldError

__all__ = [
    "MIGRATION_LOCK",
    "Connection",
    "Engine",
    "StoreOpenError",
    "default_url",
    "has_password",
    "is_postgresql",
    "libpq_url",
    "make_engine",
    "make_folder",
    "open_error",
    "shown_url",
    "upgrade",
]


class StoreOpenError(FanfoldError, RuntimeError):
    """The store cannot be opened (a damaged file, a database that cannot be reached, a
    schema this version does not know): the sentence says which store and why."""


def shown_url(url: str) -> str:
    """``url`` as it may be shown: its password, if any, masked."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return url


def has_password(url: str) -> bool:
    """Whether the database ``url`` carries a password."""
    try:
        return bool(sa.engine.make_url(url).password)
    except sa.exc.ArgumentError:
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


def make_folder(url: str) -> None:
    """Create the folder of a SQLite file when it is missing (other databases: nothing)."""
    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        return  # the engine says what is wrong with the URL
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return
    if database.startswith("file:"):
        return  # a SQLite URI: its own options decide
    Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)


def open_error(url: str, error: BaseException) -> StoreOpenError:
    """The error for a store that cannot be opened: ``the store at URL cannot be opened:
    REASON``, the reason the database's own first line (``file is not a database``)."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    reason = lines[0] if lines else type(cause).__name__
    return StoreOpenError(f"the store at {shown_url(url)} cannot be opened: {reason}")


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


def upgrade(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
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
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
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
