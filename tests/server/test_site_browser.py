"""The site a new player meets, in Debian's Chromium: every How-to-play page at 1280 and 390
px (no sideways scrolling, no developer words, axe-core finds nothing serious), the first
lessons of Fan Tan, Fano330-R-Morris and Fan played through the page, and a wrong try that
keeps the open hint and the typed move. Screenshots go to ``build/screenshots/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from fanfold.games.fan import lessons as fan_lessons
from fanfold.games.fantan import lessons as fantan_lessons
from fanfold.games.morris import lessons as morris_lessons
from fanfold.server.lessons import BOOKS, move_label
from tests.server.test_browser import browser, page, server, shot

__all__ = ["browser", "page", "server"]  # fixtures used by name below

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
GAMES = ["fano", "morris", "fantan", "fan"]
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
#: What a player's page must never show: file names, game ids, reading codes, commands, an
#: agent's settings ("hard(seconds=1.0)", "(target=medium)"), a bot named by its engine
#: ("Bot (random)"), a game's name in code ("morris (geometric)"), a
#: move's notation in brackets ("(7-F)", "(3-5)").
DEVELOPER = re.compile(
    r"seeds/|\.v1\b|\b[A-Z]\d\b|fanfold (serve|play|games|legal|replay|solve|arena|balance)"
    r"|\(\w+=|scripts/|\.py\b|\(\d{1,2}-(F|\d{1,2})\)|\b(fano|fantan|morris)\b"
    r"|\b[Bb]ot \([\w-]+\)"  # a bot named by its engine: "Bot (random)"
)

#: The smallest text a page may show, in CSS pixels.
SMALLEST_TEXT = 12


def small_text(page: Page) -> list[Any]:
    """The text on the page drawn smaller than :data:`SMALLEST_TEXT` px (an SVG's text at the
    size its drawing is scaled to): a few characters of each, its size and its element."""
    found: list[Any] = page.evaluate(
        """(smallest) => {
          const found = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent.trim();
            const parent = node.parentElement;
            if (!text || !parent) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const box = range.getBoundingClientRect();
            const style = getComputedStyle(parent);
            if (!box.width || !box.height || style.visibility === "hidden") continue;
            if (style.clipPath !== "none" || style.clip !== "auto") continue; // for screen readers
            let size = parseFloat(style.fontSize);
            if (parent instanceof SVGElement) size *= parent.getScreenCTM()?.a ?? 1;
            if (size < smallest - 0.05) {
              const where = parent.className?.baseVal ?? parent.className;
              found.push({text: text.slice(0, 24), size: Math.round(size * 10) / 10,
                          element: `${parent.tagName.toLowerCase()}.${where}`});
            }
          }
          return found;
        }""",
        SMALLEST_TEXT,
    )
    return found


#: Rules axe-core leaves off by default that the site is held to: WCAG 2.2's target size (a
#: touch target 24 by 24 px at least, 2.5.8) and a control's name holding its visible text.
RULES = {"target-size": {"enabled": True}, "label-content-name-mismatch": {"enabled": True}}


def serious_violations(page: Page, exclude: str = "") -> list[Any]:
    """axe-core's serious and critical violations on the page as it is now (``exclude``: a
    selector left out), the :data:`RULES` switched on."""
    page.wait_for_load_state("load")  # a page still arriving has no document for axe
    # Run through the DevTools protocol: the site's policy refuses the inline <script> that
    # add_script_tag(path=...) would add (fanfold.server.headers).
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[Any] = page.evaluate(
        """async ([exclude, rules]) => (await axe.run(exclude ? {exclude: [[exclude]]} : document,
                {rules}))
            .violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => ({id: v.id, nodes: v.nodes.map((n) => n.target.join(' '))}))""",
        [exclude, RULES],
    )
    return found


def sized_page(browser: Browser, size: str) -> Page:
    width, height = SIZES[size]
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


@pytest.mark.parametrize("size", list(SIZES))
def test_every_how_to_play_page_reads_for_players(browser: Browser, server: str, size: str) -> None:
    page = sized_page(browser, size)
    try:
        for game in GAMES:
            page.goto(f"{server}/rules/{game}")  # the old address leads here
            expect(page).to_have_url(f"{server}/how-to-play/{game}")
            expect(page.locator("h1")).to_contain_text("How to play")
            text = page.locator("body").inner_text()
            assert not DEVELOPER.search(text), (game, DEVELOPER.search(text))
            assert page.locator("main svg, main .card").count() >= 2, game
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= SIZES[size][0], (game, width)
            expect(page.locator(f"a[href='/learn/{game}']")).to_have_count(1)
            expect(page.locator(f"a[href='/rules/{game}/exact']")).to_contain_text("exact rules")
            shot(page, f"how-to-play-{game}-{size}")
            assert serious_violations(page) == [], game
        page.click(f"a[href='/rules/{GAMES[-1]}/exact']")
        expect(page.locator("main.doc h1")).to_be_visible()  # the developers' readings
    finally:
        page.context.close()


def test_the_lobby_links_how_to_play_and_lessons(page: Page, server: str) -> None:
    page.goto(f"{server}/")
    for game in GAMES:
        card = page.locator(f".game-card[data-game={game}]")
        expect(card.locator("a.how-to-play")).to_have_attribute("href", f"/how-to-play/{game}")
        expect(card.locator("a.lessons")).to_have_attribute("href", f"/learn/{game}")
    assert not DEVELOPER.search(page.locator("#games").inner_text())
    shot(page, "lobby")


#: The lobby bar's most height at each width: two lines on a phone (the name and the theme
#: switch, then the links), one on a desktop; the links shown at each.
LOBBY_BAR = {
    375: (90, ["Leaderboards", "Daily deal", "Account"]),
    1280: (50, ["How to play", "Leaderboards", "Daily deal", "Account"]),
}


@pytest.mark.parametrize("width", list(LOBBY_BAR))
def test_the_lobby_bar_takes_two_lines_on_a_phone(
    browser: Browser, server: str, width: int
) -> None:
    """At 375 px the lobby's bar took six lines (the desktop's bar wrapped: name, links on two
    lines, theme, tagline on two), pushing the games off the first screen."""
    most, links = LOBBY_BAR[width]
    page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
    try:
        page.goto(f"{server}/")
        expect(page.locator("header.bar .theme-switch")).to_be_visible()
        expect(page.locator("header.bar .bar-links a:visible")).to_have_text(links)
        height = page.evaluate("document.querySelector('header.bar').offsetHeight")
        assert height <= most, height
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"lobby-bar-{width}")
    finally:
        page.context.close()


#: What a variant's description in the lobby must not hold: the developers' readings, file
#: names, reading codes ("M2") and the program's own name.
SPEC_WORDS = re.compile(r"reading|seeds/|\b[A-Z]\d\b|fanfold|--|=", re.IGNORECASE)


def test_every_variant_description_in_the_lobby_speaks_to_players(page: Page, server: str) -> None:
    page.goto(f"{server}/")
    shown = 0
    for game in GAMES:
        page.click(f".game-card[data-game={game}] .game-pick")
        variants = page.locator("#variant option").evaluate_all("(all) => all.map((o) => o.value)")
        assert variants, game
        for variant in variants:
            page.select_option("#variant", variant)
            text = page.locator("#variant-description").inner_text()
            first = re.search(r"[A-Za-z0-9]", text)  # a sentence: a capital (or figure) first
            assert first, (game, variant)
            assert not first[0].islower(), (game, variant, text)
            assert text.endswith("."), (game, variant, text)
            assert not SPEC_WORDS.search(text), (game, variant, text)
            shown += 1
    assert shown >= 30  # every game's every preset was looked at


#: Each game's example in the typed move's placeholder, and its notation as it would show.
EXAMPLES = {"fantan": "7H", "morris": "C1 or 3-5", "fan": "11-F"}
NOTATION = {
    "fantan": re.compile(r"(?<![\w♥♦♣♠])[2-9TJQKA][SHDC]\b"),
    "morris": re.compile(r"\b[CTct][1-7]\b|\b[1-7]-[1-7]\b"),
    "fan": re.compile(r"\b\d{1,2}-(F|\d{1,2})\b"),
}

LESSONS = [
    ("fantan", fantan_lessons.LESSONS[0]),
    ("morris", morris_lessons.LESSONS[0]),
    ("fan", fan_lessons.LESSONS[0]),
]


@pytest.mark.parametrize(("game", "lesson"), LESSONS, ids=[game for game, _ in LESSONS])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_first_lesson_is_played_through_the_page(
    browser: Browser, server: str, game: str, lesson: Any, size: str
) -> None:
    page = sized_page(browser, size)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{server}/how-to-play/{game}")
        page.click(f"a[href='/learn/{game}']")
        page.click(f"a[data-lesson='{lesson.id}']")
        assert serious_violations(page) == [], game
        for index, step in enumerate(lesson.steps):
            expect(page.locator("#prompt")).to_have_text(step.prompt)
            if index == 0:  # typing the move is the advanced way, folded away
                expect(page.locator("#typed")).to_be_hidden()
                page.click("#advanced summary")
                expect(page.locator("#typed")).to_have_attribute(
                    "placeholder", f"e.g. {EXAMPLES[game]}"
                )
            page.fill("#typed", step.answers[0])
            page.click("#try")
            explanation = page.locator(f"#explanation[data-step='{index}']")
            expect(explanation).to_contain_text(step.explanation)
            label = move_label(BOOKS[game], lesson, index, step.answers[0])
            assert label is not None
            expect(explanation).to_contain_text(f"Right: {label}.")  # in words
            # the moves so far as a table's log says them: words, never notation
            expect(page.locator("#log li").first).not_to_contain_text(step.answers[0] + " ")
            assert not NOTATION[game].search(page.locator("#log").inner_text())
            if index == 0:
                shot(page, f"lesson-{game}-{size}")
        expect(page.locator("#summary")).to_have_text(lesson.summary)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= SIZES[size][0], width
        assert serious_violations(page) == [], game
    finally:
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("size", list(SIZES))
def test_every_lessons_page_passes_axe_board_included(
    browser: Browser, server: str, size: str
) -> None:
    """Every game's list of lessons and every lesson's first position, the board included
    (its dimmed cards too): axe-core finds nothing serious or critical."""
    page = sized_page(browser, size)
    try:
        for game, book in BOOKS.items():
            page.goto(f"{server}/learn/{game}")
            expect(page.locator(".lesson-list a").first).to_be_visible()
            assert serious_violations(page) == [], game
            for lesson in book.lessons:
                page.goto(f"{server}/learn/{game}/{lesson.id}")
                expect(page.locator("#board #game > :visible").first).to_be_visible()  # drawn
                assert serious_violations(page) == [], (game, lesson.id)
    finally:
        page.context.close()


def test_a_wrong_try_keeps_the_open_hint_and_the_typed_move(page: Page, server: str) -> None:
    lesson = fantan_lessons.LESSONS[0]
    page.goto(f"{server}/learn/fantan/{lesson.id}")
    page.click("#hint-button")
    expect(page.locator("#hint")).to_contain_text(lesson.steps[0].hint)
    page.click("#advanced summary")
    page.fill("#typed", "8H")
    page.click("#try")
    expect(page.locator("#verdict")).to_have_class(re.compile("illegal"))
    expect(page.locator("#hint")).to_be_visible()
    expect(page.locator("#typed")).to_have_value("8H")
    page.click("#answer-button")
    expect(page.locator("#answer")).to_contain_text("7♥")  # the move in words
    page.fill("#typed", "9S")
    # a wrong try redraws the step: wait for the new box before typing the next move
    page.evaluate("document.getElementById('typed').dataset.before = 'yes'")
    page.click("#try")
    page.wait_for_function("() => !document.getElementById('typed').dataset.before")
    expect(page.locator("#answer")).to_be_visible()  # the shown answer stays too
    expect(page.locator("#typed")).to_have_value("9S")
    page.fill("#typed", "7H")
    page.click("#try")
    expect(page.locator("#prompt")).to_have_text(lesson.steps[1].prompt)
    expect(page.locator("#hint")).to_be_hidden()  # a new step starts afresh
    expect(page.locator("#typed")).to_have_value("")


def test_no_developer_words_at_seated_tables_nor_around_them(page: Page, server: str) -> None:
    """Seated at a table of each game (not only watching), the lobby's seats to take, Fan's
    hint, today's deal and a bot's page: players' words only. A Fano seat's bot is "Hard bot",
    never its settings; an open seat names the game by its title; today's Fan deal is today's
    deal (fair to everyone who plays it), not one its creator chose."""
    tables = [
        ("fano", {"game": "fano", "variant": "classic", "seats": ["you", "hard"]}, ".fano"),
        ("fantan", {"game": "fantan", "players": 3, "seats": ["you", "hard", "hard"]}, ".ft-rows"),
        ("morris", {"game": "morris", "seats": ["you", "hard"]}, ".morris svg"),
    ]
    with httpx.Client(base_url=server, timeout=30) as client:
        daily = client.get("/api/daily").json()
        body = {"game": "fan", "variant": daily["variant"], "seats": ["you"], "deal": daily["deal"]}
        tables.append(("fan", body, ".fans"))
        opened = {game: client.post("/api/tables", json=body).json() for game, body, _ in tables}
        listed = {
            "game": "morris",
            "variant": "geometric",
            "seats": ["you", "open"],
            "public": True,
        }
        assert client.post("/api/tables", json=listed).status_code == 200
    for game, _, board in tables:
        made = opened[game]
        page.goto(f"{server}/table/{made['table']}#token={made['token']}")
        page.wait_for_selector(board)
        expect(page.locator("#status")).to_have_class(re.compile("your-turn"), timeout=20_000)
        if game == "fan":
            expect(page.locator("#notes")).to_have_text(
                "Today's deal: the same deal for everyone who plays it today."
            )
            page.click("button[data-analysis=hint]")
            expect(page.locator("#analysis")).to_have_text(re.compile(r"^Try .+ from fan \d+"))
        if game == "fano":
            expect(page.locator(".fano-seat.other .seat-head")).to_contain_text("Hard bot")
        # a variant in words ("Trionfey all for one"), never its name in code
        expect(page.locator("#title")).not_to_contain_text(re.compile(r"[a-z]-[a-z]"))
        text = page.locator("body").inner_text()
        assert not DEVELOPER.search(text), (game, DEVELOPER.search(text))
        shot(page, f"seated-{game}")
    page.goto(f"{server}/")
    line = page.locator("#open-seats li[data-table]").first
    expect(line).to_contain_text("Fano330-R-Morris (geometric), 2 players")
    # the tables reached by their links are listed by their games, never by their ids
    expect(page.locator("#mine")).to_contain_text("Fan Tan")
    mine = page.locator("#mine").inner_text()
    assert not any(made["table"] in mine for made in opened.values()), mine
    assert not DEVELOPER.search(page.locator("body").inner_text())
    page.goto(f"{server}/bots/fano-classic/hard")
    text = page.locator("main").inner_text()
    assert not DEVELOPER.search(text), DEVELOPER.search(text)
    assert "rate_bots" not in text
