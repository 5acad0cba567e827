"""End-to-end: Debian's Chromium, driven by Playwright, plays whole games through the pages.

A real server (uvicorn, in a thread of this process) on a temporary SQLite file serves the
lobby and the tables; the tests click as a player would, never typing notation. Screenshots of
every page go to ``build/screenshots/`` for a person to look at.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect, sync_playwright

from fanfold.server.app import create_app
from fanfold.server.ratings import bot_anchors
from tests.server.support import ROOMY, STOP_SECONDS, uvicorn_server

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a fresh server; its bots answer at once, and its limits are roomy (a
    module's pages come from one address much faster than a person's: the site's crawl asks
    for over 300 pages, scripts and sockets a pass). It must stop promptly at the end, pages
    open or not (:func:`tests.server.support.uvicorn_server`)."""
    database = tmp_path_factory.mktemp("browser") / "fanfold.db"
    app = create_app(f"sqlite:///{database}", bot_seconds=0.2, bot_pause=0.0, limits=ROOMY)
    with uvicorn_server(app) as running:
        yield f"http://127.0.0.1:{running.config.port}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium (the test set-up installs it: ``apt-get install chromium``)."""
    assert CHROMIUM.exists(), (
        "Debian's chromium is missing: scripts/test.sh installs it (apt-get install chromium)"
    )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh browser context (its own storage) with a page; page errors fail the test."""
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"errors in the page: {errors}"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def open_table(page: Page, server: str, game: str, seats: dict[int, str], seed: str = "") -> None:
    """Create a table from the lobby: pick the game, set the seats, start."""
    page.goto(f"{server}/")
    page.click(f"[data-game={game}]")
    for seat, choice in seats.items():
        page.select_option(f"#seat-{seat}", choice)
    if seed:
        page.fill("#seed", seed)
    page.click("#start")
    page.wait_for_url(re.compile(r"/table/"))


def wait_turn_or_end(page: Page) -> bool:
    """Wait until the player must move (True) or the game is over (False)."""
    page.wait_for_function(
        "() => document.querySelector('#status').classList.contains('your-turn')"
        " || !document.querySelector('#outcome').hidden",
        timeout=20_000,
    )
    return page.locator("#outcome").is_hidden()


def log_length(page: Page) -> int:
    return page.locator("#log li").count()


def morris_move(page: Page) -> None:
    """One Morris move by clicking: a shape then a lit point, or a piece then a lit point."""
    shapes = page.locator(".hand-pick button:not([disabled])")
    if shapes.count():
        shapes.first.click()
    else:
        page.locator(".point.source").first.click()
    before = log_length(page)
    page.locator(".point.target").first.click()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")


def test_lobby_lists_every_game_and_its_rules(page: Page, server: str) -> None:
    page.goto(f"{server}/")
    cards = page.locator(".game-card")
    expect(cards).to_have_count(4)
    page.click("[data-game=fantan]")
    expect(page.locator("#variant option")).to_have_count(9)
    expect(page.locator("#seats select")).to_have_count(4)
    expect(page.locator("#seat-1")).to_have_value("medium")  # the levels come first
    anchors = {level: mu for (name, level), (mu, _) in bot_anchors().items() if name == "fantan"}
    labels = [  # each level with its measured rating, where there is one
        f"{level.capitalize()} bot"
        + (f", about {round(anchors[level])}" if level in anchors else "")
        for level in ("easy", "medium", "hard")
    ]
    expect(page.locator("#seat-1 optgroup[label=Bots] option")).to_have_text(labels)
    shot(page, "lobby")
    page.goto(f"{server}/rules/morris")
    expect(page.locator("h1")).to_contain_text("Fano330-R-Morris")


def test_morris_against_a_bot_to_the_end_with_a_reload(page: Page, server: str) -> None:
    open_table(page, server, "morris", {1: "random"})
    page.wait_for_selector(".morris svg")
    page.click("[data-analysis=values]")  # the analysis mode: every move's value
    page.wait_for_selector(".values-list li")
    expect(page.locator(".values-list li").first).to_contain_text("draw")
    # each move in words ("Place a circle on point 1: draw"), never its notation ("C1")
    expect(page.locator(".values-list li").first).to_have_text(
        re.compile(r"^Place a (circle|triangle) on point \d: ")
    )
    shot(page, "morris-analysis")
    page.click("[data-analysis=values]")
    moves = 0
    while wait_turn_or_end(page):
        morris_move(page)
        moves += 1
        if moves == 1:  # a reload finds the same game, at the same point
            seen = log_length(page)
            page.reload()
            page.wait_for_selector(".morris svg")
            page.wait_for_function(f"() => document.querySelectorAll('#log li').length >= {seen}")
        assert moves < 200
    expect(page.locator("#outcome")).to_be_visible()
    shot(page, "morris-over")


def test_fantan_against_three_bots_to_the_end(page: Page, server: str) -> None:
    open_table(page, server, "fantan", {1: "random", 2: "random", 3: "random"}, seed="7")
    page.wait_for_selector(".ft-rows")
    plays = 0
    while wait_turn_or_end(page):
        before = log_length(page)
        playable = page.locator(".hand .card.playable")
        if playable.count():
            playable.first.click()
        else:
            page.click("[data-action=pass]")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
        plays += 1
        if plays == 2:
            shot(page, "fantan")
        assert plays < 200
    expect(page.locator("#outcome")).to_be_visible()
    shot(page, "fantan-over")


def test_fan_deal_won_by_following_the_hints(page: Page, server: str) -> None:
    open_table(page, server, "fan", {}, seed="2")
    page.wait_for_selector(".fans")
    shot(page, "fan")
    moves = 0
    while wait_turn_or_end(page):
        page.click("[data-analysis=hint]")
        expect(page.locator("#analysis")).to_contain_text("Try")
        hint = page.locator("#analysis").inner_text()
        # in words, as the board's buttons say it (never its notation): "Try 9♦ and 8♦ from
        # fan 2 onto 10♦ on fan 12."
        found = re.search(r"^Try (.+) from fan (\d+) (to its foundation|.* fan (\d+))\.$", hint)
        assert found, hint
        source, target = found.group(2), found.group(4) or "F"
        count = str(found.group(1).count(" and ") + 1)
        # the hint is shown on the board too: the fan it leaves and where it goes
        expect(page.locator(f".fan[data-fan='{source}'].hinted")).to_have_count(1)
        home = "[data-ref=F].hinted" if target == "F" else f".fan[data-fan='{target}'].hinted"
        expect(page.locator(home)).to_have_count(1)
        if moves == 0:
            shot(page, "fan-hint")
            # the word drawn beside a hinted fan's label is the page's, in its language
            mark = page.locator(f".fan[data-fan='{source}'].hinted")
            tag = "(node) => getComputedStyle(node.previousElementSibling, '::after').content"
            assert mark.evaluate(tag) == '"hint"'

        cards = page.locator(f".fan[data-fan='{source}'] .card")
        cards.nth(cards.count() - int(count)).click()
        before = log_length(page)
        if target == "F":
            page.locator("[data-foundation].target").first.click()
        else:
            page.click(f".fan[data-fan='{target}']")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
        moves += 1
        if moves == 5:  # take one back and play it again
            page.click("#undo")
            page.wait_for_function(f"() => document.querySelectorAll('#log li').length == {before}")
        assert moves < 200
    expect(page.locator("#outcome")).to_contain_text("won")
    shot(page, "fan-won")


def test_two_browsers_play_through_a_join_link(browser: Browser, server: str) -> None:
    host = browser.new_context()
    guest = browser.new_context()
    try:
        first = host.new_page()
        open_table(first, server, "morris", {1: "friend"})
        link = first.locator("#invite input").input_value()
        assert "#invite=" in link  # an invitation, not a seat's token
        assert "token" not in link
        second = guest.new_page()
        second.goto(link)
        expect(second.locator("#join")).to_contain_text("Black")
        shot(second, "morris-invitation")
        second.click("#join-take")
        second.wait_for_selector(".morris svg")
        assert "#token=" in second.url  # the seat's own token, remembered by this browser
        third = guest.new_page()  # the link again: the seat is taken, and says so
        third.goto(link)
        expect(third.locator("#join")).to_contain_text("used already")
        third.close()
        for _ in range(3):
            assert wait_turn_or_end(first)
            morris_move(first)
            assert wait_turn_or_end(second)
            morris_move(second)
        expect(first.locator("#log li")).to_have_count(6)
        expect(second.locator("#log li")).to_have_count(6)
        shot(second, "morris-friend")
    finally:
        host.close()
        guest.close()


def test_hotseat_covers_the_hand_between_players(page: Page, server: str) -> None:
    open_table(page, server, "fantan", {1: "hotseat", 2: "random", 3: "random"}, seed="11")
    seen: set[str] = set()
    for _ in range(12):
        page.wait_for_function(
            "() => !document.querySelector('#cover').hidden"
            " || document.querySelector('#status').classList.contains('your-turn')"
            " || !document.querySelector('#outcome').hidden"
        )
        if page.locator("#cover").is_visible():
            expect(page.locator("#game .card")).to_have_count(0)  # nothing shows under it
            expect(page.locator("#cover-text")).to_contain_text("Pass the device")
            # The status no longer tells the last player it is their move.
            expect(page.locator("#status")).to_contain_text("Passing the device")
            expect(page.locator("#status")).not_to_have_class(re.compile("your-turn"))
            shot(page, "fantan-hotseat-cover")
            page.click("#cover-ok")
            continue
        if not page.locator("#outcome").is_hidden():
            break
        seen.add(page.locator("#status").inner_text())
        before = log_length(page)
        playable = page.locator(".hand .card.playable")
        if playable.count():
            playable.first.click()
        else:
            page.click("[data-action=pass]")
        page.wait_for_function(
            f"() => document.querySelectorAll('#log li').length > {before}"
            " || !document.querySelector('#cover').hidden"
        )
    assert {"Your move, Player 1.", "Your move, Player 2."} <= seen


@pytest.mark.parametrize(
    ("game", "seats"),
    [("morris", {1: "random"}), ("fantan", {1: "random", 2: "random", 3: "random"}), ("fan", {})],
)
def test_tables_fit_a_phone_screen(
    browser: Browser, server: str, game: str, seats: dict[int, str]
) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        open_table(page, server, game, seats)
        page.wait_for_selector("#game > *")
        wait_turn_or_end(page)
        overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"the {game} table is {overflow} px wider than the phone's screen"
        shot(page, f"{game}-phone")
    finally:
        context.close()


def test_a_record_with_a_128_bit_seed_loads_through_the_lobby_with_every_digit(
    page: Page, server: str, tmp_path: Path
) -> None:
    seed = 2**128 - 5  # JSON.parse would round it to 340282366920938460000000000000000000000
    text = (
        '{"format": "fanfold.record/1", "game": "morris.v1", '
        f'"config": {{"adjacency": "geometric"}}, "seed": {seed}, "actions": ["C1"]}}'
    )
    path = tmp_path / "long-seed.json"
    path.write_text(text, encoding="utf-8")
    # The lobby's first games' list is held back and never answered: a file chosen while the
    # lobby still loads is loaded all the same.
    held: list[Route] = []
    page.route("**/api/games", lambda route: route.continue_() if held else held.append(route))
    page.goto(server)
    page.set_input_files("#record-file", str(path))
    page.wait_for_url(re.compile(r"/table/"))
    page.wait_for_selector(".morris svg")
    # the table's title in a player's words, not the variant's name ("loaded record")
    expect(page.locator("#title")).to_have_text("Fano330-R-Morris · record loaded from a file")
    table = page.url.split("/table/")[1].split("#")[0]
    record = page.request.get(f"{server}/api/tables/{table}/record").json()
    assert record["seed"] == str(seed)
    assert record["format"] == "fanfold.record/2"


def test_a_server_with_a_lobby_and_a_table_open_stops_at_once(page: Page, tmp_path: Path) -> None:
    """Stopping a server does not wait for its pages to close: the lobby's socket and the
    table's end when the server stops (the lobby's request once outlived its socket by 20 s)."""
    app = create_app(f"sqlite:///{tmp_path / 'fanfold.db'}", bot_seconds=0.2, bot_pause=0.0)
    with uvicorn_server(app) as running:
        address = f"http://127.0.0.1:{running.config.port}"
        open_table(page, address, "morris", {1: "easy"})
        expect(page.locator("#status")).not_to_be_empty()
        lobby = page.context.new_page()
        lobby.goto(f"{address}/")
        expect(lobby.locator(".game-card")).to_have_count(4)
        assert running.server_state.connections  # both pages' sockets are open
        stopping = time.monotonic()  # uvicorn_server stops it here, pages still open
    assert time.monotonic() - stopping < STOP_SECONDS
