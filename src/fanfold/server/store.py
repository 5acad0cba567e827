"""The server's storage: tables, seats and actions in SQL, through SQLAlchemy.

A game is stored as its record (game id, config, seed, start position, action texts), the seats
(who plays each, and the hash of the secret token that holds it) and a version number. Every
action is committed before the server acknowledges it, so a restart (even a kill) loses nothing
that a player was told had happened. SQLite is the default (one file, nothing to install);
PostgreSQL works by URL (``postgresql+psycopg://user@host/db``). The schema is created and
upgraded by Alembic migrations (:mod:`fanfold.server.migrations`) when the store opens.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import sqlalchemy.dialects.postgresql
import sqlalchemy.dialects.sqlite
from sqlalchemy.engine import Connection, Engine

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError

metadata = sa.MetaData()

#: A group commit of one action a table on PostgreSQL as one statement (one round trip): each
#: action is inserted unless its number is stored already, and only the tables whose action went
#: in get their new version and options (a single statement is atomic, and each table has one
#: row, so a refused table has nothing of its own to take back); it answers the tables stored.
#: The rows come as six arrays (:func:`quick_append_parameters`), so the text is the same for
#: any number of rows and PostgreSQL plans it once a connection.
QUICK_APPEND = (
    "WITH new AS (SELECT * FROM unnest(%s::varchar[], %s::integer[], %s::integer[], "
    "%s::varchar[], %s::integer[], %s::text[]) AS n (table_id, number, seat, text, version, "
    "options)), "
    "stored AS (INSERT INTO actions (table_id, number, seat, text) "
    "SELECT table_id, number, seat, text FROM new "
    "ON CONFLICT DO NOTHING RETURNING table_id), "
    "touched AS (UPDATE tables SET version = new.version, updated = %s, "
    "outcome = NULL, options = coalesce(new.options, tables.options) FROM new "
    "WHERE tables.id = new.table_id AND new.table_id IN (SELECT table_id FROM stored)) "
    "SELECT table_id FROM stored"
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    # Decimal digits: a dealt game's seed has 128 bits (see fanfold.play.setup.fresh_seed).
    sa.Column("seed", sa.String(60), nullable=False),
    sa.Column("start_position", sa.Text, nullable=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("allow_undo", sa.Boolean, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("outcome", sa.Text, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False, index=True),
    # The hash of the creator's token: the creator may give a seat a new invitation.
    sa.Column("creator_hash", sa.String(64), nullable=True),
    # Whether the lobby lists the table (tables opened to the public).
    sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player", sa.String(200), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True, index=True),
    # The hash of the seat's pending invitation (a join link nobody has claimed yet).
    sa.Column("invite_hash", sa.String(64), nullable=True),
    # The account that holds the seat (none: a guest, a bot, or a seat nobody claimed).
    sa.Column("account_id", sa.Integer, nullable=True),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.String(400), nullable=False),
)


def fits_one_statement(rows: Sequence[AppendRow]) -> bool:
    """Whether ``rows`` may be stored by :data:`QUICK_APPEND`: a row per table (as the hub's
    group commits have: a table has one action in flight at most), no game's end among them
    (an end may change the lobby, or a rating)."""
    return all(row.outcome is None and row.on_end is None for row in rows) and len(
        {row.table_id for row in rows}
    ) == len(rows)


def quick_append_parameters(rows: Sequence[AppendRow]) -> tuple[object, ...]:
    """:data:`QUICK_APPEND`'s parameters for ``rows``: a list per column, then the time."""
    return (
        [row.table_id for row in rows],
        [row.number for row in rows],
        [row.seat for row in rows],
        [row.text for row in rows],
        [row.version for row in rows],
        [json.dumps(row.options) if row.options is not None else None for row in rows],
        time.time(),
    )


def token_hash(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256, so the file alone holds no seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class AppendRow:
    """One action to store with the table's version after it (see :meth:`Store.append_many`)."""

    table_id: str
    number: int
    seat: int
    text: str
    version: int
    outcome: JSONObject | None
    #: The table's options to store with it (they carry :data:`RESUME`); ``None`` keeps them.
    options: JSONObject | None = None
    #: Run in the same transaction once the row is stored (not for a refused table): a rated
    #: game's end writes the ratings there (:mod:`fanfold.server.ratings`), so that a crash
    #: never keeps the end without its ratings or the ratings without the end.
    on_end: Callable[[Connection], object] | None = None


#: The PostgreSQL channel on which a store says that the lobby's open tables may have changed
#: (a listed table opened, a seat taken or given to a bot, a listed game ended, tables
#: expired): notified in the change's own transaction, so every process that LISTENs hears of
#: it once it is committed (:mod:`fanfold.server.lobby_feed`).
LOBBY_CHANNEL = "fanfold_lobby"

#: The key of a table's stored options that says whether start-up loads it: true while a bot
#: decides next or a person decides under a time limit (the hub writes it with every change;
#: a table stored before it existed has none and is loaded, as every table was before).
RESUME = "resume"
#: The key of a table's options that says it is listed in the lobby (a copy of its
#: ``listed`` column the hub keeps there): the end of such a game changes the lobby's lists.
LISTED = "listed"
#: The most tables :meth:`Store.load_many` reads in one query (a bound list of ids each).
LOAD_CHUNK = 200


@dataclass(frozen=True)
class StoredSeat:
    """One seat as stored: its player (``"human"`` or an agent text), its token's hash (none
    while nobody holds it) and its pending invitation's hash."""

    seat: int
    player: str
    token_hash: str | None
    invite_hash: str | None = None
    #: The account holding the seat (``None``: a guest, a bot, or nobody yet).
    account_id: int | None = None


@dataclass(frozen=True)
class StoredTable:
    """A table as stored: enough to rebuild it exactly."""

    id: str
    game: str
    config: JSONObject
    seed: int
    start_position: str | None
    version: int
    allow_undo: bool
    options: JSONObject
    outcome: JSONObject | None
    created: float
    updated: float
    seats: tuple[StoredSeat, ...]
    actions: tuple[tuple[int, str], ...]
    creator_hash: str | None = None
    listed: bool = False


@dataclass(frozen=True)
class TableSummary:
    """A line of the lobby's list."""

    id: str
    game: str
    players: tuple[str, ...]
    moves: int
    over: bool
    updated: float


class StoreOpenError(FanfoldError, RuntimeError):
    """The store cannot be opened (a damaged file, a database that cannot be reached, a
    schema this version does not know): the sentence says which store and why."""


def shown_url(url: str) -> str:
    """``url`` as it may be shown: its password, if any, masked."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return url


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


def upgrade(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
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


class Store:
    """Tables, seats and actions in one SQL database.

    Args:
        url: a SQLAlchemy URL (``sqlite:///path.db``, ``postgresql+psycopg://...``).

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
        try:
            upgrade(self.engine)
        except Exception as error:
            self.engine.dispose()
            raise open_error(url, error) from error

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        with self.engine.begin() as connection:
            yield connection

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

    # --------------------------------------------------------------- writing
    def create(
        self,
        table_id: str,
        game: str,
        config: JSONObject,
        seed: int,
        start_position: str | None,
        players: Sequence[str],
        token_hashes: Sequence[str | None],
        *,
        allow_undo: bool,
        options: JSONObject,
        actions_done: Sequence[tuple[int, str]] = (),
        version: int = 0,
        invite_hashes: Sequence[str | None] = (),
        creator_hash: str | None = None,
        listed: bool = False,
        outcome: JSONObject | None = None,
        account_ids: Sequence[int | None] = (),
    ) -> None:
        """Store a new table with its seats (and, for a loaded record, its actions and, when
        the record's game is over, its ``outcome``)."""
        invites = list(invite_hashes) or [None] * len(players)
        accounts = list(account_ids) or [None] * len(players)
        now = time.time()
        with self._begin() as connection:
            connection.execute(
                tables.insert().values(
                    id=table_id,
                    game=game,
                    config=json.dumps(config),
                    seed=str(seed),
                    start_position=start_position,
                    version=version,
                    allow_undo=allow_undo,
                    options=json.dumps(options),
                    outcome=json.dumps(outcome) if outcome is not None else None,
                    created=now,
                    updated=now,
                    creator_hash=creator_hash,
                    listed=listed,
                )
            )
            connection.execute(
                seats.insert(),
                [
                    {
                        "table_id": table_id,
                        "seat": n,
                        "player": player,
                        "token_hash": hashed,
                        "invite_hash": invite,
                        "account_id": account,
                    }
                    for n, (player, hashed, invite, account) in enumerate(
                        zip(players, token_hashes, invites, accounts, strict=True)
                    )
                ],
            )
            if actions_done:
                connection.execute(
                    actions.insert(),
                    [
                        {"table_id": table_id, "number": n + 1, "seat": seat, "text": text}
                        for n, (seat, text) in enumerate(actions_done)
                    ],
                )
            if listed:
                self._lobby_changed(connection)
        if listed:
            self._tell_lobby()

    def append(
        self,
        table_id: str,
        number: int,
        seat: int,
        text: str,
        version: int,
        outcome: JSONObject | None,
    ) -> None:
        """Store action ``number`` (1-based) and the table's new version, in one transaction."""
        with self._begin() as connection:
            connection.execute(
                actions.insert().values(table_id=table_id, number=number, seat=seat, text=text)
            )
            self._touch(connection, table_id, version, outcome)

    def append_many(self, rows: Sequence[AppendRow]) -> set[str]:
        """Store several tables' new actions in one transaction (a group commit); returns the
        ids of the tables refused, whose rows were not stored.

        A table is refused when one of its action numbers is stored already (another server
        process stored it: the table moved on elsewhere, see :mod:`fanfold.server.ownership`);
        its rows are left out and its version kept, and the other tables of the commit are
        stored as usual. Any other error stores nothing.
        """
        if not rows:
            return set()
        if self._one_statement_fits(rows):
            return self._append_in_one_statement(rows)
        now = time.time()
        with self._begin() as connection:
            insert = (
                sa.dialects.postgresql.insert(actions)
                if connection.dialect.name == "postgresql"
                else sa.dialects.sqlite.insert(actions)
            )
            stored = connection.execute(
                insert.on_conflict_do_nothing().returning(actions.c.table_id, actions.c.number),
                [
                    {"table_id": r.table_id, "number": r.number, "seat": r.seat, "text": r.text}
                    for r in rows
                ],
            ).all()
            kept = {(row.table_id, row.number) for row in stored}
            refused = {r.table_id for r in rows if (r.table_id, r.number) not in kept}
            for table_id in refused:  # none of a refused table's rows stays
                numbers = [n for (t, n) in kept if t == table_id]
                if numbers:
                    connection.execute(
                        actions.delete().where(
                            actions.c.table_id == table_id, actions.c.number.in_(numbers)
                        )
                    )
            latest: dict[str, AppendRow] = {}
            for row in rows:
                if row.table_id not in refused:
                    latest[row.table_id] = row  # a table's last row carries its newest version
            if latest:
                connection.execute(
                    tables.update()
                    .where(tables.c.id == sa.bindparam("table"))
                    .values(
                        version=sa.bindparam("new_version"),
                        updated=sa.bindparam("now"),
                        outcome=sa.bindparam("new_outcome"),
                        options=sa.func.coalesce(
                            sa.bindparam("new_options", type_=sa.Text), tables.c.options
                        ),
                    ),
                    [
                        {
                            "table": row.table_id,
                            "new_version": row.version,
                            "now": now,
                            "new_outcome": json.dumps(row.outcome)
                            if row.outcome is not None
                            else None,
                            "new_options": json.dumps(row.options)
                            if row.options is not None
                            else None,
                        }
                        for row in latest.values()
                    ],
                )
            for row in rows:
                if row.on_end is not None and row.table_id not in refused:
                    row.on_end(connection)
            # A listed game that ended leaves the lobby's open tables.
            ended = any(
                row.outcome is not None and row.options and row.options.get(LISTED)
                for row in latest.values()
            )
            if ended:
                self._lobby_changed(connection)
        if ended:
            self._tell_lobby()
        return refused

    def _one_statement_fits(self, rows: Sequence[AppendRow]) -> bool:
        """Whether :meth:`append_many` may store ``rows`` with one statement
        (:data:`QUICK_APPEND`): on PostgreSQL, when :func:`fits_one_statement`."""
        return self.engine.dialect.name == "postgresql" and fits_one_statement(rows)

    def _append_in_one_statement(self, rows: Sequence[AppendRow]) -> set[str]:
        """:meth:`append_many` on PostgreSQL as one statement (:data:`QUICK_APPEND`), so one
        round trip to the database besides the pool's check of the connection, in place of
        five; returns the refused tables. (A running server makes these commits from its
        event loop instead, :class:`fanfold.server.appender.Appender`.)"""
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            stored = connection.exec_driver_sql(QUICK_APPEND, quick_append_parameters(rows)).all()
        return {row.table_id for row in rows} - {found[0] for found in stored}

    def truncate(
        self, table_id: str, keep: int, version: int, *, options: JSONObject | None = None
    ) -> None:
        """Keep only the first ``keep`` actions (an undo) and store the new version (and the
        table's ``options``, unless ``None``)."""
        with self._begin() as connection:
            connection.execute(
                actions.delete().where(actions.c.table_id == table_id, actions.c.number > keep)
            )
            self._touch(connection, table_id, version, None)
            if options is not None:
                self._set_options(connection, table_id, options)

    def rule(
        self,
        table_id: str,
        version: int,
        outcome: JSONObject,
        options: JSONObject,
        on_end: Callable[[Connection], object] | None = None,
    ) -> None:
        """Store a table-level ending (:mod:`fanfold.core.rulings`): the table's new
        ``version``, its ``outcome`` and its ``options`` (which carry the ruling), with
        ``on_end`` (a rated game's ratings) in the same transaction.

        Raises:
            FanfoldError: the table is not at ``version - 1`` in the store (another process
                changed it); nothing is stored.
        """
        with self._begin() as connection:
            changed = connection.execute(
                tables.update()
                .where(tables.c.id == table_id, tables.c.version == version - 1)
                .values(
                    version=version,
                    outcome=json.dumps(outcome),
                    options=json.dumps(options),
                    updated=time.time(),
                )
            )
            if changed.rowcount != 1:
                raise FanfoldError(f"table {table_id} changed elsewhere; nothing was stored")
            if on_end is not None:
                on_end(connection)
            if options.get(LISTED):
                self._lobby_changed(connection)
        if options.get(LISTED):
            self._tell_lobby()

    def set_options(self, table_id: str, options: JSONObject) -> None:
        """Store a table's options (the hub's :data:`RESUME`, written after start-up)."""
        with self._begin() as connection:
            self._set_options(connection, table_id, options)

    @staticmethod
    def _set_options(connection: Connection, table_id: str, options: JSONObject) -> None:
        connection.execute(
            tables.update().where(tables.c.id == table_id).values(options=json.dumps(options))
        )

    def expire(self, before: float, keep: Sequence[str] = ()) -> list[str]:
        """Delete every unfinished table whose last change (its ``updated`` time) is before
        ``before`` (a ``time.time()``), with its seats and actions, except the ids in
        ``keep``; returns the ids deleted. Finished games stay, and so does a rated game once
        a move was played: it never expires unrated (its clock ends it, or a player)."""
        stale = sa.select(tables.c.id).where(
            tables.c.outcome.is_(None),
            tables.c.updated < before,
            sa.or_(tables.c.version == 0, tables.c.options.not_like('%"rated": true%')),
        )
        if keep:
            stale = stale.where(tables.c.id.not_in(list(keep)))
        with self._begin() as connection:
            if connection.dialect.name == "sqlite":
                # A first write takes SQLite's write lock, so no action is stored for one of
                # these tables between choosing them and deleting them.
                connection.execute(actions.delete().where(actions.c.table_id.in_(stale)))
            else:  # the rows chosen stay locked (an action for one waits) until the commit
                stale = stale.with_for_update()
            ids = [row.id for row in connection.execute(stale)]
            if not ids:
                return []
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                for table in reversed(metadata.sorted_tables):
                    if table is tables:
                        continue
                    if "table_id" in table.c:  # every table that belongs to a table
                        connection.execute(table.delete().where(table.c.table_id.in_(chunk)))
                connection.execute(tables.delete().where(tables.c.id.in_(chunk)))
            self._lobby_changed(connection)
        self._tell_lobby()
        return ids

    def claim(
        self,
        table_id: str,
        seat: int,
        invite_hash: str,
        hashed: str,
        account_id: int | None = None,
    ) -> bool:
        """Give ``seat`` a token's hash (and the claimant's account, if signed in) if its
        pending invitation is ``invite_hash``, and spend the invitation, in one statement (two
        claims of one link: only the first wins); returns whether it did."""
        with self._begin() as connection:
            done = connection.execute(
                seats.update()
                .where(
                    seats.c.table_id == table_id,
                    seats.c.seat == seat,
                    seats.c.invite_hash == invite_hash,
                )
                .values(token_hash=hashed, invite_hash=None, account_id=account_id)
            )
            return done.rowcount == 1

    def take_open(
        self, table_id: str, seat: int, hashed: str, account_id: int | None = None
    ) -> bool:
        """Give an open seat (no token, no invitation) a token's hash and the account taking
        it, in one statement (two people joining at once: only the first gets it); returns
        whether it did."""
        with self._begin() as connection:
            done = connection.execute(
                seats.update()
                .where(
                    seats.c.table_id == table_id,
                    seats.c.seat == seat,
                    seats.c.token_hash.is_(None),
                    seats.c.invite_hash.is_(None),
                )
                .values(token_hash=hashed, account_id=account_id)
            )
            taken = done.rowcount == 1
            if taken:
                self._lobby_changed(connection)
        if taken:
            self._tell_lobby()
        return taken

    def set_player(
        self,
        table_id: str,
        seat: int,
        player: str,
        options: JSONObject,
        *,
        let_go: bool = False,
        also: Callable[[Connection], object] | None = None,
    ) -> None:
        """Give a seat nobody holds to ``player`` (a bot's agent text) and store the table's
        options, in one transaction; ``let_go``: the seat's person left it (its token holds
        it no more); ``also`` runs in the same transaction (a leaver's rating)."""
        values: dict[str, object] = {"player": player}
        if let_go:
            values["token_hash"] = None
        with self._begin() as connection:
            connection.execute(
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(**values)
            )
            self._set_options(connection, table_id, options)
            if also is not None:
                also(connection)
            self._lobby_changed(connection)
        self._tell_lobby()

    def open_tables(self, limit: int = 50) -> list[tuple[str, str, JSONObject, int, int]]:
        """Listed unfinished tables with a person's seat nobody holds yet, newest first: each
        its id, game, options, seats and seats free (the caller keeps those opened
        ``open``)."""
        free = (
            sa.select(seats.c.table_id, sa.func.count().label("free"))
            .where(
                seats.c.player == "human",
                seats.c.token_hash.is_(None),
                seats.c.invite_hash.is_(None),
            )
            .group_by(seats.c.table_id)
            .subquery()
        )
        count = (
            sa.select(seats.c.table_id, sa.func.count().label("seats"))
            .group_by(seats.c.table_id)
            .subquery()
        )
        query = (
            sa.select(tables.c.id, tables.c.game, tables.c.options, free.c.free, count.c.seats)
            .join(free, free.c.table_id == tables.c.id)
            .join(count, count.c.table_id == tables.c.id)
            .where(tables.c.listed.is_(True), tables.c.outcome.is_(None))
            .order_by(tables.c.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            (row.id, row.game, json.loads(row.options), int(row.seats), int(row.free))
            for row in rows
        ]

    def invite(self, table_id: str, seat: int, invite_hash: str) -> None:
        """Give ``seat`` a new invitation; whoever held the seat before holds it no more."""
        with self._begin() as connection:
            connection.execute(
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(token_hash=None, invite_hash=invite_hash, account_id=None)
            )

    def _touch(
        self, connection: Connection, table_id: str, version: int, outcome: JSONObject | None
    ) -> None:
        connection.execute(
            tables.update()
            .where(tables.c.id == table_id)
            .values(
                version=version,
                updated=time.time(),
                outcome=json.dumps(outcome) if outcome is not None else None,
            )
        )

    # --------------------------------------------------------------- reading
    def load(self, table_id: str) -> StoredTable | None:
        """The stored table, or ``None`` when there is none by that id."""
        return self.load_many([table_id]).get(table_id)

    def load_many(self, table_ids: Sequence[str]) -> dict[str, StoredTable]:
        """The stored tables of ``table_ids`` by id (an id with no table is left out), read
        in three queries for every :data:`LOAD_CHUNK` of them: the tables a killed process
        played reach their stand-in at once, and one read each kept them waiting in line."""
        found: dict[str, StoredTable] = {}
        wanted = list(dict.fromkeys(table_ids))
        with self.engine.connect() as connection:
            for start in range(0, len(wanted), LOAD_CHUNK):
                found.update(_load_chunk(connection, wanted[start : start + LOAD_CHUNK]))
        return found

    def recent(self, limit: int = 20) -> list[TableSummary]:
        """The most recently changed tables opened to the public (``listed``), newest first."""
        moves = (
            sa.select(actions.c.table_id, sa.func.count().label("moves"))
            .group_by(actions.c.table_id)
            .subquery()
        )
        query = (
            sa.select(tables.c.id, tables.c.game, tables.c.outcome, tables.c.updated, moves.c.moves)
            .select_from(tables.outerjoin(moves, moves.c.table_id == tables.c.id))
            .where(tables.c.listed.is_(True))
            .order_by(tables.c.updated.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
            players: dict[str, list[str]] = {row.id: [] for row in rows}
            if players:
                for seat_row in connection.execute(
                    sa.select(seats.c.table_id, seats.c.player)
                    .where(seats.c.table_id.in_(list(players)))
                    .order_by(seats.c.table_id, seats.c.seat)
                ):
                    players[seat_row.table_id].append(seat_row.player)
        return [
            TableSummary(
                row.id,
                row.game,
                tuple(players[row.id]),
                int(row.moves or 0),
                row.outcome is not None,
                float(row.updated),
            )
            for row in rows
        ]

    def to_resume(self, since: float | None = None) -> list[tuple[str, bool | None]]:
        """The unfinished tables changed since ``since`` (a ``time.time()``; ``None``: all),
        each with its stored :data:`RESUME` (``None``: stored before it existed)."""
        query = sa.select(tables.c.id, tables.c.options).where(tables.c.outcome.is_(None))
        if since is not None:
            query = query.where(tables.c.updated >= since)
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        found: list[tuple[str, bool | None]] = []
        for row in rows:
            options = json.loads(row.options)
            resume = options.get(RESUME) if isinstance(options, dict) else None
            found.append((row.id, resume if isinstance(resume, bool) else None))
        return found

    def ping(self) -> None:
        """A round trip to the database: raises what the driver raises when it does not
        answer (the clocks wait for it before ruling a time-out)."""
        with self.engine.connect() as connection:
            connection.execute(sa.select(1))

    def running_rated(self, game: str) -> list[StoredTable]:
        """The unfinished rated tables of ``game`` (a game id), as stored: a table opened
        from a record or a position is checked against them, so that no running rated game
        can be taken to a table with analysis. The options' text narrows the search (they
        are stored by ``json.dumps``); each table's own options decide."""
        query = sa.select(tables.c.id).where(
            tables.c.game == game,
            tables.c.outcome.is_(None),
            tables.c.options.like('%"rated": true%'),
        )
        with self.engine.connect() as connection:
            ids = [row.id for row in connection.execute(query)]
        found = self.load_many(ids)
        return [table for table in found.values() if table.options.get("rated") is True]

    def unfinished(self) -> list[str]:
        """The ids of tables whose game has not ended (resumed at start-up)."""
        with self.engine.connect() as connection:
            return [
                row.id
                for row in connection.execute(
                    sa.select(tables.c.id).where(tables.c.outcome.is_(None))
                )
            ]


def _load_chunk(connection: sa.Connection, chunk: Sequence[str]) -> dict[str, StoredTable]:
    """The stored tables of ``chunk`` (at most :data:`LOAD_CHUNK` ids) by id, in three
    queries: the tables, their seats, their actions."""
    rows = connection.execute(tables.select().where(tables.c.id.in_(chunk))).all()
    present = [row.id for row in rows]
    if not present:
        return {}
    seats_of: dict[str, list[StoredSeat]] = {table_id: [] for table_id in present}
    for r in connection.execute(
        seats.select().where(seats.c.table_id.in_(present)).order_by(seats.c.table_id, seats.c.seat)
    ):
        seats_of[r.table_id].append(
            StoredSeat(r.seat, r.player, r.token_hash, r.invite_hash, r.account_id)
        )
    actions_of: dict[str, list[tuple[int, str]]] = {table_id: [] for table_id in present}
    for r in connection.execute(
        sa.select(actions.c.table_id, actions.c.seat, actions.c.text)
        .where(actions.c.table_id.in_(present))
        .order_by(actions.c.table_id, actions.c.number)
    ):
        actions_of[r.table_id].append((int(r.seat), str(r.text)))
    return {
        row.id: StoredTable(
            id=row.id,
            game=row.game,
            config=json.loads(row.config),
            seed=int(row.seed),
            start_position=row.start_position,
            version=int(row.version),
            allow_undo=bool(row.allow_undo),
            options=json.loads(row.options),
            outcome=json.loads(row.outcome) if row.outcome is not None else None,
            created=float(row.created),
            updated=float(row.updated),
            seats=tuple(seats_of[row.id]),
            actions=tuple(actions_of[row.id]),
            creator_hash=row.creator_hash,
            listed=bool(row.listed),
        )
        for row in rows
    }
