"""The lobby's live list (``/ws/lobby``, :mod:`fanfold.server.lobby_feed`): a second client
sees a table with an open seat appear and go without asking; the store says when the open
tables change (on SQLite to its listeners, on PostgreSQL by NOTIFY to every process's feed);
the lobby sockets' own limits (per client, per process, a socket that does not read, a
socket's lifetime, the newest list only)."""

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
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from fanfold.core.config import JSONObject
from fanfold.server.app import create_app
from fanfold.server.hub import seating
from fanfold.server.lobby_feed import FULL, RENEW, TOO_MANY, LobbyFeed, LobbyLimits, LobbySender
from fanfold.server.settings import Settings
from fanfold.server.store import AppendRow, SeatPlan, Store, TablePlan, token_hash
from fanfold.server.throttle import ClientLimits
from tests.server.support import ROOMY, STOP_SECONDS, sqlite_url, uvicorn_server
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
        monkeypatch.setattr(seating, "OPEN_WAIT_SECONDS", 0.0)
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
    seats = (SeatPlan("human", token_hash("creator")), SeatPlan("human"))
    config: JSONObject = {"adjacency": "geometric"}
    plan = TablePlan("morris.v1", config, 1, None, seats, allow_undo=False, listed=listed)
    store.create(table_id, plan, {"open": [1], "variant": "geometric", "listed": listed})


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


# ------------------------------------------------------- the lobby sockets' own limits


def _lobby_app(tmp_path: Path, lobby: LobbyLimits, limits: ClientLimits = ROOMY) -> Any:
    return create_app(
        Settings(store_url=sqlite_url(tmp_path), bot_seconds=0.5, limits=limits, lobby=lobby)
    )


def _refused_with(socket: Any, code: int, said: str) -> None:
    """The refusal: an error message with the sentence, then the close with ``code``."""
    refusal = socket.receive_json()
    assert refusal["type"] == "error"
    assert refusal["kind"] == "RateLimited"
    assert said in refusal["error"]
    with pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    assert closed.value.code == code
    assert said in closed.value.reason


def test_the_limits_are_checked_when_made() -> None:
    with pytest.raises(ValueError, match="per_client must be at least 1, not 0"):
        LobbyLimits(per_client=0)
    with pytest.raises(ValueError, match="send_seconds must be above 0, not -1"):
        LobbyLimits(send_seconds=-1)


def test_a_client_holds_at_most_its_lobby_sockets_and_a_closed_one_frees_its_place(
    tmp_path: Path,
) -> None:
    client = TestClient(_lobby_app(tmp_path, LobbyLimits(per_client=2)))
    with client, client.websocket_connect("/ws/lobby") as first:
        assert _tables(first.receive_json()) == []
        with client.websocket_connect("/ws/lobby") as second:
            assert _tables(second.receive_json()) == []
            with client.websocket_connect("/ws/lobby") as third:
                _refused_with(third, TOO_MANY, "too many lobby connections")
            assert client.app.state.lobby.open == {"testclient": 2}  # type: ignore[attr-defined]
        with client.websocket_connect("/ws/lobby") as again:  # the second's place
            assert _tables(again.receive_json()) == []


def test_lobby_sockets_do_not_count_against_a_clients_table_sockets(tmp_path: Path) -> None:
    app = _lobby_app(tmp_path, LobbyLimits(per_client=3), ClientLimits(sockets=1))
    with TestClient(app) as client:
        made = client.post("/api/tables", json=OPEN_MORRIS).json()
        with (
            client.websocket_connect("/ws/lobby") as one,
            client.websocket_connect("/ws/lobby") as two,
        ):
            assert _tables(one.receive_json()) == _tables(two.receive_json()) == [made["table"]]
            with client.websocket_connect(f"/ws/tables/{made['table']}") as table:
                table.send_json({"type": "hello", "token": made["token"]})
                assert table.receive_json()["type"] == "state"


def test_a_process_holds_at_most_its_lobby_sockets(tmp_path: Path) -> None:
    app = _lobby_app(tmp_path, LobbyLimits(per_client=5, total=2))
    with (
        TestClient(app) as client,
        client.websocket_connect("/ws/lobby") as one,
        client.websocket_connect("/ws/lobby") as two,
    ):
        one.receive_json()
        two.receive_json()
        with client.websocket_connect("/ws/lobby") as third:
            _refused_with(third, FULL, "all the lobby connections it takes (2)")


def test_a_lobby_socket_is_renewed_after_its_lifetime(tmp_path: Path) -> None:
    with TestClient(_lobby_app(tmp_path, LobbyLimits(lifetime_seconds=0.5))) as client:
        with client.websocket_connect("/ws/lobby") as socket:
            assert _tables(socket.receive_json()) == []
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == RENEW
            assert "connect again" in closed.value.reason
        deadline = time.monotonic() + 10
        while client.app.state.lobby.open:  # type: ignore[attr-defined]
            assert time.monotonic() < deadline, "the renewed socket still counts"
            time.sleep(0.05)


#: Lobby sockets opened and closed in turn against a running server.
OPENED = 6


def test_a_closed_lobby_socket_leaves_no_task_and_an_open_one_does_not_hold_a_stop(
    tmp_path: Path,
) -> None:
    """Each closed lobby socket's request ends at once (it held its task, its subscription and
    its place in the client's count until its sender gave up waiting, 20 s later: a task per
    closed socket on a long-running server, and a server that took that long to stop); a
    server with lobby sockets still open stops at once (:func:`uvicorn_server` checks it)."""
    app = _lobby_app(tmp_path, LobbyLimits(per_client=OPENED + 1))
    with uvicorn_server(app) as server:
        feed: LobbyFeed = app.state.lobby  # made as the server starts
        url = f"ws://127.0.0.1:{server.config.port}/ws/lobby"
        for _ in range(OPENED):
            with connect(url, open_timeout=30) as lobby:
                assert _tables(json.loads(lobby.recv(timeout=30))) == []
        deadline = time.monotonic() + STOP_SECONDS
        while server.server_state.tasks or feed.subscribers or feed.open:
            assert time.monotonic() < deadline, (
                f"{len(server.server_state.tasks)} request tasks, {len(feed.subscribers)} "
                f"subscribers and {feed.open.total()} counted sockets left of {OPENED} closed"
            )
            time.sleep(0.05)
        assert app.state.hub.metrics.registry.get_sample_value("fanfold_websockets") == 0
        # two left open while the server stops: told 1012 ("service restart"), not waited on
        with connect(url, open_timeout=30) as one, connect(url, open_timeout=30) as two:
            one.recv(timeout=30)
            two.recv(timeout=30)
            stopping = time.monotonic()
            server.should_exit = True
            with pytest.raises(ConnectionClosed) as closed:
                one.recv(timeout=30)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 1012
    assert time.monotonic() - stopping < STOP_SECONDS


def test_a_socket_that_does_not_read_is_dropped_and_the_others_still_hear() -> None:
    async def run() -> None:
        stuck = asyncio.Event()  # never set: a client that reads nothing
        closed: list[tuple[int, str]] = []
        heard: list[str] = []

        async def never(text: str) -> None:
            await stuck.wait()

        async def close(code: int, reason: str) -> None:
            closed.append((code, reason))

        async def write(text: str) -> None:
            heard.append(text)

        slow = LobbySender(never, close, send_seconds=0.2)
        quick = LobbySender(write, close, send_seconds=0.2)
        for n in range(100):  # the feed goes on at once: nothing waits for the slow one
            for sender in (slow, quick):
                sender.post(f"list {n}")
            await asyncio.sleep(0)
        await asyncio.wait_for(slow.task, 5)
        assert closed == [
            (FULL, "this connection did not take the lobby's list within 0.2 s; reconnect")
        ]
        assert slow.closed
        quick.post("list 100")
        await asyncio.sleep(0.05)
        assert heard[-1] == "list 100"
        assert not quick.closed
        await quick.stop()

    asyncio.run(run())


def test_a_socket_keeps_only_the_newest_list_waiting() -> None:
    async def run() -> None:
        gate = asyncio.Event()
        written: list[str] = []

        async def write(text: str) -> None:
            await gate.wait()
            written.append(text)

        async def close(code: int, reason: str) -> None:
            written.append(f"closed {code}")

        sender = LobbySender(write, close, send_seconds=5)
        sender.post("a")
        await asyncio.sleep(0)  # "a" is being written
        for text in ("b", "c", "d", "d"):
            sender.post(text)  # b and c are replaced before they go out
        gate.set()
        await asyncio.sleep(0.05)
        assert written == ["a", "d"]
        sender.post("d")  # the same list again: not sent
        sender.shut(1000, "done")
        await asyncio.wait_for(sender.task, 5)
        assert written == ["a", "d", "closed 1000"]

    asyncio.run(run())
