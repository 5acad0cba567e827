"""``fanfold serve`` loads Fano's compiled engine at start-up, off the event loop."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fanfold.games.fano.fast import engine
from fanfold.server.app import create_app
from tests.server.support import sqlite_url


@pytest.mark.parametrize("warm", [True, False])
def test_the_server_warms_the_compiled_engine_up_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warm: bool
) -> None:
    called = threading.Event()
    threads: list[str] = []

    def warm_up() -> None:
        threads.append(threading.current_thread().name)
        called.set()

    monkeypatch.setattr(engine, "warm_up", warm_up)
    app = create_app(sqlite_url(tmp_path), warm_fast=warm)
    with TestClient(app) as client:
        assert client.get("/api/games").status_code == 200
        assert called.wait(10 if warm else 1) is warm
    if warm:
        assert len(threads) == 1
        assert threads[0].startswith("bot")
