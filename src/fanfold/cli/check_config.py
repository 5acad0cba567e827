"""``fanfold check-config``: before a start or a reload, check what ``fanfold serve`` would be
given, with the same options: that ``fanfold serve`` takes them, that the store answers (and
its schema is one this fanfold serves), and that HAProxy's file (``--haproxy FILE``) was
rendered for these processes (``fanfold deploy haproxy --processes N``) and passes ``haproxy
-c``; with a key file (``--key-file PATH``, or the one ``FANFOLD_KEY_FILE`` names), that its
signing key is the one the store knows (the fingerprint in ``server_keys``); on SQLite, where
the engines' reviews are kept (a file of their own beside the store's). Nothing is
changed: no schema is created or upgraded, no fingerprint stored, no file written.

Exit status: 0 when every check passes; else that of the first check that failed, in this
order: :data:`FLAGS` (2, the options, as ``fanfold serve`` would refuse them, or a key file it
cannot use), :data:`STORE` (3, the store cannot be reached, or its schema is newer than this
fanfold), :data:`KEY` (78, as ``fanfold serve``: the key file's signing key is not the
store's), :data:`HAPROXY` (4, HAProxy's file is missing, is for other processes, or ``haproxy
-c`` refuses it).

    fanfold check-config --processes 3 --port 8001 --health-port 9001 \\
        --db-file /etc/fanfold/db-url --haproxy /etc/haproxy/haproxy.cfg
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from fanfold.cli.common import (
    Said,
    console,
    error_console,
    store_words,
    terminal_words,
    worded,
)
from fanfold.cli.usage_words import Usage

#: The exit status when the options are wrong.
FLAGS = 2
#: The exit status when the store cannot be reached, or its schema is not one this fanfold serves.
STORE = 3
#: The exit status when HAProxy's file does not fit the processes.
HAPROXY = 4
#: The exit status when the key file's signing key is not the store's (``fanfold serve``'s).
KEY = 78


class CheckError(Exception):
    """A check failed: the sentence says why; ``code`` is the exit status."""

    def __init__(self, message: object, code: int) -> None:
        super().__init__(message)
        self.code = code


class CheckNotice(Exception):  # noqa: N818 (a warning, not an error)
    """A check passed, with something the operator should look at (the sentence): said as
    ``warning:``, and the exit status stays 0."""


@dataclass(frozen=True)
class Serving:
    """What ``fanfold serve`` would run, from its options.

    Attributes:
        url: the store's URL.
        processes: how many processes.
        host: the address they listen on.
        ports: their ports.
        health_ports: their health ports (empty: none).
        names: their server names (``None`` for a lone process without one).
    """

    url: str
    processes: int
    host: str
    ports: list[int]
    health_ports: list[int]
    names: list[str | None]


def serve_options(arguments: list[str]) -> dict[str, Any]:
    """``fanfold serve``'s options parsed from ``arguments`` (and the environment variables it
    reads), as ``fanfold serve`` would parse them.

    Raises:
        CheckError: (:data:`FLAGS`) it would refuse them.
    """
    from fanfold.cli.serve import serve

    single = typer.Typer()
    single.command()(serve)
    command = typer.main.get_command(single)
    try:
        context = command.make_context("fanfold serve", list(arguments))
    except typer.Exit as done:  # --help
        raise CheckError(
            Said("fanfold check-config takes fanfold serve's options"), FLAGS
        ) from done
    except typer.TyperException as error:  # click's usage errors, as typer raises them
        said = getattr(error, "format_message", None)
        raise CheckError(Usage(said() if callable(said) else error), FLAGS) from None
    return dict(context.params)


def check_flags(options: dict[str, Any]) -> Serving:
    """Check what ``fanfold serve`` checks of its options before it opens the store.

    Raises:
        CheckError: (:data:`FLAGS`) what ``fanfold serve`` would refuse, in its words.
    """
    from fanfold.cli.serve import database_url, listen_reason
    from fanfold.server.checks import bound_sockets
    from fanfold.server.forwarded import public_origin, trusted_networks
    from fanfold.server.logs import LEVEL_ENVIRONMENT
    from fanfold.server.ownership import check_server_name, is_postgresql

    processes: int = options["processes"]
    port: int = options["port"]
    health: int | None = options["health_port"]
    try:
        trusted_networks(list(options["trusted_proxy"] or []))
    except ValueError as error:
        raise CheckError(Said("--trusted-proxy: %(error)s", error=error), FLAGS) from None
    try:  # an address of this machine (port 0: a port that is free, never the server's)
        for bound in bound_sockets(options["host"], 0):
            bound.close()
    except OSError as error:
        raise CheckError(
            Said(
                "--host %(host)s: %(reason)s",
                host=options["host"],
                reason=Said(listen_reason(error).replace("%", "%%")),
            ),
            FLAGS,
        ) from None
    if options["public_origin"] is not None:
        try:
            public_origin(options["public_origin"])
        except ValueError as error:
            raise CheckError(Said("--public-origin: %(error)s", error=error), FLAGS) from None
    level = os.environ.get(LEVEL_ENVIRONMENT, "INFO").strip().upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise CheckError(
            Said(
                "%(level_environment)s=%(level)s is no log level",
                level_environment=LEVEL_ENVIRONMENT,
                level=repr(level),
            ),
            FLAGS,
        )
    try:
        url = database_url(options["db"], options["db_file"]) or _default_url()
    except typer.Exit:  # database_url said why
        raise CheckError(Said("the database's URL (above)"), FLAGS) from None
    if processes > 1 and not is_postgresql(url):
        raise CheckError(
            Said(
                "--processes %(processes)s needs a PostgreSQL store: a SQLite file is served by "
                "one process",
                processes=processes,
            ),
            FLAGS,
        )
    if port + processes - 1 > 65535:
        raise CheckError(
            Said(
                "--port %(port)s leaves no room for %(processes)s ports",
                port=port,
                processes=processes,
            ),
            FLAGS,
        )
    ports = list(range(port, port + processes))
    health_ports: list[int] = []
    if health is not None:
        if health + processes - 1 > 65535:
            raise CheckError(
                Said(
                    "--health-port %(health)s leaves no room for %(processes)s ports",
                    health=health,
                    processes=processes,
                ),
                FLAGS,
            )
        health_ports = list(range(health, health + processes))
        if set(ports) & set(health_ports):
            raise CheckError(
                Said(
                    "--health-port %(health)s and --port %(port)s overlap: the health checks need "
                    "ports of their own",
                    health=health,
                    port=port,
                ),
                FLAGS,
            )
    name: str | None = options["server_name"]
    names: list[str | None] = [name]
    if processes > 1:
        names = [f"{name or 's'}{number}" for number in range(1, processes + 1)]
    for each in names:
        if each is not None:
            try:
                check_server_name(each)
            except ValueError as error:
                raise CheckError(str(error), FLAGS) from None
    if str(options["allocator"]) == "jemalloc":
        from fanfold.server.allocator import jemalloc_library

        if jemalloc_library() is None:
            raise CheckError(
                Said(
                    "--allocator jemalloc: jemalloc is not installed (apt-get install libjemalloc2)"
                ),
                FLAGS,
            )
    return Serving(url, processes, options["host"], ports, health_ports, names)


def _default_url() -> str:
    """``fanfold serve``'s default store, without making its folder."""
    from platformdirs import user_data_dir

    return "sqlite:///" + str(Path(user_data_dir("fanfold")) / "fanfold.db")


def _schema(revisions: tuple[str, ...], oldest: str | None) -> str:
    """What the store's schema revisions say, or :class:`CheckError` (:data:`STORE`): a
    revision this fanfold does not know (a newer release's) is served when the schema records
    (``fanfold_schema``) an oldest revision it serves that this fanfold knows: every migration
    since is expand-only, as ``fanfold serve`` decides at start."""
    from fanfold.server.store.engine import SchemaTooNewError
    from fanfold.server.store.probe import schema_revisions

    heads, known = schema_revisions()
    if not revisions:
        return Said("no schema yet: fanfold serve makes it at start")
    unknown = [revision for revision in revisions if revision not in known]
    if unknown and (oldest is None or oldest not in known):
        newest = ", ".join(sorted(heads))
        raise CheckError(str(SchemaTooNewError(", ".join(unknown), newest, oldest)), STORE)
    if unknown:
        return Said(
            "its schema is at revision %(unknown)s, newer than this fanfold's, and serves "
            "releases from revision %(oldest)s on (expand-only since): fanfold serve serves it as "
            "it is (docs/upgrade.md)",
            unknown=", ".join(unknown),
            oldest=oldest,
        )
    if set(revisions) == heads:
        return Said("its schema is up to date")
    return Said(
        "its schema is older: fanfold serve brings it up to date at start (docs/upgrade.md)"
    )


def reviews_file(url: str) -> str | None:
    """Where a SQLite store keeps the engines' reviews, a file of its own beside it
    (:mod:`fanfold.server.store.review_file`); ``None`` for a store that keeps them itself."""
    from fanfold.server.store.review_file import review_path

    found = review_path(url)
    if found is None:
        return None
    if found.is_file():
        return Said("kept in %(path)s, beside the store's file: back up both", path=found)
    return Said("to be kept in %(path)s, made by fanfold serve at start", path=found)


def check_store(url: str, timeout: float) -> str:
    """Reach the store at ``url`` without changing it: a query answered within ``timeout``
    seconds, and its schema's revision known. Returns what was found.

    Raises:
        CheckError: (:data:`STORE`) it cannot be reached, or its schema is newer.
    """
    from fanfold.server.store import shown_url
    from fanfold.server.store.probe import ProbeError, probe

    shown = shown_url(url)
    try:
        found = probe(url, timeout)
    except ProbeError as error:
        raise CheckError(
            Said("the store at %(shown)s: %(error)s", shown=shown, error=error), STORE
        ) from None
    if found.kind == "own":
        return Said("the store at %(shown)s is opened by fanfold serve itself", shown=shown)
    if found.kind == "absent":
        from fanfold.server.store.engine import sqlite_file

        raise CheckNotice(
            Said(
                "no store yet at %(path)s: fanfold serve makes a new, empty one at start (if a "
                "backup was to be restored there, it is not there)",
                path=sqlite_file(url) or shown,
            )
        )
    if found.tables and not found.revisions:
        from fanfold.server.store.sql_base import not_fanfold

        raise CheckError(not_fanfold(url, found.tables), STORE)
    return Said(
        "the store at %(shown)s answers; %(found)s",
        shown=shown,
        found=_schema(found.revisions, found.oldest),
    )


def shared_store(url: str) -> str | None:
    """A warning when the SQLite store at ``url`` (or its reviews' file) is readable by other
    users of the machine: it holds the key that signs the session cookies. ``None``: it is
    not, or it is no SQLite file. Nothing is changed."""
    from fanfold.server.store.engine import sqlite_file
    from fanfold.server.store.review_file import review_path

    shared = [
        path
        for path in (sqlite_file(url), review_path(url))
        if path is not None and path.is_file() and path.stat().st_mode & 0o004
    ]
    if not shared:
        return None
    return Said(
        "%(paths)s can be read by every user of this machine, and the store holds the key that "
        "signs the session cookies: chmod 600 %(paths)s (as the server's user)",
        paths=" ".join(str(path) for path in shared),
    )


def check_key(url: str, key_file: Path, timeout: float, given: str = "") -> str:
    """Check ``key_file``'s signing key against the fingerprint the store at ``url`` keeps,
    as ``fanfold serve`` does at start, without storing one. Returns what was found;
    ``given``: how the store was named, for the command a mismatch suggests
    (:func:`fanfold.cli.common.store_words`).

    Raises:
        CheckError: :data:`FLAGS` the file cannot be used, :data:`STORE` the store cannot be
            reached, :data:`KEY` another signing key (``fanfold serve``'s sentence).
    """
    from fanfold.server.signing_keys import (
        FINGERPRINT_NAME,
        KeyFileError,
        fingerprint,
        mismatch,
        read_key_file,
    )
    from fanfold.server.store.probe import ProbeError, probe

    try:
        found = fingerprint(read_key_file(key_file)[0])
    except KeyFileError as error:
        raise CheckError(error, FLAGS) from None
    try:
        known = probe(url, timeout, key=FINGERPRINT_NAME).key
    except ProbeError as error:
        raise CheckError(Said("the store: %(error)s", error=error), STORE) from None
    if known is None:
        return Said(
            "%(key_file)s's signing key (fingerprint %(found)s): the store knows none yet; "
            "fanfold serve stores this one at its first start with the file",
            key_file=key_file,
            found=found,
        )
    if known != found:
        raise CheckError(mismatch(key_file, found, known, given), KEY)
    return Said(
        "%(key_file)s's signing key is the store's (fingerprint %(found)s)",
        key_file=key_file,
        found=found,
    )


_SECTION = re.compile(r"^(global|defaults|frontend|backend|listen|peers|resolvers)\b\s*(\S*)")
_SERVER = re.compile(r"^\s+server\s+(\S+)\s+(\S+?):(\d+)(.*)$")


def haproxy_servers(text: str) -> dict[str, dict[str, tuple[int, int | None]]]:
    """The ``server`` lines of each backend of an HAProxy configuration (backups left out):
    by backend, each server's name to its port and its check port (``None``: none)."""
    found: dict[str, dict[str, tuple[int, int | None]]] = {}
    section = ""
    for line in text.splitlines():
        line = line.split("#", 1)[0].rstrip()
        heading = _SECTION.match(line)
        if heading:
            section = f"{heading[1]} {heading[2]}".strip()
            continue
        server = _SERVER.match(line)
        if server is None or not section.startswith("backend "):
            continue
        rest = server[4].split()
        if "backup" in rest:
            continue
        check = None
        if "port" in rest and rest.index("port") + 1 < len(rest):
            value = rest[rest.index("port") + 1]
            check = int(value) if value.isdigit() else None
        found.setdefault(section.removeprefix("backend "), {})[server[1]] = (int(server[3]), check)
    return found


def check_haproxy(path: Path, serving: Serving, *, run: bool = True) -> str:
    """Check that HAProxy's file at ``path`` sends to exactly the processes of ``serving``
    (each backend with ``server`` lines: their names, ports and health ports), and that
    ``haproxy -c`` accepts it (``run``, where HAProxy is installed).

    Raises:
        CheckError: (:data:`HAPROXY`) it does not.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CheckError(
            Said(
                "HAProxy's file %(path)s cannot be read: %(strerror)s",
                path=path,
                strerror=error.strerror,
            ),
            HAPROXY,
        ) from None
    backends = haproxy_servers(text)
    if not backends:
        raise CheckError(
            Said("HAProxy's file %(path)s has no backend with server lines", path=path), HAPROXY
        )
    checks: list[int | None] = [*serving.health_ports] or [None] * serving.processes
    wanted: dict[str | None, tuple[int, int | None]] = {
        name: (port, health)
        for name, port, health in zip(serving.names, serving.ports, checks, strict=True)
    }
    render = (
        f"fanfold deploy haproxy --processes {serving.processes} --base-port {serving.ports[0]}"
        + (f" --health-base-port {serving.health_ports[0]}" if serving.health_ports else "")
    )
    if not serving.health_ports and any(
        check is not None for servers in backends.values() for _, check in servers.values()
    ):
        raise CheckError(
            Said(
                "HAProxy's file %(path)s checks each process on a health port, and fanfold serve "
                "has no --health-port: give it one (--health-port %(value)s, as fanfold deploy "
                "haproxy has it by default)",
                path=path,
                value=serving.ports[0] + 1000,
            ),
            HAPROXY,
        )
    for backend, servers in backends.items():
        problems: list[Said] = []
        if None in wanted:  # a lone process without a server name: its ports alone
            ((port, health),) = wanted.values()
            if [value[0] for value in servers.values()] != [port]:
                problems.append(
                    Said(
                        "its servers are on ports %(ports)s, not %(port)s",
                        ports=_ports(servers),
                        port=port,
                    )
                )
            elif health is not None and next(iter(servers.values()))[1] != health:
                problems.append(
                    Said("its check is not on the health port %(health)s", health=health)
                )
        else:
            for name, (port, health) in wanted.items():
                if name not in servers:
                    problems.append(
                        Said("it has no server %(name)s (port %(port)s)", name=name, port=port)
                    )
                elif servers[name][0] != port:
                    problems.append(
                        Said(
                            "its server %(name)s is on port %(found)s, not %(port)s",
                            name=name,
                            found=servers[name][0],
                            port=port,
                        )
                    )
                elif health is not None and servers[name][1] != health:
                    problems.append(
                        Said(
                            "its server %(name)s is checked on port %(found)s, not on its health "
                            "port %(health)s",
                            name=name,
                            found=servers[name][1],
                            health=health,
                        )
                    )
            extra = sorted(set(servers) - {name for name in wanted if name is not None})
            if extra:
                problems.append(
                    Said("it has servers no process is: %(extra)s", extra=", ".join(extra))
                )
        if problems:
            raise CheckError(
                Said(
                    "HAProxy's file %(path)s, backend %(backend)s: %(problems)s. Render it for "
                    "these processes: %(render)s --out %(path)s",
                    path=path,
                    backend=backend,
                    problems=problems,
                    render=render,
                ),
                HAPROXY,
            )
    if serving.processes > 1:
        said = Said(
            "HAProxy's file %(path)s sends to these %(count)s processes",
            path=path,
            count=serving.processes,
        )
    else:
        said = Said("HAProxy's file %(path)s sends to these %(count)s process", path=path, count=1)
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not run:
        return Said("%(said)s (haproxy -c not run: --no-haproxy-check)", said=said)
    if not Path(binary).exists():
        return Said("%(said)s (haproxy -c not run: HAProxy is not installed here)", said=said)
    try:
        checked = subprocess.run(
            [binary, "-c", "-f", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise CheckError(
            Said("haproxy -c could not run: %(error)s", error=error), HAPROXY
        ) from None
    if checked.returncode != 0:
        alerts = [
            re.sub(r"^\[ALERT\]\s*\(\d+\)\s*:\s*", "", line)
            for line in (checked.stdout + checked.stderr).splitlines()
            if line.startswith("[ALERT]")
        ]
        reason = alerts[0] if alerts else Said("no reason given")  # HAProxy's own words
        raise CheckError(
            Said("haproxy -c -f %(path)s refuses it: %(reason)s", path=path, reason=reason),
            HAPROXY,
        )
    return Said("%(said)s, and haproxy -c accepts it", said=said)


def _ports(servers: dict[str, tuple[int, int | None]]) -> str:
    return ", ".join(str(port) for port, _ in servers.values())


def _described(serving: Serving) -> str:
    """The processes ``fanfold serve`` would run, in the terminal's language: how many, where,
    their ports and health ports, their names."""
    gettext = terminal_words().gettext
    first, last = serving.ports[0], serving.ports[-1]
    count = serving.processes
    described = gettext("%(count)s processes") if count > 1 else gettext("%(count)s process")
    described %= {"count": count}
    ports = {"host": serving.host, "first": first, "last": last}
    if last != first:
        described += gettext(" on %(host)s, ports %(first)s to %(last)s") % ports
    else:
        described += gettext(" on %(host)s, ports %(first)s") % ports
    if serving.health_ports:
        health = {"first": serving.health_ports[0], "last": serving.health_ports[-1]}
        if count > 1:
            described += gettext(", health ports %(first)s to %(last)s") % health
        else:
            described += gettext(", health ports %(first)s") % health
    named = [name for name in serving.names if name is not None]
    if len(named) == 1:
        described += gettext(", named %(first)s") % {"first": named[0]}
    elif named:
        described += gettext(", named %(first)s to %(last)s") % {
            "first": named[0],
            "last": named[-1],
        }
    return described


def check_config(
    context: typer.Context,
    haproxy: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="HAProxy's configuration in front (fanfold deploy haproxy --out FILE): check "
            "that it sends to these processes, and haproxy -c.",
        ),
    ] = None,
    haproxy_check: Annotated[
        bool, typer.Option(help="Run haproxy -c on --haproxy's file (where installed).")
    ] = True,
    store: Annotated[bool, typer.Option(help="Reach the store (--no-store: do not).")] = True,
    store_timeout: Annotated[
        float, typer.Option(help="Seconds to wait for the store's answer.", min=0.5)
    ] = 5.0,
) -> None:
    """Check fanfold serve's options (give them as to fanfold serve), that the store answers,
    that a key file's signing key is the store's and that HAProxy's file was rendered for
    these processes; changes nothing. Exit status: 0 all good, 2 the options, 3 the store,
    78 the signing key, 4 HAProxy's file."""
    failed: list[int] = []

    def passed(what: str, sentence: str) -> None:
        console.print(worded(Said("ok: %(what)s: %(sentence)s", what=what, sentence=sentence)))

    def refused(what: str, error: CheckError) -> None:
        said = Said("error: %(what)s: %(reason)s", what=what, reason=error.args[0])
        error_console.print(worded(said), markup=False)
        failed.append(error.code)

    def warned(what: str, warning: CheckNotice) -> None:
        said = Said("warning: %(what)s: %(reason)s", what=what, reason=warning.args[0])
        error_console.print(worded(said), markup=False)

    options_said = Said("fanfold serve's options")
    try:
        options = serve_options(list(context.args))
        serving = check_flags(options)
    except CheckError as error:
        refused(options_said, error)
        raise typer.Exit(error.code) from None
    described = _described(serving)
    passed(options_said, described)
    if store:
        try:
            passed(Said("the store"), check_store(serving.url, store_timeout))
        except CheckError as error:
            refused(Said("the store"), error)
        except CheckNotice as warning:
            warned(Said("the store"), warning)
        shared = shared_store(serving.url)
        if shared is not None:
            warned(Said("the store"), CheckNotice(shared))
    reviews = reviews_file(serving.url)
    if reviews is not None:
        passed(Said("the reviews"), reviews)
    from fanfold.server.signing_keys import key_file_of_environment

    key_file: Path | None = options["key_file"] or key_file_of_environment()
    if key_file is not None and store:
        try:
            given = store_words(options["db"], options["db_file"])
            checked = check_key(serving.url, key_file, store_timeout, given)
            passed(Said("the signing key"), checked)
        except CheckError as error:
            refused(Said("the signing key"), error)
    if haproxy is not None:
        try:
            passed(Said("HAProxy"), check_haproxy(haproxy, serving, run=haproxy_check))
        except CheckError as error:
            refused(Said("HAProxy"), error)
    if failed:
        raise typer.Exit(failed[0])


#: ``fanfold check-config`` takes ``fanfold serve``'s options besides its own.
CONTEXT_SETTINGS = {"allow_extra_args": True, "ignore_unknown_options": True}


__all__ = [
    "CONTEXT_SETTINGS",
    "FLAGS",
    "HAPROXY",
    "KEY",
    "STORE",
    "CheckError",
    "CheckNotice",
    "Serving",
    "check_config",
    "check_flags",
    "check_haproxy",
    "check_key",
    "check_store",
    "haproxy_servers",
    "reviews_file",
    "serve_options",
    "shared_store",
]
