"""Every game played by keyboard alone, in Chromium: Tab onto the board, the arrow keys among
its choices, Enter or Space to choose, Escape to let go of a selection; the focus is visible
and stays on the board when it is drawn again (fixtures and helpers from ``test_browser``)."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.server.test_browser import (  # noqa: F401  (pytest fixtures)
    browser,
    log_length,
    open_table,
    page,
    server,
    shot,
    wait_turn_or_end,
)

ON_BOARD = "() => document.querySelector('#game').contains(document.activeElement)"


def focused_matches(page: Page, selector: str) -> bool:
    found: bool = page.evaluate(
        "(selector) => !!document.activeElement && document.activeElement.matches(selector)",
        selector,
    )
    return found


def reach(page: Page, selector: str) -> None:
    """Move the focus with the keyboard only onto something matching ``selector`` on the
    board: Tab until the board has the focus, then the arrow keys."""
    for _ in range(40):
        if page.evaluate(ON_BOARD):
            break
        page.keyboard.press("Tab")
    assert page.evaluate(ON_BOARD), "Tab never reached the board"
    for _ in range(150):
        if focused_matches(page, selector):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"the arrow keys never reached {selector}")


def choose(page: Page, selector: str, key: str = "Enter") -> None:
    reach(page, selector)
    page.keyboard.press(key)


def focus_ring(page: Page) -> str:
    """The focused thing's outline (or an SVG point's stroke): the visible focus ring."""
    ring: str = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return s.outlineStyle !== 'none' && s.outlineWidth !== '0px'"
        " ? s.outlineColor : s.stroke; }"
    )
    return ring


def test_morris_whole_game_by_keyboard(page: Page, server: str) -> None:
    open_table(page, server, "morris", {1: "random"})
    page.wait_for_selector(".morris svg")
    moves = 0
    while wait_turn_or_end(page):
        before = log_length(page)
        if page.locator(".hand-pick button:not([disabled])").count():
            choose(page, ".hand-pick button:not([disabled])")
            expect(page.locator(".morris .point.target").first).to_be_visible()
            if moves == 0:
                # Escape lets go of the shape; the targets go out
                page.keyboard.press("Escape")
                expect(page.locator(".morris .point.target")).to_have_count(0)
                choose(page, ".hand-pick button:not([disabled])", " ")
        else:
            choose(page, ".morris .point.source")
        reach(page, ".morris .point.target")
        assert focus_ring(page) == "rgb(255, 221, 0)"
        if moves == 0:
            shot(page, "keyboard-morris-focus")
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
        moves += 1
        assert moves < 200
    expect(page.locator("#outcome")).to_be_visible()


def test_fantan_whole_game_by_keyboard(page: Page, server: str) -> None:
    open_table(page, server, "fantan", {1: "random", 2: "random", 3: "random"}, seed="7")
    page.wait_for_selector(".ft-rows")
    plays = 0
    while wait_turn_or_end(page):
        before = log_length(page)
        if page.locator(".hand .card.playable").count():
            reach(page, ".hand .card.playable")
            assert focus_ring(page) == "rgb(255, 221, 0)"
            if plays < 2:
                shot(page, "keyboard-fantan-focus")
            page.keyboard.press("Enter")
        else:
            choose(page, "[data-action=pass]")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
        plays += 1
        assert plays < 200
    expect(page.locator("#outcome")).to_be_visible()


def test_fan_moves_by_keyboard(page: Page, server: str) -> None:
    open_table(page, server, "fan", {}, seed="2")
    page.wait_for_selector(".fans")
    for move in range(4):
        wait_turn_or_end(page)
        before = log_length(page)
        choose(page, ".fan .card.playable")
        expect(page.locator(".fan .card.selected").first).to_be_visible()
        if move == 0:  # Escape lets go of the chosen card
            page.keyboard.press("Escape")
            expect(page.locator(".fan .card.selected")).to_have_count(0)
            choose(page, ".fan .card.playable", " ")
        reach(page, ".fan.target, .fan-top.target")
        assert focus_ring(page) == "rgb(255, 221, 0)"
        if move == 0:
            shot(page, "keyboard-fan-focus")
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
    expect(page.locator("#log li")).to_have_count(4)


def test_fano_turns_by_keyboard(page: Page, server: str) -> None:
    open_table(page, server, "fano", {1: "random"}, seed="11")
    page.wait_for_selector(".fano")
    for _ in range(4):
        if not wait_turn_or_end(page):
            break
        before = log_length(page)
        if page.locator(".fano .card.playable").count():
            choose(page, ".fano .card.playable")
            expect(page.locator(".fano .card.selected")).to_have_count(1)
        choose(page, "button[data-action]")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
    assert log_length(page) >= 4
