"""A restart as a player sees it, in Chromium: the notice of ``fanfold restart`` shows as a
banner at the table (screenshots at a desktop's and a phone's width), and when the table's
socket is closed with 1012 (its process stops and hands the table on) the page reconnects at
once, without the back-off it waits after other losses, and the banner goes. The close
reason is a code a French page words in its status line."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, expect

from fanfold.server.app import create_app
from fanfold.server.hub import Hub
from fanfold.server.hub.basics import MOVED
from fanfold.server.hub.draining import RESTARTING
from tests.server.support import uvicorn_server
from tests.server.test_browser import browser, open_table  # noqa: F401  (pytest fixtures)

#: Run in the page before its own scripts: when each socket was made and closed (and how).
RECORDER = """
window.__sockets = [];
const Made = window.WebSocket;
window.WebSocket = function (...args) {
  const socket = new Made(...args);
  const entry = { made: performance.now(), closed: null, code: null, reason: null };
  window.__sockets.push(entry);
  socket.addEventListener("close", (event) => {
    entry.closed = performance.now();
    entry.code = event.code;
    entry.reason = event.reason;
  });
  return socket;
};
window.WebSocket.OPEN = Made.OPEN;
"""
#: Run in the page before its own scripts: every text the status line shows, in turn.
STATUSES = """
window.__statuses = [];
document.addEventListener("DOMContentLoaded", () => {
  const status = document.querySelector("#status");
  if (!status) return;
  new MutationObserver(() => window.__statuses.push(status.textContent)).observe(status, {
    childList: true, characterData: true, subtree: true,
  });
});
"""


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[str, Any, uvicorn.Server]]:
    """A fresh server in a thread: its address, its application and uvicorn's server."""
    app = create_app(f"sqlite:///{tmp_path / 'fanfold.db'}", bot_seconds=0.2)
    with uvicorn_server(app) as server:
        yield f"http://127.0.0.1:{server.config.port}", app, server


def on_loop(server: uvicorn.Server, work: Any) -> Any:
    """Run the coroutine ``work`` on the server's event loop; its result."""
    loop = server.servers[0].get_loop()
    return asyncio.run_coroutine_threadsafe(work, loop).result(timeout=30)


@pytest.mark.parametrize("size", [(1200, 860), (390, 844)], ids=["wide", "narrow"])
def test_the_notice_shows_and_a_1012_reconnects_at_once(
    browser: Browser,
    running: tuple[str, Any, uvicorn.Server],
    tmp_path: Path,
    size: tuple[int, int],
) -> None:
    address, app, server = running
    hub: Hub[Any] = app.state.hub
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(RECORDER)
    try:
        open_table(page, address, "morris", {1: "random"})
        banner = page.locator("#restart-notice")
        expect(page.locator("#status")).not_to_have_text("", timeout=20_000)
        expect(banner).to_be_hidden()
        assert on_loop(server, hub.draining.notice(120)) == 1
        expect(banner).to_be_visible(timeout=10_000)
        expect(banner).to_have_text(
            "The server restarts in 2 minutes: your game carries on, reconnected at once."
        )
        page.screenshot(path=str(tmp_path / f"restart-notice-{size[0]}.png"), full_page=True)
        (table,) = hub.live

        async def moved() -> None:
            async with hub.live[table].lock:
                hub.let_go(hub.live[table], RESTARTING)

        on_loop(server, moved())
        page.wait_for_function("window.__sockets.length >= 2", timeout=10_000)
        sockets = page.evaluate("window.__sockets")
        assert sockets[0]["code"] == 1012
        # At once: other losses wait 0.5 s first, then twice as long each time.
        assert sockets[1]["made"] - sockets[0]["closed"] < 400, sockets
        expect(banner).to_be_hidden()
        expect(page.locator("#status")).not_to_have_text("Connection lost; reconnecting…")
        assert table in hub.live  # the page asked for its table again
    finally:
        context.close()
    assert not errors, errors


def test_a_table_moved_to_another_process_says_so_in_french(
    browser: Browser, running: tuple[str, Any, uvicorn.Server]
) -> None:
    """The close reason is a code (``close.moved``), which a French page words from its
    catalogue in the status line as it reconnects."""
    address, app, server = running
    hub: Hub[Any] = app.state.hub
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": "fr", "url": address}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(RECORDER + STATUSES)
    try:
        open_table(page, address, "morris", {1: "random"})
        expect(page.locator("#status")).not_to_have_text("", timeout=20_000)
        (table,) = hub.live

        async def moved() -> None:
            async with hub.live[table].lock:
                hub.let_go(hub.live[table])

        on_loop(server, moved())
        page.wait_for_function("window.__sockets.length >= 2", timeout=10_000)
        sockets = page.evaluate("window.__sockets")
        assert sockets[0]["code"] == 1012
        assert sockets[0]["reason"] == MOVED
        said = "la table est passée à un autre processus du serveur ; reconnexion"
        page.wait_for_function(f"window.__statuses.includes({said!r})", timeout=10_000)
        assert "Connection lost; reconnecting…" not in page.evaluate("window.__statuses")
    finally:
        context.close()
    assert not errors, errors
