"""The command line's access to a server's store (``fanfold moderate``): a read-only connection
(a SQLite file opened read-only, PostgreSQL in a read-only transaction), an engine for a
moderator's action on a store that exists, and the reads of the engine-assistance check.
A store that cannot be used raises :class:`StoreAccessError` with the sentence to print."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from fanfold.core.errors import FanfoldError
from fanfold.server.store.engine import make_engine, shown_url
from fanfold.server.store.records import RatedSeat, StoredGame
from fanfold.server.store.schema import accounts, actions, rated_games, rating_changes, tables

#: How many tables' actions one query reads.
CHUNK = 200
#: The tables a fanfold store has since its first versions.
STORE_TABLES = (tables, actions, accounts, rated_games, rating_changes)


class StoreAccessError(FanfoldError, RuntimeError):
    """The store cannot be used: the sentence says why (nothing was changed)."""


def open_error(url: str, reason: object) -> str:
    """``the store at URL cannot be read: REASON`` (the reason's first line)."""
    lines = str(reason).strip().splitlines()
    return f"the store at {shown_url(url)} cannot be read: {lines[0] if lines else reason}"


def url_backend(url: str) -> str | None:
    """The kind of database ``url`` names (``sqlite``, ``postgresql``, ``mysql``, ...), or
    ``None`` where it is no database URL (a password in it is never shown by the caller)."""
    try:
        return sa.engine.make_url(url).get_backend_name()
    except (sa.exc.ArgumentError, ValueError):
        return None


def _sqlite_file(url: str) -> Path | None:
    """The existing SQLite file ``url`` names (``None``: another database).

    Raises:
        StoreAccessError: not a database URL, no SQLite file named, or no such file.
    """
    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        raise StoreAccessError(
            f"{url!r} is not a database URL; give sqlite:///path/to/fanfold.db or "
            "postgresql+psycopg://user@host/name"
        ) from None
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file:"):
        raise StoreAccessError(f"{url!r} names no SQLite file; give sqlite:///path/to/fanfold.db")
    path = Path(database).expanduser()
    if not path.is_file():
        raise StoreAccessError(f"there is no SQLite file at {path}")
    return path


def table_names(connection: Connection) -> set[str]:
    """The names of the database's tables."""
    return set(sa.inspect(connection).get_table_names())


@contextmanager
def read_only(url: str) -> Iterator[Connection]:
    """A read-only connection to the store at ``url``: a SQLite file opened read-only (a
    missing file is an error, never created), any other database in a read-only transaction
    (PostgreSQL) that is rolled back at the end.

    Raises:
        StoreAccessError: a URL that is not a database URL, a database that cannot be
            reached, or one without fanfold's tables.
    """
    path = _sqlite_file(url)
    if path is not None:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        engine = sa.create_engine(
            "sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False)
        )
    else:
        try:
            engine = sa.create_engine(url)
        except (sa.exc.ArgumentError, ImportError) as error:
            raise StoreAccessError(open_error(url, error)) from None
    try:
        with engine.connect() as connection:
            if connection.dialect.name == "postgresql":
                connection.exec_driver_sql("SET TRANSACTION READ ONLY")
            present = table_names(connection)
            missing = [table.name for table in STORE_TABLES if table.name not in present]
            if missing:
                raise StoreAccessError(
                    f"the database at {shown_url(url)} holds no fanfold store (no table "
                    f"{', '.join(missing)}); give the URL that 'fanfold serve --db' uses"
                )
            yield connection
            connection.rollback()
    except sa.exc.SQLAlchemyError as error:
        raise StoreAccessError(open_error(url, getattr(error, "orig", None) or error)) from None
    finally:
        engine.dispose()


@contextmanager
def writable(url: str, check: Callable[[set[str]], None]) -> Iterator[Engine]:
    """An engine on the store at ``url`` for a moderator's action: a SQLite file that exists
    (never created) or another database, whose table names ``check`` accepts (it raises
    otherwise).

    Raises:
        StoreAccessError: the store cannot be reached, or it refused the change (nothing was
            changed).
    """
    _sqlite_file(url)
    try:
        engine = make_engine(url)
    except (sa.exc.ArgumentError, ImportError) as error:
        raise StoreAccessError(open_error(url, error)) from None
    try:
        try:
            with engine.connect() as connection:
                check(table_names(connection))
        except sa.exc.SQLAlchemyError as error:
            raise StoreAccessError(open_error(url, getattr(error, "orig", None) or error)) from None
        try:
            yield engine
        except sa.exc.SQLAlchemyError as error:
            reason = str(getattr(error, "orig", None) or error).strip().splitlines()
            raise StoreAccessError(
                f"the store at {shown_url(url)} refused the change (nothing was changed): "
                f"{reason[0] if reason else type(error).__name__}"
            ) from None
    finally:
        engine.dispose()


def account_id(connection: Connection, name_key: str, number: int | None) -> int | None:
    """The id of the account called ``name_key`` (lower case), else of the account
    ``number``, if there is one."""
    found = connection.execute(
        sa.select(accounts.c.id).where(accounts.c.name_key == name_key)
    ).scalar()
    if found is None and number is not None:
        found = connection.execute(sa.select(accounts.c.id).where(accounts.c.id == number)).scalar()
    return None if found is None else int(found)


def rated_seats(
    connection: Connection, games: Sequence[str], player: str | None
) -> list[RatedSeat]:
    """The seats people (``a:ID``; ``player``'s alone, if given) held in finished rated
    games of ``games`` (their ids and names), in the order each person played them."""
    query = (
        sa.select(
            rating_changes.c.player,
            rating_changes.c.seat,
            tables.c.id,
            tables.c.game,
            tables.c.config,
            tables.c.seed,
            tables.c.start_position,
            tables.c.options,
        )
        .select_from(
            rating_changes.join(
                rated_games, rated_games.c.table_id == rating_changes.c.rated_table
            ).join(tables, tables.c.id == rating_changes.c.rated_table)
        )
        .where(
            rating_changes.c.player.like("a:%"),
            tables.c.game.in_(list(games)),
            tables.c.outcome.is_not(None),
        )
        .order_by(rating_changes.c.player, rated_games.c.at, tables.c.id)
    )
    if player is not None:
        query = query.where(rating_changes.c.player == player)
    return [
        RatedSeat(
            str(row.player),
            int(row.seat),
            StoredGame(
                str(row.id),
                str(row.game),
                str(row.config),
                str(row.seed),
                row.start_position,
                str(row.options or "{}"),
            ),
        )
        for row in connection.execute(query).all()
    ]


def action_texts(connection: Connection, table_ids: Sequence[str]) -> dict[str, list[str]]:
    """The action texts of each of ``table_ids``, in order (:data:`CHUNK` tables a query)."""
    texts: dict[str, list[str]] = {table_id: [] for table_id in table_ids}
    ids = list(texts)
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        for table_id, text in connection.execute(
            sa.select(actions.c.table_id, actions.c.text)
            .where(actions.c.table_id.in_(chunk))
            .order_by(actions.c.table_id, actions.c.number)
        ):
            texts[table_id].append(text)
    return texts


def account_names(connection: Connection, ids: set[int]) -> dict[int, str]:
    """The names of the accounts ``ids``."""
    rows = connection.execute(
        sa.select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids))
    ).all()
    return {int(number): str(name) for number, name in rows}
