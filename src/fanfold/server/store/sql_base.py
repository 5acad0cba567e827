"""What every part of the SQL tables store shares: the engine, opened and migrated, its
transactions, the ping, and the word to the lobby after a change to its open tables."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from fanfold.core.config import JSONObject
from fanfold.core.errors import Refusal
from fanfold.server.store.engine import (
    StoreOpenError,
    make_engine,
    make_folder,
    open_error,
    shown_url,
    upgrade,
)
from fanfold.server.store.records import LOBBY_CHANNEL
from fanfold.server.store.review_file import FileReviews, open_review_file, review_url
from fanfold.server.store.schema import tables


def foreign_tables(engine: Engine) -> list[str]:
    """The tables of a database that holds tables but no fanfold schema (no Alembic
    revision): another application's, to which ``fanfold serve`` must not add its own; empty
    for an empty database or a fanfold store."""
    with engine.connect() as connection:
        names = sorted(sa.inspect(connection).get_table_names())
    return [] if not names or "alembic_version" in names else names


def not_fanfold(url: str, tables: Sequence[str]) -> StoreOpenError:
    """The refusal of a database whose ``tables`` are not fanfold's (:func:`foreign_tables`):
    a few of them named."""
    named = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
    return StoreOpenError(Refusal("store.not_fanfold", store=shown_url(url), tables=named))


class SqlBase:
    """A SQL database opened at ``url``, its schema brought up to date; on a SQLite file,
    the reviews' file beside it opened too (:mod:`fanfold.server.store.review_file`).

    Raises:
        StoreOpenError: the store cannot be opened or its schema brought up to date (a
            damaged file, an unknown database, a folder that cannot be made); a SQLite file's
            missing folder is made.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        #: Called (from whichever thread wrote) after a change to the lobby's open tables is
        #: committed, on SQLite; PostgreSQL notifies :data:`LOBBY_CHANNEL` instead, which every
        #: process hears (:meth:`_lobby_changed`).
        self.lobby_listeners: list[Callable[[], object]] = []
        try:
            make_folder(url)
            self.engine = make_engine(url)
        except Exception as error:
            raise open_error(url, error) from error
        #: The reviews in a file of their own (SQLite), or ``None``: in the store itself.
        self.file_reviews: FileReviews | None = None
        try:
            foreign = foreign_tables(self.engine)
            if not foreign:
                upgrade(self.engine)
        except Exception as error:
            self.engine.dispose()
            raise open_error(url, error) from error
        if foreign:  # another application's database, or a wrong file restored: left alone
            self.engine.dispose()
            raise not_fanfold(url, foreign)
        try:
            found = open_review_file(self.engine, url)
        except Exception as error:  # the sentence names the reviews' file
            self.engine.dispose()
            raise open_error(review_url(url) or url, error) from error
        if found is not None:
            self.file_reviews = FileReviews(found)

    def close(self) -> None:
        """Release the connections (the reviews' file's too)."""
        if self.file_reviews is not None:
            self.file_reviews.close()
        self.engine.dispose()

    @property
    def postgresql(self) -> bool:
        """Whether the store is PostgreSQL (several processes may share it)."""
        return self.engine.dialect.name == "postgresql"

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        with self.engine.begin() as connection:
            yield connection

    def ping(self) -> None:
        """A round trip to the database: raises what the driver raises when it does not
        answer (the clocks wait for it before ruling a time-out)."""
        with self.engine.connect() as connection:
            connection.execute(sa.select(1))

    @staticmethod
    def _lobby_changed(connection: Connection) -> None:
        """Inside a transaction that changes the lobby's open tables: on PostgreSQL, notify
        :data:`LOBBY_CHANNEL` with the commit (every process listening hears it, this one
        too). On SQLite the caller calls :meth:`_tell_lobby` once its transaction committed."""
        if connection.dialect.name == "postgresql":
            connection.execute(sa.select(sa.func.pg_notify(LOBBY_CHANNEL, "")))

    def _tell_lobby(self) -> None:
        """After a committed change to the lobby's open tables, on SQLite (one process):
        call the :attr:`lobby_listeners`."""
        if self.engine.dialect.name == "postgresql":
            return  # the notification of _lobby_changed tells every process
        for listener in list(self.lobby_listeners):
            listener()

    @staticmethod
    def _set_options(connection: Connection, table_id: str, options: JSONObject) -> None:
        connection.execute(
            tables.update().where(tables.c.id == table_id).values(options=json.dumps(options))
        )
