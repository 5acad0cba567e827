"""The table a player understands, in Chromium: the last move in words and on the board, and
the end panel from the player's side (fixtures and helpers from ``test_browser``)."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.test_browser import (  # noqa: F401  (pytest fixtures)
    browser,
    log_length,
    morris_move,
    open_table,
    page,
    server,
    shot,
    wait_turn_or_end,
)
from tests.server.test_site_axe import all_for_one_record
from tests.server.test_site_browser import SIZES


def test_a_bot_move_is_described_and_marked_on_the_board(page: Page, server: str) -> None:
    open_table(page, server, "morris", {1: "random"})
    page.wait_for_selector(".morris svg")
    wait_turn_or_end(page)
    morris_move(page)
    wait_turn_or_end(page)
    last = page.locator("#log li.last")
    expect(last).to_have_text(re.compile(r"^Black placed a (circle|triangle) on point \d"))
    expect(page.locator("#last-move")).to_have_text(last.inner_text())
    marked = page.locator(".morris .point.last-move")
    expect(marked).to_have_count(1)
    point = marked.get_attribute("data-point")
    assert f"on point {point}" in last.inner_text()
    expect(page.locator("#log li").first).to_have_text(re.compile(r"^You placed a "))
    expect(page.locator("#seats")).to_contain_text("Random bot")
    shot(page, "table-last-move")


def test_the_end_panel_speaks_from_the_players_side(page: Page, server: str) -> None:
    open_table(page, server, "morris", {1: "random"})
    page.wait_for_selector(".morris svg")
    moves = 0
    while wait_turn_or_end(page):
        morris_move(page)
        moves += 1
        assert moves < 200
    panel = page.locator("#outcome")
    expect(panel).to_be_visible()
    expect(page.locator("#end-title")).to_have_text(
        re.compile(r"^(You won!|You lost: Black won|A draw)$")
    )
    # one sentence, the game's own: who and how, said once
    expect(page.locator("#end-reason")).to_have_text(
        re.compile(
            r"^(White|Black) ended the turn with three [a-z]+ (pieces )?on line [\d-]+ and loses\.$"
            r"|^The position repeated: a draw\.$|^(White|Black) has no legal move and loses\.$"
        )
    )
    expect(page.locator("#status")).to_have_text("")  # the panel alone tells how it ended
    expect(panel.locator(".end-scores li")).to_have_count(2)
    expect(panel.get_by_role("link", name="Replay")).to_have_attribute(
        "href", re.compile(r"\?replay=1$")
    )
    expect(panel.get_by_role("link", name="New game")).to_have_attribute("href", "/")
    shot(page, "table-end-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "table-end-390")


def _post(server: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.post(f"{server}{path}", json=body, timeout=10)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def _look(server: str, table: str, token: str, seat: int | None = None) -> dict[str, Any]:
    params = {} if seat is None else {"seat": seat}
    answer = httpx.get(
        f"{server}/api/tables/{table}", params=params, headers={"X-Fanfold-Token": token}
    )
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_rematch_takes_both_players_to_their_rotated_seats(browser: Browser, server: str) -> None:
    created = _post(
        server,
        "/api/tables",
        {"game": "fantan", "players": 3, "seats": ["you", "friend", "random"]},
    )
    table, mine = created["table"], created["token"]
    friend = _post(server, f"/api/tables/{table}/claim", {"invite": created["invites"]["1"]})[
        "token"
    ]
    tokens = {0: mine, 1: friend}
    for _ in range(500):  # both people play their first legal card until the hand is over
        seen = _look(server, table, mine)
        if seen["outcome"] is not None:
            break
        decider = seen["decider"]
        if decider not in tokens:
            time.sleep(0.02)
            continue
        own = _look(server, table, tokens[decider], decider)
        body = {"token": tokens[decider], "action": own["legal"][0], "version": own["version"]}
        httpx.post(f"{server}/api/tables/{table}/act", json=body, timeout=10)
    pages: list[Page] = []
    for token in (mine, friend):
        context = browser.new_context(viewport={"width": 1200, "height": 860})
        opened = context.new_page()
        opened.goto(f"{server}/table/{table}#token={token}")
        expect(opened.locator("#outcome")).to_be_visible()
        pages.append(opened)
    first, second = pages
    expect(first.locator("#rematch")).to_have_text("Rematch, everyone one seat on")
    expect(first.locator("#rematch-same")).to_have_text("Rematch, same seats")
    shot(first, "table-rematch-choice")
    first.click("#rematch")
    first.wait_for_url(re.compile(r"/table/(?!" + table + ")"))
    new_table = first.url.split("/table/")[1].split("#")[0]
    expect(first.locator("#seats li").nth(1)).to_contain_text("you")  # seat 1 played seat 2
    # The other player is told, and takes the seat the rematch kept for them.
    expect(second.locator("#rematch")).to_have_text("Rematch: take your seat")
    shot(second, "table-rematch-offered")
    second.click("#rematch")
    second.wait_for_url(re.compile(new_table))
    expect(second.locator("#seats li").nth(2)).to_contain_text("you")
    expect(second.locator("#seats li").nth(0)).to_contain_text("Random bot")
    for opened in pages:
        expect(opened.locator("#seats li", has_text="you")).to_have_count(1)
        opened.context.close()


def _drawn_fans(page: Page) -> list[list[dict[str, Any]]]:
    """Every fan's cards as drawn: the text of each card's corner and whether the next card
    covers any of it."""
    found: list[list[dict[str, Any]]] = page.evaluate(
        """() => [...document.querySelectorAll('.fan')].map((fan) =>
            [...fan.querySelectorAll('.card')].map((card) => {
                const corner = card.firstElementChild.getBoundingClientRect();
                const next = card.nextElementSibling;
                const covered = !!next && next.getBoundingClientRect().left < corner.right - 0.5;
                return {text: card.firstElementChild.innerText.replace(/\\s+/g, ''), covered};
            }))"""
    )
    return found


@pytest.mark.parametrize("width", [1280, 390])
def test_every_card_of_every_fan_shows_its_rank_and_suit(
    browser: Browser, server: str, width: int
) -> None:
    created = _post(server, "/api/tables", {"game": "fan", "seats": ["you"], "deal": 20261124})
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{server}/table/{created['table']}#token={created['token']}")
    page.wait_for_selector(".fans .card")
    deal = _look(server, created["table"], created["token"])["view"]["fans"]
    symbols = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    wanted = [
        [("10" if card[0] == "T" else card[:-1]) + symbols[card[-1]] for card in fan]
        for fan in deal
    ]
    drawn = _drawn_fans(page)
    assert [[card["text"] for card in fan] for fan in drawn] == wanted
    assert not [card for fan in drawn for card in fan if card["covered"]]
    assert any(len(fan) == 3 for fan in wanted)
    assert any(card.startswith("10") for fan in wanted[:17] for card in fan[:-1])  # a buried 10
    # This deal cannot be won: the hint says so, and does not speak of undo at move 0.
    page.click("[data-analysis=hint]")
    expect(page.locator("#analysis")).to_have_text(re.compile("^This deal cannot be won"))
    shot(page, f"fan-cards-{width}")
    context.close()


def test_fantan_on_a_phone_rows_readable_and_the_end_shows_each_hand_once(
    browser: Browser, server: str
) -> None:
    seats = ["you", "random", "random", "random"]
    created = _post(server, "/api/tables", {"game": "fantan", "seats": seats, "seed": "7"})
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{server}/table/{created['table']}#token={created['token']}")
    page.wait_for_selector(".ft-rows")
    checked = False
    plays = 0
    while wait_turn_or_end(page):
        if not checked and page.locator(".ft-row .card").count() >= 8:
            # every row card's rank and suit fit its tile, in a type of 13 px or more
            tiles = page.evaluate(
                """() => [...document.querySelectorAll('.ft-row .card .corner')].map((c) => ({
                    fits: c.scrollWidth <= c.parentElement.clientWidth + 0.5,
                    size: parseFloat(getComputedStyle(c).fontSize),
                    text: c.innerText.replace(/\\s+/g, '')}))"""
            )
            assert all(tile["fits"] and tile["size"] >= 13 for tile in tiles), tiles
            shot(page, "fantan-rows-390")
            checked = True
        before = log_length(page)
        playable = page.locator(".hand .card.playable")
        if playable.count():
            playable.first.click()
        else:
            page.click("[data-action=pass]")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
        plays += 1
        assert plays < 200
    assert checked
    expect(page.locator("#outcome")).to_be_visible()
    expect(page.locator("#status")).to_have_text("")
    expect(page.locator("#last-move")).to_be_hidden()
    mine = page.locator(".ft-hand .card[data-card]").evaluate_all(
        "(cards) => cards.map((card) => card.dataset.card)"
    )
    for card in mine:  # the player's own hand is shown once, not also among the revealed
        expect(page.locator(f"#game [data-card='{card}']")).to_have_count(1)
    shot(page, "fantan-over-390")
    context.close()


def test_morris_values_and_stacked_pieces_fit_a_phone(browser: Browser, server: str) -> None:
    created = _post(server, "/api/tables", {"game": "morris", "seats": ["you", "random"]})
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{server}/table/{created['table']}#token={created['token']}")
    page.wait_for_selector(".morris svg")
    page.click("[data-analysis=values]")
    page.wait_for_selector(".values-list li")
    page.click("[data-shape=C]")  # every point is a target now, each with its value
    page.wait_for_selector(".morris text.value")
    outside = page.evaluate(
        """() => { const box = document.querySelector('.morris svg').getBoundingClientRect();
            return [...document.querySelectorAll('.morris text.value, .morris text.label')]
              .map((t) => t.getBoundingClientRect())
              .filter((r) => r.bottom > box.bottom + 0.5 || r.right > box.right + 0.5
                || r.left < box.left - 0.5).length; }"""
    )
    assert outside == 0
    values = page.locator(".morris text.value")
    expect(values).to_have_count(7)  # a value under every point, 1, 5 and 6 among them
    shot(page, "morris-values-390")
    # Two pieces stacked on a point: both drawn whole, the lower one beside the upper one.
    stacked = _post(
        server,
        "/api/tables",
        {"game": "morris", "seats": ["you", "random"], "position": "Cc/Tc/-/-/-/-/- w"},
    )
    page.goto(f"{server}/table/{stacked['table']}#token={stacked['token']}")
    page.wait_for_selector(".morris svg .piece")
    expect(page.locator(".morris svg .piece")).to_have_count(4)
    boxes = page.locator(".morris svg .piece").evaluate_all(
        "(pieces) => pieces.map((p) => { const r = p.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })"
    )
    for lower, upper in (boxes[0:2], boxes[2:4]):
        assert lower[0] < upper[0]  # the lower one left of the upper one
        assert lower[3] > upper[3]  # and below it
        assert upper[2] - upper[0] >= 18  # 18 px and more across on a phone
        # no more than a sliver of the lower one under the upper one
        overlap_x = max(0.0, min(lower[2], upper[2]) - max(lower[0], upper[0]))
        overlap_y = max(0.0, min(lower[3], upper[3]) - max(lower[1], upper[1]))
        assert overlap_x * overlap_y <= 0.25 * (lower[2] - lower[0]) * (lower[3] - lower[1])
    shot(page, "morris-stacked-390")
    context.close()


def test_resign_is_asked_twice_then_ends_the_game(page: Page, server: str) -> None:
    open_table(page, server, "morris", {1: "random"})
    page.wait_for_selector(".morris svg")
    wait_turn_or_end(page)
    expect(page.locator("#end-abort")).to_have_text("Abort game")  # nobody moved yet
    expect(page.locator("#end-draw")).to_have_count(0)  # a bot never takes a draw
    morris_move(page)
    wait_turn_or_end(page)
    expect(page.locator("#end-abort")).to_have_count(0)  # both sides moved
    resign = page.locator("#end-resign")
    resign.click()
    expect(resign).to_have_text("Really resign?")
    expect(page.locator("#outcome")).to_be_hidden()
    shot(page, "table-resign-asked")
    resign.click()
    expect(page.locator("#end-title")).to_have_text("You lost: Black won")
    expect(page.locator("#end-reason")).to_have_text("White resigned.")
    expect(page.locator("#end-resign")).to_have_count(0)
    shot(page, "table-resigned")


def test_a_player_whose_opponent_left_sees_a_countdown_then_claims_the_win(
    browser: Browser, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("fanfold.server.live.GONE_SECONDS", 3.0)
    created = _post(server, "/api/tables", {"game": "morris", "seats": ["you", "friend"]})
    table, white = created["table"], created["token"]
    black = _post(server, f"/api/tables/{table}/claim", {"invite": created["invites"]["1"]})[
        "token"
    ]
    pages: list[Page] = []
    for token in (white, black):
        context = browser.new_context(viewport={"width": 1200, "height": 860})
        opened = context.new_page()
        opened.goto(f"{server}/table/{table}#token={token}")
        opened.wait_for_selector(".morris svg")
        pages.append(opened)
    mine, theirs = pages
    expect(mine.locator("#claim-countdown")).to_have_count(0)  # black is here
    theirs.context.close()  # black leaves
    countdown = mine.locator("#claim-countdown")
    expect(countdown).to_contain_text("The other side left the table")
    shot(mine, "table-claim-countdown")
    claim = mine.locator("#end-claim")
    expect(claim).to_have_text("Claim victory", timeout=10_000)
    claim.click()
    expect(claim).to_have_text("Really claim?")
    claim.click()
    expect(mine.locator("#end-title")).to_have_text("You won!")
    expect(mine.locator("#end-reason")).to_have_text(
        "White claimed the win: the other side left the game."
    )
    mine.context.close()


def test_the_clocks_are_shown_beside_the_seats_and_the_running_one_counts_down(
    page: Page, server: str
) -> None:
    created = _post(
        server, "/api/tables", {"game": "morris", "seats": ["you", "friend"], "speed": "blitz"}
    )
    table, white = created["table"], created["token"]
    page.goto(f"{server}/table/{table}#token={white}")
    page.wait_for_selector(".morris svg")
    morris_move(page)  # Black has not taken the seat yet: no clock runs for it
    expect(page.locator("#status")).to_contain_text("Waiting for Black")
    expect(page.locator(".seat-clock.running")).to_have_count(0)
    _post(server, f"/api/tables/{table}/claim", {"invite": created["invites"]["1"]})
    clocks = page.locator(".seat-clock")
    expect(clocks).to_have_count(2)
    expect(clocks.nth(0)).to_have_text("3:00")
    running = page.locator('.seat-clock.running[data-seat="1"]')
    expect(running).to_have_count(1)
    expect(running).to_have_text(re.compile(r"^2:5\d$"), timeout=8_000)  # counting down
    shot(page, "table-clocks")


def test_on_a_phone_the_clocks_are_shown_above_the_board_too(browser: Browser, server: str) -> None:
    """At 390 px the Seats panel is below the board and its buttons: a copy of the clocks
    stands above the board, on screen, the running one counting down; a wide screen has none."""
    created = _post(
        server, "/api/tables", {"game": "morris", "seats": ["you", "friend"], "speed": "blitz"}
    )
    table, white = created["table"], created["token"]
    width, height = SIZES["phone"]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(f"{server}/table/{table}#token={white}")
        page.wait_for_selector(".morris svg")
        morris_move(page)
        _post(server, f"/api/tables/{table}/claim", {"invite": created["invites"]["1"]})
        copies = page.locator("#board-clocks .board-clock")
        expect(copies).to_have_count(2)
        expect(copies.nth(0)).to_have_text("White 3:00")
        running = page.locator('#board-clocks .board-clock.running[data-seat="1"]')
        expect(running).to_be_in_viewport()
        expect(running).to_have_text(re.compile(r"^Black 2:5\d$"), timeout=8_000)
        page.set_viewport_size({"width": 1280, "height": 900})
        expect(page.locator("#board-clocks")).to_be_hidden()
    finally:
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_all_for_one_says_who_won_and_why_the_partner_did_not(
    browser: Browser, server: str, size: str
) -> None:
    """Four-player Trionfey "All for one": Player 3 promotes a second time and wins alone;
    Player 1, seated here, is their partner. The end panel says who won, that partners play
    together but each wins alone, and each other seat's promotions, partners named."""
    record = all_for_one_record()
    with httpx.Client(base_url=server, timeout=30) as client:
        answer = client.post(
            "/api/records", json={"record": record, "seats": ["you", "random", "random", "random"]}
        )
        assert answer.status_code == 200, answer.text
        made = answer.json()
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(f"{server}/table/{made['table']}#token={made['token']}")
        panel = page.locator("#outcome")
        expect(panel).to_be_visible()
        expect(page.locator("#end-title")).to_have_text("You lost: Player 3 (♠) won")
        expect(page.locator("#end-why")).to_have_text(
            "All for one: partners take their turns together, but each player wins alone. "
            "Player 3 (♠) promoted their commander 2 times first, and wins alone."
        )
        others = panel.locator("ul.end-why li")
        expect(others).to_have_text(
            [
                "You, Player 3 (♠)'s partner, do not share the win: 0 of 2 promotions.",
                "Player 2 (♣), partnership B: 0 of 2 promotions.",
                "Player 4 (♦), partnership B: 0 of 2 promotions.",
            ]
        )
        shot(page, f"end-all-for-one-{size}")
    finally:
        context.close()
