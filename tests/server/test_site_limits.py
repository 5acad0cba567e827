"""Limits for the whole site: a client's tables a minute are counted where every server
process sees them (the store), so that three processes behind a router give one address the
same 30 tables a minute as one process does, not 30 each."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from fanfold.server.throttle import ClientLimits
from tests.server.support import free_port, start_process, wait_ready
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

pytestmark = pytest.mark.postgres


def test_three_processes_share_a_clients_tables_a_minute(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    limit = ClientLimits().tables_per_minute
    extra = ("--trusted-proxy", "127.0.0.1")  # the test stands for the router in front
    ports = [(free_port(), free_port()) for _ in range(3)]
    processes = [
        start_process(pg_url, tmp_path, f"s{n + 1}", port, health, extra=extra)
        for n, (port, health) in enumerate(ports)
    ]
    try:
        for number, (process, (port, health)) in enumerate(zip(processes, ports, strict=True)):
            wait_ready(process, port, health, tmp_path / f"s{number + 1}.log")

        def open_table(number: int, address: str) -> httpx.Response:
            port = ports[number % 3][0]
            return httpx.post(
                f"http://127.0.0.1:{port}/api/tables",
                json={"game": "morris", "seats": ["you", "random"]},
                headers={"X-Forwarded-For": address},
                timeout=30,
            )

        for number in range(limit):  # spread over the three processes
            answer = open_table(number, "203.0.113.9")
            assert answer.status_code == 200, answer.text
        refused = open_table(limit, "203.0.113.9")
        assert refused.status_code == 429, refused.text
        assert (
            f"too many tables opened from your address ({limit} a minute)"
            in (refused.json()["error"])
        )
        assert open_table(limit + 1, "203.0.113.10").status_code == 200  # another client
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)
