"""The daily backup's units (``fanfold deploy backup``): ``fanfold-backup.service`` runs
``fanfold backup`` for this installation once, with the database's URL as a credential (never
on its command line), and ``fanfold-backup.timer`` starts it daily, making up a missed day
(``Persistent=true``); both pass ``systemd-analyze verify``. Options the units cannot hold are
refused with a sentence, and nothing is written."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.deploy.support import fanfold, run, tool
from tests.deploy.test_systemd import key, verify


def render(folder: Path, *arguments: str) -> dict[str, str]:
    made = fanfold("deploy", "backup", *arguments, "--out", str(folder))
    assert made.exit_code == 0, made.output
    return {path.name: path.read_text() for path in sorted(folder.iterdir())}


def test_the_backup_units_pass_systemd_analyze(tmp_path: Path) -> None:
    units = render(tmp_path, "--dir", "/var/backups/fanfold", "--keep-days", "7")
    assert sorted(units) == ["fanfold-backup.service", "fanfold-backup.timer"]
    verify(tmp_path)
    service, timer = units["fanfold-backup.service"], units["fanfold-backup.timer"]
    assert key(service, "Type") == ["oneshot"]
    assert key(service, "LoadCredential") == ["db-url:/etc/fanfold/db-url"]
    assert key(service, "ReadWritePaths") == ["/var/backups/fanfold"]
    (start,) = key(service, "ExecStart")
    words = shlex.split(start)
    assert Path(words[0]).is_file()  # this installation's fanfold
    assert words[1:] == [
        *("backup", "--dir", "/var/backups/fanfold", "--keep-days", "7"),
        *("--db-file", "${CREDENTIALS_DIRECTORY}/db-url"),
    ]
    assert "--db" not in words  # the URL never on a command line
    assert key(timer, "OnCalendar") == ["daily"]
    assert key(timer, "Persistent") == ["true"]
    assert key(timer, "WantedBy") == ["timers.target"]
    # the command in the units' comment renders them again
    (comment,) = [line for line in service.splitlines() if "fanfold deploy backup" in line]
    again = shlex.split(comment.strip("# "))[3:]
    assert render(tmp_path / "again", *again[:-2], "--fanfold", again[-1]) == units


def test_a_sqlite_site_and_another_hour(tmp_path: Path) -> None:
    units = render(
        tmp_path,
        *("--dir", "/srv/copies", "--db-file", "", "--on-calendar", "*-*-* 03:30:00"),
    )
    verify(tmp_path)
    service = units["fanfold-backup.service"]
    assert key(service, "LoadCredential") == []
    (start,) = key(service, "ExecStart")
    assert "--db-file" not in start
    assert key(units["fanfold-backup.timer"], "OnCalendar") == ["*-*-* 03:30:00"]
    assert key(service, "Description")[0].endswith("keeping 14 days of copies")
    kept = render(tmp_path / "all", "--dir", "/srv/copies", "--keep-days", "0")
    assert key(kept["fanfold-backup.service"], "Description")[0].endswith("keeping every copy")
    calendar = run(tool("systemd-analyze", "systemd"), "calendar", "*-*-* 03:30:00")
    assert calendar.returncode == 0, calendar.stderr


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--dir", "relative/copies"], "--dir"),
        (["--dir", "/var/backups/my copies"], "--dir"),
        (["--dir", "/b", "--user", "Root;rm"], "--user"),
        (["--dir", "/b", "--keep-days", "-1"], "--keep-days"),
        (["--dir", "/b", "--on-calendar", "daily\nExecStart=/bin/sh"], "--on-calendar"),
    ],
)
def test_options_the_units_cannot_hold_are_refused(
    tmp_path: Path, options: list[str], said: str
) -> None:
    made = fanfold("deploy", "backup", *options, "--out", str(tmp_path / "units"))
    assert made.exit_code == 2, made.output
    assert said in made.output
    assert not (tmp_path / "units").exists()
