"""``fanfold deploy backup``: ``fanfold-backup.service`` and ``fanfold-backup.timer``, the
site's daily copy of its store (``fanfold backup --dir DIR --keep-days N``: ``pg_dump
--format=custom`` for PostgreSQL, SQLite's online backup for SQLite), written for this
installation's ``fanfold`` and checked with ``systemd-analyze verify`` (docs/backup.md).

The timer starts the service every day (``OnCalendar=daily`` unless ``--on-calendar`` says
otherwise) and, with ``Persistent=true``, at the next start after a day the machine was off.
The service reads the database's URL as the serving units do (``LoadCredential=`` from
``--db-file``, never on the command line)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Annotated

import typer

from fanfold.cli.common import Said, refused
from fanfold.cli.deploy import app, fill, template, write_files
from fanfold.cli.deploy_group import DbFileOption, FanfoldCommandOption, UnitsOutOption
from fanfold.cli.deploy_systemd import CREDENTIAL, installed_fanfold

_USER = re.compile(r"[a-z_][a-z0-9_-]{0,31}")
_FOLDER = re.compile(r"/[A-Za-z0-9_@%+=:,./-]*")
_CALENDAR = re.compile(r"[A-Za-z0-9*:,./~ -]+")


@dataclass(frozen=True)
class BackupUnits:
    """What ``fanfold deploy backup`` renders: its options, by the same names."""

    folder: str
    keep_days: float = 14.0
    fanfold: str = "/opt/fanfold/bin/fanfold"
    user: str = "fanfold"
    db_file: str = "/etc/fanfold/db-url"
    after: str = "postgresql.service"
    on_calendar: str = "daily"

    def check(self) -> None:
        """Raises ValueError, with a sentence, for an option the units cannot hold."""
        if not _FOLDER.fullmatch(self.folder):
            raise ValueError(
                Said(
                    "--dir %(folder)s: an absolute path of letters, digits and _@%%+=:,./- only",
                    folder=repr(self.folder),
                )
            )
        if not _USER.fullmatch(self.user):
            raise ValueError(Said("--user %(user)s is not a user name", user=repr(self.user)))
        if self.keep_days < 0:
            raise ValueError(Said("--keep-days must be 0 (keep every copy) or more"))
        if not _CALENDAR.fullmatch(self.on_calendar):
            raise ValueError(
                Said(
                    "--on-calendar %(on_calendar)s is not a calendar event",
                    on_calendar=repr(self.on_calendar),
                )
            )
        if self.db_file and not _FOLDER.fullmatch(self.db_file):
            raise ValueError(
                Said(
                    "--db-file %(db_file)s: an absolute path, or '' for none",
                    db_file=repr(self.db_file),
                )
            )
        if any(ch in self.after for ch in "\n\r"):
            raise ValueError(Said("--after is one line of unit names"))

    def command(self) -> str:
        """The ``fanfold deploy backup`` command that renders these units again."""
        defaults = BackupUnits(folder=self.folder)
        words = ["fanfold", "deploy", "backup", "--dir", self.folder]
        for name in ("keep_days", "user", "db_file", "after", "on_calendar"):
            value = getattr(self, name)
            if value != getattr(defaults, name):
                words += [
                    f"--{name.replace('_', '-')}",
                    f"{value:g}" if name == "keep_days" else value,
                ]
        return shlex.join([*words, "--fanfold", self.fanfold])


def render_backup(units: BackupUnits) -> dict[str, str]:
    """The two units by file name (checked first: :meth:`BackupUnits.check`)."""
    units.check()
    words = ["backup", "--dir", units.folder, "--keep-days", f"{units.keep_days:g}"]
    credential: list[str] = []
    if units.db_file:
        credential = [f"LoadCredential={CREDENTIAL}:{units.db_file}"]
        words += ["--db-file", "${CREDENTIALS_DIRECTORY}/" + CREDENTIAL]
    command = units.command()
    return {
        "fanfold-backup.service": fill(
            template("fanfold-backup.service"),
            {
                "command": command,
                "folder": units.folder,
                "keeping": "every copy"
                if units.keep_days == 0
                else f"{units.keep_days:g} days of copies",
                "after": units.after,
                "user": units.user,
                "group": units.user,
                "credential_lines": credential,
                "exec_start": " ".join([units.fanfold, *words]),
            },
        ),
        "fanfold-backup.timer": fill(
            template("fanfold-backup.timer"),
            {"command": command, "on_calendar": units.on_calendar},
        ),
    }


@app.command("backup")
def backup_units(
    folder: Annotated[
        str, typer.Option("--dir", metavar="DIR", help="The folder of the copies (absolute).")
    ],
    keep_days: Annotated[
        float, typer.Option(help="Delete copies older than this many days (0: keep all).")
    ] = 14.0,
    fanfold: FanfoldCommandOption = None,
    user: Annotated[str, typer.Option(help="The user (and group) the copy runs as.")] = "fanfold",
    db_file: DbFileOption = "/etc/fanfold/db-url",
    after: Annotated[str, typer.Option(help="Units the copy starts after.")] = (
        "postgresql.service"
    ),
    on_calendar: Annotated[
        str, typer.Option(help="When the timer starts the copy (systemd's OnCalendar=).")
    ] = "daily",
    out: UnitsOutOption = None,
) -> None:
    """fanfold-backup.service and fanfold-backup.timer: a daily copy of the store into DIR
    (fanfold backup), keeping --keep-days days of copies."""
    units = BackupUnits(
        folder=folder,
        keep_days=keep_days,
        fanfold=fanfold or installed_fanfold(),
        user=user,
        db_file=db_file,
        after=after,
        on_calendar=on_calendar,
    )
    try:
        rendered = render_backup(units)
    except ValueError as error:
        refused(error)
    write_files(rendered, out)
