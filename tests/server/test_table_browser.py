"""The table a player understands, in Chromium: the last move in words and on the board, and
the end panel from the player's side (fixtures and helpers from ``test_browser``)."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.server.test_browser import (  # noqa: F401  (pytest fixtures)
    browser,
    morris_move,
    open_table,
    page,
    server,
    shot,
    wait_turn_or_end,
)


def test_a_bot_move_is_described_and_marked_on_the_board(page: Page, server: str) -> None:
    open_table(page, server, "morris", {1: "random"})
    page.wait_for_selector(".morris svg")
    wait_turn_or_end(page)
    morris_move(page)
    wait_turn_or_end(page)
    last = page.locator("#log li.last")
    expect(last).to_have_text(re.compile(r"^Black placed a (circle|triangle) on point \d"))
    expect(page.locator("#last-move")).to_have_text(last.inner_text())
    marked = page.locator(".morris .point.last-move")
    expect(marked).to_have_count(1)
    point = marked.get_attribute("data-point")
    assert f"on point {point}" in last.inner_text()
    expect(page.locator("#log li").first).to_have_text(re.compile(r"^You placed a "))
    expect(page.locator("#seats")).to_contain_text("Bot (random)")
    shot(page, "table-last-move")


def test_the_end_panel_speaks_from_the_players_side(page: Page, server: str) -> None:
    open_table(page, server, "morris", {1: "random"})
    page.wait_for_selector(".morris svg")
    moves = 0
    while wait_turn_or_end(page):
        morris_move(page)
        moves += 1
        assert moves < 200
    panel = page.locator("#outcome")
    expect(panel).to_be_visible()
    expect(page.locator("#end-title")).to_have_text(
        re.compile(r"^(You won!|You lost: Black won|A draw)$")
    )
    expect(page.locator("#end-reason")).to_have_text(
        re.compile(r"\((three of one colour|a position repeated|no legal move)")
    )
    expect(panel.locator(".end-scores li")).to_have_count(2)
    expect(panel.get_by_role("link", name="Replay")).to_have_attribute(
        "href", re.compile(r"\?replay=1$")
    )
    expect(panel.get_by_role("link", name="New game")).to_have_attribute("href", "/")
    shot(page, "table-end-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "table-end-390")
