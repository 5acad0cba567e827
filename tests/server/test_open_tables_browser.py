"""Open seats in Debian's Chromium: the lobby's Quick match button (a sentence when no table
waits, the table when one does) and the creator giving a lobby seat nobody took to a bot
level from the table page (refused with the time left before the wait, given after it)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from fanfold.server.hub import seating
from fanfold.server.ratings import bot_anchors
from tests.server.test_browser import browser, open_table, page, server
from tests.server.test_site_browser import serious_violations

__all__ = ["browser", "page", "server"]  # fixtures used by name below


def test_quick_match_finds_the_waiting_table_of_the_chosen_settings(
    page: Page, server: str
) -> None:
    page.goto(f"{server}/")
    page.click("[data-game=morris]")
    page.get_by_role("button", name="Quick match").click()
    expect(page.locator("#setup-error")).to_contain_text("no open table waits")
    made = httpx.post(
        f"{server}/api/tables", json={"game": "morris", "seats": ["you", "open"], "public": True}
    ).json()
    page.get_by_role("button", name="Quick match").click()
    page.wait_for_url(re.compile(rf"/table/{made['table']}#token="))
    expect(page.locator("#seats")).to_contain_text("you")
    listed = httpx.get(f"{server}/api/open-tables").json()
    assert made["table"] not in [line["table"] for line in listed]


def test_the_creator_gives_a_seat_nobody_took_to_a_bot(
    page: Page, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_table(page, server, "morris", {1: "open"})
    table = page.url.split("/table/")[1].split("#")[0].split("?")[0]
    panel = page.locator("#give-seats")
    expect(panel).to_be_visible()
    assert serious_violations(page) == []
    panel.get_by_label(re.compile("bot level for")).select_option("easy")
    panel.get_by_role("button", name=re.compile("to the bot")).click()
    expect(page.locator("#error")).to_contain_text("waits 60 seconds")
    monkeypatch.setattr(seating, "OPEN_WAIT_SECONDS", 0.0)
    panel.get_by_role("button", name=re.compile("to the bot")).click()
    expect(panel).to_be_hidden()
    state = httpx.get(f"{server}/api/tables/{table}").json()
    assert state["seats"][1]["bot"] is True
    assert state["options"]["open"] == []
    assert state["seats"][1]["player"].startswith("easy")
    expect(page.locator("#seats")).to_contain_text("Easy")


def test_the_creator_sees_the_open_seat_taken_when_someone_joins(page: Page, server: str) -> None:
    """Once a player from the lobby takes the open seat, the creator's page drops "Seats
    nobody took" at once (the seat is no longer free), and the table's options list no seat
    still waiting."""
    open_table(page, server, "morris", {1: "open"})
    table = page.url.split("/table/")[1].split("#")[0].split("?")[0]
    panel = page.locator("#give-seats")
    expect(panel).to_be_visible()
    joined = httpx.post(f"{server}/api/tables/{table}/join", json={})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    state = httpx.get(f"{server}/api/tables/{table}").json()
    assert state["options"]["open"] == []  # the seat was taken: no lobby seat waits
    joiner = page.context.browser.new_page()  # type: ignore[union-attr]
    try:
        joiner.goto(f"{server}/table/{table}#token={joined.json()['token']}")
        expect(joiner.locator("#seats li").nth(1)).to_contain_text("you")
        expect(panel).to_be_hidden()
        page.reload()
        expect(page.locator("#seats li")).to_have_count(2)
        expect(page.locator("#give-seats")).to_be_hidden()
    finally:
        joiner.close()


def test_the_lobby_links_a_table_of_yours_instead_of_offering_to_join_it(
    page: Page, server: str
) -> None:
    open_table(page, server, "morris", {1: "open"})
    table = page.url.split("/table/")[1].split("#")[0].split("?")[0]
    page.goto(f"{server}/")
    line = page.locator(f"#open-seats li[data-table='{table}']")
    expect(line).to_be_visible()
    expect(line.get_by_role("button", name="Join")).to_have_count(0)
    line.get_by_role("link", name="your table: open it").click()
    page.wait_for_url(re.compile(rf"/table/{table}#token="))
    expect(page.locator("#seats li").nth(0)).to_contain_text("you")


OPEN_MORRIS = {"game": "morris", "seats": ["you", "open"], "public": True}


def test_the_lobby_shows_a_new_table_at_once_and_drops_it_when_taken(
    page: Page, server: str
) -> None:
    page.goto(f"{server}/")
    seats = page.locator("#open-seats")
    expect(seats).to_have_attribute("data-feed", "push")  # the socket's first list came
    made = httpx.post(f"{server}/api/tables", json=OPEN_MORRIS).json()
    line = seats.locator(f"[data-table='{made['table']}']")
    # Pushed: well within the 4 s a poll would wait.
    expect(line).to_be_visible(timeout=2500)
    assert httpx.post(f"{server}/api/tables/{made['table']}/join").status_code == 200
    expect(line).to_have_count(0, timeout=2500)
    timed = httpx.post(
        f"{server}/api/tables",
        json={"game": "fano", "seats": ["you", "open"], "public": True, "time_limit": 30},
    ).json()
    # a joiner knows the time per decision before joining
    expect(seats.locator(f"[data-table='{timed['table']}']")).to_contain_text("30 s a decision")


def test_the_lobby_polls_while_its_socket_fails_and_connects_again(page: Page, server: str) -> None:
    tries: list[WebSocketRoute] = []

    def route(socket: WebSocketRoute) -> None:
        tries.append(socket)
        if len(tries) <= 2:
            socket.close()  # the push channel fails twice
        else:
            socket.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/lobby$"), route)
    made = httpx.post(f"{server}/api/tables", json=OPEN_MORRIS).json()
    page.goto(f"{server}/")
    seats = page.locator("#open-seats")
    expect(seats).to_have_attribute("data-feed", "poll")
    expect(seats.locator(f"[data-table='{made['table']}']")).to_be_visible()
    expect(seats).to_have_attribute("data-feed", "push", timeout=10_000)
    assert len(tries) == 3
    later = httpx.post(f"{server}/api/tables", json=OPEN_MORRIS).json()
    expect(seats.locator(f"[data-table='{later['table']}']")).to_be_visible(timeout=2500)


def test_the_seat_choices_show_each_levels_measured_rating(page: Page, server: str) -> None:
    page.goto(f"{server}/")
    page.click("[data-game=morris]")
    mu, _ = bot_anchors()[("morris", "hard")]
    hard = page.locator("#seat-1 option[value=hard]")
    expect(hard).to_have_text(f"Hard bot, about {round(mu)}")
    page.select_option("#variant", "complete")  # another variant: asked again, same family
    expect(page.locator("#seat-1 option[value=easy]")).to_have_text(
        f"Easy bot, about {round(bot_anchors()[('morris', 'easy')][0])}"
    )


def _wait_for(count: Callable[[], int], wanted: int, page: Page) -> None:
    deadline = time.monotonic() + 10
    while count() < wanted:
        assert time.monotonic() < deadline, f"{count()} lobby sockets, not {wanted}"
        page.wait_for_timeout(50)


def test_a_renewed_lobby_socket_connects_again_and_a_hidden_page_waits(
    page: Page, server: str
) -> None:
    """The server closes a lobby socket after its lifetime (4000): the page connects again at
    once, without polling meanwhile; a hidden page whose socket closes neither polls nor
    connects until it is shown again."""
    tries: list[WebSocketRoute] = []

    def route(socket: WebSocketRoute) -> None:
        tries.append(socket)
        socket.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/lobby$"), route)
    page.goto(f"{server}/")
    seats = page.locator("#open-seats")
    expect(seats).to_have_attribute("data-feed", "push")
    tries[0].close(code=4000, reason="a lobby connection lasts 30 min; connect again")
    _wait_for(lambda: len(tries), 2, page)
    assert seats.get_attribute("data-feed") == "push"  # no polling in between
    page.evaluate(
        "() => { Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    tries[1].close(code=1000, reason="gone")
    page.wait_for_timeout(1500)  # longer than the first wait before connecting again
    assert len(tries) == 2
    assert seats.get_attribute("data-feed") == "push"  # and no polling while hidden
    page.evaluate(
        "() => { Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    _wait_for(lambda: len(tries), 3, page)
    expect(seats).to_have_attribute("data-feed", "push")
