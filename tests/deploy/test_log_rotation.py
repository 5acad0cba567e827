"""How a site keeps the server's log (``fanfold deploy logs``, docs/logs.md): logrotate's file,
run as written by Debian's ``logrotate`` (``logrotate -d`` takes it; a forced rotation of a log
that a process holds open in append mode, as ``2>>FILE`` does, keeps every line: the old ones
in the rotated copy, the ones written after it in the file itself, from its start); journald's
drop-in, whose settings journald reads (``systemd-analyze timespan`` for the age); the guide
shows what the command writes; options the files cannot hold are refused with a sentence."""

from __future__ import annotations

import configparser
import getpass
import re
from pathlib import Path

import pytest

from fanfold.cli.deploy_logs import JOURNALD, LOGROTATE
from tests.deploy.support import fanfold, run, tool
from tests.server.support import ROOT

GUIDE = ROOT / "docs" / "logs.md"


def render(folder: Path, *arguments: str) -> dict[str, str]:
    """``fanfold deploy logs ARGUMENTS --out FOLDER``: the files by their paths under it."""
    made = fanfold("deploy", "logs", *arguments, "--out", str(folder))
    assert made.exit_code == 0, made.output
    return {name: (folder / name).read_text() for name in (LOGROTATE, JOURNALD)}


def settings(text: str) -> list[str]:
    """The lines of a rendered file that are not comments."""
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def test_the_rendered_rotation_keeps_every_line(tmp_path: Path) -> None:
    logrotate = tool("logrotate", "logrotate")
    folder = tmp_path / "log"
    folder.mkdir(mode=0o755)
    files = render(tmp_path / "etc", "--log-dir", str(folder), "--user", getpass.getuser())
    config = tmp_path / "etc" / LOGROTATE
    assert f"{folder}/*.log {{" in files[LOGROTATE]
    state = tmp_path / "state"
    log = folder / "serve.log"
    with log.open("a") as stream:  # the process's standard error, 2>>serve.log
        for number in range(3):
            stream.write(f'{{"message": "before {number}"}}\n')
        stream.flush()

        checked = run(logrotate, "-d", "-s", str(state), str(config))
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "error" not in checked.stderr.lower(), checked.stderr
        assert "rotating pattern" in checked.stderr, checked.stderr
        assert log.read_text().count("before") == 3  # -d changed nothing

        rotated = run(logrotate, "-f", "-s", str(state), str(config))
        assert rotated.returncode == 0, rotated.stdout + rotated.stderr
        stream.write('{"message": "after"}\n')
        stream.flush()
    copy = folder / "serve.log.1"  # the first rotation is not compressed (delaycompress)
    assert copy.read_text().count("before") == 3
    assert log.read_text() == '{"message": "after"}\n'  # truncated, written from its start


def test_logrotate_finds_an_unknown_user(tmp_path: Path) -> None:
    """The check means something: a rotation as a user this machine lacks is an error."""
    logrotate = tool("logrotate", "logrotate")
    render(tmp_path, "--user", "nosuchfanfolduser")
    checked = run(logrotate, "-d", "-s", str(tmp_path / "state"), str(tmp_path / LOGROTATE))
    assert "unknown user 'nosuchfanfolduser'" in checked.stderr


def test_the_journal_keeps_what_the_options_say(tmp_path: Path) -> None:
    analyze = tool("systemd-analyze", "systemd")
    files = render(tmp_path, "--keep-days", "14", "--journal-max-use", "8G")
    journal = configparser.ConfigParser()
    journal.optionxform = str  # type: ignore[assignment,method-assign]
    journal.read_string(files[JOURNALD])
    assert journal.sections() == ["Journal"]
    assert dict(journal["Journal"]) == {
        "SystemMaxUse": "8G",
        "SystemKeepFree": "2G",
        "MaxRetentionSec": "14day",
    }
    age = run(analyze, "timespan", journal["Journal"]["MaxRetentionSec"])
    assert age.returncode == 0, age.stderr
    assert "μs: 1209600000000" in age.stdout  # 14 days
    assert "maxage 14" in files[LOGROTATE]
    assert "rotate 14" in files[LOGROTATE]


def test_the_guide_shows_what_the_command_writes(tmp_path: Path) -> None:
    files = render(tmp_path)
    guide = GUIDE.read_text()
    (rotation,) = re.findall(r"```logrotate\n(.*?)```", guide, re.S)
    (journal,) = re.findall(r"```ini\n(.*?)```", guide, re.S)
    assert settings(rotation) == settings(files[LOGROTATE])
    assert settings(journal) == settings(files[JOURNALD])


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("--log-dir", "var/log"), "--log-dir 'var/log'"),
        (("--log-dir", "/"), "--log-dir '/'"),
        (("--user", "Fan Fold"), "--user 'Fan Fold'"),
        (("--keep-days", "0"), "--keep-days 0"),
        (("--journal-max-use", "4GB"), "--journal-max-use '4GB'"),
        (("--journal-keep-free", "-1"), "--journal-keep-free '-1'"),
    ],
)
def test_refused_with_a_sentence(tmp_path: Path, arguments: tuple[str, ...], said: str) -> None:
    refused = fanfold("deploy", "logs", *arguments, "--out", str(tmp_path / "etc"))
    assert refused.exit_code == 2
    assert said in refused.output
    assert not (tmp_path / "etc").exists()  # nothing written


def test_printed_without_out() -> None:
    printed = fanfold("deploy", "logs")
    assert printed.exit_code == 0, printed.output
    assert f"### {LOGROTATE}" in printed.output
    assert f"### {JOURNALD}" in printed.output
