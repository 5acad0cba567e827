"""In Chromium: a table that does not exist, opened by a link with a token (a mistyped or
forged one), is a page that says so, and is not remembered in the lobby's "Your tables"; an
unknown address is the site's page, in the reader's language. Screenshots:
``build/screenshots/not-found-*.png``."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.server.test_browser import browser, page, server, shot  # noqa: F401  (fixtures)
from tests.server.test_site_browser import DEVELOPER, serious_violations, small_text


def _looks_right(page: Page) -> None:
    """No serious axe finding, no small text, no developer's words, nothing wider than the
    window."""
    assert serious_violations(page) == []
    assert small_text(page) == []
    assert not DEVELOPER.search(page.locator("main").inner_text())
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] if page.viewport_size else True


def test_a_table_that_does_not_exist_is_told_and_not_remembered(page: Page, server: str) -> None:
    for address in ("/table/x#token=forged", "/table/doesnotexist?replay=1#token=forged"):
        page.goto(f"{server}{address}")
        expect(page).to_have_title("Table not found · fanfold")
        expect(page.locator("h1")).to_have_text("Table not found")
        expect(page.locator("main")).to_contain_text(
            "This table does not exist (it may have ended long ago, or the link is mistyped)."
        )
        expect(page.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
        assert page.evaluate("localStorage.getItem('fanfold.tables')") is None
    _looks_right(page)
    shot(page, "not-found-table")
    page.get_by_role("link", name="Back to the lobby").click()
    expect(page.locator("#mine")).to_have_text("None yet.")
    assert page.evaluate("localStorage.getItem('fanfold.tables')") is None


def test_an_unknown_address_is_the_sites_page_in_french(browser: Browser, server: str) -> None:
    context = browser.new_context(locale="fr-FR", viewport={"width": 390, "height": 760})
    try:
        french = context.new_page()
        french.goto(f"{server}/nope")
        expect(french).to_have_title("Page introuvable · fanfold")
        expect(french.locator("html")).to_have_attribute("lang", "fr")
        expect(french.get_by_role("link", name="Retour au salon")).to_be_visible()
        _looks_right(french)
        shot(french, "not-found-page-fr-390")
        french.goto(f"{server}/how-to-play/chess")
        expect(french.locator("h1")).to_have_text("Ce jeu n\u2019existe pas")
        expect(french.get_by_role("link", name="Fan Tan")).to_have_attribute(
            "href", "/how-to-play/fantan"
        )
        _looks_right(french)
        shot(french, "not-found-game-fr-390")
        french.goto(f"{server}/learn/{'x' * 300}")
        expect(french.locator("h1")).to_have_text("Ces leçons n\u2019existent pas")
        _looks_right(french)
    finally:
        context.close()


def test_a_lobby_link_to_a_game_the_site_lacks_says_so(browser: Browser, server: str) -> None:
    """``/?game=chess`` (a mistyped or old link) says there is no such game, above the games to
    pick from, in the reader's language; a known game's link opens its setup with no word."""
    context = browser.new_context(locale="fr-FR", viewport={"width": 390, "height": 760})
    try:
        french = context.new_page()
        french.goto(f"{server}/?game=chess")
        expect(french.locator("#games-error")).to_have_text(
            "Il n\u2019y a pas de jeu appelé « chess » ici : choisissez l\u2019un de ceux-ci."
        )
        expect(french.locator("#setup")).to_be_hidden()
        _looks_right(french)
        french.goto(f"{server}/?game=fantan")
        expect(french.locator("#setup")).to_be_visible()
        expect(french.locator("#games-error")).to_have_text("")
    finally:
        context.close()
