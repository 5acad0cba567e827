"""What the walk of issue 47 found still wrong, in Debian's Chromium: the lobby's other agents
and the bots at a table are named for players (in English and French, their settings only
in a title), Fan Tan's heading shows no score's name without its value, a one-seat Fan table
has no players' chat room, Fan's "hint" tag leaves the hinted fan's label readable, and a
takeback request names the signed-in player. axe finds nothing serious on these pages;
screenshots go to ``build/screenshots/``."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.server.test_browser import browser, server, shot  # noqa: F401  (fixtures)
from tests.server.test_site_browser import DEVELOPER, SIZES, serious_violations


def _post(server: str, body: dict[str, Any]) -> Any:
    made = httpx.post(f"{server}/api/tables", json=body, timeout=10)
    assert made.status_code == 200, made.text
    return made.json()


def _context(browser: Browser, server: str, *, size: str = "desktop", lang: str = "en") -> Any:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    if lang != "en":
        context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    return context


def _other_agents(page: Page) -> list[dict[str, str]]:
    """Each option of the first seat's "Other agents" group: its text and its title."""
    found: list[dict[str, str]] = page.evaluate(
        """() => [...document.querySelectorAll('#seat-1 optgroup')[1].children]
            .map((o) => ({text: o.textContent, title: o.title, value: o.value}))"""
    )
    return found


def test_the_developer_check_catches_what_the_walk_saw() -> None:
    for seen in (
        "exploit: the ladder's look-ahead (target=medium, hard or a style) in its continuations",
        "ladder: Fano's yardstick ladder (style=balanced, rush, defend)",
        "perfect: solved (mistakes=P: a second-best move with probability P)",
        "Black: Bot (random)",
        "Noir : Bot (perfect)",
    ):
        assert DEVELOPER.search(seen), seen
    assert DEVELOPER.search("Black: Perfect bot") is None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_other_agents_are_named_for_players_with_their_settings_in_a_title(
    browser: Browser, server: str, lang: str
) -> None:
    context = _context(browser, server, lang=lang)
    page = context.new_page()
    try:
        for game in ("fano", "morris"):
            page.goto(f"{server}/")
            page.click(f"[data-game={game}]")
            page.wait_for_selector("#seat-1 optgroup", state="attached")
            agents = _other_agents(page)
            assert agents, game
            for agent in agents:
                assert DEVELOPER.search(agent["text"]) is None, (game, agent)
                assert " — " in agent["text"], (game, agent)  # a name and a sentence
                assert agent["title"], (game, agent)  # the settings, for who wants them
            texts = {agent["value"]: agent["text"] for agent in agents}
            if game == "morris":
                expected = {
                    "en": "Perfect bot — Knows the value of every position: it never makes a "
                    "mistake.",
                    "fr": "Bot parfait — Connaît la valeur de chaque position : il ne se trompe "
                    "jamais.",
                }
                assert texts["perfect"] == expected[lang]
                assert "mistakes=P" in next(a["title"] for a in agents if a["value"] == "perfect")
            if game == "fano":
                assert texts["ladder"].startswith({"en": "Style bot", "fr": "Bot à styles"}[lang])
        assert serious_violations(page) == []
        shot(page, f"lobby-other-agents-{lang}")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_bots_other_than_the_levels_are_named_in_words_at_a_table_and_in_its_replay(
    browser: Browser, server: str, lang: str
) -> None:
    made = _post(server, {"game": "morris", "seats": ["random", "perfect"]})
    context = _context(browser, server, lang=lang)
    page = context.new_page()
    try:
        page.goto(f"{server}/table/{made['table']}")
        seats = page.locator("#seats")
        names = {"en": ("Random bot", "Perfect bot"), "fr": ("Bot au hasard", "Bot parfait")}
        for name in names[lang]:
            expect(seats).to_contain_text(name)
        expect(page.locator("#outcome")).to_be_visible(timeout=30_000)  # bots play it out
        assert DEVELOPER.search(page.locator("body").inner_text()) is None
        page.goto(f"{server}/table/{made['table']}?replay=1")
        for name in names[lang]:
            expect(seats).to_contain_text(name)
        assert DEVELOPER.search(seats.inner_text()) is None
        assert serious_violations(page) == []
        shot(page, f"replay-bots-named-{lang}")
    finally:
        context.close()


def test_fan_tan_s_heading_shows_no_score_name_without_a_value(
    browser: Browser, server: str
) -> None:
    context = _context(browser, server)
    page = context.new_page()
    try:
        made = _post(server, {"game": "fantan", "seats": ["you", "random", "random", "random"]})
        page.goto(f"{server}/table/{made['table']}#token={made['token']}")
        heading = page.locator("#game .ft-heading")
        expect(heading).to_have_text(re.compile(r"^Hand 1 · rows start at \w+$"))
        chips = {"game": "fantan", "seats": ["you"] + ["random"] * 3, "variant": "chips-match"}
        made = _post(server, chips)
        page.goto(f"{server}/table/{made['table']}#token={made['token']}")
        expect(heading).to_have_text(re.compile(r"^Hand 1 · rows start at \w+ · pool \d+ chips$"))
        assert serious_violations(page) == []
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_one_seat_fan_table_has_no_players_chat_and_its_hint_leaves_the_label_readable(
    browser: Browser, server: str, size: str
) -> None:
    made = _post(server, {"game": "fan", "seats": ["you"], "deal": 2})
    context = _context(browser, server, size=size)
    page = context.new_page()
    watcher = browser.new_context()
    try:
        page.goto(f"{server}/table/{made['table']}#token={made['token']}")
        page.wait_for_selector(".fans")
        expect(page.locator("#status")).to_have_class(re.compile("your-turn"), timeout=20_000)
        expect(page.locator("#chat")).to_be_hidden()  # nobody else sits here to read it
        page.click("button[data-analysis=hint]")
        expect(page.locator("#analysis")).to_have_text(re.compile(r"^Try .+ from fan \d+"))
        hinted = page.locator(".fan.hinted")
        expect(hinted.first).to_be_visible()
        # the label's words clear of the dotted ring (its outline, drawn outside the fan's
        # box), and the "hint" tag beside them, inside the label's box
        found: list[Any] = page.evaluate(
            """() => [...document.querySelectorAll('.fan.hinted')].map((fan) => {
                const box = fan.getBoundingClientRect();
                const style = getComputedStyle(fan);
                const ring = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
                const label = fan.parentElement.querySelector('.fan-label');
                const range = document.createRange();
                range.selectNodeContents(label);
                const words = range.getBoundingClientRect();
                const tag = getComputedStyle(label, '::after').content;
                return {clear: words.bottom <= box.top - ring + 0.5, tag,
                        fits: label.scrollWidth <= label.clientWidth,
                        ringTop: box.top - ring, wordsBottom: words.bottom};
            })"""
        )
        assert found, "no hinted fan"
        for fan in found:
            assert fan["clear"], found  # the ring leaves the label's words clear
            assert fan["fits"], found
            assert fan["tag"] == '"hint"', found
        assert serious_violations(page) == []
        shot(page, f"fan-hint-{size}")
        spectator = watcher.new_page()  # a spectator still has the spectators' room
        spectator.goto(f"{server}/table/{made['table']}")
        expect(spectator.locator("#chat")).to_be_visible()
        expect(spectator.locator("#chat-note")).to_contain_text("The spectators' room")
    finally:
        context.close()
        watcher.close()


def _person(browser: Browser, server: str, name: str, lang: str) -> BrowserContext:
    """A browser of its own with ``name``'s new account signed in."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if lang != "en":
        context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    made = context.request.post(
        f"{server}/api/accounts", data={"name": name, "password": "correct horse"}
    )
    assert made.ok, made.text()
    return context


def _csrf(context: BrowserContext) -> dict[str, str]:
    token = next(c["value"] for c in context.cookies() if c["name"] == "fanfold_csrf")
    return {"X-Fanfold-CSRF": token}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_takeback_request_names_the_signed_in_player(
    browser: Browser, server: str, lang: str
) -> None:
    white_name, black_name = f"alice47{lang}", f"bob47{lang}"
    alice = _person(browser, server, white_name, lang)
    bob = _person(browser, server, black_name, lang)
    try:
        created = alice.request.post(
            f"{server}/api/tables",
            data={"game": "morris", "seats": ["you", "friend"]},
            headers=_csrf(alice),
        )
        assert created.ok, created.text()
        table, white = created.json()["table"], created.json()["token"]
        claimed = bob.request.post(
            f"{server}/api/tables/{table}/claim",
            data={"invite": created.json()["invites"]["1"]},
            headers=_csrf(bob),
        )
        assert claimed.ok, claimed.text()
        black = claimed.json()["token"]
        first, second = alice.new_page(), bob.new_page()
        first.goto(f"{server}/table/{table}#token={white}")
        second.goto(f"{server}/table/{table}#token={black}")
        for token, action, version in ((white, "C1", 0), (black, "T2", 1)):
            body = {"token": token, "action": action, "version": version}
            acted = httpx.post(f"{server}/api/tables/{table}/act", json=body, timeout=10)
            assert acted.status_code == 200, acted.text
        expect(first.locator("#log li")).to_have_count(2)
        first.click("#takeback-ask")
        asked = {
            "en": f"{white_name} asks to take back their last move",
            "fr": f"{white_name} demande à reprendre son dernier coup",
        }
        expect(second.locator("#takeback-asked")).to_have_text(asked[lang])
        expect(first.locator("#takeback-waiting")).to_contain_text(black_name)
        assert serious_violations(second) == []
        shot(second, f"table-takeback-named-{lang}")
    finally:
        alice.close()
        bob.close()
