"""``fanfold deploy systemd``: systemd units for a group of ``fanfold serve`` processes and for
the HAProxy in front of them, written for this installation's paths (its ``fanfold``, its
``haproxy``), checked with ``systemd-analyze verify``.

Two layouts of the group:

* one unit a process (the default): ``fanfold-s1.service`` to ``fanfold-sN.service``, each a
  lone ``fanfold serve --server-name sK`` on its port and health port, started again by
  systemd after a crash, and ``fanfold.target`` that starts them all. A process can be
  restarted alone (``systemctl restart fanfold-s2``: a rolling restart, one at a time,
  each handing its tables over), each has its own journal, and a stop of the target stops
  them all without hand-overs (:func:`full_stop_lines`);
* ``--supervisor``: one ``fanfold.service`` running ``fanfold serve --processes N``, whose
  supervisor starts a stopped process again itself (systemd restarts the supervisor).

And ``fanfold-haproxy.service``, HAProxy with the configuration ``fanfold deploy haproxy``
wrote, checked before each start and reload.

Every unit restarts on failure only (``Restart=on-failure``) after ``--restart-sec``, with
systemd's start limit (``StartLimitBurst`` starts in ``StartLimitIntervalSec``) so that a
crash loop ends in a failed unit an alert reports; on systemd 254 and later (``RestartSteps``,
``RestartMaxDelaySec``) the pause grows from ``--restart-sec`` to ``--restart-max-sec``.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Annotated

import typer

from fanfold.cli.common import Said, refused
from fanfold.cli.deploy import app, fill, template, write_files
from fanfold.cli.deploy_group import (
    BasePortOption,
    DbFileOption,
    FanfoldCommandOption,
    HealthBasePortOption,
    ProcessesOption,
    ProcessGroup,
    ServerNameOption,
    UnitsOutOption,
)

#: The first systemd that has ``RestartSteps=`` and ``RestartMaxDelaySec=`` (a growing pause).
RESTART_STEPS_SINCE = 254
#: The systemd assumed when none is found here (Debian 12's).
DEFAULT_SYSTEMD = 252
#: The credential that holds the database's URL, and where the unit reads it.
CREDENTIAL = "db-url"
#: The unit that starts and stops the whole group (one unit a process).
TARGET = "fanfold.target"
_SAFE = re.compile(r"[A-Za-z0-9_@%+=:,./-]+")
_USER = re.compile(r"[a-z_][a-z0-9_-]{0,31}")


def systemd_version() -> int:
    """The version of this machine's systemd (``systemd-analyze --version``), or
    :data:`DEFAULT_SYSTEMD` when there is none."""
    for tool in ("systemd-analyze", "systemctl"):
        binary = shutil.which(tool)
        if binary is None:
            continue
        try:
            said = subprocess.run(
                [binary, "--version"], capture_output=True, text=True, timeout=10, check=False
            ).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        found = re.match(r"systemd (\d+)", said)
        if found:
            return int(found[1])
    return DEFAULT_SYSTEMD


def installed_fanfold() -> str:
    """This installation's ``fanfold`` command: the script beside the running Python, else
    the one on ``PATH``, else ``PYTHON -m fanfold``."""
    beside = Path(sys.executable).with_name("fanfold")
    if beside.is_file():
        return str(beside)
    found = shutil.which("fanfold")
    if found is not None:
        return str(Path(found).resolve())
    return f"{sys.executable} -m fanfold"


@dataclass(frozen=True)
class SystemdSite:
    """What ``fanfold deploy systemd`` renders: its options, by the same names.

    Attributes:
        group: the processes (their address is ``host``).
        fanfold: the ``fanfold`` command of this installation (a path, or ``PYTHON -m
            fanfold``).
        host: the address the processes listen on (``fanfold serve --host``).
        user: the user (and group) the processes run as.
        db_file: the file holding the database's URL (root's, read through systemd's
            credentials); empty: none (the SQLite file in the unit's state folder).
        trusted_proxy: the proxies in front (``--trusted-proxy``).
        public_origin: the site's address (``--public-origin``); empty: none.
        allocator: ``python`` or ``jemalloc`` (``FANFOLD_ALLOCATOR``).
        serve_args: more of ``fanfold serve``'s options, as one shell-quoted string.
        supervisor: one unit running ``fanfold serve --processes N`` instead of a unit a
            process.
        haproxy: HAProxy's binary; empty: no HAProxy unit.
        haproxy_config: the configuration ``fanfold deploy haproxy --out`` wrote.
        after: units the processes start after (the database's, when on this machine).
        restart_sec: the pause before a restart (the first, on systemd 254 and later).
        restart_max_sec: the longest pause, where the pause grows (systemd 254 and later).
        start_limit_burst, start_limit_interval: the most starts in that interval, then the
            unit is left failed.
        stop_timeout: how long a stop may take before what is left is killed.
        nofile: the file descriptors a process may hold (each WebSocket one).
        systemd: the version of the systemd the units are for.
        out: the folder written to, when written (shown in the rendered command).
    """

    group: ProcessGroup
    fanfold: str = "/opt/fanfold/bin/fanfold"
    host: str = "127.0.0.1"
    user: str = "fanfold"
    db_file: str = "/etc/fanfold/db-url"
    trusted_proxy: tuple[str, ...] = ("127.0.0.1",)
    public_origin: str = ""
    allocator: str = "python"
    serve_args: str = ""
    supervisor: bool = False
    haproxy: str = "/usr/sbin/haproxy"
    haproxy_config: str = "/etc/haproxy/haproxy.cfg"
    after: str = "postgresql.service"
    restart_sec: str = "2s"
    restart_max_sec: str = "60s"
    start_limit_burst: int = 10
    start_limit_interval: str = "10min"
    stop_timeout: str = "30s"
    nofile: int = 65536
    systemd: int = DEFAULT_SYSTEMD
    out: str | None = field(default=None)

    def check(self) -> None:
        """Raise :class:`ValueError` with a sentence for anything systemd or ``fanfold
        serve`` would refuse."""
        self.group.check()
        words = self.fanfold.split()
        if not words or not all(_SAFE.fullmatch(word) for word in words):
            raise ValueError(
                Said(
                    "--fanfold %(fanfold)s: a path without spaces or quotes",
                    fanfold=repr(self.fanfold),
                )
            )
        if not words[0].startswith("/"):
            raise ValueError(
                Said(
                    "--fanfold %(fanfold)s: systemd needs an absolute path",
                    fanfold=repr(self.fanfold),
                )
            )
        for option, path in (
            ("--db-file", self.db_file),
            ("--haproxy", self.haproxy),
            ("--haproxy-config", self.haproxy_config),
        ):
            if path and (not path.startswith("/") or not _SAFE.fullmatch(path)):
                raise ValueError(
                    Said(
                        "%(option)s must be an absolute path without spaces, not %(path)s",
                        option=option,
                        path=repr(path),
                    )
                )
        if not _USER.fullmatch(self.user) or self.user == "root":
            raise ValueError(Said("--user %(user)s: a user name, not root", user=repr(self.user)))
        for option, duration in (
            ("--restart-sec", self.restart_sec),
            ("--restart-max-sec", self.restart_max_sec),
            ("--start-limit-interval", self.start_limit_interval),
            ("--stop-timeout", self.stop_timeout),
        ):
            if not re.fullmatch(r"[0-9]+(ms|s|min|h)", duration):
                raise ValueError(
                    Said(
                        "%(option)s %(duration)s: a duration such as 2s, 1min or 1h",
                        option=option,
                        duration=repr(duration),
                    )
                )
        if self.start_limit_burst < 1:
            raise ValueError(
                Said(
                    "--start-limit-burst must be at least 1, not %(start_limit_burst)s",
                    start_limit_burst=self.start_limit_burst,
                )
            )
        if self.nofile < 1024:
            raise ValueError(
                Said("--nofile must be at least 1024, not %(nofile)s", nofile=self.nofile)
            )
        if self.allocator not in ("python", "jemalloc"):
            raise ValueError(
                Said(
                    "--allocator %(allocator)s: python or jemalloc", allocator=repr(self.allocator)
                )
            )
        if self.group.processes > 1 and not self.supervisor and not self.db_file:
            raise ValueError(
                Said(
                    "several processes share one PostgreSQL store: give its URL's file (--db-file)"
                )
            )
        for word in [*self.trusted_proxy, self.public_origin, self.host, self.after]:
            if word and not _SAFE.fullmatch(word.replace(" ", "")):
                raise ValueError(Said("%(word)s: no quotes or special characters", word=repr(word)))
        try:
            shlex.split(self.serve_args)
        except ValueError as error:
            raise ValueError(
                Said(
                    "--serve-args %(serve_args)s: %(error)s",
                    serve_args=repr(self.serve_args),
                    error=error,
                )
            ) from None

    @property
    def unit_names(self) -> list[str]:
        """The group's units: ``fanfold-s1.service``... or ``fanfold.service``."""
        if self.supervisor:
            return ["fanfold.service"]
        return [f"fanfold-{name}.service" for name in self.group.names]

    def command(self) -> str:
        """The ``fanfold deploy systemd`` command that renders these units again."""
        words = ["fanfold", "deploy", "systemd", *self.group.option_words(address=False)]
        defaults = SystemdSite(group=self.group)
        for item in fields(self):
            value = getattr(self, item.name)
            shown = item.name in ("fanfold", "systemd")  # this installation's: always said
            if item.name in ("group", "out", "trusted_proxy") or (
                not shown and value == getattr(defaults, item.name)
            ):
                continue
            option = f"--{item.name.replace('_', '-')}"
            if isinstance(value, bool):
                words.append(option if value else f"--no-{option[2:]}")
            else:
                words += [option, str(value)]
        if self.trusted_proxy != defaults.trusted_proxy:
            for proxy in self.trusted_proxy or ("",):
                words += ["--trusted-proxy", proxy]
        if self.out is not None:
            words += ["--out", self.out]
        return shlex.join(words)


def _serve_words(site: SystemdSite) -> list[str]:
    """``fanfold serve``'s options common to every process of ``site``."""
    words = ["--host", site.host]
    for proxy in site.trusted_proxy:
        if proxy:
            words += ["--trusted-proxy", proxy]
    if site.public_origin:
        words += ["--public-origin", site.public_origin]
    if site.db_file:
        words += ["--db-file", "${CREDENTIALS_DIRECTORY}/" + CREDENTIAL]
    return [*words, *shlex.split(site.serve_args)]


def _exec(site: SystemdSite, words: list[str]) -> str:
    """An ``ExecStart=`` command line: the ``fanfold`` command, then ``words``, each quoted
    for systemd where it needs it."""
    quoted = [
        word if _SAFE.fullmatch(word) or word.startswith("${") else f'"{word}"' for word in words
    ]
    return " ".join([site.fanfold, *quoted])


def _restart_steps(site: SystemdSite) -> tuple[list[str], str]:
    """The lines that make the pause grow (systemd 254 and later), and what the comment says."""
    if site.systemd < RESTART_STEPS_SINCE:
        return [], f" (systemd {site.systemd}: a fixed pause; RestartSteps= came in 254)"
    return (
        ["RestartSteps=5", f"RestartMaxDelaySec={site.restart_max_sec}"],
        "; the pause grows in 5 steps",
    )


def installed(name: str) -> str:
    """The path of the system command ``name`` (``kill``, ``systemctl``) as a unit runs it:
    ``/bin/NAME`` where it is, else the one on PATH, else ``/bin/NAME``."""
    if Path("/bin", name).exists():
        return f"/bin/{name}"
    return shutil.which(name) or f"/bin/{name}"


def full_stop_lines() -> list[str]:
    """A process unit's ``ExecStop=``: when the group's target is no longer active (``systemctl
    stop fanfold.target``, the machine's shut-down: the target stops before its units), the
    process is sent :data:`~fanfold.server.stopping.FULL_STOP_SIGNAL` before systemd's
    ``SIGTERM``, and lets its tables go into the store unannounced, since every other process
    is stopping too; a stop or restart of the unit alone (the target still active) is
    ``SIGTERM`` alone, and its tables are handed to the others. Run as root (``+``), so that
    ``systemctl`` asks systemd without the system bus; ``$$`` is a ``$`` for the shell."""
    systemctl, kill = installed("systemctl"), installed("kill")
    script = (
        f'[ -z "$$MAINPID" ] || [ "$$({systemctl} is-active {TARGET})" = active ] '
        f'|| {kill} -s USR1 "$$MAINPID" || :'
    )
    return [
        f"# A stop of the whole group ({TARGET} stopped: `systemctl stop {TARGET}`, the",
        "# machine's shut-down) first tells the process so (SIGUSR1): its tables go into the store",
        "# unannounced, every process stopping at once. A stop or restart of this unit alone is",
        "# SIGTERM only: its tables are handed to the other processes.",
        f"ExecStop=+/bin/sh -c '{script}'",
    ]


def _process_unit(site: SystemdSite, description: str, words: list[str], *, part_of: bool) -> str:
    steps, note = _restart_steps(site)
    credential = [f"LoadCredential={CREDENTIAL}:{site.db_file}"] if site.db_file else []
    environment = ["Environment=FANFOLD_ALLOCATOR=jemalloc"] if site.allocator == "jemalloc" else []
    values: dict[str, str | list[str]] = {
        "description": description,
        "command": site.command(),
        "after": site.after,
        "part_of_lines": ["PartOf=fanfold.target"] if part_of else [],
        "limit_burst": str(site.start_limit_burst),
        "limit_interval": site.start_limit_interval,
        "user": site.user,
        "group": site.user,
        "credential_lines": credential,
        "environment_lines": environment,
        "exec_start": _exec(site, ["serve", *words]),
        "restart_sec": site.restart_sec,
        "restart_note": note,
        "restart_steps_lines": steps,
        "stop_lines": full_stop_lines() if part_of else [],
        "stop_timeout": site.stop_timeout,
        "nofile": str(site.nofile),
        "wanted_by": "fanfold.target" if part_of else "multi-user.target",
    }
    return fill(template("fanfold-process.service"), values)


def render_systemd(site: SystemdSite) -> dict[str, str]:
    """The units of ``site`` by file name (checked first: :meth:`SystemdSite.check`)."""
    site.check()
    group = site.group
    common = _serve_words(site)
    units: dict[str, str] = {}
    if site.supervisor:
        words = ["--processes", str(group.processes), "--port", str(group.base_port)]
        words += ["--health-port", str(group.health)]
        if group.server_name != "s" or group.processes == 1:
            words += ["--server-name", group.server_name if group.processes > 1 else group.names[0]]
        units["fanfold.service"] = _process_unit(
            site,
            f"fanfold play servers {group.names_text} (fanfold serve --processes "
            f"{group.processes}, ports {group.ports[0]}+)",
            [*words, *common],
            part_of=False,
        )
    else:
        for name, port, health in zip(group.names, group.ports, group.health_ports, strict=True):
            words = ["--port", str(port), "--health-port", str(health), "--server-name", name]
            units[f"fanfold-{name}.service"] = _process_unit(
                site,
                f"fanfold play server {name} (port {port}, health checks {health})",
                [*words, *common],
                part_of=True,
            )
        listed = " ".join(site.unit_names)
        units["fanfold.target"] = fill(
            template("fanfold.target"),
            {
                "processes_text": group.processes_text,
                "command": site.command(),
                "names_text": group.names_text,
                "units": listed,
            },
        )
    if site.haproxy:
        steps, _ = _restart_steps(site)
        kill = installed("kill")
        units["fanfold-haproxy.service"] = fill(
            template("fanfold-haproxy.service"),
            {
                "processes_text": group.processes_text,
                "config": site.haproxy_config,
                "command": site.command(),
                "after": " ".join(site.unit_names if site.supervisor else ["fanfold.target"]),
                "limit_interval": site.start_limit_interval,
                "limit_burst": str(site.start_limit_burst),
                "haproxy": site.haproxy,
                "kill": kill,
                "restart_sec": site.restart_sec,
                "restart_steps_lines": steps,
                "nofile": str(site.nofile),
            },
        )
    return units


@app.command()
def systemd(
    processes: ProcessesOption,
    base_port: BasePortOption = 8000,
    health_base_port: HealthBasePortOption = None,
    server_name: ServerNameOption = "s",
    fanfold: FanfoldCommandOption = None,
    host: Annotated[str, typer.Option(help="The address the processes listen on.")] = "127.0.0.1",
    user: Annotated[str, typer.Option(help="The user (and group) the processes run as.")] = (
        "fanfold"
    ),
    db_file: DbFileOption = "/etc/fanfold/db-url",
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy", metavar="ADDR", help="The proxy in front (repeat it; '': none)."
        ),
    ] = None,
    public_origin: Annotated[
        str, typer.Option(help="The site's address, https://fanfold.example ('': none).")
    ] = "",
    allocator: Annotated[str, typer.Option(help="python or jemalloc.")] = "python",
    serve_args: Annotated[
        str, typer.Option(help="More of fanfold serve's options, as one quoted string.")
    ] = "",
    supervisor: Annotated[
        bool,
        typer.Option(
            help="One unit running fanfold serve --processes N (its supervisor restarts a "
            "process) instead of a unit a process."
        ),
    ] = False,
    haproxy: Annotated[
        str, typer.Option(help="HAProxy's binary, for fanfold-haproxy.service ('': no unit).")
    ] = "/usr/sbin/haproxy",
    haproxy_config: Annotated[
        str, typer.Option(help="The configuration fanfold deploy haproxy --out wrote.")
    ] = "/etc/haproxy/haproxy.cfg",
    after: Annotated[
        str, typer.Option(help="Units the processes start after (the database's).")
    ] = "postgresql.service",
    restart_sec: Annotated[str, typer.Option(help="The pause before a restart.")] = "2s",
    restart_max_sec: Annotated[
        str, typer.Option(help="The longest pause, as it grows (systemd 254 and later).")
    ] = "60s",
    start_limit_burst: Annotated[
        int, typer.Option(help="Starts allowed in --start-limit-interval before giving up.")
    ] = 10,
    start_limit_interval: Annotated[str, typer.Option(help="See --start-limit-burst.")] = "10min",
    stop_timeout: Annotated[
        str, typer.Option(help="How long a stop may take before what is left is killed.")
    ] = "30s",
    nofile: Annotated[
        int, typer.Option(help="File descriptors a process may hold (each socket one).")
    ] = 65536,
    target_systemd: Annotated[
        int | None,
        typer.Option(
            "--systemd",
            help="The systemd the units are for (254 and later: a growing pause between "
            "restarts). Default: this machine's.",
        ),
    ] = None,
    out: UnitsOutOption = None,
) -> None:
    """systemd units for N fanfold serve processes (one a process, and fanfold.target) and
    the HAProxy in front, for this installation's paths."""
    group = ProcessGroup(processes, base_port, health_base_port, host, server_name)
    site = SystemdSite(
        group=group,
        fanfold=fanfold or installed_fanfold(),
        host=host,
        user=user,
        db_file=db_file,
        trusted_proxy=tuple(trusted_proxy) if trusted_proxy is not None else ("127.0.0.1",),
        public_origin=public_origin,
        allocator=allocator,
        serve_args=serve_args,
        supervisor=supervisor,
        haproxy=haproxy,
        haproxy_config=haproxy_config,
        after=after,
        restart_sec=restart_sec,
        restart_max_sec=restart_max_sec,
        start_limit_burst=start_limit_burst,
        start_limit_interval=start_limit_interval,
        stop_timeout=stop_timeout,
        nofile=nofile,
        systemd=target_systemd if target_systemd is not None else systemd_version(),
        out=None if out is None else str(out),
    )
    try:
        units = render_systemd(site)
    except ValueError as error:
        refused(error)
    write_files(units, out)


__all__ = [
    "CREDENTIAL",
    "DEFAULT_SYSTEMD",
    "RESTART_STEPS_SINCE",
    "TARGET",
    "SystemdSite",
    "full_stop_lines",
    "installed",
    "installed_fanfold",
    "render_systemd",
    "systemd_version",
]
