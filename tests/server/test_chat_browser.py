"""Chat at the table in Chromium: two signed-in players at one table, each in a browser of
their own, chat; a line of markup shows as text and runs nothing; one mutes the other (the
lines are hidden, and stay hidden after a reload); one reports a line, which a moderator then
reads with its context on the moderators' page; the chat switch turns chat off; axe finds
nothing serious with the chat open, on a desktop and on a phone (screenshots in the test's
folder)."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Dialog, Page, expect

from fanfold.server.app import create_app
from tests.server.support import ROOMY, sqlite_url, uvicorn_thread
from tests.server.test_browser import browser  # noqa: F401  (a fixture, by name)
from tests.server.test_moderation import moderate
from tests.server.test_site_browser import SIZES, serious_violations

MARKUP = "<script>alert(1)</script><b>bold</b>"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A running server on a new SQLite file: its address and the store's URL."""
    url = sqlite_url(tmp_path)
    app = create_app(url, bot_seconds=0.2, limits=ROOMY)
    with uvicorn_thread(app) as port:
        yield f"http://127.0.0.1:{port}", url


def person(browser: Browser, server: str, name: str) -> BrowserContext:
    """A browser of its own with ``name``'s new account signed in."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    made = context.request.post(
        f"{server}/api/accounts", data={"name": name, "password": "correct horse"}
    )
    assert made.ok, made.text()
    return context


def csrf(context: BrowserContext) -> dict[str, str]:
    token = next(c["value"] for c in context.cookies() if c["name"] == "fanfold_csrf")
    return {"X-Fanfold-CSRF": token}


def watched(context: BrowserContext, dialogs: list[str], errors: list[str]) -> Page:
    page = context.new_page()

    def dialog_shown(dialog: Dialog) -> None:  # an alert() run by a line would show one
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dialog_shown)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def chat_texts(page: Page) -> list[str]:
    texts: list[str] = page.locator("#chat-log .chat-text").all_text_contents()
    return texts


def test_two_players_chat_mute_and_report_and_a_moderator_reads_it(
    browser: Browser, site: tuple[str, str], tmp_path: Path
) -> None:
    server, url = site
    alice, bob = person(browser, server, "alice"), person(browser, server, "bob")
    mona = person(browser, server, "mona")
    dialogs: list[str] = []
    errors: list[str] = []
    try:
        created = alice.request.post(
            f"{server}/api/tables",
            data={"game": "morris", "seats": ["you", "friend"]},
            headers=csrf(alice),
        )
        assert created.ok, created.text()
        table, token = created.json()["table"], created.json()["token"]
        invite = created.json()["invites"]["1"]
        claimed = bob.request.post(
            f"{server}/api/tables/{table}/claim", data={"invite": invite}, headers=csrf(bob)
        )
        assert claimed.ok, claimed.text()
        first, second = watched(alice, dialogs, errors), watched(bob, dialogs, errors)
        first.goto(f"{server}/table/{table}#token={token}")
        second.goto(f"{server}/table/{table}#token={claimed.json()['token']}")
        for page in (first, second):
            expect(page.locator("#chat")).to_be_visible()
            expect(page.get_by_role("log")).to_be_visible()
            expect(page.locator("#chat-note")).to_contain_text("Everyone at the table")

        box = first.get_by_label("Message")
        box.fill(MARKUP)
        box.press("Enter")
        for page in (first, second):
            expect(page.locator("#chat-log .chat-text")).to_have_text([MARKUP])
            expect(page.locator("#chat-log .chat-name")).to_have_text(["alice"])
            assert page.locator("#chat-log script, #chat-log b").count() == 0  # text, not markup
        second.get_by_label("Message").fill("hello alice")
        second.get_by_role("button", name="Send").click()
        expect(first.locator("#chat-log .chat-text")).to_have_text([MARKUP, "hello alice"])

        # Alice mutes bob: his lines go, and the next one never shows; after a reload too.
        first.get_by_role("button", name="Mute bob").click()
        expect(first.locator("#chat-log .chat-text")).to_have_text([MARKUP])
        expect(first.locator("#chat-said")).to_contain_text("bob is muted")
        second.get_by_label("Message").fill("are you there?")
        second.get_by_label("Message").press("Enter")
        expect(second.locator("#chat-log .chat-text")).to_have_text(
            [MARKUP, "hello alice", "are you there?"]
        )
        first.reload()
        expect(first.locator("#chat-log .chat-text")).to_have_text([MARKUP])  # the room's lines
        expect(first.get_by_role("button", name="Unmute bob")).to_be_visible()

        for size, (width, height) in SIZES.items():
            second.set_viewport_size({"width": width, "height": height})
            second.locator("#chat").scroll_into_view_if_needed()
            second.screenshot(path=str(tmp_path / f"chat-{size}.png"), full_page=True)
            found: list[Any] = serious_violations(second)
            assert not found, (size, found)

        # Bob reports alice's line; the moderator reads it with the lines around it.
        second.get_by_role("button", name="Report alice's line").click()
        expect(second.locator("#chat-said")).to_contain_text("Reported alice's line")
        granted = moderate("grant", "mona", "--db", url, "--note", "reads the chat reports")
        assert granted.exit_code == 0, granted.output
        desk = watched(mona, dialogs, errors)
        desk.goto(f"{server}/moderation")
        rows = desk.locator("#chat-reports tbody tr")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("bob (seat 2")
        reported = rows.first.locator(".reported")
        expect(reported).to_have_text(f"alice (seat 1, players' room): {MARKUP}")
        expect(rows.first.locator("li")).to_have_count(3)
        desk.screenshot(path=str(tmp_path / "chat-moderation.png"), full_page=True)

        # The switch: chat off shows nothing, and is remembered.
        first.get_by_label("Show chat").uncheck()
        expect(first.locator("#chat-body")).to_be_hidden()
        assert first.locator("#chat-log li").count() == 0
        second.get_by_label("Message").fill("one more")
        second.get_by_label("Message").press("Enter")
        expect(second.locator("#chat-log .chat-text")).to_have_count(4)
        assert first.locator("#chat-log li").count() == 0
        first.reload()
        expect(first.get_by_label("Show chat")).not_to_be_checked()
        expect(first.locator("#chat-body")).to_be_hidden()
        first.get_by_label("Show chat").check()
        expect(first.locator("#chat-log .chat-text")).to_have_text([MARKUP])  # bob still muted
    finally:
        for context in (alice, bob, mona):
            context.close()
    assert not dialogs, f"a line ran as a script: {dialogs}"
    assert not errors, f"errors in the pages: {errors}"


def test_a_rated_table_of_three_offers_the_preset_phrases_only(
    browser: Browser, site: tuple[str, str], tmp_path: Path
) -> None:
    server, _ = site
    alice, bob = person(browser, server, "alice"), person(browser, server, "bob")
    dialogs: list[str] = []
    errors: list[str] = []
    try:
        created = alice.request.post(
            f"{server}/api/tables",
            data={
                "game": "fantan",
                "players": 3,
                "seats": ["you", "friend", "easy"],
                "rated": True,
            },
            headers=csrf(alice),
        )
        assert created.ok, created.text()
        table, token = created.json()["table"], created.json()["token"]
        claimed = bob.request.post(
            f"{server}/api/tables/{table}/claim",
            data={"invite": created.json()["invites"]["1"]},
            headers=csrf(bob),
        )
        assert claimed.ok, claimed.text()
        bob.add_cookies([{"name": "lang", "value": "fr", "url": server}])  # bob reads French
        first, second = watched(alice, dialogs, errors), watched(bob, dialogs, errors)
        first.goto(f"{server}/table/{table}#token={token}")
        second.goto(f"{server}/table/{table}#token={claimed.json()['token']}")
        phrases = first.get_by_role("group", name="Phrases")
        expect(phrases).to_be_visible()
        expect(first.locator("#chat-form")).to_be_hidden()  # no free text until the end
        expect(first.locator("#chat-note")).to_contain_text("only these phrases")
        # the phrases in each reader's language: said by its key, read in French by bob
        expect(second.get_by_role("group", name="Phrases").get_by_role("button")).to_contain_text(
            ["Bonjour", "Bonne chance"]
        )
        phrases.get_by_role("button", name="Good luck").click()
        expect(first.locator("#chat-log .chat-text")).to_have_text(["Good luck"])
        expect(second.locator("#chat-log .chat-text")).to_have_text(["Bonne chance"])
        first.screenshot(path=str(tmp_path / "chat-phrases.png"), full_page=True)
        second.screenshot(path=str(tmp_path / "chat-phrases-fr.png"), full_page=True)
    finally:
        alice.close()
        bob.close()
    assert not dialogs
    assert not errors, f"errors in the pages: {errors}"


def test_a_spectators_own_lines_offer_no_mute_nor_report_and_a_moderator_settles_a_report(
    browser: Browser, site: tuple[str, str], tmp_path: Path
) -> None:
    server, url = site
    alice, carol = person(browser, server, "alice"), person(browser, server, "carol")
    dave, mona = person(browser, server, "dave"), person(browser, server, "mona")
    dialogs: list[str] = []
    errors: list[str] = []
    try:
        created = alice.request.post(
            f"{server}/api/tables",
            data={"game": "morris", "seats": ["you", "random"]},
            headers=csrf(alice),
        )
        assert created.ok, created.text()
        table = created.json()["table"]
        watching, other = watched(carol, dialogs, errors), watched(dave, dialogs, errors)
        for page in (watching, other):
            page.goto(f"{server}/table/{table}")
            expect(page.get_by_label("Message")).to_be_visible()
        watching.get_by_label("Message").fill("carol watching")
        watching.get_by_label("Message").press("Enter")
        for page in (watching, other):
            expect(page.locator("#chat-log .chat-text")).to_have_text(["carol watching"])
        # Her own line offers carol neither Mute nor Report; dave is offered both.
        expect(watching.locator("#chat-log button")).to_have_count(0)
        watching.reload()  # the room's lines again: still her own
        expect(watching.locator("#chat-log .chat-text")).to_have_text(["carol watching"])
        expect(watching.locator("#chat-log button")).to_have_count(0)
        expect(other.get_by_role("button", name="Mute carol")).to_be_visible()
        other.get_by_role("button", name="Report carol's line").click()
        expect(other.locator("#chat-said")).to_contain_text("Reported carol's line")

        # The moderator settles it with a note: it leaves the list, and the log says so.
        granted = moderate("grant", "mona", "--db", url, "--note", "reads the chat reports")
        assert granted.exit_code == 0, granted.output
        desk = watched(mona, dialogs, errors)
        desk.goto(f"{server}/moderation")
        rows = desk.locator("#chat-reports tbody tr")
        expect(rows).to_have_count(1)
        for size, (width, height) in SIZES.items():
            desk.set_viewport_size({"width": width, "height": height})
            desk.locator("#chat-reports").scroll_into_view_if_needed()
            desk.screenshot(path=str(tmp_path / f"chat-settle-{size}.png"), full_page=True)
        desk.set_viewport_size({"width": 1280, "height": 900})
        desk.locator("#note").fill("a spectator's remark; nothing to do")
        rows.first.get_by_role("button", name="Settle").click()
        expect(rows).to_have_count(0)
        expect(desk.locator("#no-chat-reports")).to_be_visible()
        expect(desk.locator("#log tbody tr").first).to_contain_text("chat report")
        expect(desk.locator("#log tbody tr").first).to_contain_text("carol")
    finally:
        for context in (alice, carol, dave, mona):
            context.close()
    assert not dialogs
    assert not errors, f"errors in the pages: {errors}"
