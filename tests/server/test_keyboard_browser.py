"""Every game played by keyboard alone, in Chromium: Tab onto the board, the arrow keys among
its choices, Enter or Space to choose, Escape to let go of a selection; the focus is visible
and stays on the board when it is drawn again (fixtures and helpers from ``test_browser``)."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect

from fanfold.server.lessons import BOOKS
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
    ended_by_keyboard(page)
    shot(page, "keyboard-morris-end")


def ended_by_keyboard(page: Page) -> None:
    """A game played by keyboard has ended: the focus is on the end panel's title (it says
    who won; Tab goes on to its buttons), not on the board drawn as a frame, and the board is
    as tall as its drawing, not the side column's height."""
    page.wait_for_function("() => document.activeElement?.id === 'end-title'")
    board = page.evaluate(
        """() => {
            const game = document.querySelector('#game');
            const board = document.querySelector('#board').getBoundingClientRect();
            return { board: board.height, game: game.getBoundingClientRect().height,
                     ring: getComputedStyle(game).boxShadow };
        }"""
    )
    assert board["ring"] == "none", board
    assert board["board"] <= max(320, board["game"] + 60), board
    page.keyboard.press("Tab")
    inside = "() => document.querySelector('#outcome').contains(document.activeElement)"
    assert page.evaluate(inside)


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


#: A Fan deal near its end (every jack home, a king and a queen left in four fans, each queen
#: on a king of another suit): eight moves by keyboard finish it.
FAN_ENDGAME = "KSQH/KHQS/KDQC/KCQD" + "/-" * 14 + " JJJJ"


def test_fan_whole_deal_by_keyboard(page: Page, server: str) -> None:
    created = httpx.post(
        f"{server}/api/tables",
        json={"game": "fan", "seats": ["you"], "position": FAN_ENDGAME},
        timeout=10,
    )
    assert created.status_code == 200, created.text
    page.goto(f"{server}/table/{created.json()['table']}#token={created.json()['token']}")
    page.wait_for_selector(".fans")
    moves = 0
    while wait_turn_or_end(page):
        before = log_length(page)
        choose(page, ".fan .card.playable")
        expect(page.locator(".fan .card.selected").first).to_be_visible()
        if moves == 0:  # Escape lets go of the chosen card
            page.keyboard.press("Escape")
            expect(page.locator(".fan .card.selected")).to_have_count(0)
            choose(page, ".fan .card.playable", " ")
        reach(page, ".fan.target, .fan-top.target")
        assert focus_ring(page) == "rgb(255, 221, 0)"
        if moves == 0:
            shot(page, "keyboard-fan-focus")
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
        moves += 1
        assert moves <= 8
    assert moves == 8
    expect(page.locator("#end-title")).to_have_text("You won!")
    expect(page.locator("#end-reason")).to_have_text("All 52 cards are on the foundations.")
    assert "null" not in page.locator("#game").inner_text()  # a set position has no deal number
    ended_by_keyboard(page)
    shot(page, "keyboard-fan-end")


def test_fano_whole_game_by_keyboard(page: Page, server: str) -> None:
    """A two-suit game against a random bot, cut to two turns each by the turn limit option:
    every decision chosen by keyboard (a card, then one of the moves it offers), to the end."""
    page.goto(f"{server}/")
    page.click("[data-game=fano]")
    page.select_option("#variant", "two-suit")
    page.select_option("#seat-1", "random")
    page.fill("#options", "turns_per_player=2")
    page.fill("#seed", "11")
    page.click("#start")
    page.wait_for_url(re.compile(r"/table/"))
    page.wait_for_selector(".fano")
    decisions = 0
    while wait_turn_or_end(page):
        before = log_length(page)
        if page.locator(".fano .card.playable").count():
            choose(page, ".fano .card.playable")
            expect(page.locator(".fano .card.selected")).to_have_count(1)
        # what the chosen card offers (a primary button) before any other move, such as a pass
        offered = "button[data-action].primary"
        choose(page, offered if page.locator(offered).count() else "button[data-action]")
        page.wait_for_function(
            f"() => document.querySelectorAll('#log li').length > {before}"
            " || !document.querySelector('#outcome').hidden"
        )
        decisions += 1
        assert decisions < 60
    assert decisions >= 2
    last = page.locator(".fano .last")
    if last.count():  # each seat's last action in words, never notation
        assert not re.search(r"\b[2-9TJQKA][SHDC]\b", last.first.inner_text())
    expect(page.locator("#outcome")).to_be_visible()
    expect(page.locator("#end-reason")).to_contain_text("turn limit")
    shot(page, "keyboard-fano-end")


def test_a_lesson_by_keyboard_alone(page: Page, server: str) -> None:
    """Fan's first lesson with the keys only: Tab onto the board once, then the arrow keys and
    Enter; after each move the focus stays on the board (never the page's top), and at the end
    it is on the next lesson's link, under a sentence that says the lesson is done."""
    book = BOOKS["fan"]
    lesson = book.lessons[0]
    page.goto(f"{server}/learn/fan/{lesson.id}")
    page.wait_for_selector("#board #game .card")
    keys = 0

    def press(key: str) -> None:
        nonlocal keys
        page.keyboard.press(key)
        keys += 1

    def to(selector: str) -> None:
        """Tab onto the board, then the arrow key the shorter way round to ``selector``."""
        for _ in range(60):
            if focused_matches(page, selector):
                return
            if not page.evaluate(ON_BOARD):
                press("Tab")
                continue
            ahead: int = page.evaluate(
                """(selector) => {
                  const all = [...document.querySelectorAll('#game [tabindex="0"], #game button')]
                    .filter((node) => node.getClientRects().length);
                  const at = all.indexOf(document.activeElement);
                  const goal = all.findIndex((node) => node.matches(selector));
                  return (goal - at + all.length) % all.length <= all.length / 2 ? 1 : -1;
                }""",
                selector,
            )
            press("ArrowRight" if ahead > 0 else "ArrowLeft")
        raise AssertionError(f"the keys never reached {selector}")

    for index, step in enumerate(lesson.steps):
        expect(page.locator("#prompt")).to_have_text(step.prompt)
        choice = next(
            c for c in book.game.choices(book.state(lesson, index)) if c.text == step.answers[0]
        )
        source, target = choice.points
        count = int(str(choice.details["count"]))
        to(f".card[data-focus='{source}:{count}']")
        press("Enter")
        expect(page.locator(".card.selected")).to_have_count(count)
        assert page.evaluate(ON_BOARD), "choosing a card took the focus off the board"
        to(f"[data-ref='{target}'][role=button]")
        press("Enter")
        expect(page.locator(f"#explanation[data-step='{index}']")).to_be_visible()
        if index < len(lesson.steps) - 1:
            page.wait_for_function(ON_BOARD)  # the next step's board, not the page's top
            assert page.evaluate("window.scrollY") > 0 or page.evaluate(
                "document.activeElement.getBoundingClientRect().top >= 0"
            )
        if index == 0:
            shot(page, "lesson-by-keyboard")
    expect(page.locator("#summary")).to_have_text(lesson.summary)
    expect(page.locator(".question h2")).to_have_text("Lesson complete")
    expect(page.locator("#board")).not_to_contain_text("No moves left")
    page.wait_for_function("() => document.activeElement.matches('.question a')")
    assert keys <= 40, keys  # 97 before the arrow keys and the kept focus (34 now)
    shot(page, "lesson-by-keyboard-done")
