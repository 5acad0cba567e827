"""How a unit a process stops (``fanfold deploy systemd``): its ``ExecStop=`` asks systemd
whether ``fanfold.target`` is still active, and when it is not (the whole group stops: the
target stops before its units) sends the process ``SIGUSR1`` before systemd's ``SIGTERM``, so
that its tables go into the store unannounced; with the target active (one unit restarted),
``SIGTERM`` alone, and its tables are handed to the other processes. systemd is not the init
here: the rendered ``ExecStop=`` command is run as systemd would run it (``$$`` a ``$``,
``MAINPID`` in its environment), against real processes on PostgreSQL, with a ``systemctl``
that says the target's state, then the ``SIGTERM`` systemd sends after it."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from fanfold.cli.deploy_systemd import installed
from tests.deploy.test_systemd import key, render
from tests.server.support import free_port, start_process, stored_actions, wait_ready
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

pytestmark = pytest.mark.postgres

#: What a stopping process says (fanfold.server.hub.draining), and one that takes its tables.
HANDED = "tables let go to the other processes"
STORED = "tables let go into the store (a full stop)"
TAKEN = "tables taken from a process that stopped"


def stop_command(folder: Path, target_state: str) -> list[str]:
    """The ``ExecStop=`` of ``fanfold-s1.service`` as systemd runs it, with a ``systemctl``
    that answers ``is-active`` with ``target_state`` (and writes what it was asked into
    ``folder/asked``)."""
    folder.mkdir()
    units = render(folder / "units", "--processes", "2", "--haproxy", "")
    (stop,) = key(units["fanfold-s1.service"], "ExecStop")
    assert stop.startswith("+/bin/sh -c ")  # as root: systemctl needs no system bus
    systemctl = folder / "systemctl"
    systemctl.write_text(f'#!/bin/sh\necho "$*" >> {folder / "asked"}\necho {target_state}\n')
    systemctl.chmod(0o755)
    assert installed("systemctl") in stop
    command = stop.removeprefix("+").replace("$$", "$")
    return shlex.split(command.replace(installed("systemctl"), str(systemctl)))


def bots_table(url: str, port: int) -> str:
    """A Fano table between two bots opened on the process of ``port``, three actions stored."""
    made = httpx.post(
        f"http://127.0.0.1:{port}/api/tables", json={"game": "fano", "seats": ["random"] * 2}
    )
    assert made.status_code == 200, made.text
    table: str = made.json()["table"]
    deadline = time.monotonic() + 60
    while len(stored_actions(url, table)) < 3:
        assert time.monotonic() < deadline, "the bots did not start"
        time.sleep(0.1)
    return table


def stop_as_systemd(process: subprocess.Popen[str], command: list[str]) -> None:
    """The unit's ``ExecStop=`` with ``MAINPID``, then the ``SIGTERM`` systemd sends after it."""
    environment = {**os.environ, "MAINPID": str(process.pid)}
    ran = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) in (0, -signal.SIGTERM)


def test_a_unit_hands_its_tables_over_unless_the_whole_group_stops(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    ports = [(free_port(), free_port()) for _ in range(3)]
    extra = ("--keep-seconds", "600", "--bot-pause", "0.3")
    names = ("s1", "s2", "s3")
    logs = [tmp_path / f"{name}.log" for name in names]
    processes = [
        start_process(pg_url, tmp_path, name, port, health, extra=extra)
        for name, (port, health) in zip(names, ports, strict=True)
    ]
    try:
        for process, (port, health), log in zip(processes, ports, logs, strict=True):
            wait_ready(process, port, health, log)
        # The group stops (fanfold.target inactive): s1's table waits in the store.
        table = bots_table(pg_url, ports[0][0])
        stop_as_systemd(processes[0], stop_command(tmp_path / "group", "inactive"))
        before = len(stored_actions(pg_url, table))
        said = logs[0].read_text()
        assert STORED in said, said[-3000:]
        assert HANDED not in said
        time.sleep(2)
        assert len(stored_actions(pg_url, table)) == before
        assert all(TAKEN not in log.read_text() for log in logs[1:])
        # One unit restarts (the target active): s2's table plays on at once in s3.
        table = bots_table(pg_url, ports[1][0])
        stop_as_systemd(processes[1], stop_command(tmp_path / "unit", "active"))
        stopped = time.monotonic()
        before = len(stored_actions(pg_url, table))
        while len(stored_actions(pg_url, table)) < before + 2:
            assert time.monotonic() - stopped < 10, logs[2].read_text()[-3000:]
            time.sleep(0.05)
        said = logs[1].read_text()
        assert HANDED in said, said[-3000:]
        assert STORED not in said
        assert TAKEN in logs[2].read_text()
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)
    for folder in ("group", "unit"):
        assert (tmp_path / folder / "asked").read_text() == "is-active fanfold.target\n"


def test_the_supervisors_unit_has_no_full_stop_command(tmp_path: Path) -> None:
    """``fanfold serve --processes N`` stops its whole group on SIGTERM by itself."""
    units = render(tmp_path, "--processes", "2", "--supervisor", "--haproxy", "")
    assert key(units["fanfold.service"], "ExecStop") == []
