"""The group of ``fanfold serve`` processes that ``fanfold deploy`` renders files for (its
Prometheus configuration, its systemd units), described as ``fanfold deploy haproxy``
describes it: N processes on ports BASE to BASE+N-1, health ports HEALTH to HEALTH+N-1,
named NAME1 to NAMEN, on one address."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from fanfold.cli.common import Said

#: A server name (``fanfold serve --server-name``), as HAProxy's configuration takes it.
_NAME = re.compile(r"[A-Za-z0-9_-]{1,20}")
#: A duration as Prometheus and systemd both read it (``15s``, ``1m``, ``500ms``).
DURATION = re.compile(r"[0-9]+(ms|s|m|h)")


@dataclass(frozen=True)
class ProcessGroup:
    """``fanfold serve --processes N`` as the files rendered for it see it.

    Attributes:
        processes: the processes, named ``server_name`` 1 to N.
        base_port: the first process's port (``fanfold serve --port``); the others follow.
        health_base_port: the first process's health port (``--health-port``); default
            ``base_port`` + 1000, as ``fanfold deploy haproxy`` has it.
        server_address: the processes' address, as the scraper or the proxy reaches them.
        server_name: the processes' ``--server-name`` (``s``: ``s1`` to ``sN``).
    """

    processes: int
    base_port: int = 8000
    health_base_port: int | None = None
    server_address: str = "127.0.0.1"
    server_name: str = "s"

    @property
    def health(self) -> int:
        """The first process's health port."""
        return self.health_base_port if self.health_base_port is not None else self.base_port + 1000

    @property
    def names(self) -> list[str]:
        """The processes' server names, in order."""
        return [f"{self.server_name}{number}" for number in range(1, self.processes + 1)]

    @property
    def ports(self) -> list[int]:
        """The processes' ports, in order."""
        return [self.base_port + index for index in range(self.processes)]

    @property
    def health_ports(self) -> list[int]:
        """The processes' health ports, in order."""
        return [self.health + index for index in range(self.processes)]

    @property
    def names_text(self) -> str:
        """The names as a sentence says them: ``s1``, ``s1 and s2``, ``s1 to s3``."""
        names = self.names
        if len(names) == 1:
            return names[0]
        if len(names) == 2:
            return f"{names[0]} and {names[1]}"
        return f"{names[0]} to {names[-1]}"

    @property
    def processes_text(self) -> str:
        """``3 `fanfold serve` processes``."""
        return f"{self.processes} `fanfold serve` process" + ("es" if self.processes > 1 else "")

    def option_words(self, address: bool = True) -> list[str]:
        """The options that name this group, its defaults left out (``address``: the
        ``--server-address`` too, which ``fanfold deploy systemd`` names ``--host``)."""
        words = ["--processes", str(self.processes)]
        defaults = ProcessGroup(processes=self.processes)
        if self.base_port != defaults.base_port:
            words += ["--base-port", str(self.base_port)]
        if self.health_base_port is not None:
            words += ["--health-base-port", str(self.health)]
        if address and self.server_address != defaults.server_address:
            words += ["--server-address", self.server_address]
        if self.server_name != defaults.server_name:
            words += ["--server-name", self.server_name]
        return words

    def check(self) -> None:
        """Raise :class:`ValueError` with a sentence for a group ``fanfold serve`` would
        refuse, or whose ports do not fit."""
        if not 1 <= self.processes <= 64:
            raise ValueError(
                Said(
                    "--processes must be 1 to 64 (fanfold serve's), not %(processes)s",
                    processes=self.processes,
                )
            )
        for option, first in (("--base-port", self.base_port), ("--health-base-port", self.health)):
            if first < 1 or first + self.processes - 1 > 65535:
                raise ValueError(
                    Said(
                        "%(option)s %(first)s: the ports %(first)s to %(value)s must lie within 1 "
                        "to 65535",
                        option=option,
                        first=first,
                        value=first + self.processes - 1,
                    )
                )
        if set(self.ports) & set(self.health_ports):
            raise ValueError(
                Said(
                    "--health-base-port %(health)s and --base-port %(base_port)s overlap: "
                    "%(processes)s processes take ports %(base_port)s to %(ports)s and health "
                    "ports %(health)s to %(health_ports)s",
                    health=self.health,
                    base_port=self.base_port,
                    processes=self.processes,
                    ports=self.ports[-1],
                    health_ports=self.health_ports[-1],
                )
            )
        if not all(_NAME.fullmatch(name) for name in self.names):
            raise ValueError(
                Said(
                    "the server name %(server_name)s must make names of 1 to 20 letters, digits, "
                    "'_' or '-' (%(names)s), as fanfold serve --server-name does",
                    server_name=repr(self.server_name),
                    names=repr(self.names[-1]),
                )
            )
        check_host("--server-address", self.server_address)


def check_host(option: str, host: str) -> None:
    """Refuse ``host`` unless it is an IP address or a host name."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,252})", host):
            raise ValueError(
                Said(
                    "%(option)s %(host)s is no IP address or host name",
                    option=option,
                    host=repr(host),
                )
            ) from None


def address(host: str, port: int) -> str:
    """``HOST:PORT``, an IPv6 address in brackets."""
    try:
        if ipaddress.ip_address(host).version == 6:
            return f"[{host}]:{port}"
    except ValueError:
        pass
    return f"{host}:{port}"


# The options every command of a group takes, as ``fanfold deploy haproxy`` names them.
ProcessesOption = Annotated[
    int,
    typer.Option(
        "--processes",
        help="The fanfold serve processes of the group (fanfold serve --processes N).",
    ),
]
BasePortOption = Annotated[
    int, typer.Option(help="The first process's port (fanfold serve --port); the others follow.")
]
HealthBasePortOption = Annotated[
    int | None,
    typer.Option(
        help="The first process's health port (fanfold serve --health-port); the others "
        "follow. Default: --base-port + 1000."
    ),
]
ServerAddressOption = Annotated[
    str, typer.Option(help="The processes' address, as the scraper or the proxy reaches them.")
]
ServerNameOption = Annotated[
    str,
    typer.Option(help="The processes' fanfold serve --server-name: NAME1 to NAMEN."),
]

# The options of the commands writing systemd units (fanfold deploy systemd, backup).
FanfoldCommandOption = Annotated[
    str | None,
    typer.Option(
        help="This installation's fanfold command, as the units run it. Default: the one "
        "beside the Python running this command (or on PATH)."
    ),
]
DbFileOption = Annotated[
    str,
    typer.Option(
        help="The file holding the database's URL (root's alone: a unit hands it to its "
        "process as a credential). '': none, the SQLite file in /var/lib/fanfold."
    ),
]
UnitsOutOption = Annotated[
    Path | None, typer.Option(help="Write the units into this folder. Default: print them.")
]


__all__ = [
    "DURATION",
    "BasePortOption",
    "DbFileOption",
    "FanfoldCommandOption",
    "HealthBasePortOption",
    "ProcessGroup",
    "ProcessesOption",
    "ServerAddressOption",
    "ServerNameOption",
    "UnitsOutOption",
    "address",
    "check_host",
]
