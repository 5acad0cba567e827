"""The whole site on standard parts: a throw-away PostgreSQL, HAProxy with the configuration
``docs/deploy.md`` gives (``deploy/haproxy.cfg``) and three ``fanfold serve`` processes. Games
of every game are played through HAProxy over WebSockets, each table's actions stored by one
owner; then the process that owns a table in play is killed (SIGKILL), and its player
reconnects through HAProxy and finishes on another process, nothing lost or applied twice;
started again, the killed process gets new tables but not that one back (HAProxy's stick
table keeps it on its stand-in)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from websockets.sync.client import ClientConnection, connect

from fanfold.server.ownership import lock_key, opened_by
from fanfold.server.store import Store
from tests.server.support import (
    JSON,
    ROOT,
    free_port,
    start_process,
    subprocess_environment,
    wait_ready,
)
from tests.server.support import stored_actions as _stored_actions
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_store import _postgres_url as postgres_url
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

CONFIG = ROOT / "deploy" / "haproxy.cfg"
#: A game of each: the test's player in the first seat, random bots in the others.
GAMES: list[JSON] = [
    {"game": "morris", "seats": ["you", "random"]},
    {"game": "fantan", "seats": ["you", "random", "random"], "players": 3},
    {"game": "fan", "seats": ["you"]},
    {"game": "fano", "seats": ["you", "random"]},
]
#: Actions the test plays at each table (fewer when the game ends first).
ACTIONS = 12


@contextmanager
def fanfold_processes(
    url: str, folder: Path, count: int
) -> Iterator[list[tuple[subprocess.Popen[str], int, int]]]:
    """``count`` ``fanfold serve`` processes named ``s1``, ``s2``... as ``deploy/haproxy.cfg``
    names them, each on a free port and a free health port (``--health-port``) with one bot
    worker and its log in ``folder`` (``s1.log``, ...), started together; yields each with
    its two ports once each is ``/ready``. Killed at the end."""
    started: list[tuple[subprocess.Popen[str], int, int, Path]] = []
    try:
        for number in range(1, count + 1):
            port, health = free_port(), free_port()
            process = start_process(url, folder, f"s{number}", port, health)
            started.append((process, port, health, folder / f"s{number}.log"))
        for process, port, health, log in started:
            wait_ready(process, port, health, log)
        yield [(process, port, health) for process, port, health, _ in started]
    finally:
        for process, _, _, _ in started:
            if process.poll() is None:
                process.kill()
        for process, _, _, _ in started:
            process.wait(timeout=30)


def config_for(count: int, folder: Path) -> Path:
    """``deploy/haproxy.cfg`` with the ``server`` lines of the first ``count`` processes only
    (it lists three)."""
    lines = [
        line
        for line in CONFIG.read_text().splitlines()
        if not any(line.strip().startswith(f"server s{n} ") for n in range(count + 1, 10))
    ]
    path = folder / f"haproxy-{count}.cfg"
    path.write_text("\n".join(lines) + "\n")
    return path


@contextmanager
def haproxy(servers: list[tuple[int, int]], log: Path) -> Iterator[int]:
    """HAProxy with ``deploy/haproxy.cfg`` in front of one to three processes, each its port
    and its health port; yields HAProxy's port."""
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(binary).exists():
        pytest.fail(
            "haproxy is missing: the test set-up installs Debian's haproxy package",
            pytrace=False,
        )
    config = CONFIG if len(servers) == 3 else config_for(len(servers), log.parent)
    port = free_port()
    environment = dict(os.environ, FANFOLD_BIND=f"127.0.0.1:{port}")
    for number, (server, health) in enumerate(servers, start=1):
        environment[f"FANFOLD_S{number}"] = f"127.0.0.1:{server}"
        environment[f"FANFOLD_H{number}"] = str(health)
    with log.open("a") as output:
        process = subprocess.Popen(
            [binary, "-f", str(config), "-db"],
            stdout=output,
            stderr=subprocess.STDOUT,
            env=environment,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, log.read_text()
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def owners(url: str, table_ids: list[str]) -> dict[str, list[int]]:
    """The process ids (of ``fanfold serve``) holding each table's lock."""
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        rows = connection.execute(
            sa.text(
                "SELECT l.classid, l.objid, a.application_name FROM pg_locks l "
                "JOIN pg_stat_activity a ON a.pid = l.pid "
                "WHERE l.locktype = 'advisory' AND l.granted"
            )
        ).all()
    engine.dispose()
    held: dict[int, list[int]] = {}
    for classid, objid, name in rows:
        key = (int(classid) << 32) | int(objid)
        held.setdefault(key, []).append(int(str(name).rsplit(":", 1)[1]))
    return {table: held.get(lock_key(table) & 0xFFFFFFFFFFFFFFFF, []) for table in table_ids}


class Player:
    """A person at a table over a WebSocket through HAProxy: plays the first legal action
    whenever one of its seats decides."""

    def __init__(self, port: int, table: str, token: str) -> None:
        self.port, self.table, self.token = port, table, token
        self.acknowledged: list[str] = []
        self.socket: ClientConnection | None = None
        self.state: JSON = {}

    def connect(self, timeout: float = 10.0) -> None:
        """Connect and say hello, retrying while HAProxy finds the table a process."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                with ExitStack() as opened:  # closed again unless the hello is answered
                    url = f"ws://127.0.0.1:{self.port}/ws/tables/{self.table}"
                    self.socket = opened.enter_context(connect(url))
                    self.socket.send(json.dumps({"type": "hello", "token": self.token}))
                    self.state = self._next_state()
                    opened.pop_all()  # kept open: close() closes it
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _next_state(self) -> JSON:
        assert self.socket is not None
        while True:
            try:
                # Generous: a bot's first move waits for its worker on a busy machine.
                raw = self.socket.recv(timeout=60)
            except TimeoutError:
                raise AssertionError(f"table {self.table} is silent: {self.state}") from None
            message: JSON = json.loads(raw)
            assert message["type"] != "error", message
            if message["type"] == "state":
                return message

    def play(self, count: int) -> None:
        """Play ``count`` actions (fewer if the game ends)."""
        assert self.socket is not None
        for _ in range(count):
            while self.state["outcome"] is None and not (
                self.state["decider"] in self.state["yours"] and self.state["legal"]
            ):
                self.state = self._next_state()  # a bot decides
            if self.state["outcome"] is not None:
                return
            action = self.state["legal"][0]
            self.socket.send(
                json.dumps({"type": "act", "version": self.state["version"], "action": action})
            )
            while True:
                message: JSON = json.loads(self.socket.recv(timeout=60))
                assert message["type"] != "error", message
                if message["type"] == "state":
                    self.state = message
                elif message["type"] == "ok":
                    self.acknowledged.append(action)
                    break

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()


def test_three_processes_behind_haproxy(pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    with ExitStack() as stack:
        processes = stack.enter_context(fanfold_processes(pg_url, tmp_path, 3))
        served = [(port, health) for _, port, health in processes]
        port = stack.enter_context(haproxy(served, tmp_path / "haproxy.log"))
        pids = {process.pid: process for process, _, _ in processes}
        named = {f"s{n}": process.pid for n, (process, _, _) in enumerate(processes, start=1)}
        site = stack.enter_context(httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10))
        assert site.get("/api/games").status_code == 200  # the lobby's API from any process

        # A game of every game, through HAProxy: each table's actions by one owner, the
        # process that opened it (its id ends with that process's server name).
        players: list[Player] = []
        for body in GAMES:
            answer = site.post("/api/tables", json=body)
            assert answer.status_code == 200, answer.text
            player = Player(port, answer.json()["table"], answer.json()["token"])
            assert opened_by(player.table) in named, player.table
            player.connect()
            players.append(player)
            stack.callback(player.close)
        for _ in range(3):
            for player in players:
                player.play(ACTIONS // 3)
                held = owners(pg_url, [player.table])[player.table]
                assert held == [named[str(opened_by(player.table))]], held
        tables = [player.table for player in players]
        for table, held in owners(pg_url, tables).items():
            assert held == [named[str(opened_by(table))]], (table, held)
        for player in players:
            assert player.acknowledged
            stored = _stored_actions(pg_url, player.table)
            assert [number for number, _, _ in stored] == list(range(1, len(stored) + 1))
            mine = [text for _, seat, text in stored if seat in player.state["yours"]]
            assert mine == player.acknowledged
        # Each table stayed where it was opened: nothing was handed over.
        for name in named:
            said = (tmp_path / f"{name}.log").read_text()
            assert "fanfold is serving" in said  # the log is read (JSON lines from INFO)
            assert "handed over" not in said

        # The owner of a table in play is killed: its player reconnects through HAProxy and
        # plays on another process.
        answer = site.post(
            "/api/tables", json={"game": "fantan", "seats": ["you"] + ["random"] * 3}
        )
        assert answer.status_code == 200, answer.text
        player = Player(port, answer.json()["table"], answer.json()["token"])
        player.connect()
        stack.callback(player.close)
        player.play(3)
        victim = owners(pg_url, [player.table])[player.table][0]
        name = str(opened_by(player.table))
        assert victim == named[name]
        pids[victim].send_signal(signal.SIGKILL)
        pids[victim].wait(timeout=10)
        killed = time.monotonic()
        before = len(player.acknowledged)
        player.close()
        player.connect(timeout=10)
        player.play(1)
        back = time.monotonic() - killed
        assert len(player.acknowledged) == before + 1
        assert back < 5.0, f"the table played again {back:.1f} s after the kill"
        (stand_in,) = owners(pg_url, [player.table])[player.table]
        assert stand_in != victim
        assert stand_in in pids

        # The process that opened the table comes back under its name: HAProxy's stick table
        # keeps the table on its stand-in (no hand-over back), while a new table it opens is
        # played where it was opened.
        (_, game_port, health_port) = next(p for p in processes if p[0].pid == victim)
        again = start_process(pg_url, tmp_path, name, game_port, health_port)
        stack.callback(again.kill)
        wait_ready(again, game_port, health_port, tmp_path / f"{name}.log")
        deadline = time.monotonic() + 15  # HAProxy sees it up after two checks
        while True:
            answer = site.post("/api/tables", json={"game": "morris", "seats": ["you", "random"]})
            assert answer.status_code == 200, answer.text
            if opened_by(answer.json()["table"]) == name:
                break
            assert time.monotonic() < deadline, "the restarted process opens no table"
            time.sleep(1.0)  # tables opened from one address are limited (30 a minute)
        time.sleep(2)  # the tables backend's checks have seen it up too (two, 0.5 s apart)
        fresh = Player(port, answer.json()["table"], answer.json()["token"])
        fresh.connect()
        stack.callback(fresh.close)
        fresh.play(2)
        assert owners(pg_url, [fresh.table])[fresh.table] == [again.pid]
        stand_in_name = next(n for n, pid in named.items() if pid == stand_in)
        for _ in range(3):
            player.close()
            player.connect(timeout=10)
            player.play(1)
            assert owners(pg_url, [player.table])[player.table] == [stand_in]
        assert "handed over" not in (tmp_path / f"{stand_in_name}.log").read_text()
        assert "handed over" not in (tmp_path / f"{name}.log").read_text()

        player.play(ACTIONS)
        stored = _stored_actions(pg_url, player.table)
        assert [number for number, _, _ in stored] == list(range(1, len(stored) + 1))
        mine = [text for _, seat, text in stored if seat == 0]
        assert mine == player.acknowledged  # nothing lost, nothing twice
        # The other tables play on too (those of the killed process included).
        for other in players:
            other.close()
            other.connect(timeout=10)
            other.play(2)
            stored = _stored_actions(pg_url, other.table)
            assert [number for number, _, _ in stored] == list(range(1, len(stored) + 1))


# ------------------------------------------------------ fanfold serve --processes


def _serve_refused(*arguments: str) -> subprocess.CompletedProcess[str]:
    """Run ``fanfold serve`` with ``arguments``, which it must refuse (exit status 2)."""
    done = subprocess.run(
        [sys.executable, "-m", "fanfold", "serve", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=subprocess_environment(),
        timeout=120,
    )
    assert done.returncode == 2
    return done


def test_several_processes_need_postgresql(tmp_path: Path) -> None:
    done = _serve_refused("--processes", "2", "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert "--processes 2 needs a PostgreSQL store" in done.stderr
    assert not (tmp_path / "x.db").exists()  # nothing was started or made


def test_a_server_name_that_cannot_end_a_table_id_is_refused(tmp_path: Path) -> None:
    done = _serve_refused("--server-name", "s/1", "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert "the server name 's/1' must be 1 to 20 letters, digits" in done.stderr
    assert not (tmp_path / "x.db").exists()  # nothing was started or made


def test_a_health_port_overlapping_the_game_ports_is_refused(tmp_path: Path) -> None:
    done = _serve_refused(
        *("--processes", "2", "--port", "8001", "--health-port", "8002"),
        *("--db", "postgresql+psycopg://nobody@/nothing?host=/nonexistent"),
    )
    assert "--health-port 8002 and --port 8001 overlap" in done.stderr


def test_serve_processes_starts_one_process_a_port(pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    first, checks = free_port(), free_port()
    ports = [first, first + 1, checks, checks + 1]  # the games' ports, the health ports
    with (tmp_path / "serve.log").open("a") as output:
        parent = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "fanfold",
                "serve",
                "--processes",
                "2",
                "--port",
                str(first),
                "--db",
                pg_url,
                "--bot-workers",
                "1",
                "--health-port",
                str(checks),
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=subprocess_environment(),
        )
    try:
        deadline = time.monotonic() + 120
        ready: set[int] = set()
        while ready != set(ports):
            assert parent.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            for port in ports:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=2).status_code == 200:
                        ready.add(port)
                except httpx.TransportError:
                    pass
            time.sleep(0.2)
        # Each process is named s1, s2 (deploy/haproxy.cfg's names), and its tables' ids
        # end with its name.
        for number, port in enumerate(ports[:2], start=1):
            answer = httpx.post(
                f"http://127.0.0.1:{port}/api/tables",
                json={"game": "fan", "seats": ["you"]},
                timeout=30,
            )
            assert answer.status_code == 200, answer.text
            assert opened_by(answer.json()["table"]) == f"s{number}"
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(timeout=60) == 0
        for port in ports:  # its processes stopped with it
            with socket.socket() as probe:
                assert probe.connect_ex(("127.0.0.1", port)) != 0
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(timeout=30)


def test_processes_starting_together_on_a_new_database_all_open_it(
    postgres_cluster: str,  # noqa: F811
) -> None:
    """Processes started at once on an empty database (a site's first start, each process
    by its own service) bring its schema up one after the other: every one opens the store."""
    name = f"fresh_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(
        postgres_url(postgres_cluster, "postgres"), isolation_level="AUTOCOMMIT"
    )
    with engine.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {name}"))
    engine.dispose()
    url = postgres_url(postgres_cluster, name)
    start = threading.Barrier(4)
    failures: list[BaseException] = []

    def open_store() -> None:
        start.wait()
        try:
            Store(url).close()
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures
    Store(url).close()  # and the schema is whole
