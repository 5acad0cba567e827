"""The lobby's "Your move" badge in Debian's Chromium: a signed-in player whose daily game waits
for their move sees the badge in the lobby's header (at 1280 and 390 px, axe-core finding
nothing serious), follows it to the list and from there to the table, seated; the opponent,
whose turn it is not, sees no badge. Screenshots go to ``build/screenshots/``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from fanfold.core.registry import get_game
from tests.server.test_accounts_browser import _sign_up
from tests.server.test_browser import browser, server, shot
from tests.server.test_site_browser import SIZES, serious_violations, sized_page

pytestmark = pytest.mark.usefixtures("listed_at_once")

__all__ = ["browser", "server"]  # fixtures used by name below


def _call(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """The page's own request (common.js ``api``: its cookies and CSRF token), as the lobby
    makes them."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const { api } = await import("/static/common.js");
            return await api(method, path, body ?? undefined);
        }""",
        [method, path, body],
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_a_daily_game_waiting_shows_as_a_badge_that_leads_to_the_table(
    browser: Browser, server: str, size: str
) -> None:
    first, second = f"rhea{size[0]}", f"saul{size[0]}"
    mover, other = sized_page(browser, size), sized_page(browser, size)
    try:
        _sign_up(mover, server, first)
        _sign_up(other, server, second)
        mover.goto(f"{server}/")
        expect(mover.locator("#waiting-badge")).to_be_hidden()  # nothing waits yet
        made = _call(
            mover,
            "POST",
            "/api/tables",
            {"game": "morris", "seats": ["you", "friend"], "rated": True, "speed": "daily"},
        )
        table = made["table"]
        mover.evaluate(  # as the lobby does when it opens a table: this browser's seat
            """async ([table, token]) => {
                const { remember } = await import("/static/common.js");
                remember(table, token, {}, "Morris, daily");
            }""",
            [table, made["token"]],
        )
        other.goto(f"{server}/")
        [invite] = made["invites"].values()
        _call(other, "POST", f"/api/tables/{table}/claim", {"invite": invite})

        mover.goto(f"{server}/")
        badge = mover.get_by_role("link", name="1 game waits for your move")
        expect(badge).to_be_visible()
        expect(mover.locator(".waiting-status")).to_have_attribute("aria-live", "polite")
        title = get_game("morris").title
        line = mover.locator("#waiting-list li")
        expect(line).to_have_count(1)
        expect(line).to_contain_text(f"{title} against {second}")
        expect(line).to_contain_text(re.compile(r"daily: 2[34] h left"))
        assert serious_violations(mover) == []
        shot(mover, f"lobby-your-move-{size}")
        mover.emulate_media(color_scheme="dark")
        shot(mover, f"lobby-your-move-{size}-dark")
        assert serious_violations(mover) == []

        other.reload()  # the opponent's turn is not: no badge
        expect(other.locator("#waiting-list li")).to_have_count(0)
        expect(other.locator("#waiting-badge")).to_be_hidden()

        badge.click()
        expect(mover.locator("#waiting")).to_be_in_viewport()
        mover.get_by_role("link", name=f"{title} against {second}").click()
        mover.wait_for_url(re.compile(rf"/table/{table}$"))
        expect(mover.locator("#status")).to_have_class(re.compile("your-turn"))
    finally:
        mover.context.close()
        other.context.close()
