"""The lobby's live list (``/ws/lobby``, :mod:`fanfold.server.lobby_feed`): a second client
sees a table with an open seat appear and go without asking; the store says when the open
tables change (on SQLite to its listeners, on PostgreSQL by NOTIFY to every process's feed)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fanfold.server import hub as hub_module
from fanfold.server.app import create_app
from fanfold.server.lobby_feed import LobbyFeed
from fanfold.server.store import AppendRow, Store, token_hash
from tests.server.support import ROOMY, sqlite_url
from tests.server.test_ownership import pg_url  # noqa: F401 (fixture)
from tests.server.test_ratings import second_browser
from tests.server.test_store import postgres_cluster  # noqa: F401 (fixture)

OPEN_MORRIS = {"game": "morris", "seats": ["you", "open"], "public": True}


@pytest.fixture
def lobby(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    app = create_app(sqlite_url(tmp_path), bot_seconds=0.5, limits=ROOMY)
    with TestClient(app) as alice:
        yield alice, second_browser(alice)


def _tables(message: Any) -> list[str]:
    assert message["type"] == "open_tables"
    assert message["protocol"] == 1
    return [line["table"] for line in message["tables"]]


def test_a_second_client_sees_a_table_appear_and_go(
    lobby: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = lobby
    with alice.websocket_connect("/ws/lobby") as socket:
        assert _tables(socket.receive_json()) == []
        made = bob.post("/api/tables", json=OPEN_MORRIS).json()
        first = socket.receive_json()
        assert _tables(first) == [made["table"]]
        assert first["tables"][0]["free"] == 1
        assert first["tables"] == alice.get("/api/open-tables").json()
        # taken by a player: gone
        assert second_browser(alice).post(f"/api/tables/{made['table']}/join").status_code == 200
        assert _tables(socket.receive_json()) == []
        # another, given to a bot by its creator: gone too
        other = bob.post("/api/tables", json=OPEN_MORRIS).json()
        assert _tables(socket.receive_json()) == [other["table"]]
        monkeypatch.setattr(hub_module, "OPEN_WAIT_SECONDS", 0.0)
        body = {"token": other["token"], "seat": 1, "level": "easy"}
        assert bob.post(f"/api/tables/{other['table']}/bot", json=body).status_code == 200
        assert _tables(socket.receive_json()) == []


def test_the_lobby_socket_takes_no_messages(lobby: tuple[TestClient, TestClient]) -> None:
    alice, _ = lobby
    with alice.websocket_connect("/ws/lobby") as socket:
        socket.receive_json()
        socket.send_text("{}")
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1003


def _open_table(store: Store, table_id: str, *, listed: bool = True) -> None:
    store.create(
        table_id,
        "morris.v1",
        {"adjacency": "geometric"},
        1,
        None,
        ["human", "human"],
        [token_hash("creator"), None],
        allow_undo=False,
        options={"open": [1], "variant": "geometric", "listed": listed},
        listed=listed,
    )


def test_the_store_tells_its_listeners_of_every_change_to_the_open_tables(
    tmp_path: Path,
) -> None:
    store = Store(sqlite_url(tmp_path))
    told: list[int] = []
    store.lobby_listeners.append(lambda: told.append(1))
    _open_table(store, "hidden", listed=False)
    assert told == []  # an unlisted table is in no lobby
    _open_table(store, "t1")
    assert len(told) == 1
    assert not store.take_open("t1", 0, token_hash("x"))  # the creator's seat: not open
    assert len(told) == 1
    assert store.take_open("t1", 1, token_hash("joiner"))
    assert len(told) == 2
    _open_table(store, "t2")
    store.set_player("t2", 1, "easy", {"open": [], "listed": True})
    assert len(told) == 4
    move = AppendRow("t2", 1, 0, "1", 1, None, {"listed": True})
    store.append_many([move])
    assert len(told) == 4  # a move changes no open table
    end = AppendRow("t2", 2, 1, "2", 2, {"returns": [1, -1]}, {"listed": True})
    store.append_many([end])
    assert len(told) == 5
    assert sorted(store.expire(before=1e12)) == ["hidden", "t1"]
    assert len(told) == 6
    store.close()


async def _next(queue: asyncio.Queue[str]) -> list[str]:
    message = json.loads(await asyncio.wait_for(queue.get(), 10))
    return _tables(message)


def test_on_postgresql_a_table_opened_through_one_store_shows_on_anothers_feed(
    pg_url: str,  # noqa: F811
) -> None:
    async def run() -> None:
        here, there = Store(pg_url), Store(pg_url)  # two processes' stores
        feed = LobbyFeed(there)
        await feed.start()
        try:
            pushed: asyncio.Queue[str] = asyncio.Queue()
            stop = feed.subscribe(pushed.put_nowait)
            assert await _next(pushed) == []
            while not feed.listening:
                await asyncio.sleep(0.01)
            await asyncio.to_thread(_open_table, here, "pg1")
            found = await _next(pushed)
            while found == []:  # a push read before the commit was heard
                found = await _next(pushed)
            assert found == ["pg1"]
            await asyncio.to_thread(here.take_open, "pg1", 1, token_hash("joiner"))
            assert await _next(pushed) == []
            stop()
            assert not feed.subscribers
        finally:
            await feed.close()
            here.close()
            there.close()

    asyncio.run(run())


def test_on_postgresql_a_lobby_on_one_process_sees_a_table_opened_on_another(
    pg_url: str,  # noqa: F811
) -> None:
    here = create_app(pg_url, bot_seconds=0.5, limits=ROOMY, resume=False)
    there = create_app(pg_url, bot_seconds=0.5, limits=ROOMY, resume=False)
    with (
        TestClient(here) as opener,
        TestClient(there) as watcher,
        watcher.websocket_connect("/ws/lobby") as socket,
    ):
        assert _tables(socket.receive_json()) == []
        while not there.state.lobby.listening:
            time.sleep(0.01)
        made = opener.post("/api/tables", json=OPEN_MORRIS).json()
        assert _tables(socket.receive_json()) == [made["table"]]
        joined = opener.post(f"/api/tables/{made['table']}/join")
        assert joined.status_code == 200, joined.text
        assert _tables(socket.receive_json()) == []
