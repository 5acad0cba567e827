"""Takebacks between two players in Debian's Chromium, at 1280 and 390 px: White asks to take
back a move, Black's page shows the request and Black accepts (both pages go back to the
start); Black asks and White declines (the moves stay); on the phone the table is on the rapid
clock (casual: it takes takebacks too). axe-core finds nothing serious on the
request; screenshots go to the test's folder and to ``build/screenshots/``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.test_browser import browser, server, shot
from tests.server.test_site_browser import SIZES, serious_violations, sized_page

__all__ = ["browser", "server"]  # fixtures used by name below


def _post(server: str, path: str, body: dict[str, Any]) -> Any:
    answer = httpx.post(f"{server}{path}", json=body, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _moves(page: Page) -> Any:
    return page.locator("#log li")


@pytest.mark.parametrize("size", list(SIZES))
def test_two_players_ask_accept_and_decline_a_takeback(
    browser: Browser, server: str, size: str, tmp_path: Path
) -> None:
    opened: dict[str, Any] = {"game": "morris", "seats": ["you", "friend"]}
    if size == "phone":  # a casual table on the clock takes takebacks too
        opened["speed"] = "rapid"
    made = _post(server, "/api/tables", opened)
    table, white = made["table"], made["token"]
    black = _post(server, f"/api/tables/{table}/claim", {"invite": made["invites"]["1"]})["token"]
    first, second = sized_page(browser, size), sized_page(browser, size)
    errors: list[str] = []
    for page in (first, second):
        page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        first.goto(f"{server}/table/{table}#token={white}")
        second.goto(f"{server}/table/{table}#token={black}")
        expect(first.locator("#takeback-ask")).to_have_count(0)  # White has not moved yet
        for token, action, version in ((white, "C1", 0), (black, "T2", 1)):
            body = {"token": token, "action": action, "version": version}
            _post(server, f"/api/tables/{table}/act", body)
        expect(_moves(first)).to_have_count(2)
        first.click("#takeback-ask")
        expect(first.locator("#takeback-waiting")).to_contain_text("waiting for")
        expect(first.locator("#takeback-ask")).to_have_count(0)  # one request at a time
        asked = second.locator("#takeback-asked")
        white_name = first.locator("#seats li").first.inner_text().split(":")[0].strip()
        expect(asked).to_have_text(f"{white_name} asks to take back their last move")
        expect(second.locator("#takeback-accept")).to_be_visible()
        assert serious_violations(second) == []
        second.screenshot(path=str(tmp_path / f"takeback-asked-{size}.png"), full_page=True)
        shot(second, f"table-takeback-asked-{size}")
        second.click("#takeback-accept")
        expect(_moves(first)).to_have_count(0)  # C1 and T2 taken back, on both pages
        expect(_moves(second)).to_have_count(0)
        expect(first.locator("#status")).to_have_class(re.compile(r"\byour-turn\b"))
        expect(first.locator("#takeback-waiting")).to_have_count(0)

        for token, action, version in ((white, "C3", 3), (black, "T4", 4)):
            body = {"token": token, "action": action, "version": version}
            _post(server, f"/api/tables/{table}/act", body)
        expect(_moves(second)).to_have_count(2)
        second.click("#takeback-ask")
        first.click("#takeback-decline")
        expect(second.locator("#takeback-waiting")).to_have_count(0)
        expect(second.locator("#takeback-ask")).to_be_visible()  # may ask again (2 of 3 left)
        expect(_moves(first)).to_have_count(2)  # declined: the moves stay
    finally:
        first.context.close()
        second.context.close()
    assert not errors, errors
