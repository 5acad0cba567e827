"""``fanfold moderate``: checks for moderators, read from a server's store.

``fanfold moderate assistance --db URL`` reads the rated Fano330-R-Morris games of every
account from the store (read only: it writes nothing, and opens a SQLite file read-only),
compares each move with the solved table in the critical positions
(:mod:`fanfold.play.assistance`) and prints, per account, its games, critical positions, the
share played with the table's best move and the verdict. A flag asks a moderator to look at the
games; it changes nothing in the store. ``docs/fairplay.md`` explains the check.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fanfold.cli.common import console, error_console, fail

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from fanfold.play.assistance import AssistanceStats

app = typer.Typer(
    help="Checks for moderators, read from a server's store (nothing is changed).",
    no_args_is_help=True,
)

#: How many tables' actions one query reads.
CHUNK = 200


def _open_error(url: str, reason: object) -> str:
    from fanfold.server.store import shown_url

    lines = str(reason).strip().splitlines()
    return f"the store at {shown_url(url)} cannot be read: {lines[0] if lines else reason}"


@contextmanager
def read_only(url: str) -> Iterator[Connection]:
    """A read-only connection to the store at ``url``: a SQLite file opened read-only (a
    missing file is an error, never created), any other database in a read-only transaction
    (PostgreSQL) that is rolled back at the end. Exits with a clear error for a URL that is
    not a database URL, a database that cannot be reached, or one without fanfold's tables."""
    import sqlalchemy as sa

    from fanfold.server.accounts import accounts
    from fanfold.server.ratings import rated_games, rating_changes
    from fanfold.server.store import actions, shown_url, tables

    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        fail(
            f"{url!r} is not a database URL; give sqlite:///path/to/fanfold.db or "
            "postgresql+psycopg://user@host/name"
        )
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if not database or database == ":memory:" or database.startswith("file:"):
            fail(f"{url!r} names no SQLite file; give sqlite:///path/to/fanfold.db")
        path = Path(database).expanduser()
        if not path.is_file():
            fail(f"there is no SQLite file at {path}")
        uri = f"{path.resolve().as_uri()}?mode=ro"
        engine = sa.create_engine(
            "sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False)
        )
    else:
        try:
            engine = sa.create_engine(url)
        except (sa.exc.ArgumentError, ImportError) as error:
            fail(_open_error(url, error))
    try:
        with engine.connect() as connection:
            if connection.dialect.name == "postgresql":
                connection.exec_driver_sql("SET TRANSACTION READ ONLY")
            present = set(sa.inspect(connection).get_table_names())
            stored = (tables, actions, accounts, rated_games, rating_changes)
            missing = [table.name for table in stored if table.name not in present]
            if missing:
                fail(
                    f"the database at {shown_url(url)} holds no fanfold store (no table "
                    f"{', '.join(missing)}); give the URL that 'fanfold serve --db' uses"
                )
            yield connection
            connection.rollback()
    except sa.exc.SQLAlchemyError as error:
        fail(_open_error(url, getattr(error, "orig", None) or error))
    finally:
        engine.dispose()


@dataclass
class AccountGames:
    """One account's rated games for the check: its name and each game's record and seat."""

    id: int
    name: str
    games: list[tuple[str, Any, int]] = field(default_factory=list)  # (table, record, seat)


def _account_filter(connection: Connection, account: str | None) -> int | None:
    """The id of the account named (by its name in any case, else by its number), ``None``
    for every account."""
    import sqlalchemy as sa

    from fanfold.server.accounts import accounts

    if account is None:
        return None
    text = account.strip()
    found = connection.execute(
        sa.select(accounts.c.id).where(accounts.c.name_key == text.lower())
    ).scalar()
    if found is None and text.isdigit():
        found = connection.execute(
            sa.select(accounts.c.id).where(accounts.c.id == int(text))
        ).scalar()
    if found is None:
        fail(f"no account is called {text!r} (give its name or its number)")
    return int(found)


def rated_games_of(connection: Connection, account_id: int | None) -> list[AccountGames]:
    """Every account's finished, rated games of a game the check covers (or one account's),
    from the store's tables and rating rows, in the order they were played."""
    import sqlalchemy as sa

    from fanfold.core.records import GameRecord
    from fanfold.core.registry import all_games
    from fanfold.play.assistance import checks
    from fanfold.server.accounts import accounts
    from fanfold.server.ratings import RATED, account_key, rated_games, rating_changes
    from fanfold.server.store import actions, tables

    names = sorted(
        {
            name
            for game in all_games()
            if checks(game)
            for name in (game.id, game.name, *game.aliases)
        }
    )
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
            tables.c.game.in_(names),
            tables.c.outcome.is_not(None),
        )
        .order_by(rating_changes.c.player, rated_games.c.at, tables.c.id)
    )
    if account_id is not None:
        query = query.where(rating_changes.c.player == account_key(account_id))
    rows = [
        row
        for row in connection.execute(query).all()
        if json.loads(row.options or "{}").get(RATED) and row.player[2:].isdigit()
    ]
    texts: dict[str, list[str]] = {row.id: [] for row in rows}
    ids = list(texts)
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        for table_id, text in connection.execute(
            sa.select(actions.c.table_id, actions.c.text)
            .where(actions.c.table_id.in_(chunk))
            .order_by(actions.c.table_id, actions.c.number)
        ):
            texts[table_id].append(text)
    account_ids = {int(row.player[2:]) for row in rows}
    if account_id is not None:
        account_ids.add(account_id)
    named = dict(
        connection.execute(
            sa.select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(account_ids))
        ).all()
    )
    found = {
        number: AccountGames(number, str(named.get(number, f"#{number}")))
        for number in sorted(account_ids)
    }
    for row in rows:
        record = GameRecord(
            row.game,
            json.loads(row.config),
            int(row.seed),
            tuple(texts[row.id]),
            row.start_position,
        )
        found[int(row.player[2:])].games.append((row.id, record, int(row.seat)))
    return sorted(found.values(), key=lambda games: (games.name.lower(), games.id))


def evidence(games: AccountGames) -> AssistanceStats:
    """An account's critical positions and matches over its games; a game that does not
    replay is left out, said on standard error."""
    from fanfold.core.errors import FanfoldError
    from fanfold.play.assistance import AssistanceStats, critical_decisions

    stats = AssistanceStats()
    for table_id, record, seat in games.games:
        try:
            decisions = critical_decisions(record, seat)
        except FanfoldError as error:
            error_console.print(
                f"warning: {games.name}'s game {table_id} is left out: {error}", markup=False
            )
            continue
        stats = stats.add_game(decisions)
    return stats


@app.command()
def assistance(
    db: Annotated[
        str,
        typer.Option(
            "--db",
            help="The server's database URL, as given to 'fanfold serve --db': "
            "sqlite:///path/to/fanfold.db or postgresql+psycopg://user@host/name. It is only "
            "read.",
        ),
    ],
    account: Annotated[
        str | None,
        typer.Option(
            "--account",
            help="Check one account, by name (any case) or number; every account with rated "
            "games by default.",
        ),
    ] = None,
    min_critical: Annotated[
        int,
        typer.Option(
            "--min-critical",
            help="Critical positions an account needs before a verdict (40 at least).",
        ),
    ] = 40,
    min_games: Annotated[
        int,
        typer.Option(
            "--min-games", help="Rated games an account needs before a verdict (5 at least)."
        ),
    ] = 5,
) -> None:
    """Compare rated Fano330-R-Morris moves with the solved table: a flag for a moderator.

    For every account (or the one named) the check replays its finished rated games and looks
    at its critical positions only: those where the legal moves' values (win, draw or loss,
    and the distance to the end) are not all the same. It counts how many of them were played
    with the solved table's best move. An account is flagged when that share reaches the
    threshold (every critical position); below 40 critical positions or 5 games there is not
    enough evidence for a verdict. A flag asks a moderator to look at the games: it is not a
    finding, and it removes nothing. See docs/fairplay.md. The card games have no such check.
    """
    from rich.table import Table

    from fanfold.play.assistance import MIN_CRITICAL, MIN_GAMES, THRESHOLD, percent, verdict

    if min_critical < MIN_CRITICAL or min_games < MIN_GAMES:
        fail(
            f"a verdict needs at least {MIN_CRITICAL} critical positions over at least "
            f"{MIN_GAMES} games: --min-critical and --min-games may raise those, not lower them"
        )
    with read_only(db) as connection:
        account_id = _account_filter(connection, account)
        found = rated_games_of(connection, account_id)
    if not found:
        console.print("No account has a finished rated Fano330-R-Morris game.", markup=False)
        return
    title = f"Engine assistance in rated Fano330-R-Morris games (threshold {percent(THRESHOLD)})"
    table = Table(title=title, title_justify="left")
    table.add_column("account")
    table.add_column("games", justify="right")
    table.add_column("critical positions", justify="right")
    table.add_column("matched", justify="right")
    table.add_column("verdict")
    sentences: list[str] = []
    for games in found:
        stats = evidence(games)
        judgement = verdict(stats, min_critical=min_critical, min_games=min_games)
        share = stats.share.fraction
        table.add_row(
            games.name,
            str(stats.games),
            str(stats.critical),
            "-" if share is None else f"{share:.1%}",
            judgement.verdict.value,
        )
        if judgement.flagged or account is not None:
            sentences.append(f"{games.name}: {judgement.sentence}")
    console.print(table)
    for sentence in sentences:
        console.print(sentence, markup=False)
