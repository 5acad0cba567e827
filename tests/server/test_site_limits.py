"""Limits for the whole site, with three server processes on one PostgreSQL store: a client's
tables a minute, its sign-ups and its wrong passwords, and a person's chat lines are counted
where every process sees them (the store), so that three processes behind a router give one
address (or one account) the same budget as one process does, not three times it."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.sync.client import ClientConnection, connect

from fanfold.server.accounts import CSRF_COOKIE, CSRF_HEADER
from fanfold.server.chat import SITE_LINES, TABLE_LINES
from fanfold.server.sign_in_limits import CLIENT_FAILURES, SIGN_UPS
from fanfold.server.store import Store
from fanfold.server.throttle import ClientLimits
from tests.server.support import JSON, free_port, start_process, wait_ready
from tests.server.test_store import _postgres_url as postgres_url
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def ports(
    postgres_cluster: str,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[list[int]]:
    """Three ``fanfold serve`` processes on a new database, trusting the test as the router in
    front (``X-Forwarded-For`` names the client); their game ports."""
    name = f"l_{uuid.uuid4().hex[:16]}"
    engine = sa.create_engine(
        postgres_url(postgres_cluster, "postgres"), isolation_level="AUTOCOMMIT"
    )
    with engine.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {name}"))
    engine.dispose()
    url = postgres_url(postgres_cluster, name)
    Store(url).close()  # the schema, made once
    folder = tmp_path_factory.mktemp("three")
    extra = ("--trusted-proxy", "127.0.0.1")
    chosen = [(free_port(), free_port()) for _ in range(3)]
    processes = [
        start_process(url, folder, f"s{n + 1}", port, health, extra=extra)
        for n, (port, health) in enumerate(chosen)
    ]
    try:
        for number, (process, (port, health)) in enumerate(zip(processes, chosen, strict=True)):
            wait_ready(process, port, health, folder / f"s{number + 1}.log")
        yield [port for port, _ in chosen]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)


def post(port: int, path: str, body: JSON, address: str, **options: Any) -> httpx.Response:
    """``body`` posted to ``path`` of the process on ``port`` from the client ``address``."""
    headers = {"X-Forwarded-For": address, **options.pop("headers", {})}
    return httpx.post(
        f"http://127.0.0.1:{port}{path}", json=body, headers=headers, timeout=60, **options
    )


def test_three_processes_share_a_clients_tables_a_minute(ports: list[int]) -> None:
    limit = ClientLimits().tables_per_minute
    table = {"game": "morris", "seats": ["you", "random"]}
    for number in range(limit):  # spread over the three processes
        answer = post(ports[number % 3], "/api/tables", table, "203.0.113.9")
        assert answer.status_code == 200, answer.text
    refused = post(ports[limit % 3], "/api/tables", table, "203.0.113.9")
    assert refused.status_code == 429, refused.text
    assert (
        f"too many tables opened from your address ({limit} a minute)" in (refused.json()["error"])
    )
    assert post(ports[0], "/api/tables", table, "203.0.113.10").status_code == 200  # another


def test_three_processes_share_a_clients_sign_ups(ports: list[int]) -> None:
    for number in range(SIGN_UPS):  # spread over the three processes
        body = {"name": f"maker{number}", "password": "correct horse"}
        answer = post(ports[number % 3], "/api/accounts", body, "203.0.113.20")
        assert answer.status_code == 200, answer.text
    body = {"name": "maker99", "password": "correct horse"}
    for port in ports:  # refused by every process, and nothing made
        refused = post(port, "/api/accounts", body, "203.0.113.20")
        assert refused.status_code == 429, refused.text
        assert (
            f"too many accounts made from your address ({SIGN_UPS} an hour)"
            in (refused.json()["error"])
        )
    assert post(ports[1], "/api/accounts", body, "203.0.113.21").status_code == 200  # another


def test_three_processes_share_a_clients_wrong_passwords(ports: list[int]) -> None:
    body = {"name": "keeper", "password": "correct horse"}
    assert post(ports[0], "/api/accounts", body, "203.0.113.30").status_code == 200
    most, _ = CLIENT_FAILURES[0]  # wrong passwords a minute from one address, over every name
    for number in range(most):  # one per name: no name's own delay begins
        wrong = {"name": f"guess{number}", "password": "wrong horse"}
        answer = post(ports[number % 3], "/api/session", wrong, "203.0.113.31")
        assert answer.status_code == 401, answer.text
    for port in ports:  # even the right password waits, at every process
        refused = post(port, "/api/session", body, "203.0.113.31")
        assert refused.status_code == 429, refused.text
        assert "too many wrong passwords from your address" in refused.json()["error"]
    assert post(ports[2], "/api/session", body, "203.0.113.32").status_code == 200  # another


class Seat:
    """A signed-in player's seat at a table of one process, on a socket that takes part in
    the chat."""

    def __init__(self, stack: ExitStack, port: int, cookies: httpx.Cookies, address: str) -> None:
        csrf = {CSRF_HEADER: cookies[CSRF_COOKIE]}
        table = {"game": "morris", "seats": ["you", "random"]}
        made = post(port, "/api/tables", table, address, headers=csrf, cookies=cookies)
        assert made.status_code == 200, made.text
        self.table = made.json()["table"]
        cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
        self.socket: ClientConnection = stack.enter_context(
            connect(
                f"ws://127.0.0.1:{port}/ws/tables/{self.table}",
                additional_headers={"Cookie": cookie, "X-Forwarded-For": address},
            )
        )
        hello = {"type": "hello", "token": made.json()["token"], "chat": True}
        self.socket.send(json.dumps(hello))
        assert self.next({"chat_room"})["writable"] is True

    def next(self, kinds: set[str]) -> JSON:
        """The next message of one of ``kinds`` (a game's states pass by)."""
        while True:
            message: JSON = json.loads(self.socket.recv(timeout=60))
            if message["type"] in kinds:
                return message

    def say(self, text: str) -> JSON:
        """Say a line in the players' room: the line heard back, or the error."""
        self.socket.send(json.dumps({"type": "chat", "room": "players", "text": text}))
        return self.next({"chat", "error"})


def test_a_persons_chat_limit_holds_across_three_processes(ports: list[int]) -> None:
    body = {"name": "talker", "password": "correct horse"}
    made = post(ports[0], "/api/accounts", body, "203.0.113.40")
    assert made.status_code == 200, made.text
    # A table at each process, and a fourth at the first: the person's lines at all four
    # count against one budget of SITE_LINES a minute.
    with ExitStack() as stack:
        seats = [Seat(stack, ports[n % 3], made.cookies, "203.0.113.40") for n in range(4)]
        assert SITE_LINES == 4 * TABLE_LINES
        for number, seat in enumerate(seats):
            for line in range(TABLE_LINES):
                heard = seat.say(f"line {line} at table {number}")
                assert heard["type"] == "chat", heard
            refused = seat.say("one too many here")  # the table's limit, at its process
            assert "at most 5 lines every 10 seconds" in refused["error"], refused
        fifth = Seat(stack, ports[1], made.cookies, "203.0.113.40")
        refused = fifth.say("one too many on the site")
        assert refused["kind"] == "ChatFloodError", refused
        assert f"at most {SITE_LINES} lines a minute on the whole site" in refused["error"]
