"""Limits per client and per table, and players who never wait for watchers.

The server runs in a thread (uvicorn on a free loopback port) and every client connects from
its own loopback address (127.0.0.x), as people do from theirs: the limits count per address
and never exempt loopback.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from typer.testing import CliRunner

from fanfold.cli.app import app as cli
from fanfold.games.morris import MorrisGame
from fanfold.server import protocol
from fanfold.server.app import create_app
from fanfold.server.hub import Hub, Watcher
from fanfold.server.outbox import BEHIND, Outbox
from fanfold.server.store import Store
from fanfold.server.throttle import ClientLimits, client_address, trusted_networks
from tests.server.support import (
    ROOMY,
    hello,
    open_table,
    receive,
    serve,
    sqlite_url,
    uvicorn_thread,
)

MORRIS = MorrisGame()


# ------------------------------------------------------------------ a live server


@contextmanager
def live_server(
    folder: Path, limits: ClientLimits = ROOMY, trusted: tuple[str, ...] = ()
) -> Iterator[str]:
    """``fanfold serve``'s application under uvicorn in a thread; yields its base URL."""
    application = create_app(
        sqlite_url(folder), bot_seconds=None, limits=limits, trusted_proxies=trusted
    )
    with uvicorn_thread(application, proxy_headers=False) as port:
        yield f"http://127.0.0.1:{port}"


def http(address: str) -> httpx.Client:
    """An HTTP client that connects from ``address`` (a loopback address of its own)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=30)


def ws_url(base: str, table: str) -> str:
    return base.replace("http", "ws") + f"/ws/tables/{table}"


async def socket_from(base: str, table: str, address: str) -> Any:
    """A WebSocket to ``table`` from ``address``."""
    return await websockets.connect(
        ws_url(base, table),
        local_addr=(address, 0),
        proxy=None,
        compression=None,
        max_size=2**22,
        open_timeout=30,
    )


def morris_table(client: httpx.Client, base: str) -> tuple[str, str]:
    answer = client.post(f"{base}/api/tables", json={"game": "morris", "seats": ["you", "random"]})
    assert answer.status_code == 200, answer.text
    created = answer.json()
    return created["table"], created["token"]


def rate_limited(answer: httpx.Response, address: str) -> None:
    """A 429 with the usual body, a sentence naming the client, and Retry-After."""
    assert answer.status_code == 429, answer.text
    body = answer.json()
    assert body["kind"] == "RateLimited"
    assert address in body["error"], body
    assert "try again" in body["error"], body
    assert int(answer.headers["retry-after"]) >= 1


# ------------------------------------------------------------------ HTTP limits


def test_a_client_opening_tables_too_fast_is_refused_and_another_is_not(tmp_path: Path) -> None:
    limits = ClientLimits(tables_per_minute=3, requests_per_minute=1000)
    with (
        live_server(tmp_path, limits) as base,
        http("127.0.0.2") as flood,
        http("127.0.0.3") as other,
    ):
        for _ in range(3):
            morris_table(flood, base)
        rate_limited(
            flood.post(f"{base}/api/tables", json={"game": "morris", "seats": ["you", "random"]}),
            "127.0.0.2",
        )
        rate_limited(flood.post(f"{base}/api/records", json={"record": {}}), "127.0.0.2")
        assert flood.get(f"{base}/api/games").status_code == 200  # other requests go on
        morris_table(other, base)  # another client is not refused


def test_a_client_making_too_many_requests_is_refused_and_another_is_not(tmp_path: Path) -> None:
    limits = ClientLimits(requests_per_minute=20)
    with (
        live_server(tmp_path, limits) as base,
        http("127.0.0.4") as busy,
        http("127.0.0.5") as other,
    ):
        answers = [busy.get(f"{base}/api/daily") for _ in range(25)]
        assert [a.status_code for a in answers] == [200] * 20 + [429] * 5
        rate_limited(answers[-1], "127.0.0.4")
        assert other.get(f"{base}/api/daily").status_code == 200


def test_the_pages_own_files_do_not_use_up_a_clients_requests(tmp_path: Path) -> None:
    """Scripts, styles and catalogues are not counted: behind one shared address, the pages'
    files of many people never leave the site's work refused."""
    limits = ClientLimits(requests_per_minute=5)
    with live_server(tmp_path, limits) as base, http("127.0.0.6") as shared:
        files = [f"{base}/static/common.js", f"{base}/static/fanfold.css", f"{base}/i18n/fr.json"]
        answers = [shared.get(address) for _ in range(4) for address in files]
        assert {a.status_code for a in answers} == {200}, [a.status_code for a in answers]
        work = [shared.get(f"{base}/api/daily") for _ in range(6)]
        assert [a.status_code for a in work] == [200] * 5 + [429]  # the work is still counted
        rate_limited(work[-1], "127.0.0.6")


# ------------------------------------------------------------------ socket limits


def test_a_client_over_the_socket_cap_is_refused(tmp_path: Path) -> None:
    limits = ClientLimits(sockets=2)

    async def scenario(base: str, table: str) -> None:
        first = await socket_from(base, table, "127.0.0.6")
        second = await socket_from(base, table, "127.0.0.6")
        third = await socket_from(base, table, "127.0.0.6")
        refusal = json.loads(await asyncio.wait_for(third.recv(), 10))
        assert refusal["type"] == "error"
        assert refusal["kind"] == "RateLimited"
        assert "at most 2" in refusal["error"]
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(third.recv(), 10)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1008
        for open_one in (first, second):  # the two open ones work
            await open_one.send(json.dumps({"type": "hello"}))
            assert json.loads(await asyncio.wait_for(open_one.recv(), 10))["type"] == "state"
        other = await socket_from(base, table, "127.0.0.7")  # another client is not refused
        await other.send(json.dumps({"type": "hello"}))
        assert json.loads(await asyncio.wait_for(other.recv(), 10))["type"] == "state"
        await first.close()
        await asyncio.sleep(0.2)
        again = await socket_from(base, table, "127.0.0.6")  # a closed one frees its place
        await again.send(json.dumps({"type": "hello"}))
        assert json.loads(await asyncio.wait_for(again.recv(), 10))["type"] == "state"
        for done in (second, other, again):
            await done.close()

    with live_server(tmp_path, limits) as base, http("127.0.0.6") as client:
        table, _ = morris_table(client, base)
        asyncio.run(scenario(base, table))


def test_a_table_over_the_spectator_cap_refuses_the_next_spectator(tmp_path: Path) -> None:
    limits = ClientLimits(spectators=2)

    async def scenario(base: str, table: str, token: str) -> None:
        watching = []
        for number in range(2):
            spectator = await socket_from(base, table, f"127.0.0.{20 + number}")
            await spectator.send(json.dumps({"type": "hello"}))
            assert json.loads(await asyncio.wait_for(spectator.recv(), 10))["type"] == "state"
            watching.append(spectator)
        late = await socket_from(base, table, "127.0.0.22")
        await late.send(json.dumps({"type": "hello"}))
        refusal = json.loads(await asyncio.wait_for(late.recv(), 10))
        assert refusal["type"] == "error", refusal
        assert "spectators" in refusal["error"], refusal
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(late.recv(), 10)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == BEHIND
        player = await socket_from(base, table, "127.0.0.23")  # a player is never refused
        await player.send(json.dumps({"type": "hello", "token": token}))
        message = json.loads(await asyncio.wait_for(player.recv(), 10))
        assert message["type"] == "state"
        assert message["seat"] == 0
        await watching[0].close()
        await asyncio.sleep(0.2)
        again = await socket_from(base, table, "127.0.0.22")  # a place came free
        await again.send(json.dumps({"type": "hello"}))
        assert json.loads(await asyncio.wait_for(again.recv(), 10))["type"] == "state"
        for done in (watching[1], player, again):
            await done.close()

    with live_server(tmp_path, limits) as base, http("127.0.0.20") as client:
        table, token = morris_table(client, base)
        asyncio.run(scenario(base, table, token))


# ------------------------------------------------------------------ forwarded addresses


def test_a_forwarded_address_counts_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    limits = ClientLimits(tables_per_minute=2)
    body = {"game": "morris", "seats": ["you", "random"]}
    with (
        live_server(tmp_path, limits, trusted=("127.0.0.30",)) as base,
        http("127.0.0.30") as proxy,
        http("127.0.0.31") as stranger,
    ):

        def through(client: httpx.Client, forwarded: str) -> httpx.Response:
            return client.post(
                f"{base}/api/tables", json=body, headers={"X-Forwarded-For": forwarded}
            )

        # Through the proxy: each forwarded client has its own count.
        assert [through(proxy, "10.1.1.1").status_code for _ in range(2)] == [200, 200]
        rate_limited(through(proxy, "10.1.1.1"), "10.1.1.1")
        assert through(proxy, "10.1.1.2").status_code == 200
        # The right-most address the proxy did not add itself: what a client wrote is ignored.
        rate_limited(through(proxy, "10.1.1.2, 10.1.1.1"), "10.1.1.1")
        # From anyone else the header is ignored: the stranger is its own address.
        assert through(stranger, "10.2.0.1").status_code == 200
        assert through(stranger, "10.2.0.2").status_code == 200
        rate_limited(through(stranger, "10.2.0.3"), "127.0.0.31")


def test_client_addresses_and_trusted_proxies() -> None:
    proxies = trusted_networks(["10.0.0.5, 192.168.0.0/24", "::1"])
    headers = [(b"x-forwarded-for", b"1.2.3.4, 5.6.7.8, 192.168.0.9")]
    assert client_address({"client": ("10.0.0.5", 1), "headers": headers}, proxies) == "5.6.7.8"
    assert client_address({"client": ("10.0.0.6", 1), "headers": headers}, proxies) == "10.0.0.6"
    assert client_address({"client": ("10.0.0.5", 1), "headers": []}, proxies) == "10.0.0.5"
    assert client_address({"client": ("127.0.0.1", 1), "headers": headers}, ()) == "127.0.0.1"
    with pytest.raises(ValueError, match="not an IP address or network"):
        trusted_networks(["proxy.example"])
    with pytest.raises(ValueError, match="at least 1"):
        ClientLimits(sockets=0)


def test_serve_refuses_a_trusted_proxy_that_is_not_an_address() -> None:
    result = CliRunner().invoke(cli, ["serve", "--trusted-proxy", "10.0.0.5,haproxy"])
    assert result.exit_code != 0
    assert "not an IP address or network" in result.output


# ------------------------------------------------------------------ watchers never slow players


async def _spectate(base: str, table: str, address: str, started: asyncio.Event) -> int:
    """A spectator that reads and discards everything (a raw WebSocket, so that the test's
    own process spends little on it); returns the bytes it got."""
    port = int(base.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    payload = json.dumps({"type": "hello"}).encode()
    mask = os.urandom(4)
    writer.write(
        bytes([0x81, 0x80 | len(payload)])
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )
    started.set()
    got = 0
    try:
        while chunk := await reader.read(1 << 16):
            got += len(chunk)
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()
    return got


async def _play(
    base: str, table: str, token: str, address: str, stop: asyncio.Event
) -> list[float]:
    """Play a random legal move at the table as soon as it may, until ``stop`` or
    the game ends; returns the act-to-ok times in seconds."""
    import random

    latencies: list[float] = []
    async with await socket_from(base, table, address) as player:
        await player.send(json.dumps({"type": "hello", "token": token}))
        sent: float | None = None
        while not stop.is_set():
            message = json.loads(await asyncio.wait_for(player.recv(), 30))
            if message["type"] == "ok":
                if sent is not None:
                    latencies.append(time.perf_counter() - sent)
                sent = None
            elif message["type"] == "error":
                raise AssertionError(message)
            elif message["outcome"] is not None:
                break
            elif message["decider"] == message["seat"] and message["legal"] and sent is None:
                sent = time.perf_counter()
                act = {"type": "act", "version": message["version"]}
                act["action"] = random.choice(message["legal"])
                await player.send(json.dumps(act))
    return latencies


async def _flood(base: str, address: str, stop: asyncio.Event) -> int:
    """Open tables as fast as the server answers; returns how many were refused."""
    refused = 0
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(transport=transport, timeout=30) as client:
        while not stop.is_set():
            answer = await client.post(
                f"{base}/api/tables", json={"game": "morris", "seats": ["you", "random"]}
            )
            refused += answer.status_code == 429
    return refused


def test_floods_and_watcher_storms_leave_another_tables_players_quick(tmp_path: Path) -> None:
    """150 spectators on a busy table and a client opening tables as fast as it can: another
    table's act-to-ok stays under 50 ms at the median (or within ten times its median before
    the storm, on a machine slowed by other work): a player is never stalled behind them. The
    storm's own cost is measured in ``benchmarks/server.py``, not here."""
    limits = ClientLimits(spectators=300, tables_per_minute=30)

    async def scenario(base: str) -> None:
        with http("127.0.0.40") as quiet_client, http("127.0.0.41") as busy_client:
            calm = [morris_table(quiet_client, base) for _ in range(10)]
            quiet = [morris_table(quiet_client, base) for _ in range(20)]
            busy = [morris_table(busy_client, base) for _ in range(20)]
        # The same player's pace on the same server before the storm: the yardstick, so that a
        # machine busy with other work does not read as the storm's doing.
        calm_latencies: list[float] = []
        for table, token in calm:
            calm_latencies += await _play(base, table, token, "127.0.0.40", asyncio.Event())
            if len(calm_latencies) >= 30:
                break
        stop = asyncio.Event()
        spectators, ready = [], []
        for number in range(150):
            started = asyncio.Event()
            address = f"127.0.1.{number + 1}"
            spectators.append(asyncio.create_task(_spectate(base, busy[0][0], address, started)))
            ready.append(started)
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in ready)), 60)
        floods = [asyncio.create_task(_flood(base, "127.0.0.42", stop)) for _ in range(4)]

        async def storm() -> None:  # the watched table plays as fast as it may, game on game
            for table, token in busy:
                await _play(base, table, token, "127.0.0.41", stop)
                if stop.is_set():
                    return

        storming = asyncio.create_task(storm())
        await asyncio.sleep(1.0)
        latencies: list[float] = []
        for table, token in quiet:
            latencies += await _play(base, table, token, "127.0.0.40", asyncio.Event())
            if len(latencies) >= 60:
                break
        stop.set()
        refused = sum(await asyncio.gather(*floods))
        await storming
        for task in spectators:
            task.cancel()
        got = await asyncio.gather(*spectators, return_exceptions=True)
        p50 = statistics.median(latencies) * 1000
        calm_p50 = statistics.median(calm_latencies) * 1000
        assert len(latencies) >= 30
        assert p50 < max(50.0, 10 * calm_p50), (
            f"act-to-ok p50 {p50:.1f} ms with a watcher storm and a flood, {calm_p50:.1f} ms before"
        )
        assert refused > 0  # the flood met its limit
        assert all(isinstance(n, int) and n > 0 for n in got)  # the spectators were told

    with live_server(tmp_path, limits) as base:
        asyncio.run(scenario(base))


def test_a_watcher_that_does_not_read_is_dropped_and_the_players_go_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = Hub(Store(sqlite_url(tmp_path)), bot_seconds=None)
        created = await hub.create(MORRIS, MORRIS.default_config(), ["you", "hotseat"], seed=3)
        live = await hub.get(created.id)
        stuck = asyncio.Event()
        closed: list[int] = []

        async def never(text: str) -> None:  # a socket whose peer stopped reading
            del text
            await stuck.wait()

        async def close(code: int, reason: str) -> None:
            del reason
            closed.append(code)

        heard: list[str] = []

        async def reads(text: str) -> None:
            heard.append(text)

        async def ignore(code: int, reason: str) -> None:
            del code, reason

        async def unused(message: Any) -> None:
            raise AssertionError("a watcher with an outbox is never awaited")

        slow = Watcher(None, frozenset(), unused, outbox=Outbox(never, close, size=4))
        reader = Watcher(None, frozenset(), unused, outbox=Outbox(reads, ignore, size=4))
        await hub.watch(live, slow)
        await hub.watch(live, reader)
        times = []
        for _ in range(8):
            started = time.perf_counter()
            await asyncio.wait_for(
                hub.act(created.id, created.token, None, live.table.legal_texts()[0], None), 5
            )
            times.append(time.perf_counter() - started)
            await asyncio.sleep(0)  # the reader's writer runs
        assert slow not in live.watchers  # dropped, and closed with "try again later"
        await asyncio.sleep(0.05)
        assert closed == [BEHIND]
        assert reader in live.watchers
        assert [json.loads(text)["version"] for text in heard] == list(range(9))
        assert max(times) < 0.5
        stuck.set()
        hub.executor.shutdown()
        hub.store.close()

    asyncio.run(scenario())


def test_spectators_share_one_message_per_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int | None] = []
    original = protocol.state_for

    def counting(live: Any, seat: int | None, held: frozenset[int]) -> Any:
        built.append(seat)
        return original(live, seat, held)

    monkeypatch.setattr("fanfold.server.hub.messages.state_for", counting)

    async def scenario() -> None:
        hub = Hub(Store(sqlite_url(tmp_path)), bot_seconds=None)
        created = await hub.create(MORRIS, MORRIS.default_config(), ["you", "hotseat"], seed=3)
        live = await hub.get(created.id)
        texts: list[list[str]] = []

        async def ignore(code: int, reason: str) -> None:
            del code, reason

        async def unused(message: Any) -> None:
            raise AssertionError("never awaited")

        for _ in range(10):
            got: list[str] = []
            texts.append(got)

            async def write(text: str, got: list[str] = got) -> None:
                got.append(text)

            await hub.watch(live, Watcher(None, frozenset(), unused, outbox=Outbox(write, ignore)))
        seat = Watcher(0, frozenset({0, 1}), unused, outbox=Outbox(write, ignore))
        await hub.watch(live, seat)
        built.clear()
        await hub.act(created.id, created.token, None, live.table.legal_texts()[0], None)
        assert sorted(built, key=str) == [0, None]  # one public message, one for the seat
        await asyncio.sleep(0.05)
        assert all(got[-1] is texts[0][-1] for got in texts)  # the same text, serialised once
        assert json.loads(texts[0][-1])["version"] == 1
        hub.executor.shutdown()
        hub.store.close()

    asyncio.run(scenario())


# ------------------------------------------------------------------ malformed JSON


def test_deeply_nested_json_gets_a_sentence_and_the_socket_stays(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        created = open_table(client, game="morris", seats=["you", "random"], seed=3)
        with client.websocket_connect(f"/ws/tables/{created['table']}") as socket_:
            for nested in ("[" * 3000 + "]" * 3000, '{"a":' * 1300 + "1" + "}" * 1300):
                assert len(nested) < 8 * 1024
                socket_.send_text(nested)
                answer = receive(socket_)
                assert answer["type"] == "error"
                assert answer["kind"] == "MalformedRequest"
                assert "nested too deeply" in answer["error"]
            message = hello(socket_, created["token"])  # the socket still works
            assert message["type"] == "state"
            socket_.send_text('{"type": "act", "action": ' + "[" * 3000 + "]" * 3000 + "}")
            assert receive(socket_)["kind"] == "MalformedRequest"
            socket_.send_json({"type": "act", "version": 0, "action": message["legal"][0]})
            seen = [receive(socket_) for _ in range(2)]
            assert {"protocol": 1, "type": "ok", "played": message["legal"][0], "number": 1} in seen
        for path in ("/api/tables", "/api/records", f"/api/tables/{created['table']}/act"):
            answer = client.post(
                path,
                content="[" * 3000 + "]" * 3000,
                headers={"content-type": "application/json"},
            )
            assert answer.status_code == 400, answer.text
            body = answer.json()
            assert body["kind"] == "MalformedRequest"
            assert "nested too deeply" in body["error"]
