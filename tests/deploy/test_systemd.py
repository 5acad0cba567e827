"""systemd units for a site (``fanfold deploy systemd``): written for this installation's
paths (its ``fanfold``, its ``haproxy``), they pass ``systemd-analyze verify`` for one to three
processes, a unit a process or one for the supervisor (systemd is not the init of the machines
the tests run on: the units are checked, not started); each restarts on failure only, after a
pause, within a start limit, the pause growing on systemd 254 and later; the command each
unit runs is one ``fanfold check-config`` accepts; and the shipped units (``deploy/systemd``)
are the render of the command the guide gives."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.deploy.support import DEPLOY, fanfold, run, tool

#: The shipped units' command (docs/deploy.md, "systemd").
SHIPPED = (
    *("deploy", "systemd", "--processes", "3", "--base-port", "8001"),
    *("--health-base-port", "9001", "--fanfold", "/opt/fanfold/bin/fanfold"),
    *("--public-origin", "https://fanfold.example", "--allocator", "jemalloc"),
    *("--systemd", "252", "--out", "deploy/systemd"),
)


def render(folder: Path, *arguments: str) -> dict[str, str]:
    """``fanfold deploy systemd ARGUMENTS --out FOLDER``: the units by file name."""
    made = fanfold("deploy", "systemd", *arguments, "--out", str(folder))
    assert made.exit_code == 0, made.output
    return {path.name: path.read_text() for path in sorted(folder.iterdir())}


def verify(folder: Path) -> None:
    """``systemd-analyze verify`` on every unit in ``folder``: no complaint at all."""
    analyze = tool("systemd-analyze", "systemd")
    units = [str(path) for path in sorted(folder.iterdir())]
    checked = run(analyze, "verify", *units)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout + checked.stderr == "", checked.stdout + checked.stderr


def key(unit: str, name: str) -> list[str]:
    """The values of ``name=`` in ``unit``."""
    return re.findall(rf"^{name}=(.*)$", unit, flags=re.MULTILINE)


@pytest.mark.parametrize("processes", [1, 2, 3])
def test_a_unit_a_process_passes_systemd_analyze(tmp_path: Path, processes: int) -> None:
    tool("haproxy", "haproxy")
    units = render(
        tmp_path,
        *("--processes", str(processes), "--base-port", "8001", "--health-base-port", "9001"),
        *("--public-origin", "https://fanfold.example", "--systemd", "252"),
    )
    names = [f"fanfold-s{n}.service" for n in range(1, processes + 1)]
    assert sorted(units) == sorted([*names, "fanfold.target", "fanfold-haproxy.service"])
    verify(tmp_path)
    for number, name in enumerate(names, start=1):
        unit = units[name]
        assert key(unit, "Restart") == ["on-failure"]
        assert key(unit, "RestartSec") == ["2s"]
        assert key(unit, "StartLimitBurst") == ["10"]
        assert key(unit, "StartLimitIntervalSec") == ["10min"]
        assert key(unit, "RestartSteps") == []  # not on systemd 252
        assert key(unit, "KillMode") == ["mixed"]
        assert key(unit, "PartOf") == ["fanfold.target"]
        assert key(unit, "LoadCredential") == ["db-url:/etc/fanfold/db-url"]
        (start,) = key(unit, "ExecStart")
        words = shlex.split(start)
        assert Path(words[0]).is_file()  # this installation's fanfold
        assert words[1] == "serve"
        assert words[words.index("--port") + 1] == str(8000 + number)
        assert words[words.index("--health-port") + 1] == str(9000 + number)
        assert words[words.index("--server-name") + 1] == f"s{number}"
        assert "--db" not in words  # the URL never on a command line
    target = units["fanfold.target"]
    assert key(target, "Wants") == [" ".join(names)]
    proxy = units["fanfold-haproxy.service"]
    assert key(proxy, "Restart") == ["on-failure"]
    assert key(proxy, "ExecStart") == ["/usr/sbin/haproxy -Ws -f ${CONFIG} -p ${PIDFILE}"]


def test_the_supervisor_layout_passes_systemd_analyze(tmp_path: Path) -> None:
    units = render(tmp_path, "--processes", "2", "--supervisor", "--haproxy", "")
    assert sorted(units) == ["fanfold.service"]
    verify(tmp_path)
    (start,) = key(units["fanfold.service"], "ExecStart")
    words = shlex.split(start)
    assert words[1:5] == ["serve", "--processes", "2", "--port"]
    assert key(units["fanfold.service"], "WantedBy") == ["multi-user.target"]


def test_the_pause_grows_on_newer_systemd(tmp_path: Path) -> None:
    units = render(tmp_path, "--processes", "1", "--systemd", "255", "--restart-max-sec", "90s")
    for name in ("fanfold-s1.service", "fanfold-haproxy.service"):
        assert key(units[name], "RestartSteps") == ["5"]
        assert key(units[name], "RestartMaxDelaySec") == ["90s"]


def test_verify_finds_a_wrong_path(tmp_path: Path) -> None:
    """The check means something: a unit for a fanfold that is not there is refused."""
    render(tmp_path, "--processes", "1", "--fanfold", "/nonexistent/bin/fanfold", "--haproxy", "")
    analyze = tool("systemd-analyze", "systemd")
    checked = run(analyze, "verify", str(tmp_path / "fanfold-s1.service"))
    assert checked.returncode != 0
    assert "/nonexistent/bin/fanfold" in checked.stdout + checked.stderr


def test_each_unit_runs_what_check_config_accepts(tmp_path: Path) -> None:
    units = render(tmp_path / "units", "--processes", "2", "--base-port", "8001")
    url_file = tmp_path / "db-url"
    url_file.write_text("postgresql+psycopg://fanfold@/fanfold?host=/run/postgresql\n")
    for name in ("fanfold-s1.service", "fanfold-s2.service"):
        (start,) = key(units[name], "ExecStart")
        words = shlex.split(start.replace("${CREDENTIALS_DIRECTORY}/db-url", str(url_file)))
        checked = fanfold("check-config", "--no-store", *words[2:])
        assert checked.exit_code == 0, checked.output
        assert "ok: fanfold serve's options: 1 process" in checked.output


def test_the_shipped_units_are_the_render(tmp_path: Path) -> None:
    rendered = render(tmp_path, *SHIPPED[2:-2])
    for name, text in rendered.items():
        shipped = DEPLOY / "systemd" / name
        expected = text.replace(f"--out {tmp_path}", "--out deploy/systemd")
        assert shipped.read_text() == expected, (
            f"deploy/systemd/{name} is out of date: python -m fanfold {' '.join(SHIPPED)}"
        )
    assert sorted(path.name for path in (DEPLOY / "systemd").iterdir()) == sorted(rendered)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("--processes", "2", "--user", "root"), "--user 'root'"),
        (("--processes", "2", "--fanfold", "bin/fanfold"), "absolute path"),
        (("--processes", "2", "--db-file", ""), "--db-file"),
        (("--processes", "2", "--restart-sec", "soon"), "--restart-sec 'soon'"),
        (("--processes", "2", "--allocator", "tcmalloc"), "--allocator 'tcmalloc'"),
    ],
)
def test_refused_with_a_sentence(arguments: tuple[str, ...], said: str) -> None:
    refused = fanfold("deploy", "systemd", *arguments)
    assert refused.exit_code == 2
    assert said in refused.output
