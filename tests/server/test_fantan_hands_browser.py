"""A Fan Tan match's next hand in Debian's Chromium, as the walk of issue 47 found it: a new
hand opened with no word on the last. The board now says who won the previous hand (the
player's own win as "you"), in English and in French, and the first hand says nothing of
one; axe finds nothing serious, at both sizes."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, expect

from fanfold.games.fantan.cards import CARDS
from tests.server.test_browser import browser, server, shot  # noqa: F401  (fixtures)
from tests.server.test_site_browser import SIZES, serious_violations

#: Every card dealt round the four seats, in index order.
HANDS = " / ".join(" ".join(str(card) for card in CARDS[seat::4]) for seat in range(4))


def _second_hand(server: str, last: int) -> tuple[str, str]:
    """A chips match at its second hand, the first won by seat ``last`` (from 1), each seat
    one chip down and four chips in the pool: its table and the first seat's token."""
    position = f"hand=2 leader=2 scores=-1,-1,-1,-1 pool=4 last={last} seed=7 | {HANDS} | -"
    made = httpx.post(
        f"{server}/api/tables",
        json={
            "game": "fantan",
            "seats": ["you", "random", "random", "random"],
            "variant": "chips-match",
            "position": position,
        },
        timeout=10,
    )
    assert made.status_code == 200, made.text
    return made.json()["table"], made.json()["token"]


@pytest.mark.parametrize("size", list(SIZES))
def test_a_match_s_next_hand_says_who_won_the_last(
    browser: Browser, server: str, size: str
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        table, token = _second_hand(server, 3)
        page.goto(f"{server}/table/{table}#token={token}")
        said = page.locator("#game .ft-last-hand")
        expect(said).to_have_text("Previous hand won by Player 3.")
        assert serious_violations(page) == [], size
        shot(page, f"fantan-next-hand-{size}")

        table, token = _second_hand(server, 1)  # the player's own win
        page.goto(f"{server}/table/{table}#token={token}")
        expect(said).to_have_text("Previous hand won by you.")

        made = httpx.post(
            f"{server}/api/tables",
            json={"game": "fantan", "seats": ["you"] + ["random"] * 3, "variant": "chips-match"},
            timeout=10,
        ).json()
        page.goto(f"{server}/table/{made['table']}#token={made['token']}")
        page.wait_for_selector(".ft-rows")
        expect(said).to_have_count(0)  # the first hand has no last
    finally:
        context.close()


def test_the_previous_hand_s_winner_is_said_in_french(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "lang", "value": "fr", "url": server}])
    page = context.new_page()
    try:
        table, token = _second_hand(server, 3)
        page.goto(f"{server}/table/{table}#token={token}")
        expect(page.locator("#game .ft-last-hand")).to_have_text(
            "Donne précédente gagnée par Joueur 3."
        )
    finally:
        context.close()
