"""``fanfold deploy logs``: how a site keeps ``fanfold serve``'s log (docs/logs.md), a file
for each way of keeping it, for this installation's paths:

* ``logrotate.d/fanfold``: logrotate's rotation of the files in ``--log-dir`` where no journal
  keeps the lines (each process's standard error appended to a file): daily, ``--keep-days``
  kept, compressed from the second, copied then truncated (a process never reopens its file),
  rotated as ``--user`` (logrotate's ``su``: the folder is the processes' own);
* ``systemd/journald.conf.d/fanfold.conf``: journald's drop-in under systemd (``fanfold deploy
  systemd``): the journal's most on disk, the space it leaves free, and ``--keep-days``.

``--out /etc`` writes both where they take effect (their paths under ``--out``)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated

import typer

from fanfold.cli.common import Said, error_console, refused, worded
from fanfold.cli.deploy import app, fill, template

#: The two files, by their paths under ``/etc`` (``--out``), and their templates.
LOGROTATE = "logrotate.d/fanfold"
JOURNALD = "systemd/journald.conf.d/fanfold.conf"
_TEMPLATES = {LOGROTATE: "logrotate-fanfold", JOURNALD: "journald-fanfold.conf"}

_FOLDER = re.compile(r"/[A-Za-z0-9_@%+=:,./-]*")
_USER = re.compile(r"[a-z_][a-z0-9_-]{0,31}")
#: A size as journald reads it: bytes, or K, M, G, T (powers of 1024).
_SIZE = re.compile(r"[1-9][0-9]*[KMGT]?")


@dataclass(frozen=True)
class LogFiles:
    """What ``fanfold deploy logs`` renders: its options, by the same names."""

    log_dir: str = "/var/log/fanfold"
    user: str = "fanfold"
    keep_days: int = 30
    journal_max_use: str = "4G"
    journal_keep_free: str = "2G"

    def check(self) -> None:
        """Raises ValueError, with a sentence, for an option the files cannot hold."""
        if not _FOLDER.fullmatch(self.log_dir) or self.log_dir.rstrip("/") == "":
            raise ValueError(
                Said(
                    "--log-dir %(log_dir)s: an absolute folder of letters, digits and _@%%+=:,./- "
                    "only, not /",
                    log_dir=repr(self.log_dir),
                )
            )
        if not _USER.fullmatch(self.user):
            raise ValueError(Said("--user %(user)s is not a user name", user=repr(self.user)))
        if not 1 <= self.keep_days <= 3650:
            raise ValueError(
                Said("--keep-days %(keep_days)s: from 1 to 3650", keep_days=self.keep_days)
            )
        for name in ("journal_max_use", "journal_keep_free"):
            value = getattr(self, name)
            if not _SIZE.fullmatch(value):
                option = f"--{name.replace('_', '-')}"
                raise ValueError(
                    Said(
                        "%(option)s %(value)s: a size such as 4G, 512M or 1048576",
                        option=option,
                        value=repr(value),
                    )
                )

    def command(self) -> str:
        """The ``fanfold deploy logs`` command that renders these files again."""
        words = ["fanfold", "deploy", "logs"]
        defaults = LogFiles()
        for item in fields(self):
            value = getattr(self, item.name)
            if value != getattr(defaults, item.name):
                words += [f"--{item.name.replace('_', '-')}", str(value)]
        return shlex.join(words)


def render_logs(files: LogFiles) -> dict[str, str]:
    """The two files by their paths under ``/etc`` (checked first: :meth:`LogFiles.check`)."""
    files.check()
    values: dict[str, str | list[str]] = {
        "command": files.command(),
        "log_dir": files.log_dir.rstrip("/"),
        "user": files.user,
        "keep_days": str(files.keep_days),
        "max_use": files.journal_max_use,
        "keep_free": files.journal_keep_free,
    }
    rendered: dict[str, str] = {}
    for path, name in _TEMPLATES.items():
        text = template(name)
        used = {key: value for key, value in values.items() if "{{" + key + "}}" in text}
        rendered[path] = fill(text, used)
    return rendered


@app.command("logs")
def log_files(
    log_dir: Annotated[
        str, typer.Option(help="The folder of the processes' log files (without systemd).")
    ] = "/var/log/fanfold",
    user: Annotated[str, typer.Option(help="The processes' user: logrotate rotates as it.")] = (
        "fanfold"
    ),
    keep_days: Annotated[int, typer.Option(help="Days of lines kept, by both.")] = 30,
    journal_max_use: Annotated[
        str, typer.Option(help="The journal's most on disk (journald's SystemMaxUse=).")
    ] = "4G",
    journal_keep_free: Annotated[
        str, typer.Option(help="The disk the journal leaves free (SystemKeepFree=).")
    ] = "2G",
    out: Annotated[
        Path | None,
        typer.Option(
            help="Write the files under this folder (/etc: where they take effect). "
            "Default: print them."
        ),
    ] = None,
) -> None:
    """logrotate's rotation of the log files and journald's drop-in under systemd: how long
    the server's lines are kept (docs/logs.md)."""
    files = LogFiles(log_dir, user, keep_days, journal_max_use, journal_keep_free)
    try:
        rendered = render_logs(files)
    except ValueError as error:
        refused(error)
    if out is None:
        for name, text in rendered.items():
            typer.echo(f"### {name}")
            typer.echo(text, nl=False)
        return
    try:
        for name, text in rendered.items():
            path = out / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            path.chmod(0o644)  # logrotate refuses a file others may write
    except OSError as error:
        refused(Said("cannot write %(path)s: %(why)s", path=error.filename, why=error.strerror), 1)
    wrote = Said("wrote %(files)s under %(folder)s", files=", ".join(rendered), folder=out)
    error_console.print(worded(wrote), markup=False)


__all__ = ["JOURNALD", "LOGROTATE", "LogFiles", "render_logs"]
