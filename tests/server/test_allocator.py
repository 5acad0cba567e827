"""``fanfold serve --allocator jemalloc``: the process starts itself again on jemalloc, the
sweeper's give-back purges jemalloc's unused pages, and a machine without the library gets a
sentence saying what to install (``fanfold.server.allocator``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from typer.testing import CliRunner

from fanfold.cli import serve as serve_command
from fanfold.cli.app import app
from fanfold.server import allocator
from fanfold.server.runtime import memory
from tests.server.support import sqlite_url, subprocess_environment
from tests.server.test_restart import server


def _environment() -> dict[str, str]:
    """The environment of a subprocess of these tests, without any allocator settings."""
    environment = subprocess_environment()
    for name in ("LD_PRELOAD", "PYTHONMALLOC", "MALLOC_CONF", allocator.STARTED_ON_JEMALLOC):
        environment.pop(name, None)
    return environment


def test_the_environment_preloads_jemalloc_first_and_keeps_given_settings() -> None:
    given = {"LD_PRELOAD": "/lib/other.so:/lib/je.so", "MALLOC_CONF": "narenas:1", "HOME": "/h"}
    changed = allocator.jemalloc_environment(given, "/lib/je.so")
    assert changed["LD_PRELOAD"] == "/lib/je.so:/lib/other.so"
    assert changed["PYTHONMALLOC"] == "malloc"
    assert changed["MALLOC_CONF"] == "narenas:1"  # the operator's settings win
    assert changed[allocator.STARTED_ON_JEMALLOC] == "1"
    assert changed["HOME"] == "/h"
    assert given["LD_PRELOAD"] == "/lib/other.so:/lib/je.so"  # the caller's mapping unchanged
    bare = allocator.jemalloc_environment({}, "libjemalloc.so.2")
    assert bare["LD_PRELOAD"] == "libjemalloc.so.2"
    assert bare["MALLOC_CONF"] == allocator.JEMALLOC_CONF


def test_without_jemalloc_nothing_is_purged_and_glibc_trims() -> None:
    assert not allocator.running_on_jemalloc()
    assert allocator.purge() is False
    found, trimmed = memory.give_back()
    assert found >= 0
    assert trimmed is True  # glibc's malloc_trim on this Debian machine


def test_on_jemalloc_the_give_back_purges_its_pages() -> None:
    library = allocator.jemalloc_library()
    assert library is not None, "scripts/test.sh installs Debian's libjemalloc2"
    script = (
        "from fanfold.server import allocator\n"
        "from fanfold.server.runtime import memory\n"
        "print(allocator.running_on_jemalloc(), allocator.purge(), memory.give_back()[1])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=allocator.jemalloc_environment(_environment(), library),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True"]


def test_serve_with_jemalloc_runs_on_it_under_the_same_process_id(tmp_path: Path) -> None:
    database = sqlite_url(tmp_path, "je.db")
    with server(database, tmp_path / "server.log", 0.0, "--allocator", "jemalloc") as running:
        process, address = running
        # The process that answers is the one started (exec keeps its id), now on jemalloc.
        assert "libjemalloc" in Path(f"/proc/{process.pid}/maps").read_text()
        environment = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
        assert b"PYTHONMALLOC=malloc" in environment
        created = httpx.post(
            f"{address}/api/tables", json={"game": "morris", "seats": ["you", "random"]}, timeout=30
        )
        assert created.status_code == 200, created.text


def test_a_machine_without_jemalloc_is_told_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(allocator, "running_on_jemalloc", lambda: False)
    monkeypatch.setattr(allocator, "jemalloc_library", lambda: None)
    monkeypatch.delenv(allocator.STARTED_ON_JEMALLOC, raising=False)
    started: list[object] = []
    monkeypatch.setattr(os, "execve", lambda *arguments: started.append(arguments))
    result = CliRunner().invoke(
        app,
        ["serve", "--allocator", "jemalloc", "--db", sqlite_url(tmp_path, "none.db")],
    )
    assert result.exit_code != 0
    assert "libjemalloc2" in result.output
    assert started == []  # nothing started again


def test_a_library_that_did_not_load_ends_in_an_error_not_a_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(allocator, "running_on_jemalloc", lambda: False)
    monkeypatch.setenv(allocator.STARTED_ON_JEMALLOC, "1")
    started: list[object] = []
    monkeypatch.setattr(os, "execve", lambda *arguments: started.append(arguments))
    with pytest.raises(allocator.AllocatorError, match="still not loaded"):
        allocator.start_on_jemalloc(["serve"])
    assert started == []


def test_every_process_of_processes_gets_the_allocator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    given: list[list[str]] = []

    def supervise(
        ports: list[int],
        arguments: list[str],
        health: list[int] | None,
        names: list[str],
        url: str,
    ) -> None:
        del ports, health, names
        assert url == "postgresql+psycopg://fanfold@localhost/fanfold"  # by environment
        assert url not in arguments
        given.append(arguments)

    monkeypatch.setattr(serve_command, "_supervise", supervise)
    closed: list[str] = []  # the store the supervisor checked, closed before it supervises
    checked = SimpleNamespace(close=lambda: closed.append("closed"))
    monkeypatch.setattr(serve_command, "_check_store", lambda url: checked)
    result = CliRunner().invoke(
        app,
        [
            "serve",
            "--processes",
            "2",
            "--allocator",
            "jemalloc",
            "--db",
            "postgresql+psycopg://fanfold@localhost/fanfold",
        ],
    )
    assert result.exit_code == 0, result.output
    [arguments] = given
    assert arguments[arguments.index("--allocator") + 1] == "jemalloc"
    assert closed == ["closed"]
