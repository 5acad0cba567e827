"""``fanfold serve`` loads Fano's and Fan Tan's compiled kernels at start-up, off the event
loop."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fanfold.agents.strategy import fano_fast, fantan_fast
from fanfold.server.app import create_app
from tests.server.support import sqlite_url


@pytest.mark.parametrize("warm", [True, False])
def test_the_server_warms_the_compiled_engine_up_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warm: bool
) -> None:
    called = {"fano": threading.Event(), "fantan": threading.Event()}
    threads: list[str] = []

    def warmer(name: str) -> object:
        def warm_up() -> None:
            threads.append(threading.current_thread().name)
            called[name].set()

        return warm_up

    monkeypatch.setattr(fano_fast, "warm_up", warmer("fano"))
    monkeypatch.setattr(fantan_fast, "warm_up", warmer("fantan"))
    app = create_app(sqlite_url(tmp_path), warm_fast=warm)
    with TestClient(app) as client:
        assert client.get("/api/games").status_code == 200
        for event in called.values():
            assert event.wait(10 if warm else 1) is warm
    if warm:
        assert len(threads) == 2
        assert all(thread.startswith("bot") for thread in threads)
