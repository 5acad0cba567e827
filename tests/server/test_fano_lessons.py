"""End-to-end: every Fano lesson completed in Debian's Chromium by clicking cards, the hint, a
wrong move, text typed in, and the pages on a desktop and a phone screen (screenshots in
``build/screenshots/``).

The server, the browser and the page come from the browser tests' fixtures.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from fanfold.games.fano.lessons import LESSONS
from fanfold.server.lessons import BOOKS, move_label
from tests.server.test_browser import browser, page, server, shot

__all__ = ["browser", "page", "server"]  # fixtures used by name below

CARD = re.compile(r"(?<![A-Za-z0-9])[A2-9T][CDHS](?![A-Za-z0-9])")


def keys(move: str) -> list[str]:
    """The cards a player points at on the Fano board for ``move``, in order: attacker and
    target, the two cards combined, the recruit and its two recruiters, the card played, the
    cards substituted or discarded. Promotions and counters are buttons of their own."""
    cards = list(dict.fromkeys(CARD.findall(move)))
    if move.startswith(("promote", "counter")):
        return []
    if ">" in move or "+" in move:
        return cards[:2]
    return cards


def click_move(page: Page, move: str, step: int) -> None:
    """Point at the move's cards on the board, then choose it among the moves offered (an
    attack whose target allows only one goes at once)."""
    for card in keys(move):
        page.click(f"#board .card[data-card='{card}'][role=button]")
    answered = page.locator(f"#explanation[data-step='{step}']")
    offered = page.locator(f"#board button[data-action='{move}']")
    answered.or_(offered).first.wait_for()
    if not answered.count():
        offered.click()


def test_every_lesson_is_completed_by_clicking(page: Page, server: str) -> None:
    for number, lesson in enumerate(LESSONS):
        page.goto(f"{server}/learn/fano/{lesson.id}")
        expect(page.locator("#prompt")).to_have_text(lesson.steps[0].prompt)
        for index, step in enumerate(lesson.steps):
            expect(page.locator("#prompt")).to_have_text(step.prompt)
            click_move(page, step.answers[0], index)
            expect(page.locator("#explanation")).to_contain_text(step.explanation)
            if index + 1 < len(lesson.steps):
                expect(page.locator("#prompt")).to_have_text(lesson.steps[index + 1].prompt)
        expect(page.locator("#summary")).to_have_text(lesson.summary)
        if number + 1 < len(LESSONS):
            expect(page.locator("#next-lesson")).to_have_attribute(
                "href", f"/learn/fano/{LESSONS[number + 1].id}"
            )
        else:
            expect(page.locator("#next-lesson")).to_have_count(0)
        if lesson.id == "classic-3":
            shot(page, "fano-lesson-done")
    page.goto(f"{server}/learn/fano")
    expect(page.locator(".lesson-list li.done")).to_have_count(len(LESSONS))


def test_hint_wrong_moves_and_typed_moves(page: Page, server: str) -> None:
    lesson = LESSONS[1]  # classic example 2
    step = lesson.steps[0]
    page.goto(f"{server}/learn/fano/{lesson.id}")
    expect(page.locator("#hint")).to_be_hidden()
    page.click("#hint-button")
    expect(page.locator("#hint")).to_contain_text(step.hint)
    click_move(page, "AH+4H=5H", 0)  # legal, but the ace is not kept
    expect(page.locator("#verdict")).to_have_class(re.compile("other"))
    expect(page.locator("#verdict")).to_contain_text(step.mistakes[0].note)
    page.click("#advanced summary")  # typing a move in notation is folded away
    expect(page.locator("#typed")).to_have_attribute("placeholder", "e.g. 4H>6C:3H")
    page.fill("#typed", "attack the six")
    page.click("#try")
    expect(page.locator("#verdict")).to_have_class(re.compile("illegal"))
    expect(page.locator("#verdict")).not_to_be_empty()
    page.fill("#typed", "4H>6C:2H")
    page.click("#try")
    expect(page.locator("#verdict")).to_contain_text("Not allowed: 4 -> 6 needs a 3 in hand")
    expect(page.locator("#prompt")).to_have_text(step.prompt)  # nothing moved on
    page.fill("#typed", "4h+1h=5h return 1h")  # any spelling the notation reads
    page.click("#try")
    expect(page.locator("#explanation")).to_contain_text(step.explanation)
    expect(page.locator("#prompt")).to_have_text(lesson.steps[1].prompt)


def test_the_answer_on_request(page: Page, server: str) -> None:
    lesson = LESSONS[0]
    step = lesson.steps[0]
    page.goto(f"{server}/learn/fano/{lesson.id}")
    expect(page.locator("#answer")).to_be_hidden()
    page.click("#answer-button")
    # the move in words, as the board's buttons say it, not in notation
    label = move_label(BOOKS["fano"], lesson, 0, step.answers[0])
    assert label is not None
    expect(page.locator("#answer")).to_contain_text(f"The move: {label}.")
    expect(page.locator("#answer")).not_to_contain_text(step.answers[0])
    expect(page.locator("#answer")).to_contain_text(step.explanation)
    expect(page.locator("#typed")).to_have_value(step.answers[0])
    shot(page, "fano-lesson-answer")
    page.click("#advanced summary")
    page.click("#try")  # the answer shown is filled in: trying it moves the lesson on
    expect(page.locator("#explanation")).to_contain_text(step.explanation)


@pytest.mark.parametrize(("name", "width", "height"), [("desktop", 1280, 800), ("phone", 390, 844)])
def test_lessons_fit_the_screen(
    browser: Browser, server: str, name: str, width: int, height: int
) -> None:
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=name == "phone",
        has_touch=name == "phone",
    )
    try:
        page = context.new_page()
        page.goto(f"{server}/learn/fano")
        expect(page.locator(".lesson-list li")).to_have_count(len(LESSONS))
        shot(page, f"fano-lessons-{name}")
        page.click("[data-lesson='classic-2']")
        page.wait_for_selector("#prompt")
        page.click("#board .card[data-card='AH'][role=button]")
        page.click("#board .card[data-card='4H'][role=button]")
        page.click("#hint-button")
        overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"the lesson is {overflow} px wider than the {name} screen"
        shot(page, f"fano-lesson-{name}")
    finally:
        context.close()
