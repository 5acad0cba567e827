"""A review watched on its socket (``/ws/reviews/{id}``,
:mod:`fanfold.server.routes.review_socket`) and polled without the hub
(:func:`fanfold.server.routes.reviews.review_now`): each new step reaches the socket once, only
what is new, from memory; a finished table let go from memory is reviewed, polled and watched
without being made resident again; a table without a review says why and closes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fanfold.core.config import JSONObject
from fanfold.core.records import GameRecord
from fanfold.play.review import REVIEW_VERSION
from fanfold.play.table import Table
from fanfold.server import review_wire
from fanfold.server.hub import Hub
from fanfold.server.reviews import CHUNK, NotReviewableError, Reviews, review_step
from fanfold.server.routes import review_socket
from fanfold.server.routes.reviews import finished_record
from fanfold.server.store.review_memory import review_store
from tests.server.support import JSON, friends_table, open_table, serve
from tests.server.test_reviews import load, morris_record, wait_done


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def let_go(client: TestClient, table: str) -> None:
    """Let ``table`` go from the process's memory, as the sweeper does with an idle one."""
    hub = hub_of(client)
    assert client.portal is not None
    client.portal.call(lambda: hub.evict_idle(now=time.monotonic() + 1e6))
    assert table not in hub.live


class Counted:
    """A review store whose reads of moves are counted."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.reads = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def moves(self, *args: Any, **kwargs: Any) -> list[JSONObject]:
        self.reads += 1
        found: list[JSONObject] = self.store.moves(*args, **kwargs)
        return found


class Steps:
    """Steps that each wait for a release; ``asked``: the steps asked for so far."""

    def __init__(self) -> None:
        self.gate = threading.Semaphore(0)
        self.asked = 0

    def release(self) -> None:
        self.gate.release()

    def wait_asked(self, count: int) -> None:
        deadline = time.monotonic() + 60
        while self.asked < count:
            assert time.monotonic() < deadline, "the step was not asked for"
            time.sleep(0.01)


@contextmanager
def gated(client: TestClient) -> Iterator[tuple[Steps, Counted]]:
    """The app's reviews with steps that each wait for a release, stored as each ends (batch
    0), their store's reads of moves counted."""
    steps = Steps()
    hub = hub_of(client)
    store = Counted(review_store(hub.store))

    async def compute(
        record: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        steps.asked += 1
        await asyncio.to_thread(steps.gate.acquire)
        return review_step(record.to_json(), stop, budget, seed, start)

    reviews = Reviews(store, compute, batch=0.0)
    client.app.state.reviews = reviews  # type: ignore[attr-defined]
    try:
        yield steps, store
    finally:
        for _ in range(100):
            steps.release()


def received(socket: Any) -> JSON:
    message: JSON = socket.receive_json()
    assert message["type"] == "review", message
    return message


def test_a_socket_receives_each_new_step_once_and_only_what_is_new(tmp_path: Path) -> None:
    record = morris_record()
    assert len(record.actions) > 2 * CHUNK
    with serve(tmp_path) as client, gated(client) as (steps, store):
        table = load(client, record)
        with client.websocket_connect(f"/ws/reviews/{table}?seen=0") as socket:
            first = received(socket)  # opened by the socket, nothing judged yet
            assert first["state"] in ("pending", "running")
            assert (first["judged"], first["moves"], first["seen"]) == (0, [], 0)
            messages = []
            for step in (1, 2):
                steps.wait_asked(step)  # the review's own start (its stored moves) is read
                reads = store.reads
                steps.release()
                message = received(socket)
                messages.append(message)
                # the step's moves only, pushed from memory: the store's moves not read
                assert store.reads == reads
                assert message["seen"] == (step - 1) * CHUNK
                assert [entry["number"] for entry in message["moves"]] == list(
                    range((step - 1) * CHUNK + 1, step * CHUNK + 1)
                )
                assert message["judged"] == step * CHUNK
                assert message["state"] == "running"
                assert [point["move"] for point in message["graph"]] == (
                    [0] if step == 1 else []
                ) + list(range((step - 1) * CHUNK + 1, step * CHUNK + 1))
            for _ in range(100):
                steps.release()
            while messages[-1]["state"] != "done":
                messages.append(received(socket))
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()  # closed after the review's last message
            assert closed.value.code == 1000
        whole = client.get(f"/api/tables/{table}/review").json()
    numbers = [entry["number"] for message in messages for entry in message["moves"]]
    assert numbers == list(range(1, len(record.actions) + 1))  # each move once, in order
    assert [entry for message in messages for entry in message["moves"]] == whole["moves"]
    assert [mark for message in messages for mark in message["marks"]] == whole["marks"]
    assert [point for message in messages for point in message["graph"]] == whole["graph"]
    assert messages[-1]["summary"] == whole["summary"]
    assert messages[-1]["judged"] == len(record.actions)


def test_pages_that_have_seen_the_same_moves_share_one_message_a_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three pages watch one review: each step's message is made into text once, and each
    page gets the same text; a page opened later, once it has the same moves, shares it too."""
    made: list[JSONObject] = []
    text_of = review_wire.socket_text

    def counted(answer: JSONObject) -> str:
        made.append(answer)
        return text_of(answer)

    monkeypatch.setattr(review_socket, "socket_text", counted)
    record = morris_record()
    with serve(tmp_path) as client, gated(client) as (steps, _):
        table = load(client, record)
        with contextlib.ExitStack() as sockets:
            pages = [
                sockets.enter_context(client.websocket_connect(f"/ws/reviews/{table}?seen=0"))
                for _ in range(3)
            ]
            assert [received(page)["judged"] for page in pages] == [0, 0, 0]
            steps.wait_asked(1)
            del made[:]
            steps.release()
            texts = [page.receive_text() for page in pages]
            assert len(made) == 1  # one text for the three pages
            assert texts[0] == texts[1] == texts[2]
            message = json.loads(texts[0])
            assert (message["seen"], message["judged"]) == (0, CHUNK)
            steps.wait_asked(2)
            late = sockets.enter_context(client.websocket_connect(f"/ws/reviews/{table}?seen=0"))
            assert received(late)["judged"] == CHUNK  # its first answer: the store's moves
            del made[:]
            steps.release()
            texts = [page.receive_text() for page in [*pages, late]]
            assert len(made) == 1
            assert len(set(texts)) == 1
            assert json.loads(texts[0])["seen"] == CHUNK
    assert reviews_feed_empty(client)


def reviews_feed_empty(client: TestClient) -> bool:
    """Nothing kept by the feed once every page left."""
    feed = client.app.state.reviews.feed  # type: ignore[attr-defined]
    return not feed._made and not feed._watchers


def test_a_socket_opened_with_moves_gets_only_the_rest(tmp_path: Path) -> None:
    record = morris_record()
    with serve(tmp_path) as client:
        table = load(client, record)
        whole = wait_done(client, table)
        with client.websocket_connect(f"/ws/reviews/{table}?seen={CHUNK}") as socket:
            message = received(socket)
            with pytest.raises(WebSocketDisconnect):
                socket.receive_json()
    assert message["seen"] == CHUNK
    assert message["moves"] == whole["moves"][CHUNK:]
    assert message["state"] == "done"


def test_a_poll_of_an_evicted_finished_table_does_not_make_it_resident(tmp_path: Path) -> None:
    """Its review opened, polled to its end and polled again, and a socket watching it: the
    table let go from memory stays out of it (never rebuilt in the event loop)."""
    record = morris_record()
    with serve(tmp_path) as client:
        hub = hub_of(client)
        opened = load(client, record)
        let_go(client, opened)  # let go before its review was ever asked for
        body = wait_done(client, opened)
        assert opened not in hub.live
        assert body["state"] == "done"
        assert body["judged"] == len(record.actions)
        again = client.get(f"/api/tables/{opened}/review?seen=3")
        assert again.status_code == 200
        assert again.json()["moves"] == body["moves"][3:]
        with client.websocket_connect(f"/ws/reviews/{opened}") as socket:
            assert received(socket)["moves"] == body["moves"]
        assert opened not in hub.live
        # the same review as a table kept in memory gets
        kept = load(client, record)
        assert [entry["words"] for entry in wait_done(client, kept)["moves"]] == [
            entry["words"] for entry in body["moves"]
        ]


def test_a_let_go_finished_table_s_record_is_read_as_stored_without_a_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record a review opens from, for a finished table let go from memory: the one the
    table in memory gave (its outcome and a resignation's ruling included), read from the
    store without replaying its actions; a game still playing is refused as before."""
    with serve(tmp_path) as client:
        hub = hub_of(client)
        assert client.portal is not None
        portal = client.portal
        played = load(client, morris_record())
        resigned, _, black = friends_table(client)
        ended = client.post(
            f"/api/tables/{resigned}/end", json={"token": black, "ending": "resign"}
        )
        assert ended.status_code == 200, ended.text
        playing = open_table(client, game="morris", seats=["you", "random"])["table"]
        kept = {table: portal.call(finished_record, hub, table) for table in (played, resigned)}
        assert kept[resigned].ruling == {"ending": "resign", "seat": 1, "after": 2}
        let_go(client, played)
        assert resigned not in hub.live
        assert playing not in hub.live

        def replayed(*_: Any, **__: Any) -> None:
            raise AssertionError("a let go table's actions replayed")

        monkeypatch.setattr(Table, "submit", replayed)
        for table, record in kept.items():
            read = portal.call(finished_record, hub, table)
            assert read == record
            assert read.outcome == record.outcome
        with pytest.raises(NotReviewableError) as refused:
            portal.call(finished_record, hub, playing)
        assert refused.value.refusal is not None
        assert refused.value.refusal.code == "reviews.playing"
        assert wait_done(client, resigned)["state"] == "done"
        assert not {played, resigned, playing} & set(hub.live)


def test_a_table_without_a_review_says_why_on_the_socket(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        created = open_table(client, game="morris", seats=["you", "random"])
        with client.websocket_connect(f"/ws/reviews/{created['table']}") as socket:
            message = socket.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
        assert message["type"] == "error"
        assert message["code"] == "reviews.playing"
        assert closed.value.code == 4409
        with client.websocket_connect("/ws/reviews/no-such-table") as socket:
            message = socket.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
        assert message["type"] == "error"
        assert closed.value.code == 4404
        with client.websocket_connect(f"/ws/reviews/{created['table']}?seen=-1") as socket:
            message = socket.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
        assert closed.value.code == 1008
        assert "seen" in message["error"]
        store = client.app.state.reviews.store  # type: ignore[attr-defined]
        assert store.job(created["table"], REVIEW_VERSION) is None  # nothing opened


def test_a_client_that_sends_anything_is_closed(tmp_path: Path) -> None:
    with serve(tmp_path) as client, gated(client) as (steps, _):
        table = load(client, morris_record())
        with client.websocket_connect(f"/ws/reviews/{table}") as socket:
            assert received(socket)["judged"] == 0  # the review waits for its first step
            socket.send_text("x" * 1000)
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
        assert closed.value.code == 1008
        steps.release()
