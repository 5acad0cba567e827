"""The trusted proxies' forwarded headers, read in one place (:mod:`fanfold.server.forwarded`):
behind a trusted proxy terminating TLS the session cookies are ``Secure`` and every part of the
server counts the forwarded client; from anyone else the same headers change nothing; HSTS
only where the public origin is HTTPS; and ``fanfold serve`` leaves uvicorn's own reading of
the headers off."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request, WebSocket
from fastapi.testclient import TestClient
from pydantic import ValidationError
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from fanfold.cli.app import app as cli
from fanfold.server.accounts import CSRF_COOKIE, SESSION_COOKIE
from fanfold.server.app import create_app
from fanfold.server.forwarded import (
    PEER,
    ForwardedHeaders,
    client_address,
    is_https_site,
    public_origin,
    resolve,
    trusted_networks,
)
from fanfold.server.settings import Settings
from fanfold.server.throttle import ClientLimits
from tests.server.support import ROOMY, no_server_started, refused, sqlite_url

PROXY = "10.0.0.1"
STRANGER = "10.0.0.9"
HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
CREDENTIALS = {"name": "Alice", "password": "correct horse"}


def application(folder: Path, **settings: Any) -> FastAPI:
    """The server's application on a new store in ``folder``, trusting :data:`PROXY`, with
    a route that tells what the application sees of a request, and a WebSocket that does."""
    app = create_app(
        Settings(
            store_url=sqlite_url(folder),
            bot_seconds=None,
            limits=settings.pop("limits", ROOMY),
            trusted_proxies=(PROXY,),
            **settings,
        )
    )

    async def seen(request: Request) -> dict[str, Any]:
        return {
            "client": request.client.host if request.client else None,
            "scheme": request.url.scheme,
            "counted": client_address(request.scope),
        }

    async def seen_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        client = websocket.client.host if websocket.client else None
        await websocket.send_json({"client": client, "scheme": websocket.url.scheme})
        await websocket.close()

    app.add_api_route("/test/seen", seen)
    app.add_api_websocket_route("/test/seen", seen_socket)
    return app


@contextmanager
def from_peer(app: FastAPI, peer: str) -> Iterator[TestClient]:
    """A test client connecting from ``peer`` (lifespan run)."""
    with TestClient(app, client=(peer, 40000)) as client:
        yield client


def cookie_lines(answer: Any) -> dict[str, str]:
    """The answer's ``Set-Cookie`` lines by cookie name, lower case."""
    lines = answer.headers.get_list("set-cookie")
    return {line.split("=", 1)[0]: line.lower() for line in lines}


def sign_up_and_in(client: TestClient, headers: dict[str, str]) -> Any:
    """Create an account, forget its cookies and sign in; the sign-in answer."""
    made = client.post("/api/accounts", json=CREDENTIALS, headers=headers)
    assert made.status_code == 200, made.text
    client.cookies.clear()
    answer = client.post("/api/session", json=CREDENTIALS, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer


# ------------------------------------------------------------------ cookies


def test_behind_a_trusted_proxy_over_https_the_cookies_are_secure(tmp_path: Path) -> None:
    with from_peer(application(tmp_path), PROXY) as client:
        assert client.get("/test/seen", headers=HTTPS).json() == {
            "client": "203.0.113.7",
            "scheme": "https",
            "counted": "203.0.113.7",
        }
        cookies = cookie_lines(sign_up_and_in(client, HTTPS))
        assert set(cookies) >= {SESSION_COOKIE, CSRF_COOKIE}
        for line in cookies.values():
            assert "; secure" in line, line
        # The proxy forwarding plain HTTP: no Secure.
        client.cookies.clear()
        plain = {**HTTPS, "X-Forwarded-Proto": "http"}
        answer = client.post("/api/session", json=CREDENTIALS, headers=plain)
        assert answer.status_code == 200, answer.text
        assert all("secure" not in line for line in cookie_lines(answer).values())


def test_from_a_peer_that_is_no_trusted_proxy_the_headers_change_nothing(tmp_path: Path) -> None:
    with from_peer(application(tmp_path), STRANGER) as client:
        assert client.get("/test/seen", headers=HTTPS).json() == {
            "client": STRANGER,
            "scheme": "http",
            "counted": STRANGER,
        }
        cookies = cookie_lines(sign_up_and_in(client, HTTPS))
        assert cookies
        assert all("secure" not in line for line in cookies.values()), cookies


def test_an_https_public_origin_makes_the_cookies_secure(tmp_path: Path) -> None:
    app = application(tmp_path, public_origin="https://fanfold.example")
    with from_peer(app, STRANGER) as client:
        cookies = cookie_lines(sign_up_and_in(client, {}))
        assert all("; secure" in line for line in cookies.values()), cookies


def test_with_a_public_origin_the_origin_is_compared_with_it_not_with_the_host(
    tmp_path: Path,
) -> None:
    """Behind a proxy the ``Host`` a process sees may be the proxy's choice: with
    ``--public-origin`` a browser's ``Origin`` must be the site's public origin (its default
    port written or not), and an ``Origin`` that merely matches the ``Host`` is refused."""
    app = application(tmp_path, public_origin="https://fanfold.example")
    body = {"game": "morris", "seats": ["you", "random"]}
    with from_peer(app, PROXY) as client:
        for origin in ("https://fanfold.example", "https://FANFOLD.example:443"):
            made = client.post("/api/tables", json=body, headers={"Origin": origin, **HTTPS})
            assert made.status_code == 200, made.text
        for origin in ("http://testserver", "http://fanfold.example", "https://evil.example"):
            answer = client.post("/api/tables", json=body, headers={"Origin": origin, **HTTPS})
            assert refused(answer, 403)["kind"] == "CrossSite", origin
        table = client.post("/api/tables", json=body, headers=HTTPS).json()["table"]
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(
                f"/ws/tables/{table}", headers={"Origin": "http://testserver"}
            ) as socket,
        ):
            socket.receive_json()
        with client.websocket_connect(
            f"/ws/tables/{table}", headers={"Origin": "https://fanfold.example"}
        ) as socket:
            socket.send_json({"type": "hello"})
            assert socket.receive_json()["type"] == "state"


# ------------------------------------------------------------------ the client counted


def test_the_limits_count_the_forwarded_client(tmp_path: Path) -> None:
    limits = ClientLimits(requests_per_minute=3)
    with from_peer(application(tmp_path, limits=limits), PROXY) as proxy:

        def seen(forwarded: str) -> Any:
            return proxy.get("/test/seen", headers={"X-Forwarded-For": forwarded})

        assert [seen("203.0.113.7").status_code for _ in range(3)] == [200, 200, 200]
        assert "from 203.0.113.7" in refused(seen("203.0.113.7"), 429)["error"]
        # Another client through the same proxy has a count of its own; what a client wrote
        # to the left of what the proxy added is not believed.
        assert seen("203.0.113.8").json()["client"] == "203.0.113.8"
        assert "from 203.0.113.7" in refused(seen("203.0.113.8, 203.0.113.7"), 429)["error"]
    with from_peer(application(tmp_path / "other", limits=limits), STRANGER) as stranger:
        for n in range(3):
            answer = stranger.get("/test/seen", headers={"X-Forwarded-For": f"198.51.100.{n}"})
            assert answer.json()["client"] == STRANGER
        denied = stranger.get("/test/seen", headers={"X-Forwarded-For": "198.51.100.9"})
        assert f"from {STRANGER}" in refused(denied, 429)["error"]


def test_a_websocket_behind_a_trusted_proxy_is_wss_from_the_forwarded_client(
    tmp_path: Path,
) -> None:
    with from_peer(application(tmp_path), PROXY) as client:
        with client.websocket_connect("/test/seen", headers=HTTPS) as socket:
            assert socket.receive_json() == {"client": "203.0.113.7", "scheme": "wss"}
        with client.websocket_connect("/test/seen") as socket:
            assert socket.receive_json() == {"client": PROXY, "scheme": "ws"}
    with (
        from_peer(application(tmp_path / "other"), STRANGER) as client,
        client.websocket_connect("/test/seen", headers=HTTPS) as socket,
    ):
        assert socket.receive_json() == {"client": STRANGER, "scheme": "ws"}


# ------------------------------------------------------------------ the reading itself


def scope_of(peer: str | None, headers: list[tuple[bytes, bytes]], kind: str = "http") -> Scope:
    return {
        "type": kind,
        "scheme": "ws" if kind == "websocket" else "http",
        "client": None if peer is None else (peer, 5000),
        "headers": headers,
    }


def test_resolving_a_scope() -> None:
    proxies = trusted_networks(["10.0.0.0/24", "::1"])
    chain = [(b"x-forwarded-for", b"1.2.3.4, 5.6.7.8, 10.0.0.7")]
    # The right-most address that is no trusted proxy; the left-most when all are.
    assert resolve(scope_of("10.0.0.1", chain), proxies) == ("5.6.7.8", None)
    every = [(b"x-forwarded-for", b"10.0.0.3, 10.0.0.4")]
    assert resolve(scope_of("::1", every), proxies) == ("10.0.0.3", None)
    assert resolve(scope_of("10.0.0.1", []), proxies) == ("10.0.0.1", None)
    assert resolve(scope_of(None, chain), proxies) == ("unknown", None)
    # From anyone else, nothing is read.
    forged = [*chain, (b"x-forwarded-proto", b"https")]
    assert resolve(scope_of("192.0.2.1", forged), proxies) == ("192.0.2.1", None)
    assert resolve(scope_of("10.0.0.1", forged), ()) == ("10.0.0.1", None)
    # The scheme: https or http only; the client's hop when the proxies append to both.
    assert resolve(scope_of("10.0.0.1", forged), proxies) == ("5.6.7.8", "https")
    odd = [(b"x-forwarded-proto", b"gopher")]
    assert resolve(scope_of("10.0.0.1", odd), proxies) == ("10.0.0.1", None)
    appended = [
        (b"x-forwarded-for", b"1.2.3.4, 5.6.7.8, 10.0.0.7"),
        (b"x-forwarded-proto", b"http, HTTPS, http"),
    ]
    assert resolve(scope_of("10.0.0.1", appended), proxies) == ("5.6.7.8", "https")
    # A client that wrote its own X-Forwarded-Proto before the proxy appended its own.
    written = [(b"x-forwarded-for", b"5.6.7.8"), (b"x-forwarded-proto", b"https, http")]
    assert resolve(scope_of("10.0.0.1", written), proxies) == ("5.6.7.8", "http")


def test_the_middleware_rewrites_the_scope_once() -> None:
    proxies = trusted_networks([PROXY])
    seen: list[Scope] = []

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        del receive, send
        seen.append(scope)

    async def nothing() -> Message:
        return {}

    async def ignore(message: Message) -> None:
        del message

    middleware = ForwardedHeaders(inner, proxies)
    headers = [(b"x-forwarded-for", b"203.0.113.7"), (b"x-forwarded-proto", b"https")]
    for kind, scheme in (("http", "https"), ("websocket", "wss")):
        scope = scope_of(PROXY, headers, kind)
        asyncio.run(middleware(scope, nothing, ignore))
        assert seen[-1]["client"] == ("203.0.113.7", 0)
        assert seen[-1]["scheme"] == scheme
        assert seen[-1][PEER] == (PROXY, 5000)
        # Read once: a resolved scope is not read again (its client is no proxy now).
        assert client_address(seen[-1], proxies) == "203.0.113.7"
        asyncio.run(middleware(seen[-1], nothing, ignore))
        assert seen[-1]["client"] == ("203.0.113.7", 0)
    untrusted = scope_of(STRANGER, headers)
    asyncio.run(middleware(untrusted, nothing, ignore))
    assert (seen[-1]["client"], seen[-1]["scheme"]) == ((STRANGER, 5000), "http")
    asyncio.run(middleware({"type": "lifespan"}, nothing, ignore))
    assert seen[-1] == {"type": "lifespan"}


# ------------------------------------------------------------------ HSTS


@pytest.mark.parametrize(
    ("origin", "hsts"),
    [
        (None, False),
        ("http://fanfold.example", False),
        ("https://localhost:8443", False),
        ("https://127.0.0.1", False),
        ("https://[::1]:8443", False),
        ("https://fanfold.example", True),
        ("HTTPS://Fanfold.Example:8443/", True),
    ],
)
def test_hsts_only_with_an_https_public_origin(
    tmp_path: Path, origin: str | None, hsts: bool
) -> None:
    app = create_app(Settings(store_url=sqlite_url(tmp_path), public_origin=origin))
    client = TestClient(app)  # no lifespan: the headers are on every answer, a 404's too
    for headers in ({}, {"X-Forwarded-Proto": "https"}):
        answer = client.get("/no-such-page", headers=headers)
        assert answer.status_code == 404
        assert ("strict-transport-security" in answer.headers) is hsts
        if hsts:
            assert answer.headers["strict-transport-security"] == "max-age=31536000"
    assert is_https_site(origin) is hsts


def test_public_origins() -> None:
    assert public_origin("https://Fanfold.Example/") == "https://fanfold.example"
    assert public_origin(" http://fanfold.example:8080 ") == "http://fanfold.example:8080"
    for wrong in (
        "fanfold.example",
        "ftp://fanfold.example",
        "https://fanfold.example/play",
        "https://fanfold.example?x=1",
        "https://user@fanfold.example",
        "https://fanfold.example:port",
        "https://",
    ):
        with pytest.raises(ValueError, match="is not a public origin"):
            public_origin(wrong)
    with pytest.raises(ValidationError, match="is not a public origin"):
        Settings(store_url="sqlite://", public_origin="fanfold.example")


# ------------------------------------------------------------------ fanfold serve


def test_serve_owns_the_forwarded_headers_and_not_uvicorn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fanfold.cli import serve

    ran: list[Any] = []
    no_server_started(monkeypatch, ran)
    monkeypatch.setattr(serve, "_show_progress", lambda: None)
    monkeypatch.delenv("FANFOLD_DB_URL", raising=False)
    monkeypatch.delenv("FANFOLD_PUBLIC_ORIGIN", raising=False)
    monkeypatch.setenv("FANFOLD_LOG_FORMAT", "text")  # serve sets it: put back afterwards
    result = CliRunner().invoke(
        cli,
        [
            *("serve", "--db", sqlite_url(tmp_path), "--trusted-proxy", "127.0.0.1"),
            *("--public-origin", "https://Fanfold.Example/"),
        ],
    )
    assert result.exit_code == 0, result.output
    [config] = ran
    app = config.app
    assert config.proxy_headers is False
    assert app.state.settings.trusted_proxies == ("127.0.0.1",)
    assert app.state.settings.public_origin == "https://fanfold.example"

    wrong = CliRunner().invoke(cli, ["serve", "--public-origin", "fanfold.example"])
    assert wrong.exit_code != 0
    assert "is not a public origin" in wrong.output
