"""Check boxes a finger can hit on a phone, as the walk of issue 47 measured them in Debian's
Chromium: the lobby's Practice, Open tables and Rated boxes and the table's "Show chat" were
the browser's 13 by 13 px; each is 24 by 24 px at least (WCAG 2.5.8) at both sizes and in both
themes, with its words beside it, and axe finds nothing serious."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

from typing import Literal

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.test_browser import browser, server, shot  # noqa: F401  (fixtures)
from tests.server.test_site_browser import SIZES, serious_violations

#: The least width and height of a touch target, in CSS pixels (WCAG 2.2, 2.5.8).
TARGET = 24


def _box(page: Page, selector: str) -> tuple[float, float]:
    found = page.locator(selector)
    expect(found).to_be_visible()
    box = found.bounding_box()
    assert box is not None, selector
    return box["width"], box["height"]


def _sized(browser: Browser, size: str, theme: Literal["light", "dark"]) -> Page:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=theme)
    return context.new_page()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_s_and_the_table_s_check_boxes_are_big_enough_to_touch(
    browser: Browser, server: str, size: str, theme: Literal["light", "dark"]
) -> None:
    page = _sized(browser, size, theme)
    try:
        page.goto(f"{server}/")
        page.click("[data-game=fano]")  # hidden cards: the Practice box is offered too
        for box in ("#practice", "#public", "#rated"):
            width, height = _box(page, box)
            assert width >= TARGET, (box, width)
            assert height >= TARGET, (box, height)
            label = page.locator(f"label:has({box})")
            assert label.inner_text().strip(), box  # its words beside it, in its label
        page.click("#public")  # the label's box still ticks by a click
        expect(page.locator("#public")).to_be_checked()
        assert serious_violations(page) == [], (size, theme)
        shot(page, f"lobby-check-boxes-{size}-{theme}")

        made = httpx.post(
            f"{server}/api/tables", json={"game": "morris", "seats": ["you", "random"]}, timeout=10
        ).json()
        page.goto(f"{server}/table/{made['table']}#token={made['token']}")
        page.wait_for_selector(".morris svg")
        width, height = _box(page, "#chat-on")
        assert width >= TARGET, width
        assert height >= TARGET, height
        page.get_by_role("checkbox", name="Show chat").uncheck()  # still works by its name
        expect(page.locator("#chat-body")).to_be_hidden()
        page.get_by_role("checkbox", name="Show chat").check()
        expect(page.locator("#chat-body")).to_be_visible()
        assert serious_violations(page) == [], (size, theme)
        shot(page, f"table-chat-switch-{size}-{theme}")
    finally:
        page.context.close()
