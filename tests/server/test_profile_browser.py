"""The profile, the rematch's choice of seats and the share links in Debian's Chromium.

A player's profile after rated games (at 1280 and 390 px, light and dark: axe-core finding
nothing serious, no text under 12 px, nothing wider than the screen, no developer words); two
players choosing "Rematch, same seats" and each finding their old seat; a finished game's link
copied with the clipboard, a position's link shown as text where the page has no clipboard, a
replay opened at a move by its link (and a link's bad move said), and no position link at a
running rated game or one with hidden cards. Screenshots go to the test's folder and to
``build/screenshots/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.test_accounts_browser import _sign_up
from tests.server.test_browser import browser, server, shot
from tests.server.test_site_browser import DEVELOPER, SIZES, serious_violations, small_text

pytestmark = pytest.mark.usefixtures("listed_at_once")

__all__ = ["browser", "server"]  # fixtures used by name below

THEMES: list[Literal["light", "dark"]] = ["light", "dark"]


def _call(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """The page's own request (common.js ``api``: its cookies and CSRF token)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const { api } = await import("/static/common.js");
            return await api(method, path, body ?? undefined);
        }""",
        [method, path, body],
    )


def _remember(page: Page, table: str, token: str) -> None:
    page.evaluate(
        """async ([table, token]) => {
            const { remember } = await import("/static/common.js");
            remember(table, token, {}, "Morris");
        }""",
        [table, token],
    )


def _finished_morris(host: Page, friend: Page, *, rated: bool, loser: Page) -> dict[str, Any]:
    """A Morris table between ``host`` (White) and ``friend`` (Black), two moves in, that
    ``loser`` resigned: the table and each side's token."""
    made = _call(
        host, "POST", "/api/tables", {"game": "morris", "seats": ["you", "friend"], "rated": rated}
    )
    table = made["table"]
    claimed = _call(friend, "POST", f"/api/tables/{table}/claim", {"invite": made["invites"]["1"]})
    tokens = {host: made["token"], friend: claimed["token"]}
    for page, action, version in ((host, "C1", 0), (friend, "T2", 1)):
        _call(
            page,
            "POST",
            f"/api/tables/{table}/act",
            {"token": tokens[page], "action": action, "version": version},
        )
    _call(loser, "POST", f"/api/tables/{table}/end", {"token": tokens[loser], "ending": "resign"})
    return {"table": table, "white": made["token"], "black": claimed["token"]}


@pytest.fixture(scope="module")
def players(browser: Browser, server: str) -> dict[str, Any]:
    """Two signed-in players, ``pia`` and ``quin``, after two rated games (one won each) and a
    casual one; their pages stay open for the tests."""
    pia = browser.new_context(viewport={"width": 1200, "height": 860}).new_page()
    quin = browser.new_context(viewport={"width": 1200, "height": 860}).new_page()
    _sign_up(pia, server, "pia")
    _sign_up(quin, server, "quin")
    games = [
        _finished_morris(pia, quin, rated=True, loser=pia),
        _finished_morris(pia, quin, rated=True, loser=quin),
        _finished_morris(pia, quin, rated=False, loser=quin),
    ]
    return {"pia": pia, "quin": quin, "games": games}


@pytest.mark.parametrize("size", list(SIZES))
def test_the_profile_reads_well_at_both_sizes_and_themes(
    browser: Browser, server: str, players: dict[str, Any], size: str, tmp_path: Path
) -> None:
    width, height = SIZES[size]
    errors: list[str] = []
    for theme in THEMES:
        context = browser.new_context(
            viewport={"width": width, "height": height}, color_scheme=theme
        )
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            page.goto(f"{server}/players/pia")
            results = page.locator("#results tbody tr")
            expect(results).to_have_count(1)
            expect(results.first.locator("th .speed")).to_have_text("live")
            expect(results.first.locator("td")).to_have_text(
                ["2", "1", "1", "0", re.compile(r"^1\d{3}$")]
            )
            expect(page.locator("#best-wins li")).to_have_count(1)
            expect(page.locator("#best-wins li")).to_contain_text("quin")
            expect(page.locator("#opponents tbody tr th")).to_have_text(["quin"])
            expect(page.locator("#recent li")).to_have_count(3)
            expect(page.locator("#recent li").first).to_contain_text("won against quin")
            expect(page.locator(".history-chart")).to_be_visible()
            assert serious_violations(page) == []
            assert small_text(page) == []
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            words = DEVELOPER.search(page.locator("body").inner_text())
            assert words is None, words
            page.screenshot(path=str(tmp_path / f"profile-{size}-{theme}.png"), full_page=True)
            shot(page, f"profile-{size}-{theme}")
            page.locator("#recent li a").first.click()  # to the replay of the latest game
            expect(page.locator("#replay-label")).to_contain_text("move 0 of")
        finally:
            context.close()
        assert not errors, errors


@pytest.mark.parametrize("size", list(SIZES))
def test_a_rematch_at_the_same_seats_keeps_each_player_where_they_were(
    browser: Browser, server: str, players: dict[str, Any], size: str, tmp_path: Path
) -> None:
    pia, quin = players["pia"], players["quin"]
    width, height = SIZES[size]
    pia.set_viewport_size({"width": width, "height": height})
    quin.set_viewport_size({"width": width, "height": height})
    ended = _finished_morris(pia, quin, rated=False, loser=pia)
    table = ended["table"]
    _remember(pia, table, ended["white"])
    _remember(quin, table, ended["black"])
    for page in (pia, quin):
        page.goto(f"{server}/table/{table}")
        expect(page.locator("#outcome")).to_be_visible()
    expect(pia.locator("#rematch")).to_have_text("Rematch, sides swapped")
    expect(pia.locator("#rematch-same")).to_have_text("Rematch, same seats")
    assert serious_violations(pia) == []
    pia.screenshot(path=str(tmp_path / f"rematch-choice-{size}.png"), full_page=True)
    shot(pia, f"table-rematch-same-{size}")
    pia.click("#rematch-same")
    pia.wait_for_url(re.compile(r"/table/(?!" + table + ")"))
    expect(pia.locator("#seats li").nth(0)).to_contain_text("you")  # White again
    expect(quin.locator("#rematch")).to_have_text("Rematch: take your seat")
    quin.click("#rematch")
    quin.wait_for_url(re.compile(pia.url.split("/table/")[1].split("#")[0]))
    expect(quin.locator("#seats li").nth(1)).to_contain_text("you")  # Black again
    pia.set_viewport_size({"width": 1200, "height": 860})
    quin.set_viewport_size({"width": 1200, "height": 860})


def test_a_finished_games_link_is_copied_and_a_position_opens_at_its_move(
    browser: Browser, server: str, players: dict[str, Any], tmp_path: Path
) -> None:
    table = players["games"][1]["table"]
    replay = f"{server}/table/{table}?replay=1"
    context = browser.new_context(
        viewport={"width": 1200, "height": 860}, permissions=["clipboard-read", "clipboard-write"]
    )
    page = context.new_page()
    try:
        page.goto(f"{server}/table/{table}")  # a spectator of the finished game
        expect(page.locator("#outcome")).to_be_visible()
        page.click("#share-game")
        expect(page.locator("#share-game-said")).to_have_text("Link copied")
        assert page.evaluate("navigator.clipboard.readText()") == replay
        expect(page.locator("#share-game-text")).to_be_hidden()
        page.click("#share-position")  # the end: after both moves (and the resignation)
        assert page.evaluate("navigator.clipboard.readText()") == f"{replay}&move=2"

        page.goto(f"{replay}&move=1")
        expect(page.locator("#replay-label")).to_have_text("move 1 of 2")
        expect(page.locator("#replay-step")).to_have_value("1")
        page.click("#replay-next")
        expect(page.locator("#replay-label")).to_have_text("move 2 of 2")
        page.click("#share-position")
        expect(page.locator("#share-position-said")).to_have_text("Link copied")
        assert page.evaluate("navigator.clipboard.readText()") == f"{replay}&move=2"
        page.screenshot(path=str(tmp_path / "replay-shared.png"), full_page=True)

        page.goto(f"{replay}&move=twelve")
        expect(page.locator("#replay-label")).to_have_text("move 0 of 2")
        expect(page.locator("#error")).to_contain_text("is not a move number")
        page.goto(f"{replay}&move=99")
        expect(page.locator("#replay-label")).to_have_text("move 2 of 2")
        expect(page.locator("#error")).to_contain_text("The game has 2 moves")
    finally:
        context.close()


def test_without_a_clipboard_the_link_is_shown_as_text(
    browser: Browser, server: str, players: dict[str, Any], tmp_path: Path
) -> None:
    table = players["games"][0]["table"]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script("Object.defineProperty(navigator, 'clipboard', { value: undefined });")
    page = context.new_page()
    try:
        page.goto(f"{server}/table/{table}?replay=1&move=1")
        expect(page.locator("#replay-label")).to_have_text("move 1 of 2")
        page.click("#share-position")
        field = page.locator("#share-position-text")
        expect(field).to_be_visible()
        expect(field).to_have_value(f"{server}/table/{table}?replay=1&move=1")
        expect(page.locator("#share-position-said")).to_have_text("Copy the link from the field")
        assert page.evaluate("window.getSelection().toString() || document.activeElement.id") in (
            "share-position-text",
            f"{server}/table/{table}?replay=1&move=1",
        )
        assert serious_violations(page) == []
        page.screenshot(path=str(tmp_path / "share-fallback-phone.png"), full_page=True)
        shot(page, "replay-share-fallback-phone")
    finally:
        context.close()


def test_a_running_games_position_link_only_without_hidden_cards_and_never_rated(
    server: str, players: dict[str, Any]
) -> None:
    pia, quin = players["pia"], players["quin"]
    casual = _call(pia, "POST", "/api/tables", {"game": "morris", "seats": ["you", "random"]})
    pia.goto(f"{server}/table/{casual['table']}#token={casual['token']}")
    expect(pia.locator("#share-position")).to_be_visible()
    expect(pia.locator("#share-game")).to_have_count(0)  # not over: no game link yet

    hidden = _call(
        pia,
        "POST",
        "/api/tables",
        {"game": "fantan", "players": 3, "seats": ["you", "random", "random"]},
    )
    pia.goto(f"{server}/table/{hidden['table']}#token={hidden['token']}")
    expect(pia.locator("#seats li")).to_have_count(3)
    expect(pia.locator("#share-position")).to_have_count(0)

    rated = _call(
        pia, "POST", "/api/tables", {"game": "morris", "seats": ["you", "friend"], "rated": True}
    )
    _call(quin, "POST", f"/api/tables/{rated['table']}/claim", {"invite": rated["invites"]["1"]})
    pia.goto(f"{server}/table/{rated['table']}#token={rated['token']}")
    expect(pia.locator("#seats li")).to_have_count(2)
    expect(pia.locator("#end-resign")).to_be_visible()
    expect(pia.locator("#share-position")).to_have_count(0)
    # nor does its replay open by a link while it runs
    pia.goto(f"{server}/table/{rated['table']}?replay=1&move=0")
    expect(pia.locator("#status")).to_contain_text("once it is over")
