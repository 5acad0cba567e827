"""What an operator's tools ask: ``/health``, ``/ready`` (503 with the reason while the store
does not answer) and Prometheus's ``/metrics`` (tables live, actions, act-to-ok latency,
store writes, WebSockets), none of them counted against a client's limits."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from fanfold.server.checks import CHECK_HEADER
from fanfold.server.throttle import ClientLimits
from tests.server.support import act, look, open_table, serve


def _samples(text: str) -> dict[str, float]:
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if not sample.labels or sample.labels.get("le") is None
    }


def test_health_ready_and_metrics(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        assert client.get("/health").json() == {"status": "ok"}
        ready = client.get("/ready")
        assert ready.status_code == 200
        assert ready.json()["status"] == "ready"
        created = open_table(client, game="morris", seats=["you", "you"], seed=3)
        table, token = created["table"], created["token"]
        for version in range(3):
            action = look(client, table, token)["legal"][0]
            assert act(client, table, token, action, version=version).status_code == 200
        with client.websocket_connect(f"/ws/tables/{table}"):
            answer = client.get("/metrics")
            assert answer.status_code == 200
            assert answer.headers["content-type"].startswith("text/plain")
            samples = _samples(answer.text)
            assert samples["fanfold_websockets"] == 1
        assert samples["fanfold_tables_live"] == 1
        assert samples["fanfold_tables_owned"] == 0  # one process on SQLite owns nothing
        assert samples["fanfold_actions_total"] == 3
        assert samples["fanfold_act_seconds_count"] == 3
        assert samples["fanfold_store_write_seconds_count"] == 3
        assert _samples(client.get("/metrics").text)["fanfold_websockets"] == 0


def test_not_ready_while_the_store_does_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(tmp_path) as client:
        engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]

        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise OSError("connection refused")

        monkeypatch.setattr(engine, "connect", refuse)
        answer = client.get("/ready")
        assert answer.status_code == 503
        assert answer.json() == {"status": "unready", "reason": "the store does not answer"}
        assert client.get("/health").status_code == 200  # the process itself is fine


def test_health_checks_count_against_no_client(tmp_path: Path) -> None:
    limits = ClientLimits(requests_per_minute=3)
    with serve(tmp_path, limits=limits) as client:
        for _ in range(10):
            assert client.get("/ready").status_code == 200
            assert client.get("/health").status_code == 200
            assert client.get("/metrics").status_code == 200
        assert client.get("/api/games").status_code == 200  # the client's first counted


def test_the_game_ports_ready_tells_a_routers_check_from_a_poller(tmp_path: Path) -> None:
    """A stopping process waits for the routers whose checks say so (``X-Fanfold-Check``),
    never for another poller of ``/ready``, on the game's port as on the health port."""
    with serve(tmp_path) as client:
        readiness = client.app.state.readiness  # type: ignore[attr-defined]
        assert client.get("/ready").status_code == 200  # a poller
        assert asyncio.run(readiness.out_of_service(limit=5)) is True  # not waited for
        readiness.draining = False
        assert client.get("/ready", headers={CHECK_HEADER: "haproxy"}).status_code == 200
        began = time.monotonic()
        assert asyncio.run(readiness.out_of_service(limit=0.3)) is False  # a quiet router
        assert time.monotonic() - began >= 0.3
