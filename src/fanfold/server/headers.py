"""The security headers of every HTTP answer (:class:`SecurityHeaders`), and the API's docs page
(:func:`add_api_docs`), served from installed files under the same policy.

Every answer, a page's, the API's, a static file's and every refusal's alike, carries:

* ``Content-Security-Policy`` (:data:`POLICY`): a page runs only the site's own scripts and
  styles (no inline ``<script>``, ``<style>``, ``style=`` or ``on...=`` in any page, no
  ``eval``), shows images from the site and ``data:`` URIs, talks only to its own origin (its
  fetches and WebSockets: ``'self'`` covers ``ws:`` and ``wss:`` to the same host), cannot be
  framed, and has no plug-ins, no ``<base>`` elsewhere and no form posted elsewhere;
* ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: strict-origin-when-cross-origin``
  and ``X-Frame-Options: DENY`` (framing, for browsers without ``frame-ancestors``).

and, only where the site's public origin is HTTPS (``fanfold serve --public-origin
https://fanfold.example``; never for ``http`` or the local machine: see
:func:`fanfold.server.forwarded.is_https_site`), ``Strict-Transport-Security`` (:data:`HSTS`):
browsers then use nothing but HTTPS for the site for a year.

An answer that names one of these headers itself keeps its own: only ``/api/docs`` does, whose
policy is :data:`POLICY` plus the hash of Swagger UI's one inline script (the script that
starts it, which FastAPI writes into the page).

``/api/docs`` is FastAPI's Swagger UI page, its script and style served from the
``fastapi-offline`` package's copy of Swagger UI (:data:`SWAGGER_UI`) instead of a CDN:
nothing the site shows is fetched from elsewhere.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The Content-Security-Policy's directives, in the order the header lists them.
DIRECTIVES: tuple[tuple[str, str], ...] = (
    ("default-src", "'self'"),
    ("script-src", "'self'"),
    ("style-src", "'self'"),
    ("img-src", "'self' data:"),
    ("connect-src", "'self'"),
    ("font-src", "'self'"),
    ("object-src", "'none'"),
    ("base-uri", "'self'"),
    ("form-action", "'self'"),
    ("frame-ancestors", "'none'"),
)

CSP = "Content-Security-Policy"


def content_security_policy(scripts: Iterable[str] = ()) -> str:
    """The policy, allowing besides the inline scripts whose texts are ``scripts`` (by their
    SHA-256 hashes, :func:`script_hash`)."""
    hashes = " ".join(script_hash(text) for text in scripts)
    return "; ".join(
        f"{name} {value} {hashes}" if name == "script-src" and hashes else f"{name} {value}"
        for name, value in DIRECTIVES
    )


def script_hash(text: str) -> str:
    """An inline script's source expression for the policy: ``'sha256-BASE64'`` of its text,
    exactly as it stands between ``<script>`` and ``</script>``."""
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    return f"'sha256-{digest}'"


#: An inline script (one without ``src``) in a page, its text in the group.
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL | re.I)


def inline_scripts(page: str) -> list[str]:
    """The texts of the inline scripts in the HTML ``page``."""
    return INLINE_SCRIPT.findall(page)


#: The policy of every answer but ``/api/docs``.
POLICY = content_security_policy()

#: The headers every HTTP answer carries (unless it names one of them itself).
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (CSP.lower().encode(), POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"x-frame-options", b"DENY"),
)


#: HTTP Strict Transport Security for a year: an HTTPS site's only (:class:`SecurityHeaders`).
HSTS: tuple[bytes, bytes] = (b"strict-transport-security", b"max-age=31536000")


class SecurityHeaders:
    """Add :data:`HEADERS` (and :data:`HSTS`, when ``hsts``) to every HTTP answer that does
    not name them itself; an error that escapes the application before it answered is
    answered here (Starlette's plain 500, with the headers) and raised on, to be logged as
    before.

    Args:
        app: the ASGI application behind it.
        hsts: also send ``Strict-Transport-Security`` (the site's public origin is HTTPS).
    """

    def __init__(self, app: ASGIApp, hsts: bool = False) -> None:
        self.app = app
        self.headers = (*HEADERS, HSTS) if hsts else HEADERS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", ()))
                named = {name.lower() for name, _ in headers}
                headers.extend(header for header in self.headers if header[0] not in named)
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, guarded_send)
        except Exception:
            if not started:
                body = b"Internal Server Error"
                await guarded_send(
                    {
                        "type": "http.response.start",
                        "status": 500,
                        "headers": [
                            (b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
            raise


#: Swagger UI's script, style and icon, as the ``fastapi-offline`` package installs them.
SWAGGER_UI = Path(str(resources.files("fastapi_offline") / "static"))


def add_api_docs(app: FastAPI, path: str = "/api/docs") -> None:
    """Serve Swagger UI for ``app``'s OpenAPI document at ``path`` (create the app with
    ``docs_url=None``), its files under ``path/assets``. The page's one inline script, which
    starts Swagger UI, is allowed by its hash in the page's own policy."""
    assets = f"{path}/assets"
    app.mount(assets, StaticFiles(directory=SWAGGER_UI), name="api-docs-assets")

    async def api_docs(request: Request) -> HTMLResponse:
        root = str(request.scope.get("root_path", "")).rstrip("/")
        page = get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{root}{assets}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{assets}/swagger-ui.css",
            swagger_favicon_url=f"{root}/favicon.ico",
            swagger_ui_parameters=app.swagger_ui_parameters,
        )
        text = bytes(page.body).decode()
        return HTMLResponse(text, headers={CSP: content_security_policy(inline_scripts(text))})

    # A plain route, as FastAPI adds its own docs page: no API answer, no schema.
    app.add_route(path, api_docs, include_in_schema=False)
