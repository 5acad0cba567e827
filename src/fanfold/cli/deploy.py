"""``fanfold deploy``: a site's configuration files, rendered from the templates the package
ships (``fanfold/deploy_templates/``), so that an operator uses them as they are.

* ``haproxy``: HAProxy's configuration in front of N ``fanfold serve`` processes on one
  PostgreSQL store (``docs/proxy.md``, "The site's HAProxy configuration"): TLS on the HTTPS
  port with a redirect from plain HTTP, the forwarded headers written by HAProxy alone, a log
  line with timings for each request, timeouts for pages and WebSockets, ``hard-stop-after``,
  ``/metrics`` refused to the public, counts per client (requests in 10 s, connections open)
  kept across reloads and shared by HAProxies through a ``peers`` section, with 429 over a
  limit; pages and lessons served by any live process (checked on ``/health``), tables and
  the API by a ready one (``/ready``), each table on the process that opened it (the server
  name ending its id, ``ID.s1``), and a maintenance page only when no process answers.
* ``maintenance-page``: that page, as the HTTP answer HAProxy's ``errorfile 503`` reads.
* ``prometheus``, ``alert-rules``, ``grafana``: what watches the processes
  (:mod:`fanfold.cli.deploy_monitoring`).
* ``systemd``: the units of the processes and of HAProxy (:mod:`fanfold.cli.deploy_systemd`).
* ``logs``: logrotate's file and journald's drop-in that keep the log
  (:mod:`fanfold.cli.deploy_logs`).

The rendering is plain text substitution (:func:`fill`): ``{{name}}`` in the template is a
value; a line holding nothing but ``{{name}}`` is a block of lines (none, one or several).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from fanfold.cli.common import Said, error_console, refused, worded
from fanfold.cli.deploy_group import (
    BasePortOption,
    HealthBasePortOption,
    ProcessesOption,
    ProcessGroup,
    ServerAddressOption,
    ServerNameOption,
    check_host,
)

app = typer.Typer(
    help="A site's configuration files: HAProxy's in front of fanfold serve, Prometheus's, its "
    "alert rules, a Grafana dashboard, systemd units, the log's rotation (docs/deploy.md).",
    no_args_is_help=True,
)

#: The package folder holding the templates.
TEMPLATES = "deploy_templates"
#: Where the configuration's ``errorfile 503`` points when it is printed (no ``--out``).
MAINTENANCE_PATH = "/etc/haproxy/errors/fanfold-maintenance.http"
#: The maintenance page's file name beside ``--out``.
MAINTENANCE_NAME = "fanfold-maintenance.http"
#: Seconds the maintenance page's answer asks a client to wait (``Retry-After``).
RETRY_AFTER = 30

#: The requests of ACME's HTTP-01 challenges (plain HTTP only), as an HAProxy condition.
ACME = "{ path_beg /.well-known/acme-challenge/ } !{ ssl_fc }"

_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
_PEER_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_DURATION = re.compile(r"[0-9]+(us|ms|s|m|h|d)?")


def template(name: str) -> str:
    """The text of the shipped template ``name`` (``haproxy.cfg``, ``maintenance.html``)."""
    return resources.files("fanfold").joinpath(TEMPLATES, name).read_text("utf-8")


def fill(text: str, values: dict[str, str | list[str]]) -> str:
    """``text`` with each ``{{name}}`` replaced by ``values[name]``: a list replaces the whole
    line holding only its placeholder (no line for an empty list), a string the placeholder.

    Raises:
        KeyError: a placeholder with no value, or a value that no placeholder uses.
    """
    used: set[str] = set()

    def value(match: re.Match[str]) -> str:
        found = values[match[1]]  # KeyError: a placeholder without a value
        if isinstance(found, list):
            raise KeyError(f"{{{{{match[1]}}}}} is a block: it must stand on a line alone")
        used.add(match[1])
        return found

    lines: list[str] = []
    for line in text.splitlines():
        whole = _PLACEHOLDER.fullmatch(line.strip())
        if whole and isinstance(values.get(whole[1]), list):
            used.add(whole[1])
            lines.extend(values[whole[1]])
        else:
            lines.append(_PLACEHOLDER.sub(value, line))
    unused = set(values) - used
    if unused:
        raise KeyError(f"values no placeholder uses: {sorted(unused)}")
    return "\n".join(lines) + "\n"


def write_files(files: dict[str, str], out: Path | None) -> None:
    """A command's files: printed one after the other, each under a ``### name`` line, or
    written into the folder ``out`` (made if need be), saying which were written; a file
    that cannot be written fails the command with its reason."""
    if out is None:
        for name, text in files.items():
            typer.echo(f"### {name}")
            typer.echo(text, nl=False)
        return
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (out / name).write_text(text, encoding="utf-8")
    except OSError as error:
        refused(Said("cannot write %(path)s: %(why)s", path=error.filename, why=error.strerror), 1)
    wrote = Said("wrote %(files)s in %(folder)s", files=", ".join(files), folder=out)
    error_console.print(worded(wrote), markup=False)


def maintenance_response() -> bytes:
    """The maintenance page as the whole HTTP answer HAProxy's ``errorfile 503`` sends."""
    body = template("maintenance.html").encode("utf-8")
    head = (
        "HTTP/1.0 503 Service Unavailable\r\n"
        "Content-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Cache-Control: no-store\r\n"
        f"Retry-After: {RETRY_AFTER}\r\n"
        "Connection: close\r\n"
        "\r\n"
    )
    return head.encode("ascii") + body


@dataclass(frozen=True)
class HAProxySite:
    """What ``fanfold deploy haproxy`` renders: its options, by the same names.

    Attributes:
        group: the ``fanfold serve`` processes, as HAProxy reaches them.
        bind_address: the address HAProxy listens on (empty: every IPv4 address; ``::``:
            every address, IPv4 and IPv6).
        http_port, https_port: the ports of plain HTTP (a redirect) and of HTTPS.
        certificate: the PEM file of the certificate, its chain and its key.
        stats_socket: the operator's socket (``show stat``, ``show table``...).
        log: ``stdout``, ``stderr``, a syslog socket (``/dev/log``) or ``HOST:PORT`` (UDP).
        peer_name: this HAProxy's name among its peers (``localpeer``).
        peers: every HAProxy sharing the counts, this one included: (name, ``HOST:PORT``).
        request_rate: requests a client may make in 10 s.
        connection_limit: connections a client may hold open at once.
        hard_stop_after: how long a worker replaced by a reload may go on serving.
        user: the user and group HAProxy's workers run as (empty: the starting user's).
        chroot: the folder the workers are shut in (empty: none).
        maintenance_page: the file of the maintenance page (``errorfile 503``).
        acme_port: the port on 127.0.0.1 where an ACME client (certbot's ``--standalone
            --http-01-port``) answers the HTTP-01 challenges of plain HTTP; none: every plain
            HTTP request is redirected.
        out: the configuration's file, when written to one (shown in the rendered command).
    """

    group: ProcessGroup
    bind_address: str = ""
    http_port: int = 80
    https_port: int = 443
    certificate: str = "/etc/haproxy/certs/fanfold.pem"
    stats_socket: str = "/run/haproxy/admin.sock"
    log: str = "/dev/log"
    peer_name: str = "lb1"
    peers: tuple[tuple[str, str], ...] = ()
    request_rate: int = 200
    connection_limit: int = 100
    hard_stop_after: str = "5m"
    user: str = "haproxy"
    chroot: str = "/var/lib/haproxy"
    maintenance_page: str = MAINTENANCE_PATH
    acme_port: int | None = None
    out: str | None = None

    @property
    def all_peers(self) -> tuple[tuple[str, str], ...]:
        """The peers section's members: ``peers``, or this HAProxy alone on port 10000."""
        return self.peers or ((self.peer_name, "127.0.0.1:10000"),)

    def check(self) -> None:
        """Raise :class:`ValueError` with a sentence for anything HAProxy or the processes
        would refuse, or that would listen on the wrong port."""
        self.group.check()
        ports = [("--http-port", self.http_port), ("--https-port", self.https_port)]
        if self.acme_port is not None:
            ports.append(("--acme-port", self.acme_port))
        for option, port in ports:
            if not 1 <= port <= 65535:
                raise ValueError(
                    Said("%(option)s must be 1 to 65535, not %(port)s", option=option, port=port)
                )
        if self.http_port == self.https_port:
            raise ValueError(
                Said(
                    "--http-port and --https-port are both %(http_port)s", http_port=self.http_port
                )
            )
        check_host("--bind-address", self.bind_address or "0.0.0.0")
        for option, path in (
            ("--certificate", self.certificate),
            ("--stats-socket", self.stats_socket),
            ("--maintenance-page", self.maintenance_page),
            ("--chroot", self.chroot or "/"),
        ):
            if not path.startswith("/") or any(character.isspace() for character in path):
                raise ValueError(
                    Said(
                        "%(option)s must be an absolute path without spaces, not %(path)s",
                        option=option,
                        path=repr(path),
                    )
                )
        if self.user and not re.fullmatch(r"[a-z_][a-z0-9_-]*", self.user):
            raise ValueError(Said("--user %(user)s is no user name", user=repr(self.user)))
        if not _log_target(self.log):
            raise ValueError(
                Said(
                    "--log %(log)s: give stdout, stderr, a syslog socket (/dev/log) or HOST:PORT "
                    "of a syslog server",
                    log=repr(self.log),
                )
            )
        if not _DURATION.fullmatch(self.hard_stop_after):
            raise ValueError(
                Said(
                    "--hard-stop-after %(hard_stop_after)s: a duration such as 30s, 5m or 1h",
                    hard_stop_after=repr(self.hard_stop_after),
                )
            )
        for option, limit in (
            ("--request-rate", self.request_rate),
            ("--connection-limit", self.connection_limit),
        ):
            if limit < 1:
                raise ValueError(
                    Said("%(option)s must be at least 1, not %(limit)s", option=option, limit=limit)
                )
        names = [name for name, _ in self.all_peers]
        for name, address in self.all_peers:
            if not _PEER_NAME.fullmatch(name):
                raise ValueError(
                    Said(
                        "the peer name %(name)s must be letters, digits, '.', '_', '-'",
                        name=repr(name),
                    )
                )
            host, _, peer_port = address.rpartition(":")
            if not host or not peer_port.isdigit() or not 1 <= int(peer_port) <= 65535:
                raise ValueError(
                    Said(
                        "--peers %(name)s=%(address)s: the address must be HOST:PORT",
                        name=name,
                        address=address,
                    )
                )
            check_host(f"--peers {name}", host)
        if not _PEER_NAME.fullmatch(self.peer_name):
            raise ValueError(
                Said(
                    "--peer-name %(peer_name)s: letters, digits, '.', '_', '-'",
                    peer_name=repr(self.peer_name),
                )
            )
        if len(set(names)) != len(names):
            raise ValueError(Said("--peers names a peer twice: %(names)s", names=", ".join(names)))
        if self.peer_name not in names:
            raise ValueError(
                Said(
                    "--peers must list this HAProxy too (--peer-name %(peer_name)s), with the "
                    "address its peers reach it on",
                    peer_name=self.peer_name,
                )
            )

    def command(self) -> str:
        """The ``fanfold deploy haproxy`` command that renders this site again."""
        words = ["fanfold", "deploy", "haproxy", *self.group.option_words()]
        defaults = HAProxySite(self.group)
        for field in fields(self):
            value = getattr(self, field.name)
            if field.name in ("group", "peers", "out") or value == getattr(defaults, field.name):
                continue
            if (
                field.name == "maintenance_page"
                and self.out is not None
                and value == str(_beside(self.out))
            ):
                continue
            words += [f"--{field.name.replace('_', '-')}", str(value)]
        for name, address in self.peers:
            words += ["--peers", f"{name}={address}"]
        if self.out is not None:
            words += ["--out", self.out]
        return shlex.join(words)


def _log_target(target: str) -> str | None:
    """HAProxy's ``log`` address for ``target`` (``None``: not one)."""
    if target in ("stdout", "stderr"):
        return f"{target} format raw"
    if target.startswith("/") and not any(character.isspace() for character in target):
        return target
    host, _, port = target.rpartition(":")
    if host and port.isdigit() and re.fullmatch(r"[A-Za-z0-9.:-]+", host):
        return target
    if re.fullmatch(r"[A-Za-z0-9.-]+", target):
        return target  # a host, port 514
    return None


def _bind(address: str, port: int) -> str:
    if not address:
        return f":{port}"
    if address == "::":
        return f":::{port} v4v6"
    return f"{address}:{port}"


def _beside(out: str) -> Path:
    return Path(out).resolve().parent / MAINTENANCE_NAME


def render_haproxy(site: HAProxySite) -> str:
    """The HAProxy configuration of ``site`` (checked first: :meth:`HAProxySite.check`)."""
    site.check()
    group = site.group
    servers = [
        (name, f"{group.server_address}:{port}", health)
        for name, port, health in zip(group.names, group.ports, group.health_ports, strict=True)
    ]
    if site.user or site.chroot:
        privileges = ["    # The workers give up root once the ports are open and the files read."]
        if site.chroot:
            privileges.append(f"    chroot {site.chroot}")
        if site.user:
            privileges += [f"    user {site.user}", f"    group {site.user}"]
    else:
        privileges = []
    values: dict[str, str | list[str]] = {
        "processes_text": group.processes_text,
        "command": site.command(),
        "processes": str(group.processes),
        "base_port": str(group.base_port),
        "health_base_port": str(group.health),
        "server_address": group.server_address,
        "names_text": group.names_text,
        "privilege_lines": privileges,
        "log_target": str(_log_target(site.log)),
        "hard_stop_after": site.hard_stop_after,
        "stats_socket": site.stats_socket,
        "peer_name": site.peer_name,
        "peer_lines": [f"    peer {name} {address}" for name, address in site.all_peers],
        "maintenance_page": site.maintenance_page,
        "http_bind": _bind(site.bind_address, site.http_port),
        "https_bind": _bind(site.bind_address, site.https_port),
        "certificate": site.certificate,
        "request_rate": str(site.request_rate),
        "connection_limit": str(site.connection_limit),
        "https_suffix": "" if site.https_port == 443 else f":{site.https_port}",
        "acme_note": "" if site.acme_port is None else ", but for ACME's challenges (below)",
        "acme_unless": "" if site.acme_port is None else f" || {ACME}",
        "acme_use": [] if site.acme_port is None else [f"    use_backend acme if {ACME}"],
        "acme_backend": []
        if site.acme_port is None
        else [
            "",
            "# ACME's HTTP-01 challenges (Let's Encrypt), on plain HTTP only: answered by the ACME",
            "# client on this machine (certbot certonly --standalone --http-01-port PORT).",
            "backend acme",
            f"    server acme 127.0.0.1:{site.acme_port}",
        ],
        "page_servers": [
            f"    server {name} {address} check port {health}" for name, address, health in servers
        ],
        "table_servers": [
            f"    server {name} {address} check port {health}" for name, address, health in servers
        ]
        + [
            f"    server {name}-live {address} backup non-stick track pages/{name}"
            for name, address, _ in servers
        ],
    }
    return fill(template("haproxy.cfg"), values)


def _peers(entries: list[str] | None) -> tuple[tuple[str, str], ...]:
    peers: list[tuple[str, str]] = []
    for entry in entries or []:
        name, sep, address = entry.partition("=")
        if not sep or not name or not address:
            refused(Said("--peers takes NAME=HOST:PORT, not %(entry)s", entry=repr(entry)))
        peers.append((name, address))
    return tuple(peers)


@app.command()
def haproxy(
    processes: ProcessesOption,
    base_port: BasePortOption = 8000,
    health_base_port: HealthBasePortOption = None,
    server_address: ServerAddressOption = "127.0.0.1",
    server_name: ServerNameOption = "s",
    certificate: Annotated[
        str, typer.Option(help="The PEM file holding the certificate, its chain and its key.")
    ] = "/etc/haproxy/certs/fanfold.pem",
    bind_address: Annotated[
        str,
        typer.Option(
            help="The address HAProxy listens on. Default: every IPv4 address; '::': every "
            "address, IPv4 and IPv6."
        ),
    ] = "",
    http_port: Annotated[int, typer.Option(help="Plain HTTP's port: a redirect to HTTPS.")] = 80,
    https_port: Annotated[int, typer.Option(help="HTTPS's port.")] = 443,
    stats_socket: Annotated[
        str, typer.Option(help="The operator's socket (show stat, show table, show peers).")
    ] = "/run/haproxy/admin.sock",
    log: Annotated[
        str,
        typer.Option(
            help="Where the log lines go: stdout, stderr, a syslog socket (/dev/log) or "
            "HOST:PORT of a syslog server (UDP)."
        ),
    ] = "/dev/log",
    peer_name: Annotated[
        str, typer.Option(help="This HAProxy's name among the peers sharing the counts.")
    ] = "lb1",
    peers: Annotated[
        list[str] | None,
        typer.Option(
            "--peers",
            metavar="NAME=HOST:PORT",
            help="A HAProxy sharing the counts per client (repeat it), this one included. "
            "Default: this one alone, on 127.0.0.1:10000 (the counts then survive a reload).",
        ),
    ] = None,
    request_rate: Annotated[
        int, typer.Option(help="Requests a client may make in 10 s; more are refused (429).")
    ] = 200,
    connection_limit: Annotated[
        int,
        typer.Option(help="Connections a client may hold open at once; more are refused (429)."),
    ] = 100,
    hard_stop_after: Annotated[
        str,
        typer.Option(
            help="How long a worker replaced by a reload goes on serving its connections."
        ),
    ] = "5m",
    user: Annotated[
        str,
        typer.Option(
            help="The user and group HAProxy's workers run as ('': the user that starts it)."
        ),
    ] = "haproxy",
    chroot: Annotated[
        str, typer.Option(help="The folder HAProxy's workers are shut in ('': none).")
    ] = "/var/lib/haproxy",
    maintenance_page: Annotated[
        str | None,
        typer.Option(
            help="The maintenance page's file (errorfile 503). Default: beside --out, else "
            f"{MAINTENANCE_PATH} (write it with fanfold deploy maintenance-page)."
        ),
    ] = None,
    acme_port: Annotated[
        int | None,
        typer.Option(
            help="Send ACME's HTTP-01 challenges (Let's Encrypt) on plain HTTP to this port on "
            "127.0.0.1, where certbot certonly --standalone --http-01-port PORT answers them. "
            "Default: every plain HTTP request is redirected."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Write the configuration to this file, and the maintenance page to "
            "--maintenance-page. Default: print the configuration."
        ),
    ] = None,
) -> None:
    """HAProxy's configuration in front of N fanfold serve processes, for a site as it is:
    TLS, logs, limits per client kept across reloads, pages up while the store is away."""
    page = maintenance_page or (str(_beside(str(out))) if out is not None else MAINTENANCE_PATH)
    site = HAProxySite(
        ProcessGroup(processes, base_port, health_base_port, server_address, server_name),
        bind_address=bind_address,
        http_port=http_port,
        https_port=https_port,
        certificate=certificate,
        stats_socket=stats_socket,
        log=log,
        peer_name=peer_name,
        peers=_peers(peers),
        request_rate=request_rate,
        connection_limit=connection_limit,
        hard_stop_after=hard_stop_after,
        user=user,
        chroot=chroot,
        maintenance_page=page,
        acme_port=acme_port,
        out=None if out is None else str(out),
    )
    try:
        text = render_haproxy(site)
    except ValueError as error:
        refused(error)
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        Path(page).write_bytes(maintenance_response())
        out.write_text(text, encoding="utf-8")
    except OSError as error:
        refused(Said("cannot write %(path)s: %(why)s", path=error.filename, why=error.strerror), 1)
    wrote = Said("wrote %(out)s and its maintenance page %(page)s", out=out, page=page)
    error_console.print(worded(wrote), markup=False)


@app.command("maintenance-page")
def maintenance_page_command(
    out: Annotated[
        Path | None,
        typer.Option(help=f"Write it to this file ({MAINTENANCE_PATH}). Default: print it."),
    ] = None,
) -> None:
    """The page HAProxy answers with when no process answers, as its errorfile 503 reads it
    (an HTTP answer: status line, headers, the page)."""
    response = maintenance_response()
    if out is None:
        typer.echo(response.decode("utf-8"), nl=False)
        return
    try:
        out.write_bytes(response)
    except OSError as error:
        refused(Said("cannot write %(path)s: %(why)s", path=error.filename, why=error.strerror), 1)
