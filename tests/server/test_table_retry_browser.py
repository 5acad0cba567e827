"""A table page whose first load is refused with a wait (429 or 503 with ``Retry-After``: the
client over its requests a minute, or the server busy) says so with a countdown and asks again
once the wait is over, a bounded number of times; a refusal without a wait is final.

The server is a real one behind a limit of the test's own that refuses the first loads of the
table (``GET /api/tables/ID``) as the site's limits do (:mod:`fanfold.server.throttle`: its
body and ``Retry-After``), with a one-second wait so that the test stays short.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from fanfold.server.app import create_app
from tests.server.support import ROOMY, uvicorn_server
from tests.server.test_browser import browser  # noqa: F401  (fixture)
from tests.server.test_site_browser import SIZES

#: ``GET /api/tables/ID``: the table's load.
TABLE = re.compile(r"/api/tables/[A-Za-z0-9_-]+")


class RefusingLimit:
    """Refuses the first ``refusals[table]`` loads of a table as a limit does: 429 (then 503)
    with ``Retry-After: 1``; counts the loads it saw."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.refusals: dict[str, int] = {}
        self.loads: dict[str, int] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or scope["method"] != "GET" or not TABLE.fullmatch(path):
            await self.app(scope, receive, send)
            return
        table = path.rsplit("/", 1)[1]
        self.loads[table] = self.loads.get(table, 0) + 1
        if self.loads[table] > self.refusals.get(table, 0):
            await self.app(scope, receive, send)
            return
        status = 429 if self.loads[table] % 2 else 503
        sentence = "too many requests from 127.0.0.1 (at most 2 a minute)"
        body = json.dumps({"error": sentence, "kind": "RateLimited"}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", b"1"),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, RefusingLimit]]:
    database = tmp_path_factory.mktemp("retry") / "fanfold.db"
    limit = RefusingLimit(
        create_app(f"sqlite:///{database}", bot_seconds=0.2, bot_pause=0.0, limits=ROOMY)
    )
    with uvicorn_server(limit) as running:
        yield f"http://127.0.0.1:{running.config.port}", limit


def _table(server: str) -> tuple[str, str]:
    made = httpx.post(
        f"{server}/api/tables", json={"game": "morris", "players": 2, "seats": ["you", "easy"]}
    ).json()
    return made["table"], made["token"]


def test_a_refused_load_is_counted_down_and_asked_again(
    browser: Browser, limited: tuple[str, RefusingLimit], tmp_path: Path
) -> None:
    server, limit = limited
    table, token = _table(server)
    limit.refusals[table] = 2  # a 429, then a 503, then the table
    width, height = SIZES["phone"]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{server}/table/{table}#token={token}")
        status = page.locator("#status")
        expect(status).to_have_text(
            "too many requests from 127.0.0.1 (at most 2 a minute): asking again in 1 s…"
        )
        page.screenshot(path=str(tmp_path / "refused-phone.png"))
        expect(page.locator("#controls button").first).to_be_attached(timeout=15_000)
        assert limit.loads[table] == 3
        expect(status).not_to_contain_text("asking again")
    finally:
        context.close()
    assert not errors, errors


def test_a_load_refused_every_time_stops_after_a_few_tries(
    browser: Browser, limited: tuple[str, RefusingLimit]
) -> None:
    server, limit = limited
    table, token = _table(server)
    limit.refusals[table] = 100
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(f"{server}/table/{table}#token={token}")
        status = page.locator("#status")
        expect(status).to_contain_text("nouvel essai dans 1 s")  # the countdown, in French
        # four loads in all, then the refusal stays, without a countdown
        expect(status).to_have_text(
            "too many requests from 127.0.0.1 (at most 2 a minute)", timeout=15_000
        )
        page.wait_for_timeout(1500)
        assert limit.loads[table] == 4
    finally:
        context.close()
