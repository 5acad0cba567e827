"""A finished game's replay in Debian's Chromium, as the walk of issue 47 found it: the Seats
panel says who sat where (it was empty), and a board that tells each seat's last action tells
it as of the replay's move, not the game's end (Fano's "last: ..." line showed the end's at
move 0). The lobby's "Today's deal" says the deal is the same for everyone, not that a chosen
deal is no fair game. axe finds nothing serious on either page, at both sizes."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, expect

from fanfold.core.registry import get_game
from fanfold.play.setup import play_game
from tests.server.test_browser import browser, server, shot  # noqa: F401  (fixtures)
from tests.server.test_site_browser import SIZES, serious_violations, sized_page


def _load_fano(server: str) -> tuple[str, int]:
    """A finished two-player Fano game, loaded as a record: its table and its number of moves."""
    table, _, moves = _load_fano_held(server)
    return table, moves


def _load_fano_held(server: str) -> tuple[str, str, int]:
    """A finished two-player Fano game, loaded as a record: its table, the token of the seat
    that loaded it, and its number of moves."""
    record = play_game(get_game("fano"), None, ["random"] * 2, seed=3, agent_seed=3).finish()
    with httpx.Client(base_url=server, timeout=30) as client:
        answer = client.post(
            "/api/records", json={"record": record.to_json(), "seats": ["you", "random"]}
        )
    assert answer.status_code == 200, answer.text
    return answer.json()["table"], answer.json()["token"], len(record.actions)


def test_the_replay_of_your_game_names_your_seat_you(browser: Browser, server: str) -> None:
    """The player who held a seat reads "you" for it in the replay's seat list, as at the live
    table; anyone else reads the seat's plain name."""
    table, token, moves = _load_fano_held(server)
    page = sized_page(browser, "desktop")
    try:
        page.goto(f"{server}/table/{table}?replay=1#token={token}")
        expect(page.locator("#replay-label")).to_have_text(f"move 0 of {moves}")
        seats = page.locator("#seats li")
        expect(seats.nth(0)).to_have_text("Player 1 (\u2665): you")
        expect(seats.nth(1)).to_contain_text("Random bot")
    finally:
        page.context.close()
    stranger = sized_page(browser, "desktop")
    try:
        stranger.goto(f"{server}/table/{table}?replay=1")
        expect(stranger.locator("#replay-label")).to_have_text(f"move 0 of {moves}")
        expect(stranger.locator("#seats li").nth(0)).to_have_text("Player 1 (\u2665): player")
    finally:
        stranger.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_replay_shows_the_seats_and_each_seat_s_last_action_as_of_its_move(
    browser: Browser, server: str, size: str
) -> None:
    table, moves = _load_fano(server)
    page = sized_page(browser, size)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{server}/table/{table}?replay=1")
        expect(page.locator("#replay-label")).to_have_text(f"move 0 of {moves}")
        seats = page.locator("#seats li")
        expect(seats).to_have_count(2)
        expect(seats.nth(0)).to_contain_text("Player 1")
        expect(seats.nth(1)).to_contain_text("Random bot")
        expect(page.locator("#seats li.deciding")).to_have_count(0)  # no live turn in a replay
        expect(page.locator(".fano .last")).to_have_count(0)  # nothing played yet at move 0
        assert serious_violations(page) == [], size
        shot(page, f"replay-fano-start-{size}")

        page.click("#replay-next")
        expect(page.locator("#replay-label")).to_have_text(f"move 1 of {moves}")
        first = page.locator("#log li")
        expect(first).to_have_count(1)
        expect(page.locator(".fano .last")).to_have_count(1)  # the one seat that has acted
        said = first.first.inner_text().rstrip(".")
        expect(page.locator(".fano .last")).to_contain_text(said)

        page.click("#replay-last")
        expect(page.locator("#replay-label")).to_have_text(f"move {moves} of {moves}")
        expect(page.locator(".fano .last")).to_have_count(2)
        expect(seats).to_have_count(2)
    finally:
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("size", list(SIZES))
def test_today_s_deal_in_the_lobby_is_not_called_an_unfair_chosen_deal(
    browser: Browser, server: str, size: str
) -> None:
    page = sized_page(browser, size)
    try:
        page.goto(f"{server}/")
        page.click("[data-game=fan]")
        chosen = page.locator("#seed-help")
        daily = page.locator("#daily-help")
        expect(chosen).to_be_visible()  # a deal typed in is no fair game
        expect(daily).to_be_hidden()
        page.click("#daily")
        expect(page.locator("#seed")).not_to_have_value("")
        expect(daily).to_have_text("Today's deal: the same deal for everyone who plays it today.")
        expect(daily).to_be_visible()
        expect(chosen).to_be_hidden()
        assert serious_violations(page) == [], size
        shot(page, f"lobby-todays-deal-{size}")

        page.fill("#seed", "12345")  # changed by hand: a chosen deal again
        expect(chosen).to_be_visible()
        expect(daily).to_be_hidden()
        page.click("#daily")
        expect(daily).to_be_visible()
        page.select_option("#variant", index=1)  # other rules: not today's deal
        expect(daily).to_be_hidden()
        expect(chosen).to_be_visible()

        page.click("[data-game=morris]")  # a game without deals says nothing of them
        expect(chosen).to_be_hidden()
        expect(daily).to_be_hidden()
    finally:
        page.context.close()


@pytest.mark.parametrize("replay", [False, True])
def test_a_links_token_is_kept_once_the_table_gives_it_a_seat(
    browser: Browser, server: str, replay: bool
) -> None:
    """A table opened by its link with a seat's token (at the table or its replay) is listed
    under the lobby's "Your tables" once the table answers the token with a seat; the same link
    with a forged token is never listed."""
    table, token, moves = _load_fano_held(server)
    where = f"{server}/table/{table}" + ("?replay=1" if replay else "")
    forged = sized_page(browser, "desktop")
    try:
        forged.goto(f"{where}#token=forged")
        if replay:
            expect(forged.locator("#replay-label")).to_have_text(f"move 0 of {moves}")
        else:
            expect(forged.locator("main")).to_contain_text(
                "This link holds no seat at this table now"
            )
            expect(forged.locator("#seats li")).to_have_count(2)  # watched instead
        forged.wait_for_timeout(500)  # whatever the page does with the token, done
        assert forged.evaluate("localStorage.getItem('fanfold.tables')") is None
    finally:
        forged.context.close()
    page = sized_page(browser, "desktop")
    try:
        page.goto(f"{where}#token={token}")
        expect(page.locator("#seats li").nth(0)).to_contain_text("you")
        page.wait_for_function("localStorage.getItem('fanfold.tables') !== null")
        kept = page.evaluate("JSON.parse(localStorage.getItem('fanfold.tables'))")
        assert [(entry["table"], entry["token"]) for entry in kept] == [(table, token)]
        page.goto(f"{server}/")
        expect(page.locator("#mine")).to_contain_text("Fano")
    finally:
        page.context.close()
