"""``fanfold moderate``: moderators' checks and actions on a server's store.

* ``grant NAME`` / ``revoke NAME``: the moderator role (the site has no page that grants it);
* ``close NAME --note TEXT``: close an account (its sessions end, its opponents get back the
  points they lost to it, once) and ``reopen NAME --note TEXT``;
* ``flags``, ``reports``, ``appeals``, ``log``: the fair-play flags with the accounts' names,
  the players' reports, the closed accounts' appeals and the moderators' log (read only);
* ``assistance``: the engine-assistance check of rated Morris games (read only).

Every command takes the store as ``fanfold serve`` does: ``--db URL``, ``--db-file PATH`` (a
file holding the URL) or ``FANFOLD_DB_URL`` (a URL with a password never goes in ``--db``:
every user sees a command line), by default its SQLite file. The commands that only
read open a SQLite file read-only and PostgreSQL in a read-only transaction; those that act
need a store the server has brought to this version's schema, and log what they do with the
machine's user name as the moderator. ``docs/moderation.md`` explains it all.

``fanfold moderate assistance --db URL`` reads the rated Fano330-R-Morris games of every
account from the store (read only: it writes nothing, and opens a SQLite file read-only),
compares each move with the solved table in the critical positions
(:mod:`fanfold.play.assistance`) and prints, per account, its games, critical positions, the
share played with the table's best move and the verdict. A flag asks a moderator to look at the
games; it changes nothing in the store. ``docs/fairplay.md`` explains the check.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fanfold.cli.common import (
    StoreDb,
    StoreDbFile,
    console,
    error_console,
    fail,
    said,
    terminal_words,
)
from fanfold.cli.help_words import N_
from fanfold.cli.store_url import store_url

if TYPE_CHECKING:
    from fanfold.play.assistance import AssistanceStats
    from fanfold.server.store import Transaction as Connection
    from fanfold.server.store.engine import Engine

app = typer.Typer(
    help="Moderators' checks and actions on a server's store (docs/moderation.md).",
    no_args_is_help=True,
)

#: ``--db`` and ``--db-file``: the store ``fanfold serve`` is given (also by ``FANFOLD_DB_URL``;
#: by default its SQLite file), read as ``fanfold serve`` reads them. A URL with a password
#: goes in the file or the variable, never on the command line.
Database = StoreDb
DatabaseFile = StoreDbFile


@contextmanager
def _store_said() -> Iterator[None]:
    """A store that cannot be used (:class:`~fanfold.server.store.tools.StoreAccessError`)
    as one line, and exit status 2."""
    from fanfold.server.store.tools import StoreAccessError

    try:
        yield
    except StoreAccessError as error:
        fail(str(error))


@contextmanager
def read_only(url: str) -> Iterator[Connection]:
    """A read-only connection to the store at ``url``: a SQLite file opened read-only (a
    missing file is an error, never created), any other database in a read-only transaction
    (PostgreSQL) that is rolled back at the end. Exits with a clear error for a URL that is
    not a database URL, a database that cannot be reached, or one without fanfold's tables."""
    from fanfold.server.store import tools

    with _store_said(), tools.read_only(url) as connection:
        yield connection


@dataclass
class AccountGames:
    """One account's rated games for the check: its name and each game's record and seat."""

    id: int
    name: str
    games: list[tuple[str, Any, int]] = field(default_factory=list)  # (table, record, seat)


def _account_filter(connection: Connection, account: str | None) -> int | None:
    """The id of the account named (by its name in any case, else by its number), ``None``
    for every account."""
    from fanfold.server.store import tools
    from fanfold.server.store.engine import sql

    if account is None:
        return None
    text = account.strip()
    found = tools.account_id(sql(connection), text.lower(), int(text) if text.isdigit() else None)
    if found is None:
        said(N_("no account is called %(name)s (give its name or its number)"), name=repr(text))
    return found


def rated_games_of(connection: Connection, account_id: int | None) -> list[AccountGames]:
    """Every account's finished, rated games of a game the check covers (or one account's),
    from the store's tables and rating rows, in the order they were played."""
    from fanfold.core.records import GameRecord
    from fanfold.core.registry import all_games
    from fanfold.play.assistance import checks
    from fanfold.server.ratings import RATED, account_key
    from fanfold.server.store import tools
    from fanfold.server.store.engine import sql

    names = sorted(
        {
            name
            for game in all_games()
            if checks(game)
            for name in (game.id, game.name, *game.aliases)
        }
    )
    player = account_key(account_id) if account_id is not None else None
    rows = [
        row
        for row in tools.rated_seats(sql(connection), names, player)
        if json.loads(row.table.options).get(RATED) and row.player[2:].isdigit()
    ]
    texts = tools.action_texts(sql(connection), [row.table.id for row in rows])
    account_ids = {int(row.player[2:]) for row in rows}
    if account_id is not None:
        account_ids.add(account_id)
    named = tools.account_names(sql(connection), account_ids)
    found = {
        number: AccountGames(number, str(named.get(number, f"#{number}")))
        for number in sorted(account_ids)
    }
    for row in rows:
        table = row.table
        record = GameRecord(
            table.game,
            json.loads(table.config),
            int(table.seed),
            tuple(texts[table.id]),
            table.start_position,
        )
        found[int(row.player[2:])].games.append((table.id, record, row.seat))
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
            words = terminal_words()
            left = words.gettext("warning: %(name)s's game %(table)s is left out: %(reason)s")
            params = {"name": games.name, "table": table_id, "reason": words.text(error)}
            error_console.print(left % params, markup=False)
            continue
        stats = stats.add_game(decisions)
    return stats


#: A verdict's words in the table (:class:`fanfold.play.assistance.Verdict`'s values).
VERDICTS = {
    "flagged": N_("flagged"),
    "not flagged": N_("not flagged"),
    "not enough evidence": N_("not enough evidence"),
}


@app.command()
def assistance(
    db: Database = None,
    db_file: DatabaseFile = None,
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
        said(
            N_(
                "a verdict needs at least %(critical)s critical positions over at least "
                "%(games)s games: --min-critical and --min-games may raise those, not lower them"
            ),
            critical=MIN_CRITICAL,
            games=MIN_GAMES,
        )
    with read_only(store_url(db, db_file)) as connection:
        account_id = _account_filter(connection, account)
        found = rated_games_of(connection, account_id)
    words = terminal_words()
    gettext = words.gettext
    if not found:
        console.print(gettext("No account has a finished rated Fano330-R-Morris game."))
        return
    title = gettext("Engine assistance in rated Fano330-R-Morris games (threshold %(share)s)")
    table = Table(title=title % {"share": percent(THRESHOLD)}, title_justify="left")
    table.add_column(gettext("account"))
    table.add_column(gettext("games"), justify="right")
    table.add_column(gettext("critical positions"), justify="right")
    table.add_column(gettext("matched"), justify="right")
    table.add_column(gettext("verdict"))
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
            gettext(VERDICTS[judgement.verdict.value]),
        )
        if judgement.flagged or account is not None:
            sentences.append(f"{games.name}: {words.text(judgement.sentence)}")
    console.print(table)
    for sentence in sentences:
        console.print(sentence, markup=False)


# ------------------------------------------------------- moderators' actions

#: The tables moderation adds (revision 0006): a store without them is older than this version.
MODERATION_TABLES = ("reports", "appeals", "rating_refunds", "moderation_log")

Limit = Annotated[int, typer.Option("--limit", min=1, max=10_000, help="Rows to show at most.")]


def _check_moderation_schema(present: set[str], url: str) -> None:
    """Exit with a clear error unless the store (its tables ``present``) has moderation's
    tables (revision 0006)."""
    from fanfold.server.store import shown_url

    if "accounts" not in present or "tables" not in present:
        said(
            N_(
                "the database at %(store)s holds no fanfold store (no table accounts); give "
                "the URL that 'fanfold serve --db' uses"
            ),
            store=shown_url(url),
        )
    missing = [name for name in MODERATION_TABLES if name not in present]
    if missing:
        said(
            N_(
                "the store at %(store)s is older than this fanfold (no table %(missing)s): "
                "start this version's 'fanfold serve --db' on it once to upgrade it"
            ),
            store=shown_url(url),
            missing=", ".join(missing),
        )


@contextmanager
def writable(url: str) -> Iterator[Engine]:
    """An engine on the store at ``url`` for a moderator's action: a SQLite file that exists
    (never created) or another database, with moderation's tables. Exits with a clear error
    otherwise, or when the database cannot be reached."""
    from fanfold.server.store import tools

    with (
        _store_said(),
        tools.writable(url, lambda present: _check_moderation_schema(present, url)) as engine,
    ):
        yield engine


@contextmanager
def reading(url: str) -> Iterator[Connection]:
    """:func:`read_only`, with moderation's tables."""
    from fanfold.server.store import tools
    from fanfold.server.store.engine import sql

    with read_only(url) as connection:
        _check_moderation_schema(tools.table_names(sql(connection)), url)
        yield connection


@contextmanager
def _said() -> Iterator[None]:
    """A refusal of the store's (no such account, a role it has already, ...) as one line."""
    from fanfold.core.errors import FanfoldError

    try:
        yield
    except FanfoldError as error:
        fail(str(error.args[0]) if error.args else str(error))


def _when(seconds: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _who(person: dict[str, Any] | None) -> str:
    if person is None:
        return "-"
    closed = terminal_words().gettext("%(name)s (closed)")
    return closed % {"name": person["name"]} if person["closed"] else str(person["name"])


Note = Annotated[str, typer.Option("--note", help="Why, for the moderators' log.")]


@app.command()
def grant(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    note: Annotated[str, typer.Option("--note", help="Why, for the log.")] = "",
    db: Database = None,
    db_file: DatabaseFile = None,
) -> None:
    """Give an account the moderator role: it reads the reports, the flags, the appeals and
    the log on /moderation, and closes and reopens accounts. Logged."""
    from fanfold.server.accounts import MODERATOR
    from fanfold.server.moderation import Moderator, set_role

    with writable(store_url(db, db_file)) as engine, _said():
        state = set_role(engine, name, MODERATOR, Moderator.console(), note)
    said_now = terminal_words().gettext("%(name)s is a moderator now.")
    console.print(said_now % {"name": state.name}, markup=False)


@app.command()
def revoke(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    note: Annotated[str, typer.Option("--note", help="Why, for the log.")] = "",
    db: Database = None,
    db_file: DatabaseFile = None,
) -> None:
    """Take the moderator role from an account (it stays a player). Logged."""
    from fanfold.server.accounts import PLAYER
    from fanfold.server.moderation import Moderator, set_role

    with writable(store_url(db, db_file)) as engine, _said():
        state = set_role(engine, name, PLAYER, Moderator.console(), note)
    said_now = terminal_words().gettext("%(name)s is no moderator now.")
    console.print(said_now % {"name": state.name}, markup=False)


@app.command()
def close(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    note: Note,
    db: Database = None,
    db_file: DatabaseFile = None,
) -> None:
    """Close an account: its sessions end at once, it cannot sign in (it is told how to
    appeal), it leaves the leaderboards, the open reports about it are settled, and every
    person who lost points to it in a rated game gets them back (once: closing again gives
    nothing more for the same games, only for rated games it finished since). Logged."""
    from fanfold.server.moderation import Moderator, close_account

    with writable(store_url(db, db_file)) as engine, _said():
        closing = close_account(engine, name, note, Moderator.console())
    state = closing.account
    gettext = terminal_words().gettext
    if closing.was_closed:
        closed = gettext(
            "%(name)s is closed (it was closed already): %(sessions)s session(s) ended, "
            "%(reports)s report(s) settled, %(points)s point(s) given back over %(refunds)s "
            "refund(s)."
        )
    else:
        closed = gettext(
            "%(name)s is closed: %(sessions)s session(s) ended, %(reports)s report(s) settled, "
            "%(points)s point(s) given back over %(refunds)s refund(s)."
        )
    params = {
        "name": state.name,
        "sessions": closing.sessions_ended,
        "reports": closing.reports_settled,
        "points": f"{closing.refunded:.1f}",
        "refunds": len(closing.refunds),
    }
    console.print(closed % params, markup=False)
    if closing.refunds:
        from rich.table import Table

        table = Table(title=gettext("Points given back"), title_justify="left")
        for column in (N_("player"), N_("family"), N_("table")):
            table.add_column(gettext(column))
        table.add_column(gettext("points"), justify="right")
        for refund in closing.refunds:
            table.add_row(refund.name, refund.family, refund.table, f"{refund.points:.1f}")
        console.print(table)


@app.command()
def reopen(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    note: Note,
    db: Database = None,
    db_file: DatabaseFile = None,
) -> None:
    """Reopen a closed account: it may sign in again. The points its closing gave back stay
    given. Logged."""
    from fanfold.server.moderation import Moderator, reopen_account

    with writable(store_url(db, db_file)) as engine, _said():
        state = reopen_account(engine, name, note, Moderator.console())
    reopened = terminal_words().gettext("%(name)s is open again; its refunds stay given.")
    console.print(reopened % {"name": state.name}, markup=False)


@app.command()
def flags(db: Database = None, db_file: DatabaseFile = None, limit: Limit = 50) -> None:
    """The fair-play flags, newest first: rated games whose accounts shared an address or a
    device, with the accounts' names. Only reads."""
    from rich.table import Table

    from fanfold.server.moderation import list_flags

    with reading(store_url(db, db_file)) as connection:
        found = list_flags(connection, limit=limit)
    gettext = terminal_words().gettext
    if not found:
        console.print(gettext("No flags."), markup=False)
        return
    table = Table(title=gettext("Fair-play flags, newest first"), title_justify="left")
    for column in (N_("when"), N_("kind"), N_("first"), N_("second"), N_("table")):
        table.add_column(gettext(column))
    for flag in found:
        table.add_row(
            _when(flag["at"]),
            flag["kind"],
            _who(flag["first"]),
            _who(flag["second"]),
            flag["table"],
        )
    console.print(table)


@app.command()
def reports(
    db: Database = None,
    db_file: DatabaseFile = None,
    everything: Annotated[
        bool, typer.Option("--all", help="Settled reports too (the open ones by default).")
    ] = False,
    limit: Limit = 50,
) -> None:
    """The players' reports, newest first, with their context (the table, its game, the
    seat reported, the moves played when it was filed). Only reads."""
    from fanfold.server.moderation import list_reports

    with reading(store_url(db, db_file)) as connection:
        found = list_reports(connection, everything=everything, limit=limit)
    gettext = terminal_words().gettext
    if not found:
        console.print(gettext("No reports.") if everything else gettext("No open reports."))
        return
    for report in found:
        params = {
            **report,
            "when": _when(report["at"]),
            "reported": _who(report["reported"]),
            "reporter": _who(report["reporter"]),
        }
        if report["rated"]:
            table = gettext(
                "  table %(table)s (%(game)s, rated), seat %(seat)s, %(moves)s moves when filed"
            )
        else:
            table = gettext(
                "  table %(table)s (%(game)s), seat %(seat)s, %(moves)s moves when filed"
            )
        lines = [
            gettext("report %(id)s, %(when)s: %(reason)s, %(reported)s reported by %(reporter)s")
            % params,
            table % params,
        ]
        if report["note"]:
            lines.append(gettext("  note: %(note)s") % params)
        if report["resolved_at"] is not None:
            settled = gettext("  settled %(when)s by %(resolved_by)s: %(resolution)s")
            lines.append(settled % {**params, "when": _when(report["resolved_at"])})
        console.print("\n".join(lines), markup=False)


@app.command()
def appeals(db: Database = None, db_file: DatabaseFile = None, limit: Limit = 50) -> None:
    """The closed accounts' appeals, newest first. Only reads."""
    from fanfold.server.moderation import list_appeals

    with reading(store_url(db, db_file)) as connection:
        found = list_appeals(connection, limit=limit)
    gettext = terminal_words().gettext
    if not found:
        console.print(gettext("No appeals."), markup=False)
        return
    for appeal in found:
        said_line = gettext("appeal %(id)s, %(when)s, %(account)s:")
        params = {
            "id": appeal["id"],
            "when": _when(appeal["at"]),
            "account": _who(appeal["account"]),
        }
        console.print(f"{said_line % params}\n  {appeal['note']}", markup=False)


@app.command()
def log(db: Database = None, db_file: DatabaseFile = None, limit: Limit = 50) -> None:
    """The moderators' log, newest first: who did what to whom, why, and what it did. Only
    reads."""
    from fanfold.server.moderation import list_log

    with reading(store_url(db, db_file)) as connection:
        found = list_log(connection, limit=limit)
    gettext = terminal_words().gettext
    if not found:
        console.print(gettext("The log is empty."), markup=False)
        return
    for entry in found:
        params = {
            "when": _when(entry["at"]),
            "moderator": entry["moderator"],
            "action": entry["action"],
            "account": entry["account"] or "-",
            "note": entry["note"] or "-",
            "detail": entry["detail"],
        }
        said_entry = gettext(
            "%(when)s  %(moderator)s: %(action)s %(account)s\n  note: %(note)s\n  done: %(detail)s"
        )
        console.print(said_entry % params, markup=False)
