"""The database's password never on a command line: ``fanfold serve`` takes the URL from
``--db-file`` or ``FANFOLD_DB_URL`` as well as ``--db``, refuses two that disagree, and with
``--processes N`` hands it to its processes in their environment, so that no process's
``/proc/PID/cmdline`` (what ``ps`` shows every user) holds it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from fanfold.cli.app import app as cli
from tests.server.support import ROOT, sqlite_url, subprocess_environment
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

VARIABLE = "FANFOLD_DB_URL"


@pytest.fixture
def no_url_in_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    monkeypatch.setenv("FANFOLD_LOG_FORMAT", "text")  # serve sets it: put back afterwards


def damaged_store(folder: Path, name: str) -> str:
    """The URL of a SQLite file that is no database: ``fanfold serve`` on it stops before
    it listens, naming the store it tried."""
    (folder / name).write_bytes(b"not a database at all, " * 100)
    return sqlite_url(folder, name)


def serve(*arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["serve", *arguments])
    return result.exit_code, " ".join(result.output.split())


@pytest.mark.usefixtures("no_url_in_environment")
def test_the_url_from_a_file_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = damaged_store(tmp_path, "junk.db")
    holder = tmp_path / "db-url"
    holder.write_text(url + "\n")
    # Each way is read: the store named is the one that cannot be opened.
    code, output = serve("--db-file", str(holder))
    assert code == 1, output
    assert "junk.db cannot be opened" in output
    monkeypatch.setenv(VARIABLE, url)
    code, output = serve()
    assert code == 1, output
    assert "junk.db cannot be opened" in output
    # The same URL given several ways is one.
    code, output = serve("--db", url, "--db-file", str(holder))
    assert code == 1, output
    assert "junk.db cannot be opened" in output


@pytest.mark.usefixtures("no_url_in_environment")
def test_urls_that_disagree_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    holder = tmp_path / "db-url"
    holder.write_text("postgresql+psycopg://fanfold:hunter2hunter2@db/fanfold\n")
    code, output = serve("--db", sqlite_url(tmp_path), "--db-file", str(holder))
    assert code == 2, output
    assert "name different databases" in output
    assert "--db-file" in output
    assert "hunter2" not in output  # the password masked
    monkeypatch.setenv(VARIABLE, sqlite_url(tmp_path, "other.db"))
    code, output = serve("--db", sqlite_url(tmp_path))
    assert code == 2, output
    assert f"--db ({sqlite_url(tmp_path)}) and {VARIABLE}" in output
    assert "name different databases" in output
    code, output = serve("--db-file", str(holder))
    assert code == 2, output
    assert "name different databases" in output
    # A password in --db: said to be seen by everyone, and never printed.
    monkeypatch.delenv(VARIABLE)
    shown = "postgresql+psycopg://fanfold:hunter2hunter2@db/other"
    code, output = serve("--db", shown, "--db-file", str(holder))
    assert code == 2, output
    assert "the password in --db is shown to every user" in output
    assert "hunter2" not in output


@pytest.mark.usefixtures("no_url_in_environment")
def test_a_file_that_holds_no_url_is_refused(tmp_path: Path) -> None:
    code, output = serve("--db-file", str(tmp_path / "missing"))
    assert code == 2, output
    assert "cannot be read" in output
    (tmp_path / "empty").write_text("\n")
    code, output = serve("--db-file", str(tmp_path / "empty"))
    assert code == 2, output
    assert "is empty" in output
    (tmp_path / "two").write_text("sqlite:///a.db\nsqlite:///b.db\n")
    code, output = serve("--db-file", str(tmp_path / "two"))
    assert code == 2, output
    assert "more than one line" in output


@pytest.mark.usefixtures("no_url_in_environment")
def test_a_url_of_another_database_or_none_is_refused_before_anything_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A MySQL URL (or any kind but SQLite and PostgreSQL) and text that is no URL are told
    what fanfold takes, with exit status 2, instead of a missing driver's words; a URL that
    cannot be read is not echoed (it may hold a password)."""
    monkeypatch.chdir(tmp_path)
    code, output = serve("--db", "mysql://fanfold@db/fanfold")
    assert code == 2, output
    assert "--db: fanfold keeps its store in SQLite or PostgreSQL, not mysql" in output
    assert "sqlite:///path/to/fanfold.db or postgresql+psycopg://user@host/name" in output
    assert "MySQLdb" not in output
    code, output = serve("--db", "postgresql://fanfold:hunter2hunter2@db:fivefour/fanfold")
    assert code == 2, output
    assert "--db is no database URL" in output
    assert "hunter2" not in output
    holder = tmp_path / "db-url"
    holder.write_text("oracle://fanfold@db/fanfold\n")
    code, output = serve("--db-file", str(holder))
    assert code == 2, output
    assert f"--db-file {holder}: fanfold keeps its store in SQLite or PostgreSQL, not oracle" in (
        output
    )
    monkeypatch.setenv(VARIABLE, "no url at all")
    code, output = serve()
    assert code == 2, output
    assert f"{VARIABLE} is no database URL" in output
    assert list(tmp_path.iterdir()) == [holder]  # no store, no reviews' file made
    monkeypatch.delenv(VARIABLE)
    result = CliRunner().invoke(cli, ["check-config", "--db", "mysql://fanfold@db/fanfold"])
    assert result.exit_code != 0
    assert "not mysql" in " ".join(result.output.split())


# ------------------------------------------------------------------ several processes


def free_pair() -> int:
    """A port P such that P and P+1 are free on loopback."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port: int = probe.getsockname()[1]
        if port >= 65535:
            continue
        try:
            with socket.socket() as first, socket.socket() as second:
                first.bind(("127.0.0.1", port))
                second.bind(("127.0.0.1", port + 1))
        except OSError:
            continue
        return port
    raise AssertionError("no two free ports in a row")


def parents() -> dict[int, int]:
    """Every process's parent, from ``/proc/PID/stat``."""
    found: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        # pid (comm) state ppid ...: comm may hold spaces and parentheses.
        found[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return found


def descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs, and so on."""
    of = parents()
    found: list[int] = []
    layer = [pid]
    while layer:
        layer = [child for child, parent in of.items() if parent in layer]
        found += layer
    return found


def command_line(pid: int) -> bytes:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes()
    except OSError:
        return b""


@pytest.mark.postgres
@pytest.mark.parametrize("way", ["file", "environment"])
def test_several_processes_never_show_the_password(
    pg_url: str,  # noqa: F811 (fixture)
    tmp_path: Path,
    way: str,
) -> None:
    password = f"pw{uuid.uuid4().hex}"
    # The throw-away cluster trusts its socket: the password is carried, never checked.
    url = pg_url.replace(
        "postgresql+psycopg://postgres@", f"postgresql+psycopg://postgres:{password}@"
    )
    assert password in url
    environment = subprocess_environment()
    environment.pop(VARIABLE, None)
    options: list[str] = []
    if way == "file":
        holder = tmp_path / "db-url"
        holder.write_text(url + "\n")
        holder.chmod(0o600)
        options = ["--db-file", str(holder)]
    else:
        environment[VARIABLE] = url
    port, health = free_pair(), free_pair()
    log = tmp_path / "serve.log"
    with log.open("w") as output:
        supervisor = subprocess.Popen(
            [
                *(sys.executable, "-m", "fanfold", "serve", "--processes", "2"),
                *("--port", str(port), "--health-port", str(health), *options),
                *("--bot-workers", "1", "--bot-pause", "0", "--bot-seconds", "0.2"),
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=environment,
        )
    try:
        deadline = time.monotonic() + 300  # a busy machine: the bots' workers start first
        for ready in (port, port + 1):
            while True:
                assert supervisor.poll() is None, log.read_text()
                try:
                    if httpx.get(f"http://127.0.0.1:{ready}/ready", timeout=5).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        # Both work on the store: a table one opens, the other shows.
        opened = httpx.post(
            f"http://127.0.0.1:{port}/api/tables",
            json={"game": "morris", "seats": ["you", "random"]},
            timeout=30,
        )
        assert opened.status_code == 200, opened.text
        table = opened.json()["table"]
        shown = httpx.get(f"http://127.0.0.1:{port + 1}/api/tables/{table}", timeout=30)
        assert shown.status_code == 200, shown.text

        servers = [
            pid for pid in descendants(supervisor.pid) if b"serve" in command_line(pid).split(b"\0")
        ]
        assert len(servers) == 2, [command_line(pid) for pid in descendants(supervisor.pid)]
        for pid in [supervisor.pid, *descendants(supervisor.pid)]:
            line = command_line(pid)
            assert password.encode() not in line, (pid, line)
        # The processes got it in their environment, which only their user can read.
        for pid in servers:
            assert f"{VARIABLE}={url}".encode() in Path(f"/proc/{pid}/environ").read_bytes()
    finally:
        if supervisor.poll() is None:
            supervisor.send_signal(signal.SIGTERM)
        try:
            supervisor.wait(timeout=60)
        except subprocess.TimeoutExpired:
            supervisor.kill()
            supervisor.wait(timeout=30)
    assert password not in log.read_text()
    if os.environ.get(VARIABLE):
        pytest.fail(f"{VARIABLE} leaked into the test's own environment")
