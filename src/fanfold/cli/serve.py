"""``fanfold serve``: the browser play server, on its embedded store or a database by URL."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from fanfold.cli.common import Said, console, error_console, refused, said, terminal_words, worded
from fanfold.cli.help_words import N_

if TYPE_CHECKING:
    from fanfold.server.store import Store


class Allocator(StrEnum):
    """Which allocator a ``fanfold serve`` process runs on (:mod:`fanfold.server.allocator`)."""

    PYTHON = "python"
    JEMALLOC = "jemalloc"


#: The environment variable that may hold the database's URL (``fanfold serve``): unlike
#: ``--db``, it is not shown by ``ps``. ``--processes N`` hands the URL to its processes in it.
DB_URL_VARIABLE = "FANFOLD_DB_URL"


class LogFormat(StrEnum):
    """How ``fanfold serve`` writes its log (:mod:`fanfold.server.logs`)."""

    TEXT = "text"
    JSON = "json"


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///path.db or postgresql+psycopg://user@host/name "
            "(default: a SQLite file in your data directory). Any process's command line is "
            "visible to every user (ps): give a URL with a password by --db-file or "
            f"{DB_URL_VARIABLE} instead."
        ),
    ] = None,
    db_file: Annotated[
        Path | None,
        typer.Option(
            metavar="PATH",
            help="A file holding the database URL (one line; readable by the server's user "
            f"only), instead of --db. The environment variable {DB_URL_VARIABLE} may hold it "
            "too. Given more than one way, they must name the same URL.",
        ),
    ] = None,
    key_file: Annotated[
        Path | None,
        typer.Option(
            metavar="PATH",
            help="A file of keys that sign the session cookies (one a line: the first signs, "
            "every one verifies), instead of the key kept in the store; its fingerprint is "
            "checked against the store's at start (fanfold keys rotate accepts a new one).",
        ),
    ] = None,
    bot_seconds: Annotated[
        float,
        typer.Option(
            help="Most seconds a bot thinks per decision: bots without a time cap get this "
            "one, and a table asking for more is refused; a level (easy, medium, hard) is "
            "bounded by its own budget, with a 5 s wall-clock guard, or this where larger "
            "(docs/server/bots.md).",
            min=0.05,
        ),
    ] = 1.0,
    bot_pause: Annotated[
        float, typer.Option(help="Seconds between bot moves, so you can follow them.", min=0)
    ] = 0.4,
    bot_workers: Annotated[
        int,
        typer.Option(
            help="Bot decisions computed at once, each in a worker process of its own, shared "
            "fairly by the tables.",
            min=1,
            max=64,
        ),
    ] = 4,
    expire_days: Annotated[
        float,
        typer.Option(
            help="Days an unfinished table may go without an action before it is deleted "
            "as abandoned (0: never).",
            min=0,
        ),
    ] = 30.0,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            metavar="ADDR",
            help="Address or network of a proxy in front of the server (repeat it, or separate "
            "with commas): requests through it count against the client its X-Forwarded-For "
            "names, over the scheme its X-Forwarded-Proto names (https: the session cookies "
            "are Secure). Default: none, every client is the address it connects from.",
        ),
    ] = None,
    public_origin: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="The site's address as browsers see it, https://fanfold.example: an HTTPS "
            "one makes every answer carry Strict-Transport-Security (max-age one year) and "
            "the session cookies Secure (never for http or localhost). Default: none.",
            envvar="FANFOLD_PUBLIC_ORIGIN",
        ),
    ] = None,
    processes: Annotated[
        int,
        typer.Option(
            help="Server processes to start, on ports PORT, PORT+1, ... (each its own "
            "process, not workers sharing one socket), for a router such as HAProxy in front "
            "(docs/deploy.md); more than one needs a PostgreSQL store.",
            min=1,
            max=64,
        ),
    ] = 1,
    keep_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds a table nobody watches and nothing plays on stays in memory after "
            "it was last asked for (the store keeps it, and it comes back when asked for).",
            min=1,
        ),
    ] = 600.0,
    health_port: Annotated[
        int | None,
        typer.Option(
            help="Also answer /health, /ready and /metrics on this port, from a thread of "
            "the process that never waits behind the tables' work, for a router's health "
            "checks and Prometheus's scrapes (docs/deploy.md); with --processes N, ports "
            "HEALTH_PORT to HEALTH_PORT+N-1. Default: on the game's port only.",
            min=1,
            max=65535,
        ),
    ] = None,
    server_name: Annotated[
        str | None,
        typer.Option(
            help="This process's name in the router's configuration (its server line in "
            "HAProxy's): it ends the id of every table the process opens, so that the router "
            "keeps the table on it (docs/deploy.md). With --processes N, NAME1 to NAMEN "
            "(default s1 to sN, the names deploy/haproxy.cfg gives). Default for one process: "
            "none.",
        ),
    ] = None,
    log_format: Annotated[
        LogFormat,
        typer.Option(
            help="How the server writes its log on standard error: text (one readable line "
            "a record) or json (one JSON object a line); each with the time, level, logger, "
            "message, process, and the table a line is about, from INFO (FANFOLD_LOG_LEVEL "
            "sets another level; docs/logs.md).",
            envvar="FANFOLD_LOG_FORMAT",
        ),
    ] = LogFormat.TEXT,
    allocator: Annotated[
        Allocator,
        typer.Option(
            help="The memory allocator: python (Python's own, the default) or jemalloc "
            "(Debian's libjemalloc2; the process starts itself again on it), which hands "
            "the memory of tables that left back to the system: a busy process's size falls "
            'back near its idle size (docs/deploy.md, "Memory after the load"). With '
            "--processes N, every process.",
            envvar="FANFOLD_ALLOCATOR",
        ),
    ] = Allocator.PYTHON,
) -> None:
    """Serve fanfold in the browser: open the printed address to play."""
    import logging

    with collector_off():  # (most of a start is this import)
        import uvicorn

        from fanfold.server.app import MAX_MESSAGE, create_app
    from fanfold.server.forwarded import public_origin as checked_origin
    from fanfold.server.forwarded import trusted_networks
    from fanfold.server.settings import Settings
    from fanfold.server.store import default_url, shown_url

    proxies = list(trusted_proxy or [])
    try:
        trusted_networks(proxies)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--trusted-proxy") from None
    if public_origin is not None:
        try:
            public_origin = checked_origin(public_origin)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--public-origin") from None

    from fanfold.server.logs import configure

    json_lines = log_format is LogFormat.JSON
    try:
        # Each process's name on its lines: the supervisor's, or the server name.
        configure("json" if json_lines else "text", "supervisor" if processes > 1 else server_name)
    except ValueError as error:
        refused(error)
    url = database_url(db, db_file) or default_url()
    if processes > 1:
        from fanfold.server.ownership import is_postgresql

        if not is_postgresql(url):
            said(
                N_(
                    "--processes %(processes)s needs a PostgreSQL store (--db %(example)s): a "
                    "SQLite file is served by one process"
                ),
                processes=processes,
                example="postgresql+psycopg://user@host/name",
            )
        if port + processes - 1 > 65535:
            said(
                N_("%(option)s %(port)s leaves no room for %(processes)s ports"),
                option="--port",
                port=port,
                processes=processes,
            )
    if health_port is not None:
        if health_port + processes - 1 > 65535:
            said(
                N_("%(option)s %(port)s leaves no room for %(processes)s ports"),
                option="--health-port",
                port=health_port,
                processes=processes,
            )
        serving = set(range(port, port + processes))
        if serving & set(range(health_port, health_port + processes)):
            said(
                N_(
                    "--health-port %(health)s and --port %(port)s overlap: the health checks "
                    "need ports of their own"
                ),
                health=health_port,
                port=port,
            )
    names: list[str | None] = [server_name]
    if processes > 1:
        names = [f"{server_name or 's'}{n}" for n in range(1, processes + 1)]
    from fanfold.server.ownership import check_server_name

    for name in names:
        if name is not None:
            try:
                check_server_name(name)
            except ValueError as error:
                refused(error)
    # The ports before anything else: one that cannot be listened on stops the start with a
    # sentence, before the store is made and before the server says it serves.
    listening = _bind(host, port, processes, health_port)
    # Opened once: checked here, then served by the application (one process).
    store = _check_store(url)
    try:
        from fanfold.cli.common import store_words  # a mismatch names the store as given

        check_key_file(url, key_file, store, store_words(db, db_file))  # named to the processes
    except BaseException:
        store.close()
        raise
    if processes > 1:
        store.close()  # each process opens its own
        _close(listening)  # (bound to check them) each process binds its own
        # The URL goes to the processes in their environment, never on their command lines.
        arguments = [
            *("--host", host, "--bot-seconds", f"{bot_seconds!r}"),
            *("--bot-pause", f"{bot_pause!r}", "--bot-workers", str(bot_workers)),
            *("--expire-days", f"{expire_days!r}", "--keep-seconds", f"{keep_seconds!r}"),
            *("--log-format", log_format.value, "--allocator", allocator.value),
        ]
        for proxy in proxies:
            arguments += ["--trusted-proxy", proxy]
        if public_origin is not None:
            arguments += ["--public-origin", public_origin]
        _supervise(
            [port + n for n in range(processes)],
            arguments,
            None if health_port is None else [health_port + n for n in range(processes)],
            [name for name in names if name is not None],
            url,
        )
        return
    if allocator is Allocator.JEMALLOC:
        import sys

        from fanfold.server.allocator import (
            AllocatorError,
            running_on_jemalloc,
            start_on_jemalloc,
        )

        if not running_on_jemalloc():  # started again below: that process opens the store
            store.close()
        try:
            start_on_jemalloc(sys.argv[1:])  # returns once the process runs on jemalloc
        except AllocatorError as error:
            refused(error)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    if json_lines:  # every line a JSON object, the progress lines too
        logging.getLogger("fanfold.server.progress").info(
            "fanfold is serving on http://%s:%d/ (store: %s)", shown, port, shown_url(url)
        )
    else:
        words = terminal_words()
        opened = words.gettext("fanfold is serving on %(address)s  (store: %(store)s)")
        address = f"http://{shown}:{port}/"
        console.print(opened % {"address": address, "store": shown_url(url)}, markup=False)
        console.print(
            words.gettext("Open that address in a browser to play; Ctrl-C stops the server."),
            markup=False,
        )
        _show_progress()
    from fanfold.server.stopping import DrainingServer

    app = create_app(
        Settings(
            store_url=url,
            bot_seconds=bot_seconds,
            bot_pause=bot_pause,
            warm_fast=True,
            bot_workers=bot_workers,
            bot_processes=True,
            expire_seconds=expire_days * 24 * 3600 if expire_days else None,
            trusted_proxies=tuple(proxies),
            public_origin=public_origin,
            keep_seconds=keep_seconds,
            keep_finished_seconds=min(keep_seconds, 30.0),
            health_port=health_port,
            health_host=host,
            server_name=server_name,
        ),
        store=store,  # (on jemalloc, the process started again opened it)
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        # uvicorn's loggers write through the one handler of either format (logs.configure),
        # none of their own: each line once, in the format asked for.
        log_config=None,
        # fanfold reads X-Forwarded-For and X-Forwarded-Proto itself, from --trusted-proxy
        # only (fanfold.server.forwarded): uvicorn's own reading, which would believe them
        # from any local peer (its forwarded_allow_ips is 127.0.0.1 unless told otherwise),
        # stays off, so that the two never disagree.
        proxy_headers=False,
        ws_max_size=MAX_MESSAGE * 4,
    )
    # On SIGTERM, the tables go to the other processes before the sockets close
    # (docs/runbook/restart.md).
    server = DrainingServer(config, app.state)
    import contextlib

    # Ctrl-C is raised again once the server stopped: ended quietly, as uvicorn.run does.
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=listening)  # bound above
    if not server.started:  # as uvicorn.run: the application could not start
        raise typer.Exit(3)


def database_url(db: str | None, db_file: Path | None) -> str | None:
    """The database URL given by ``--db``, ``--db-file`` or the environment's
    :data:`DB_URL_VARIABLE` (``None``: none of them); given more than one way, they must be
    one URL, or ``fanfold serve`` stops with a sentence."""
    import os

    from fanfold.server.store import shown_url

    given: list[tuple[str, str]] = []
    if db is not None and db.strip():
        given.append(("--db", db.strip()))
        if _has_password(db):
            warning = terminal_words().gettext(
                "warning: the password in --db is shown to every user of this machine (ps); "
                "give the URL by --db-file or %(variable)s instead"
            )
            error_console.print(warning % {"variable": DB_URL_VARIABLE}, markup=False)
    if db_file is not None:
        try:
            text = db_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            words = terminal_words()
            reason = (  # the system's words, as it says them
                error.strerror if isinstance(error, OSError) else words.gettext("not UTF-8 text")
            )
            said(N_("--db-file %(file)s cannot be read: %(reason)s"), file=db_file, reason=reason)
        if not text:
            said(N_("--db-file %(file)s is empty: it should hold the database's URL"), file=db_file)
        if "\n" in text:
            said(
                N_("--db-file %(file)s holds more than one line: it should hold the URL only"),
                file=db_file,
            )
        given.append((f"--db-file {db_file}", text))
    variable = os.environ.get(DB_URL_VARIABLE, "").strip()
    if variable:
        given.append((DB_URL_VARIABLE, variable))
    urls = {url for _, url in given}
    if len(urls) > 1:
        each = [f"{where} ({shown_url(url)})" for where, url in given]
        both = terminal_words().gettext("%(first)s and %(second)s")
        ways = each[-1]
        for way in reversed(each[:-1]):
            ways = both % {"first": way, "second": ways}
        said(
            N_("%(ways)s name different databases: give the URL one way, or the same URL in each"),
            ways=ways,
        )
    if not urls:
        return None
    url = urls.pop()
    _check_kind(url, given[0][0])
    return url


#: The two kinds of store, as a refusal of another names them.
STORE_KINDS = {
    "sqlite": "sqlite:///path/to/fanfold.db",
    "postgresql": "postgresql+psycopg://user@host/name",
}


def _check_kind(url: str, where: str) -> None:
    """Stop with a sentence where ``url`` (given by ``where``) is no database URL, or names a
    database of a kind fanfold does not keep its store in (only SQLite and PostgreSQL)."""
    from fanfold.server.store.tools import url_backend

    backend = url_backend(url)
    if backend is None:  # not shown: it may hold a password
        said(
            N_("%(where)s is no database URL: give %(sqlite)s or %(postgresql)s"),
            where=where,
            sqlite=STORE_KINDS["sqlite"],
            postgresql=STORE_KINDS["postgresql"],
        )
    if backend not in ("sqlite", "postgresql"):
        said(
            N_(
                "%(where)s: fanfold keeps its store in SQLite or PostgreSQL, not %(kind)s: "
                "give %(sqlite)s or %(postgresql)s"
            ),
            where=where,
            kind=backend,
            sqlite=STORE_KINDS["sqlite"],
            postgresql=STORE_KINDS["postgresql"],
        )


def _has_password(url: str) -> bool:
    """Whether the database ``url`` carries a password."""
    from fanfold.server.store.engine import has_password

    return has_password(url)


#: ``fanfold serve``'s exit status when a port cannot be listened on (taken, or an address
#: that is not this machine's): as for the other options it refuses.
LISTEN_STATUS = 2


def _bind(host: str, port: int, processes: int, health_port: int | None) -> list[socket.socket]:
    """Bind the game's ports (``port`` and the next ``processes - 1``) and the health ports
    before the store is opened, or stop with a sentence and :data:`LISTEN_STATUS`; the
    sockets bound: the game's, for uvicorn (one process), its health port kept for its health
    server too (:func:`fanfold.server.checks.reserve_health_port`). With several processes
    each binds its own: the caller closes these."""
    from fanfold.server.checks import bound_sockets, reserve_health_port

    game: list[socket.socket] = []
    health: list[socket.socket] = []
    wanted = [(port + n, False) for n in range(processes)]
    if health_port is not None:
        wanted += [(health_port + n, True) for n in range(processes)]
    for number, checks in wanted:
        try:
            made = bound_sockets(host, number)
        except OSError as error:
            _close(game + health)
            _cannot_listen(host, number, error, health=checks)
        (health if checks else game).extend(made)
    if processes == 1 and health_port is not None:
        reserve_health_port(host, health_port, health.pop(0))
        _close(health)  # (any other address the host names: the health server binds one)
        health = []
    return game + health


def _close(sockets: list[socket.socket]) -> None:
    for bound in sockets:
        bound.close()


def listen_reason(error: OSError) -> str:
    """Why an address cannot be listened on, in English (marked for the catalogues, the
    system's own words where none of them fits)."""
    import errno

    if isinstance(error, socket.gaierror):
        return N_("no address of this machine has that name")
    if error.errno == errno.EADDRINUSE:
        return N_("address already in use")
    if error.errno == errno.EADDRNOTAVAIL:
        return N_("not an address of this machine")
    if error.errno == errno.EACCES:
        return N_("permission denied (a port below 1024 needs privileges)")
    return error.strerror or str(error)  # the system's words


def _cannot_listen(host: str, port: int, error: OSError, *, health: bool) -> NoReturn:
    """Stop ``fanfold serve`` with :data:`LISTEN_STATUS` and one sentence: ``host:port``
    cannot be listened on, and why (a JSON line when the log is JSON)."""
    import logging
    import os

    from fanfold.server.logs import ENVIRONMENT

    reason = listen_reason(error)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if health:
        sentence = N_("the health port %(address)s cannot be listened on: %(reason)s")
    else:
        sentence = N_("cannot listen on %(address)s: %(reason)s")
    if os.environ.get(ENVIRONMENT) == "json":
        logging.getLogger("fanfold.server").error(
            "error: " + sentence % {"address": address, "reason": reason},
            extra={"exit_status": LISTEN_STATUS},
        )
        raise typer.Exit(LISTEN_STATUS)
    said(sentence, LISTEN_STATUS, address=address, reason=terminal_words().gettext(reason))


def _show_progress() -> None:
    """Print the server's progress lines (what it compiles, and when that is done) in the
    terminal, each prefixed with ``fanfold:``."""
    import logging
    import sys

    from fanfold.server.runtime import progress

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("fanfold: %(message)s"))
    progress.addHandler(handler)
    progress.setLevel(logging.INFO)
    progress.propagate = False


#: ``fanfold serve``'s exit status when the store's schema is a newer release's that this
#: fanfold does not serve (sysexits' EX_CONFIG): a restart does not help, an upgrade does
#: (docs/upgrade.md). Any other store that cannot be opened exits with 1.
SCHEMA_TOO_NEW_STATUS = 78


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """Python's garbage collector off within (as it was before, after): importing the server
    makes hundreds of thousands of objects that live as long as the process, and each
    collection meanwhile walks all of them, finding nothing to free (about a tenth of the
    import's time)."""
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _check_store(url: str) -> Store:
    """Open the store before serving (creating a SQLite file's folder, bringing the schema up
    to date), so that one that cannot be opened stops ``fanfold serve`` with a sentence (a
    JSON line when the log is JSON) and exit status 1, or :data:`SCHEMA_TOO_NEW_STATUS` for a
    newer release's schema, instead of a traceback; the store, open (the application serves
    it, or the caller closes it)."""
    import logging
    import os

    from fanfold.server.logs import ENVIRONMENT
    from fanfold.server.store import Store, StoreOpenError
    from fanfold.server.store.engine import SchemaTooNewError

    try:
        return Store(url)
    except StoreOpenError as error:
        code = SCHEMA_TOO_NEW_STATUS if isinstance(error, SchemaTooNewError) else 1
        if os.environ.get(ENVIRONMENT) == "json":
            logging.getLogger("fanfold.server.store").error(
                "error: %s", error, extra={"exit_status": code}
            )
            raise typer.Exit(code) from None
        refused(error, code)


#: ``fanfold serve``'s exit status when its key file's signing key is not the store's (sysexits'
#: EX_CONFIG: starting again does not help; ``fanfold keys rotate`` or the right file does).
KEY_MISMATCH_STATUS = 78


def check_key_file(
    url: str, key_file: Path | None, store: Store | None = None, given: str = ""
) -> None:
    """Before ``fanfold serve`` starts: with a key file (``key_file``, or the one the
    environment names), check it against the store's fingerprint (written at its first use)
    and name it to the server's processes in their environment; stop with a sentence (exit 2
    for a file that cannot be used, :data:`KEY_MISMATCH_STATUS` for another signing key).
    ``store``: the store at ``url`` already open (left open), else it is opened and closed;
    ``given``: how the store was named (:func:`fanfold.cli.common.store_words`)."""
    import os

    from fanfold.server.signing_keys import (
        KEY_FILE_VARIABLE,
        KeyFileError,
        KeyMismatchError,
        SigningKeys,
        key_file_of_environment,
    )
    from fanfold.server.store import Store, StoreOpenError
    from fanfold.server.store.account_store import SqlAccounts

    key_file = key_file or key_file_of_environment()
    if key_file is None:
        return  # the store's own key
    opened = store is None
    if store is None:
        try:
            store = Store(url)
        except StoreOpenError as error:
            refused(error, 1)
    try:
        SigningKeys.load(SqlAccounts(store.engine), key_file, given)
    except KeyFileError as error:
        refused(error)
    except KeyMismatchError as error:
        refused(error, KEY_MISMATCH_STATUS)
    finally:
        if opened:
            store.close()
    os.environ[KEY_FILE_VARIABLE] = str(key_file.resolve())


#: The first pause before a server process that stopped is started again (``--processes``),
#: doubled for each stop in a row up to :data:`RESTART_MAX_SECONDS`.
RESTART_SECONDS = 1.0
#: The longest pause before a restart.
RESTART_MAX_SECONDS = 60.0
#: A process that ran this long before it stopped is started again after the first pause.
RESTART_STABLE_SECONDS = 60.0


def restart_delay(stops: int) -> float:
    """Seconds to wait before starting again a process that stopped ``stops`` times in a row
    (each after less than :data:`RESTART_STABLE_SECONDS`): 1, 2, 4, ... up to 60."""
    if stops < 1:
        return 0.0
    return min(RESTART_MAX_SECONDS, RESTART_SECONDS * 2.0 ** min(stops - 1, 30))


def _child_command(port: int, arguments: list[str], name: str, health: int | None) -> list[str]:
    """The command line of the server process on ``port`` (never the database's URL)."""
    import sys

    command = [sys.executable, "-m", "fanfold", "serve", "--port", str(port), *arguments]
    command += ["--server-name", name]
    if health is not None:
        command += ["--health-port", str(health)]
    return command


#: How long the supervisor waits for a process to stop (it drains first) before killing it.
STOP_SECONDS = 30.0
#: How long a rolling restart waits for a restarted process to be ready before going on, and
#: again for its bots' workers to warm up.
READY_SECONDS = 120.0
#: In a rolling restart, how long the supervisor waits after a process stopped before it
#: starts it again: its players reconnect to the others meanwhile, and the new process's start
#: (Python's imports, over a second of processor time) would take its share of the cores from
#: them (``benchmarks/rolling_restart.py``).
SETTLE_SECONDS = 2.0


def _ready(host: str, port: int, *, warm: bool = False) -> bool:
    """Whether the process whose ``/ready`` is on ``host:port`` answers 200; with ``warm``,
    and says its bots' workers have warmed up (``"bots"`` not ``"warming"``)."""
    import json
    import urllib.error
    import urllib.request

    address = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    try:
        with urllib.request.urlopen(f"http://{address}:{port}/ready", timeout=2) as answer:
            if answer.status != 200:
                return False
            return not warm or json.loads(answer.read()).get("bots") != "warming"
    except (OSError, ValueError, AttributeError, urllib.error.URLError):
        return False


def _supervise(
    ports: list[int], arguments: list[str], health: list[int] | None, names: list[str], url: str
) -> None:
    """Run one ``fanfold serve`` process per port (each with its health port, if any, and
    its server name) until Ctrl-C or SIGTERM, starting again any that stops, under the same
    name (its tables are played meanwhile by the others, through the router, and come back
    to it once the router sees it up), after a pause that doubles with each stop in a row
    (:func:`restart_delay`), so that one that cannot start (a newer schema: exit status
    :data:`SCHEMA_TOO_NEW_STATUS`) does not spin. Each gets the database ``url`` in its
    environment (:data:`DB_URL_VARIABLE`), never on its command line, which every user can
    read. Its lines are JSON when the log is (:func:`fanfold.server.logs.say`).

    SIGTERM (or Ctrl-C) stops the whole group at once: each process is sent
    :data:`~fanfold.server.stopping.FULL_STOP_SIGNAL` and lets its tables go into the store,
    none handed to a process that is stopping too (the next start resumes them). SIGHUP
    (``fanfold restart``) restarts them one at a time: one stops (SIGTERM: it hands its
    tables to those running), starts again, and the next waits until it is ready
    (``/ready``, :data:`READY_SECONDS` at most); a process that stops meanwhile is started
    again as at any time. The processes run in a session of their own, so that a terminal's
    Ctrl-C reaches the supervisor alone."""
    import logging
    import os
    import signal
    import subprocess
    import time

    from fanfold.server.logs import say

    stopping = False
    rolling = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        del signum, frame
        stopping = True

    def roll(signum: int, frame: object) -> None:
        nonlocal rolling
        del signum, frame
        rolling = True

    # First of all: a signal that comes while the processes start is the supervisor's.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGHUP, roll)

    log = logging.getLogger("fanfold.supervisor")  # JSON lines when the log is JSON
    words = terminal_words()  # the supervisor's lines in the terminal's language
    environment = {**os.environ, DB_URL_VARIABLE: url}
    health_of = dict(zip(ports, health or [], strict=False))
    name_of = dict(zip(ports, names, strict=True))
    host = arguments[arguments.index("--host") + 1] if "--host" in arguments else "127.0.0.1"
    started: dict[int, float] = {}
    stops = dict.fromkeys(ports, 0)
    due: dict[int, float] = {}  # port -> when its process starts again

    def start(port: int) -> subprocess.Popen[bytes]:
        command = _child_command(port, arguments, name_of[port], health_of.get(port))
        process = subprocess.Popen(command, env=environment, start_new_session=True)
        started[port] = time.monotonic()
        begun = Said(
            "%(name)s started on port %(port)s (pid %(pid)s)",
            name=name_of[port],
            port=port,
            pid=process.pid,
        )
        say(log, logging.INFO, worded(begun, words))
        return process

    def watch() -> None:
        """Start again, after its pause, each process that stopped."""
        now = time.monotonic()
        for port, process in list(running.items()):
            code = process.poll()
            if code is None or stopping:
                continue
            del running[port]
            if now - started[port] >= RESTART_STABLE_SECONDS:
                stops[port] = 0
            stops[port] += 1
            pause = restart_delay(stops[port])
            due[port] = now + pause
            params = {
                "name": name_of[port],
                "port": port,
                "code": code,
                "pause": format(pause, "g"),
                "stops": stops[port],
            }
            if code == SCHEMA_TOO_NEW_STATUS:
                stopped = Said(
                    "%(name)s, the process on port %(port)s, stopped (status %(code)s): the "
                    "store's schema is a newer release's (docs/upgrade.md); starting it again in "
                    "%(pause)s s (stop %(stops)s in a row)",
                    **params,
                )
            else:
                stopped = Said(
                    "%(name)s, the process on port %(port)s, stopped (status %(code)s); starting "
                    "it again in %(pause)s s (stop %(stops)s in a row)",
                    **params,
                )
            say(log, logging.WARNING, worded(stopped, words))
        for port, when in list(due.items()):
            if now >= when and not stopping:
                del due[port]
                running[port] = start(port)

    def stop_one(process: subprocess.Popen[bytes]) -> None:
        """Stop ``process`` (it hands its tables to the others), watching the others."""
        if process.poll() is None:
            process.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        while process.poll() is None:
            if time.monotonic() > deadline:
                process.kill()
                process.wait()
                return
            watch()
            time.sleep(0.1)

    def stop_all() -> None:
        """The full stop: every process at once, no table handed over."""
        from fanfold.server.stopping import FULL_STOP_SIGNAL  # (uvicorn: not at start)

        for process in running.values():
            if process.poll() is None:
                process.send_signal(FULL_STOP_SIGNAL)
        deadline = time.monotonic() + STOP_SECONDS
        for process in running.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def wait_ready(port: int, *, warm: bool = False) -> bool:
        """Watch the processes until the one on ``port`` is ready (with ``warm``, its bots'
        workers warmed up too: :func:`_ready`); False if the supervisor stops, that process
        stopped, or :data:`READY_SECONDS` passed first."""
        deadline = time.monotonic() + READY_SECONDS
        while not _ready(host, health_of.get(port, port), warm=warm):
            process = running.get(port)  # gone: watch() found it stopped
            if stopping or process is None or process.poll() is not None:
                return False
            if time.monotonic() > deadline:
                return False
            watch()
            time.sleep(0.1)
        return True

    def restart_all() -> None:
        for place, port in enumerate(ports):
            if stopping:
                return
            process = running.pop(port, None)
            due.pop(port, None)
            if process is not None:
                stop_one(process)
                settle = time.monotonic() + SETTLE_SECONDS  # its players reconnect first
                while time.monotonic() < settle and not stopping:
                    watch()
                    time.sleep(0.1)
                if stopping:
                    return
            running[port] = start(port)
            began = time.monotonic()
            if not wait_ready(port):
                process = running.get(port)
                if not stopping and process is not None and process.poll() is None:
                    late = Said("%(name)s is not ready; going on", name=name_of[port])
                    say(log, logging.WARNING, worded(late, words))
                continue
            ready = Said(
                "%(name)s restarted: ready in %(seconds)s s",
                name=name_of[port],
                seconds=format(time.monotonic() - began, ".1f"),
            )
            say(log, logging.INFO, worded(ready, words))
            if place < len(ports) - 1:
                # Its bots' workers load their searches (seconds of processor time): the
                # next process's players, half of them reconnecting to it, wait for none.
                wait_ready(port, warm=True)

    running: dict[int, subprocess.Popen[bytes]] = {}
    try:
        for port in ports:
            if not stopping:
                running[port] = start(port)
        while not stopping:
            time.sleep(0.2)
            if rolling:
                rolling = False
                rolled = Said("restarting every process, one at a time")
                say(log, logging.INFO, worded(rolled, words))
                restart_all()
                continue
            watch()
    finally:
        ending = Said("stopping every process at once (a full stop: no hand-over)")
        say(log, logging.INFO, worded(ending, words))
        stop_all()
