"""Knowing it is your turn (issue 47, item 3), in Chromium: when the bot has answered and the
move is the player's again, the tab's title says so, a short sound plays and, with the tab
hidden and notifications allowed, a notification shows; the title goes back once the player
has moved; the Alerts panel turns the sound and the notifications off, remembered after a
reload (fixtures and helpers from ``test_browser``)."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.test_browser import (  # noqa: F401  (pytest fixtures)
    browser,
    morris_move,
    open_table,
    server,
    shot,
    wait_turn_or_end,
)

MARK = "● Your move — "

#: Run in the page before its own scripts: a Notification that records what it was asked to
#: show (the browser's own needs a display), a count of the beeps (oscillators made), every
#: title the tab had, window.focus counted, and the tab's visibility under the test's control
#: (``window.__hidden``; a visibilitychange event tells the page).
RECORDER = """
window.__notes = [];
window.__beeps = 0;
window.__focused = 0;
window.__titles = [];
window.__hidden = false;
class RecordedNotification {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) {
    this.title = title;
    this.body = (options || {}).body;
    this.tag = (options || {}).tag;
    this.onclick = null;
    this.closed = false;
    window.__notes.push(this);
  }
  close() { this.closed = true; }
}
window.Notification = RecordedNotification;
if (window.AudioContext) {
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    window.__beeps += 1;
    return make.call(this);
  };
}
const focus = window.focus.bind(window);
window.focus = () => { window.__focused += 1; focus(); };
Object.defineProperty(document, "hidden", { configurable: true, get: () => window.__hidden });
Object.defineProperty(document, "visibilityState", {
  configurable: true, get: () => (window.__hidden ? "hidden" : "visible"),
});
new MutationObserver(() => {
  const titles = window.__titles;
  if (document.title && titles[titles.length - 1] !== document.title) titles.push(document.title);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


@pytest.fixture
def alerted(browser: Browser) -> Iterator[Page]:
    """A page whose context has notifications granted, with the recorder above; page errors
    fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.grant_permissions(["notifications"])
    context.add_init_script(RECORDER)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"errors in the page: {errors}"


def _hide(page: Page, hidden: bool) -> None:
    page.evaluate(
        "(hidden) => { window.__hidden = hidden;"
        " document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


def _seen(page: Page, name: str) -> Any:
    return page.evaluate(f"() => window.{name}")


def _moved_and_answered(page: Page) -> bool:
    """The player's move, then the bot's answer: the move is the player's again (false: the
    game ended instead; a Morris game against a weak bot can end by the third move)."""
    morris_move(page)
    if not wait_turn_or_end(page):
        return False
    page.wait_for_function("() => document.title.startsWith('● Your move')")
    return True


def _alerts_over_one_game(page: Page, server: str, *, first: bool) -> bool:
    """The alerts over a new Morris game against ``random``: the title, the sound and, over a
    hidden tab, a notification (false: the game ended before the player's third move)."""
    open_table(page, server, "morris", {1: "random"})
    page.wait_for_selector(".morris svg")
    assert wait_turn_or_end(page)
    panel = page.locator("#alerts-panel")
    expect(panel).to_be_visible()
    expect(panel.get_by_role("group", name="Alerts on your move")).to_be_visible()
    sound = page.get_by_role("checkbox", name="Sound")
    notify = page.get_by_role("checkbox", name="Notifications")
    expect(sound).to_be_checked()  # the sound is on unless turned off
    if first:
        expect(notify).not_to_be_checked()  # notifications wait for the player's word
        notify.check()
        expect(page.locator("#alerts-said")).to_have_text(
            "A notification comes when it is your move and this tab is hidden."
        )
    expect(notify).to_be_checked()  # remembered from the first game
    page.wait_for_function("() => document.title.startsWith('● Your move')")
    title = page.title()
    base = title.removeprefix(MARK)
    assert base.endswith(": fanfold")
    assert base != title

    # seen: the title changes, the sound plays, no notification over a visible tab
    if not _moved_and_answered(page):
        return False
    titles = _seen(page, "__titles")
    after = titles[titles.index(title) :]
    assert base in after, f"the title did not go back after the move: {titles}"
    assert after[-1] == title
    assert _seen(page, "__beeps") == 1
    assert _seen(page, "__notes.length") == 0

    # hidden: a notification, closed once the player has moved, and its click focuses the tab
    _hide(page, True)
    if not _moved_and_answered(page):
        _hide(page, False)
        return False
    notes = page.evaluate(
        "() => window.__notes.map((n) => ({ title: n.title, body: n.body, tag: n.tag }))"
    )
    assert len(notes) == 1, notes
    assert notes[0]["title"] == "Your move"
    assert notes[0]["body"] == f"{base.removesuffix(': fanfold')}: it is your move."
    assert notes[0]["tag"].startswith("fanfold-turn-")
    assert _seen(page, "__beeps") == 2
    page.evaluate("() => window.__notes[0].onclick()")
    assert _seen(page, "__focused") == 1
    assert _seen(page, "__notes[0].closed")
    _hide(page, False)
    return True


def test_the_bots_answer_changes_the_title_beeps_and_notifies_a_hidden_tab(
    alerted: Page, server: str
) -> None:
    page = alerted
    # A game that ends before the player's third move shows no more alerts: another is opened.
    games = 6
    assert any(_alerts_over_one_game(page, server, first=game == 0) for game in range(games)), (
        f"{games} Morris games in a row ended before the player's third move"
    )
    notify = page.get_by_role("checkbox", name="Notifications")
    page.set_viewport_size({"width": 1280, "height": 860})
    shot(page, "table-alerts-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    notify.scroll_into_view_if_needed()
    box = notify.bounding_box()
    assert box is not None
    assert box["width"] >= 24
    assert box["height"] >= 24
    shot(page, "table-alerts-390")


def test_with_the_alerts_off_only_the_title_changes_and_the_choice_is_remembered(
    alerted: Page, server: str
) -> None:
    page = alerted
    open_table(page, server, "morris", {1: "random"})
    page.wait_for_selector(".morris svg")
    assert wait_turn_or_end(page)
    sound = page.get_by_role("checkbox", name="Sound")
    notify = page.get_by_role("checkbox", name="Notifications")
    notify.check()  # on, then off again: no notification
    expect(notify).to_be_checked()
    notify.focus()
    page.keyboard.press("Space")  # by keyboard
    expect(notify).not_to_be_checked()
    expect(page.locator("#alerts-said")).to_have_text("No notifications.")
    sound.focus()
    page.keyboard.press("Space")
    expect(sound).not_to_be_checked()
    expect(page.locator("#alerts-said")).to_have_text("No sound.")
    _hide(page, True)
    answered = _moved_and_answered(page)
    assert _seen(page, "__notes.length") == 0
    assert _seen(page, "__beeps") == 0
    if answered:  # (not when the game ended at once)
        assert page.title().startswith(MARK)  # the title is no setting

    page.reload()
    page.wait_for_selector(".morris svg")
    expect(sound).not_to_be_checked()
    expect(notify).not_to_be_checked()
    assert page.evaluate("() => JSON.parse(localStorage.getItem('fanfold.alerts'))") == {
        "sound": False,
        "notify": False,
    }


def test_a_watcher_has_no_alerts_panel(alerted: Page, server: str) -> None:
    page = alerted
    open_table(page, server, "morris", {1: "random"})
    page.wait_for_selector(".morris svg")
    table = page.url.split("#")[0]
    page.evaluate("() => localStorage.clear()")  # the seat's token forgotten: a watcher
    page.goto(table)
    page.wait_for_selector(".morris svg")
    expect(page.locator("#alerts-panel")).to_be_hidden()
    assert not page.title().startswith(MARK)
