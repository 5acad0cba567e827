"""The guard that keeps other sites from acting for a signed-in player
(:class:`CrossSiteGuard`): every state-changing request (any method but GET, HEAD and OPTIONS)
whose ``Origin`` names another site (another than ``--public-origin`` where it is given, else
than the ``Host`` the request was sent to) is refused, and one that carries the session cookie must
carry the session's CSRF token in :data:`~fanfold.server.accounts.CSRF_HEADER` too (the page
reads it from the :data:`~fanfold.server.accounts.CSRF_COOKIE` cookie, which other sites cannot
read). Every WebSocket whose ``Origin`` names another site is refused before it opens."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fanfold.server.accounts import CSRF_HEADER, SESSION_COOKIE, Accounts
from fanfold.server.protocol import ErrorBody, wire

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return {name.lower(): value for name, value in scope.get("headers", ())}


#: The port a scheme's origin leaves out.
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(text: str) -> tuple[str, str, int] | None:
    """An origin as (scheme, host, port), the default port filled in; ``None``: not one."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port if port is not None else _DEFAULT_PORTS[scheme]


def same_origin(scope: Scope, public: str | None = None) -> bool:
    """Whether the request has no ``Origin`` (not a browser's cross-site request) or one
    naming this site: the site's ``public`` origin where the server knows it
    (``--public-origin``: behind a proxy the ``Host`` a process sees may be the proxy's
    choice, and a page of the site itself is at the public origin), else the host the
    request was sent to."""
    headers = _headers(scope)
    origin = headers.get(b"origin")
    if origin is None:
        return True
    parts = urlsplit(origin.decode("latin-1"))
    if public is not None:
        sent = _origin(origin.decode("latin-1"))
        return sent is not None and sent == _origin(public)
    host = headers.get(b"host", b"").decode("latin-1").lower()
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host


def _public(scope: Scope) -> str | None:
    """The site's public origin from the application's settings (``None``: not given)."""
    settings = getattr(scope["app"].state, "settings", None)
    public = getattr(settings, "public_origin", None)
    return public if isinstance(public, str) else None


class CrossSiteGuard:
    """Refuse what another site makes a browser send (see the module's text): a
    state-changing request or a WebSocket from another ``Origin``, and a state-changing
    request with the session cookie but without its CSRF token.

    Args:
        app: the ASGI application behind it.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    @staticmethod
    async def _refuse(send: Send, sentence: str, kind: str) -> None:
        body = wire(ErrorBody(error=sentence, kind=kind)).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        public = _public(scope) if scope["type"] in ("http", "websocket") else None
        if scope["type"] == "websocket" and not same_origin(scope, public):
            message: Message = await receive()  # the connect; closing now refuses it
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008, "reason": "cross-site"})
            return
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        if not same_origin(scope, public):
            await self._refuse(
                send, "this request came from another site and is refused", "CrossSite"
            )
            return
        headers = _headers(scope)
        cookie = cookie_parser(headers.get(b"cookie", b"").decode("latin-1")).get(SESSION_COOKIE)
        found: Accounts | None = getattr(scope["app"].state, "accounts", None)
        token = found.token_of(cookie) if found is not None else None
        if token is not None and found is not None:
            sent = headers.get(CSRF_HEADER.lower().encode(), b"").decode("latin-1")
            if not found.csrf_valid(token, sent):
                await self._refuse(
                    send,
                    f"this request lacks the page's {CSRF_HEADER} token (reload the page)",
                    "CSRF",
                )
                return
        await self.app(scope, receive, send)
