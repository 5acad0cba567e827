"""What a new player's walk through the site found wrong, in Debian's Chromium: Undo disabled
until there is a move of yours to take back (and not drawn where it can never serve), the Fano
plane numbered alike on the How-to-play page and at the table, the exact rules never wider
than the screen, a chat line over the limit said so instead of cut, the covered cards of How
to play Fan readable, the lobby's Options example the chosen game's, the lessons naming the
games by their titles, and the lobby's cards in French. Screenshots go to
``build/screenshots/``."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from fanfold.server.fano_plane import POINTS
from tests.server.test_browser import (  # noqa: F401  (pytest fixtures)
    browser,
    log_length,
    morris_move,
    open_table,
    page,
    server,
    shot,
)
from tests.server.test_site_browser import GAMES, SIZES, sized_page


def _table_page(page: Page, server: str, body: dict[str, object]) -> None:
    made = httpx.post(f"{server}/api/tables", json=body, timeout=10)
    assert made.status_code == 200, made.text
    page.goto(f"{server}/table/{made.json()['table']}#token={made.json()['token']}")


def test_undo_waits_for_a_move_of_yours_and_is_not_drawn_where_it_never_serves(
    page: Page, server: str
) -> None:
    open_table(page, server, "morris", {0: "random", 1: "you"})
    page.wait_for_function(
        "() => document.querySelector('#status').classList.contains('your-turn')"
    )
    assert log_length(page) == 1  # the bot placed first
    expect(page.locator("#undo")).to_be_disabled()  # nothing of yours to take back
    morris_move(page)
    page.wait_for_function("() => document.querySelectorAll('#log li').length >= 3")
    expect(page.locator("#undo")).to_be_enabled()
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#log li').length == 1")
    expect(page.locator("#undo")).to_be_disabled()
    # a game with hidden cards (not a practice table): no undo there at all
    hidden: list[dict[str, object]] = [
        {"game": "fano", "seats": ["you", "random"]},
        {"game": "fantan", "players": 3, "seats": ["you", "random", "random"]},
    ]
    for body in hidden:
        _table_page(page, server, body)
        page.wait_for_selector("#controls button")
        expect(page.locator("#undo")).to_have_count(0)
    _table_page(page, server, {"game": "fano", "seats": ["you", "random"], "practice": True})
    page.wait_for_selector("#controls button")
    expect(page.locator("#undo")).to_have_count(1)


def _plane_labels(page: Page, figure: str) -> dict[int, tuple[float, float]]:
    """Each point's number and where it is drawn, relative to the drawing's box (0 to 1)."""
    found: dict[str, list[float]] = page.evaluate(
        """(figure) => {
            const svg = document.querySelector(figure);
            const box = svg.getBoundingClientRect();
            const out = {};
            for (const text of svg.querySelectorAll("text")) {
                if (!/^[1-7]$/.test(text.textContent)) continue;
                const r = text.getBoundingClientRect();
                out[text.textContent] = [(r.x + r.width / 2 - box.x) / box.width,
                                         (r.y + r.height / 2 - box.y) / box.height];
            }
            return out;
        }""",
        figure,
    )
    return {int(number): (x, y) for number, (x, y) in found.items()}


def _where(labels: dict[int, tuple[float, float]]) -> list[int]:
    """The points from the top down, then left to right (rows of points within 5%)."""
    return [p for p, _ in sorted(labels.items(), key=lambda i: (round(i[1][1] * 20), i[1][0]))]


def test_the_fano_plane_is_numbered_alike_in_how_to_play_and_at_the_table(
    page: Page, server: str
) -> None:
    page.goto(f"{server}/how-to-play/fano")
    howto = _plane_labels(page, "main svg[aria-label^='The Fano plane']")
    shot(page, "walk-howto-fano")
    _table_page(page, server, {"game": "fano", "seats": ["you", "random"]})
    page.wait_for_selector(".fano-plane text")
    table = _plane_labels(page, ".fano-plane")
    shot(page, "walk-table-fano")
    assert set(howto) == set(table) == set(POINTS)
    assert _where(howto) == _where(table) == [1, 2, 5, 7, 4, 3, 6]


@pytest.mark.parametrize("size", list(SIZES))
def test_the_exact_rules_never_scroll_sideways(browser: Browser, server: str, size: str) -> None:
    page = sized_page(browser, size)
    try:
        width = SIZES[size][0]
        for game in GAMES:
            page.goto(f"{server}/rules/{game}/exact")
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= width, (game, wide)
            bar = page.locator("header.bar").bounding_box()
            assert bar is not None, game
            assert bar["width"] == width, game
        page.goto(f"{server}/rules/fano/exact")
        # the long position line scrolls inside its own box, the page does not
        box = page.locator("pre.scroll", has_text="seed=7 |").first
        assert box.evaluate("(node) => node.scrollWidth > node.clientWidth")
        shot(page, f"walk-rules-fano-{size}")
    finally:
        page.context.close()


def test_a_chat_line_over_the_limit_is_said_so_not_cut(page: Page, server: str) -> None:
    open_table(page, server, "morris", {1: "random"})
    page.wait_for_selector("#chat-form:not([hidden])")
    box = page.locator("#chat-input")
    box.fill("x" * 3000)
    assert len(box.input_value()) == 3000  # nothing silently cut off
    count = page.locator("#chat-count")
    expect(count).to_have_text("A message holds at most 300 characters: this one has 3000.")
    expect(count).to_have_class(re.compile(r"\berror\b"))
    expect(page.locator("#chat-send")).to_be_disabled()
    shot(page, "walk-chat-too-long")
    box.fill("y" * 280)
    expect(count).to_have_text("280 of 300 characters")
    expect(page.locator("#chat-send")).to_be_enabled()
    box.fill("hello")
    expect(count).to_be_hidden()
    page.click("#chat-send")
    expect(page.locator("#chat-log")).to_contain_text("hello")


def test_how_to_play_fan_shows_covered_cards_whole(page: Page, server: str) -> None:
    page.goto(f"{server}/how-to-play/fan")
    covered = page.locator(".fan-cards .card:not(:last-child)")
    assert covered.count() >= 5
    clear: list[bool] = covered.evaluate_all(
        """(cards) => cards.map((card) => {
            const corner = card.querySelector(".corner").getBoundingClientRect();
            const next = card.nextElementSibling.getBoundingClientRect();
            return corner.right <= next.left + 0.5;
        })"""
    )
    assert all(clear), clear
    shot(page, "walk-howto-fan")


def test_the_lobby_s_options_example_is_the_chosen_game_s(page: Page, server: str) -> None:
    web = {entry["name"]: entry for entry in httpx.get(f"{server}/api/games/web").json()}
    page.goto(f"{server}/")
    for game in ("fano", "morris", "fantan", "fan"):
        page.click(f"[data-game={game}] .game-pick")
        example = web[game]["options_example"]
        expect(page.locator("#options")).to_have_attribute("placeholder", f"e.g. {example}")
    assert web["morris"]["options_example"] == "adjacency=complete"


def test_the_lessons_name_the_games_by_their_titles(page: Page, server: str) -> None:
    for game, title in (("morris", "Fano330-R-Morris"), ("fantan", "Fan Tan")):
        page.goto(f"{server}/learn/{game}")
        expect(page.locator("h1")).to_have_text(f"Learn {title}, one move at a time")
        expect(page.locator("#title")).to_have_text(f"Learn {title}")
        expect(page.locator(".lesson-group h2").first).to_contain_text(f"{title}: ")
    shot(page, "walk-learn-fantan")


def test_the_lobby_s_cards_speak_french(browser: Browser, server: str) -> None:
    context = browser.new_context(locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(f"{server}/")
        expect(page.locator("[data-game=fano] .game-pick p")).to_have_text(
            "Un duel de cartes sur les droites du plan de Fano : attaquez, combinez et "
            "promouvez votre commandant. 2 à 8 joueurs."
        )
        page.click("[data-game=morris] .game-pick")
        expect(page.locator("#setup-summary")).to_contain_text("Posez et déplacez")
        expect(page.locator("#options")).to_have_attribute(
            "placeholder", "p. ex. adjacency=complete"
        )
        # the seed box's label, the games' data, in the page's language
        page.click("[data-game=fano] .game-pick")
        expect(page.locator("#seed-words")).to_have_text("Graine")
        page.click("[data-game=fan] .game-pick")
        expect(page.locator("#seed-words")).to_have_text("Numéro de donne (PySolFC)")
        shot(page, "walk-lobby-fr")
    finally:
        context.close()


def test_rated_turns_off_what_a_rated_game_refuses(page: Page, server: str) -> None:
    """Ticking Rated clears and turns off Practice, the deal number and Today's deal (a rated
    game's deal is the server's, and it is never a practice table), instead of a refusal after
    Start; unticking gives them back. Practice ticked turns Rated off the same way."""
    page.goto(f"{server}/")
    page.click("[data-game=fano] .game-pick")
    page.fill("#seed", "12")
    page.check("#practice")
    expect(page.locator("#rated")).to_be_disabled()
    page.uncheck("#practice")
    page.check("#rated")
    expect(page.locator("#practice")).to_be_disabled()
    expect(page.locator("#practice")).not_to_be_checked()
    expect(page.locator("#seed")).to_be_disabled()
    expect(page.locator("#seed")).to_have_value("")
    page.uncheck("#rated")
    expect(page.locator("#practice")).to_be_enabled()
    expect(page.locator("#seed")).to_be_enabled()
    page.click("[data-game=fan] .game-pick")
    expect(page.locator("#daily")).to_be_enabled()
