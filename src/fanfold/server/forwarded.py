"""Who a request comes from and over which scheme, behind the server's trusted proxies: the one
place that reads ``X-Forwarded-For`` and ``X-Forwarded-Proto``.

:class:`ForwardedHeaders`, the application's outermost middleware, resolves every HTTP
request and WebSocket before anything else runs. When the immediate peer is one of the
trusted proxies (``fanfold serve --trusted-proxy``, ``Settings.trusted_proxies``):

* the client is the right-most address of ``X-Forwarded-For`` that is not itself a trusted
  proxy (the left-most when every one is; the peer when the header is missing), and becomes
  ``scope["client"]`` (port 0: the proxy does not forward the client's);
* the scheme is what ``X-Forwarded-Proto`` says, ``https`` or ``http`` only (anything else
  leaves the scope's own), and becomes ``scope["scheme"]`` (``wss`` or ``ws`` for a
  WebSocket). Where the proxies append to the header as they do to ``X-Forwarded-For``
  (as many entries in both), the entry of the chosen client's hop counts; else the
  right-most, the one the nearest proxy wrote.

From any other peer both headers are ignored: anyone can write them. The scope is rewritten in
place, so the rest of the application (the limits per client, the sign-in limits, the
``Secure`` flag of the cookies, fair play's addresses) and uvicorn's access log see the
resolved client and scheme. uvicorn's own proxy handling stays off (``fanfold serve`` runs it
with ``proxy_headers=False``): one owner, so that the two never disagree.

:func:`client_address` is how the rest of the server asks who the client is: the resolved
scope's client, or, on a scope this middleware did not see (a test's, an application built
without it), the same reading done on the spot.

The site's public origin (``fanfold serve --public-origin https://fanfold.example``) is
checked here too (:func:`public_origin`); :func:`is_https_site` says whether it is an HTTPS
site other than the local machine, which is when the answers carry
``Strict-Transport-Security`` (:mod:`fanfold.server.headers`).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: The scope's key set by :class:`ForwardedHeaders`: the immediate peer (uvicorn's
#: ``client``, ``None`` when unknown), kept when the client is rewritten. Its presence says
#: the scope was resolved.
PEER = "fanfold.peer"

#: The schemes ``X-Forwarded-Proto`` may set, and their WebSocket forms.
SCHEMES = {"http": "http", "https": "https"}
SOCKET_SCHEMES = {"http": "ws", "https": "wss"}


def trusted_networks(proxies: Iterable[str]) -> tuple[Network, ...]:
    """The proxies' addresses (``10.0.0.5``) or networks (``10.0.0.0/24``); entries may also
    be comma-separated lists.

    Raises:
        ValueError: an entry that is not an address or a network, with a sentence naming it.
    """
    networks: list[Network] = []
    for entry in proxies:
        for part in entry.split(","):
            text = part.strip()
            if not text:
                continue
            try:
                networks.append(ipaddress.ip_network(text, strict=False))
            except ValueError:
                raise ValueError(
                    f"{text!r} is not an IP address or network (a trusted proxy is given as "
                    "10.0.0.5, 10.0.0.0/24 or ::1)"
                ) from None
    return tuple(networks)


def is_trusted(address: str, networks: Sequence[Network]) -> bool:
    """Whether ``address`` is one of the trusted proxies (a text that is no address is not)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def _entries(scope: Scope, name: bytes) -> list[str]:
    """The comma-separated entries of every ``name`` header of the request, in order."""
    entries: list[str] = []
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            entries.extend(part.strip() for part in value.decode("latin-1").split(","))
    return [entry for entry in entries if entry]


def resolve(scope: Scope, networks: Sequence[Network]) -> tuple[str, str | None]:
    """The client of the request in ``scope`` (its peer's address, or when the peer is a
    trusted proxy, the forwarded one), and the scheme its trusted proxy forwarded
    (``"https"`` or ``"http"``; ``None``: none, or a peer that is not trusted)."""
    peer = scope.get("client")
    address = str(peer[0]) if peer else "unknown"
    if not networks or not is_trusted(address, networks):
        return address, None
    hops = _entries(scope, b"x-forwarded-for")
    chosen: int | None = None
    for index in range(len(hops) - 1, -1, -1):
        address, chosen = hops[index], index
        if not is_trusted(address, networks):
            break
    protocols = _entries(scope, b"x-forwarded-proto")
    if not protocols:
        return address, None
    if chosen is not None and len(protocols) == len(hops):
        forwarded = protocols[chosen]
    else:
        forwarded = protocols[-1]
    return address, SCHEMES.get(forwarded.lower())


def client_address(scope: Scope, networks: Sequence[Network] = ()) -> str:
    """Who made the request in ``scope``: the client :class:`ForwardedHeaders` resolved, or,
    on a scope it did not see, the peer's address or, when the peer is one of ``networks``,
    the forwarded one (:func:`resolve`)."""
    if PEER in scope:
        client = scope.get("client")
        return str(client[0]) if client else "unknown"
    return resolve(scope, networks)[0]


class ForwardedHeaders:
    """ASGI middleware that resolves every HTTP request's and WebSocket's client and scheme
    from its trusted proxies' headers (see the module's text), in place, before the
    application behind it runs.

    Args:
        app: the application behind it.
        trusted_proxies: the proxies whose forwarded headers are believed (none: every
            request is its peer's, over its own scheme).
    """

    def __init__(self, app: ASGIApp, trusted_proxies: Sequence[Network] = ()) -> None:
        self.app = app
        self.trusted = tuple(trusted_proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind in ("http", "websocket") and PEER not in scope:
            peer = scope.get("client")
            client, scheme = resolve(scope, self.trusted)
            scope[PEER] = peer
            if peer is not None and client != str(peer[0]):
                scope["client"] = (client, 0)
            if scheme is not None:
                scope["scheme"] = SOCKET_SCHEMES[scheme] if kind == "websocket" else scheme
        await self.app(scope, receive, send)


# ------------------------------------------------------------------ the public origin

#: Host names of the machine itself: no HSTS for them (a browser would keep it for every
#: local server on any port).
LOCAL_HOSTS = frozenset({"localhost", "localhost.localdomain"})


def public_origin(text: str) -> str:
    """``text`` as a site's public origin, ``scheme://host[:port]`` (``http`` or ``https``,
    lower case, without a trailing ``/``).

    Raises:
        ValueError: anything else (a path, a query, a user, another scheme), with a sentence.
    """
    try:
        parts = urlsplit(text.strip())
        parts.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError:
        parts = None
    if (
        parts is None
        or parts.scheme.lower() not in SCHEMES
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
    ):
        raise ValueError(
            f"{text!r} is not a public origin: give the site's scheme and host, as "
            "https://fanfold.example (or https://fanfold.example:8443), with no path"
        )
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def is_https_site(origin: str | None) -> bool:
    """Whether the public ``origin`` (:func:`public_origin`'s form; ``None``: none given) is
    an HTTPS site other than the local machine (``localhost``, a loopback address)."""
    if origin is None:
        return False
    parts = urlsplit(origin)
    host = (parts.hostname or "").lower()
    if parts.scheme != "https" or not host or host in LOCAL_HOSTS or host.endswith(".localhost"):
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True  # a name


__all__ = [
    "PEER",
    "ForwardedHeaders",
    "Network",
    "client_address",
    "is_https_site",
    "is_trusted",
    "public_origin",
    "resolve",
    "trusted_networks",
]
