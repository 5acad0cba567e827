"""The dark theme (issue 47): every page follows the system's choice (``prefers-color-scheme``)
or the player's, made with a switch in its header (light, dark or the system's), remembered in
the browser and said to screen readers; the choice is on the page before its first paint (a
plain script in the head, before the style sheet: the site's policy allows no inline one).
Screenshots of the switch go to ``build/screenshots/``."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect

from fanfold.server.app import create_app
from fanfold.server.static_files import static_url
from tests.server.test_browser import browser, server, shot  # noqa: F401  (pytest fixtures)
from tests.server.test_site_browser import SIZES

STATIC = Path(__file__).resolve().parents[2] / "src" / "fanfold" / "server" / "static"

#: A page of each kind the site serves: its own files and the pages its routes draw.
PAGES = [
    "/",
    "/table/nothing-here",
    "/learn/fan",
    "/learn/fan/first-moves",
    "/account",
    "/appeal",
    "/moderation",
    "/how-to-play/fan",
    "/rules/fan/exact",
    "/leaderboard/fantan",
    "/daily",
    "/players/nobody",
    "/bots/fantan/hard",
]

THEME_SCRIPT = f'<script src="{static_url("theme.js")}"></script>'


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("theme") / "fanfold.db"
    with TestClient(create_app(f"sqlite:///{database}")) as made:
        yield made


@pytest.mark.parametrize("path", PAGES)
def test_every_page_sets_its_theme_before_its_style_sheet(client: TestClient, path: str) -> None:
    page = client.get(path).text.replace("'", '"')
    head = page.split("</head>")[0]
    assert THEME_SCRIPT in head, path  # a plain script: neither deferred nor a module
    assert head.index(THEME_SCRIPT) < head.index('<link rel="stylesheet"'), path


def _block(css: str, start: str) -> dict[str, str]:
    body = css[css.index(start) + len(start) :]
    body = body[: body.index("}")]
    return dict(re.findall(r"(--[\w-]+|color-scheme):\s*([^;]*);", body))


BOTH = re.compile(r"var\(--light, ([^()]+)\) var\(--dark, ([^()]+)\)")
SWITCHES = {"color-scheme": "dark", "--light": "", "--dark": "initial"}


def test_the_dark_colours_are_one_set() -> None:
    """Every themed colour is written once, with its light and its dark value; the player's
    dark theme and the system's switch the same two properties; the colours that are not
    themed are kept on purpose (the accent, the card ink, the sizes)."""
    css = (STATIC / "fanfold.css").read_text(encoding="utf-8")
    light = _block(css, ":root {")
    themed = {name: BOTH.fullmatch(value) for name, value in light.items()}
    kept = {"--accent", "--on-accent", "--card-ink", "--card-w", "--card-h"}
    plain = {name for name, found in themed.items() if found is None}
    assert plain == kept | {"color-scheme", "--light", "--dark"}
    assert (light["color-scheme"], light["--light"], light["--dark"]) == ("light", "initial", "")
    assert len(themed) - len(plain) == 25
    for name in themed.keys() - plain:
        assert css.count(f"{name}:") == 1, name  # written once, not once a theme
    chosen = _block(css, ':root[data-theme="dark"] {')
    system = _block(css, ':root:not([data-theme="light"]) {')
    assert chosen == system == SWITCHES


def _colours(page: Page) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        """() => ({
          page: getComputedStyle(document.documentElement).backgroundColor,
          ink: getComputedStyle(document.documentElement).color,
          theme: document.documentElement.dataset.theme || "",
        })"""
    )
    return found


LIGHT_PAGE = "rgb(238, 241, 238)"
DARK_PAGE = "rgb(18, 22, 23)"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_switch_by_keyboard_is_remembered_and_said(
    browser: Browser, server: str, size: str
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme="light")
    # the page's colour as its first frame is drawn: the theme must be there already
    context.add_init_script(
        """requestAnimationFrame(() => { window.firstFrame =
             getComputedStyle(document.documentElement).backgroundColor; });"""
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{server}/how-to-play/fano")
        assert _colours(page)["page"] == LIGHT_PAGE  # the system's choice: light
        switch = page.get_by_label("Theme")
        expect(switch).to_have_value("system")
        for _ in range(12):  # Tab reaches it, from the top of the page
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "theme":
                break
        assert page.evaluate("document.activeElement.id") == "theme"
        page.keyboard.press("ArrowDown")  # a closed list moves to its next choice: light
        page.keyboard.press("ArrowDown")  # dark
        expect(switch).to_have_value("dark")
        expect(page.locator("#theme-said")).to_have_text("Theme: dark.")
        expect(page.locator("#theme-said")).to_have_attribute("role", "status")
        assert _colours(page) == {"page": DARK_PAGE, "ink": "rgb(228, 232, 230)", "theme": "dark"}
        shot(page, f"theme-switched-dark-{size}")
        assert page.evaluate("localStorage.getItem('fanfold.theme')") == "dark"
        # every page after it: dark from its first frame, the switch saying so
        for path in ("/", "/learn/fan", "/leaderboard/fantan"):
            page.goto(f"{server}{path}")
            page.wait_for_function("window.firstFrame !== undefined")  # drawn at least once
            assert page.evaluate("window.firstFrame") == DARK_PAGE, path
            expect(page.get_by_label("Theme")).to_have_value("dark")
        # back to the system's choice (light here): forgotten, light again
        page.get_by_label("Theme").select_option("system")
        expect(page.locator("#theme-said")).to_have_text("Theme: the system's, light now.")
        assert page.evaluate("localStorage.getItem('fanfold.theme')") is None
        assert _colours(page)["page"] == LIGHT_PAGE
    finally:
        context.close()
    assert not errors, errors


def test_a_dark_system_is_followed_and_light_can_be_chosen(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    page = context.new_page()
    try:
        page.goto(f"{server}/")
        assert _colours(page) == {"page": DARK_PAGE, "ink": "rgb(228, 232, 230)", "theme": ""}
        shot(page, "theme-system-dark-lobby")
        page.get_by_label("Theme").select_option("light")
        expect(page.locator("#theme-said")).to_have_text("Theme: light.")
        assert _colours(page)["page"] == LIGHT_PAGE
        page.goto(f"{server}/account")
        assert _colours(page) == {"page": LIGHT_PAGE, "ink": "rgb(29, 35, 39)", "theme": "light"}
    finally:
        context.close()
