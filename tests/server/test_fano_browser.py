"""The Fano table in Debian's Chromium, driven by Playwright: games played by pointing.

Every decision is taken the way a person takes it: the test reads the legal actions the page
offers (``actionsOf`` in ``static/games/fano.js``), checks that each one can be reached by
clicking (its cards are drawn on the table, or it has a button), then clicks the cards of the
one it chooses and, unless the last click already played it, its button. Screenshots go to
``build/screenshots/`` for a person to look at.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser, Page, expect

from fanfold.core.registry import get_game
from fanfold.server.app import create_app
from fanfold.server.hub import Hub
from tests.server.support import uvicorn_server
from tests.server.test_browser import browser, shot
from tests.server.test_security import card_tokens, fano_hidden

__all__ = ["browser"]  # the fixture, shared with the other browser tests

FANO = get_game("fano")
Action = dict[str, Any]
Choose = Callable[[list[Action]], Action]


class Server:
    """A running server: its address and its hub (to read the full state in checks)."""

    def __init__(self, url: str, app: FastAPI) -> None:
        self.url = url
        self.app = app

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    database = tmp_path_factory.mktemp("fano-browser") / "fanfold.db"
    app = create_app(f"sqlite:///{database}", bot_seconds=0.2, bot_pause=0.0)
    with uvicorn_server(app) as running:
        yield Server(f"http://127.0.0.1:{running.config.port}", app)


def new_page(browser: Browser, width: int = 1280, height: int = 800) -> Page:
    """A page in a fresh context (its own storage); page errors are kept on ``page.errors``."""
    phone = width < 500
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def close(page: Page) -> None:
    errors: list[str] = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not errors, f"errors in the page: {errors}"


def open_table(page: Page, server: Server, **body: Any) -> tuple[str, str]:
    """Open a table through the API (positions and time limits are not in the lobby's form)
    and go to it; returns its id and the creator's token."""
    answer = page.request.post(f"{server.url}/api/tables", data=body)
    assert answer.ok, answer.text()
    created = answer.json()
    page.goto(f"{server.url}/table/{created['table']}#token={created['token']}")
    page.wait_for_selector(".fano, #cover:not([hidden])")
    return created["table"], created["token"]


def ready(page: Page, timeout: float = 20_000) -> str:
    """Wait until this screen decides ("decide"), shows the hot-seat cover ("cover") or the
    game is over ("over")."""
    page.wait_for_function(
        "() => !document.querySelector('#cover').hidden"
        " || !document.querySelector('#outcome').hidden"
        " || document.querySelectorAll('.fano-actions [data-action], .fano-actions .clear,"
        " #game .card.playable').length > 0",
        timeout=timeout,
    )
    if page.locator("#cover").is_visible():
        return "cover"
    if page.locator("#outcome").is_visible():
        return "over"
    return "decide"


def version(page: Page) -> int:
    return int(page.locator(".fano").get_attribute("data-version") or -1)


def message(page: Page, server: Server, table: str, token: str | None) -> Any:
    headers = {"X-Fanfold-Token": token} if token else {}
    answer = page.request.get(f"{server.url}/api/tables/{table}", headers=headers)
    assert answer.ok, answer.text()
    return answer.json()


def offered(page: Page, state: Any) -> list[Action]:
    """The actions the page offers, each checked reachable by pointing."""
    actions: list[Action] = page.evaluate(
        "async (m) => (await import('/static/games/fano.js')).actionsOf(m)", state
    )
    assert sorted(a["text"] for a in actions) == sorted(state["legal"])
    for action in actions:
        if action["keys"]:
            for ref in action["keys"]:
                assert page.locator(f'#game .card[data-ref="{ref}"]').count() == 1, (action, ref)
        else:
            button = page.locator(f'.fano-actions [data-action="{action["text"]}"]')
            assert button.count() == 1, action
        assert action["label"] != action["text"], action  # told in words, not in notation
    return actions


def point(page: Page, action: Action) -> None:
    """Take ``action`` by clicking its cards and, unless they played it, its button."""
    before = version(page)
    if page.locator(".fano-actions .clear").count():
        page.click(".fano-actions .clear")  # start from nothing selected
    for ref in action["keys"]:
        page.locator(f'#game .card[data-ref="{ref}"]').click()
    button = page.locator(f'.fano-actions [data-action="{action["text"]}"]')
    if version(page) == before and button.count():
        button.click()
    page.wait_for_function(
        f"() => (document.querySelector('.fano')?.dataset.version ?? '{before}') !== '{before}'"
        " || !document.querySelector('#cover').hidden",
        timeout=20_000,
    )


ORDER = ["promote", "counter", "attack", "declare", "combine", "recruit", "defend", "play", "sub"]


def purposeful(rng: random.Random, bluffs: bool = True) -> Choose:
    """Promote, counter, attack, combine (for a prestige card first), recruit, play, ...;
    within a kind at random (declared attacks without the support only if ``bluffs``)."""

    def choose(actions: list[Action]) -> Action:
        for kind in ORDER:
            found = [a for a in actions if a["kind"] == kind]
            if kind == "declare" and not bluffs:
                found = [a for a in found if a.get("held")]
            if kind == "combine":
                prestige = [a for a in found if re.search(r"=(8|9|T)", a["text"])]
                found = prestige or found
            if found:
                return rng.choice(found)
        for text in ("keep", "shuffle", "allow", "pass"):
            for action in actions:
                if action["text"] == text:
                    return action
        return rng.choice(actions)

    return choose


def play(
    page: Page,
    server: Server,
    table: str,
    token: str | None,
    choose: Choose,
    limit: int = 400,
    seen: set[str] | None = None,
) -> int:
    """Decide by pointing until the game is over; returns the decisions taken."""
    decisions = 0
    while True:
        where = ready(page)
        if where == "over":
            return decisions
        if where == "cover":
            page.click("#cover-ok")
            continue
        state = message(page, server, table, token)
        if not state["legal"]:  # the screen moved on between the two looks
            continue
        assert state["version"] == version(page)
        actions = offered(page, state)
        chosen = choose(actions)
        if seen is not None:
            seen.add(chosen["kind"])
        point(page, chosen)
        decisions += 1
        assert decisions < limit, "the game did not end"


# ---------------------------------------------------------------------------- the games


def test_a_classic_game_against_a_bot_from_the_lobby(browser: Browser, server: Server) -> None:
    page = new_page(browser)
    try:
        page.goto(f"{server.url}/")
        page.click("[data-game=fano]")
        expect(page.locator("#time-row")).to_be_visible()
        presets = [
            option.get_attribute("value") for option in page.locator("#variant option").all()
        ]
        assert {"classic", "trionfey", "trionfey-one-for-all", "trionfey-specials"} <= set(presets)
        page.select_option("#seat-1", "random")
        page.fill("#options", "turns_per_player=12")
        page.fill("#seed", "5")
        page.click("#start")
        page.wait_for_url(re.compile(r"/table/"))
        page.wait_for_selector(".fano")
        table = page.url.split("/table/")[1].split("#")[0]
        token = page.url.split("#token=")[1]
        shot(page, "fano-2p-desktop")
        seen: set[str] = set()
        decisions = play(page, server, table, token, purposeful(random.Random(5)), seen=seen)
        assert decisions > 12
        assert {"play", "pass"} & seen
        expect(page.locator("#outcome")).to_be_visible()
        expect(page.locator("#log li").first).to_be_visible()
        shot(page, "fano-2p-over")
        # the finished game replays move by move, from the public view
        page.click("#replay-link")
        page.wait_for_selector(".fano")
        expect(page.locator(".fano-strip")).to_contain_text("replay")
        page.click("#replay-last")
        expect(page.locator("#replay-label")).to_have_text(re.compile(r"move (\d+) of \1"))
        expect(page.locator("#game .fano-seat")).to_have_count(2)
        expect(page.locator("#game .hand .card:not(.back):not(.known)")).to_have_count(0)
    finally:
        close(page)


#: Player 1 at Queen, one promotion from the King: 3H + 7H make the TH, then 8H 9H TH promote.
LAST_PROMOTION = "fano player=1 phase=main | level=2 hand=TH,5H field=8H,9H,3H,7H | field=2C,4C"


def test_promoting_by_pointing_wins(browser: Browser, server: Server) -> None:
    page = new_page(browser)
    try:
        open_table(page, server, game="fano", seats=["you", "random"], position=LAST_PROMOTION)
        assert ready(page) == "decide"
        # classic: no recruiting nor defending to offer
        expect(page.locator(".fano-actions .prompt")).to_have_text(
            "Your turn. Click a card of yours in play to attack or combine with it; a card in your"
            " hand to play, substitute or discard it."
        )
        page.click('#game .card[data-ref="f:0:3H"]')
        page.click('#game .card[data-ref="f:0:7H"]')  # the sums held: 3 + 7 = 10
        combine = page.locator('.fano-actions [data-action^="3H+7H=TH"]')
        expect(combine).to_have_count(3)  # both to the discard pile, or either one back to hand
        expect(combine.first).to_contain_text("→ 10♥")
        shot(page, "fano-combine-choice")
        page.click('.fano-actions [data-action="3H+7H=TH return 3H"]')
        promote = page.locator('.fano-actions [data-action="promote 8H 9H TH"]')
        expect(promote).to_be_visible()
        expect(page.locator('.fano-seat.mine .hand .card.known[data-card="3H"]')).to_have_count(1)
        promote.click()
        expect(page.locator("#outcome")).to_contain_text("Player 1 promoted 3 times and wins")
        expect(page.locator(".fano-seat.mine .commander")).to_contain_text("3/3")
        # won in the main phase: the turn line says the game is over, not that phase
        expect(page.locator(".fano-strip")).to_contain_text("game over")
        expect(page.locator(".fano-strip")).not_to_contain_text("main phase")
        # the Moves list leaves room for its longest number: its digits, and "113." kept whole
        log = page.locator("#log")
        digits = log.evaluate("(node) => node.style.getPropertyValue('--digits')")
        assert digits == str(len(str(log.locator("li").count())))
        log.evaluate("(node) => node.style.setProperty('--digits', '3')")
        padding, size = log.evaluate(
            "(node) => [parseFloat(getComputedStyle(node).paddingLeft),"
            " parseFloat(getComputedStyle(node).fontSize)]"
        )
        assert padding >= 4 * 0.6 * size, (padding, size)
        # the bar's How to play is this game's page; the lobby's list is not linked twice
        expect(page.locator("#rules")).to_have_attribute("href", "/how-to-play/fano")
        expect(page.locator("header a", has_text="How to play")).to_have_count(1)
    finally:
        close(page)


def test_on_a_phone_a_ready_action_is_brought_on_screen(browser: Browser, server: Server) -> None:
    """Tapping a card that makes an action (here the 5♥ in hand: play, substitute, discard)
    brings the action buttons, drawn below the board, on screen (a short phone screen: the
    buttons start below it)."""
    page = new_page(browser, 390, 520)
    try:
        open_table(page, server, game="fano", seats=["you", "random"], position=LAST_PROMOTION)
        assert ready(page) == "decide"
        page.locator('#game .card[data-ref="h:0:5H"]').tap()
        button = page.locator(".fano-actions button").first
        expect(button).to_be_visible()
        expect(button).to_be_in_viewport()
    finally:
        close(page)


#: Trionfey, Player 1 (hearts) to play with 4H in play: 4H attacks 6C with a 3 (3H in hand) and
#: AC with a 2 (none in hand: a bluff). Player 2 holds 7C, so AC + 6C = 7C is a counter.
WINDOW = "fano player=1 phase=main | hand=3H,5H field=4H | hand=7C,2C field=6C,AC"


def test_trionfey_hot_seat_the_defender_counters(browser: Browser, server: Server) -> None:
    page = new_page(browser)
    try:
        table, token = open_table(
            page,
            server,
            game="fano",
            variant="trionfey",
            seats=["you", "hotseat"],
            position=WINDOW,
            time_limit=300,
        )
        assert ready(page) == "cover"  # hot-seat: the first player confirms before seeing
        expect(page.locator("#game .card")).to_have_count(0)
        page.click("#cover-ok")
        assert ready(page) == "decide"
        expect(page.locator(".fano-actions .clock")).to_contain_text("s")
        page.click('#game .card[data-ref="f:0:4H"]')
        badges = page.locator(".fano-seat.other .card.target .badge")
        expect(badges).to_have_count(2)
        # a badge is drawn from its data-text (the card's name says it in words)
        expect(page.locator('.fano-seat.other .card[data-card="6C"] .badge')).to_have_attribute(
            "data-text", "3: 3♥"
        )
        expect(page.locator('.fano-seat.other .card[data-card="AC"] .badge')).to_have_attribute(
            "data-text", "2: bluff"
        )
        expect(page.locator('.fano-plane [data-arrow="4>6"]')).to_have_count(1)
        shot(page, "fano-trionfey-declare")
        page.click('#game .card[data-ref="f:1:6C"]')  # one way to attack it: declared at once
        # the defender's window, during the attacker's turn: the screen is covered first
        page.wait_for_selector("#cover:not([hidden])")
        expect(page.locator("#cover-text")).to_contain_text("Player 2")
        expect(page.locator("#game .card")).to_have_count(0)
        expect(page.locator("#log li")).to_have_count(0)
        page.click("#cover-ok")
        assert ready(page) == "decide"
        prompt = page.locator(".fano-actions .prompt.alert")
        expect(prompt).to_contain_text("attacks your 6♣ with 4♥")
        expect(page.locator(".pending")).to_contain_text("the support is shown when")
        # the hidden support is nowhere on the defender's screen
        expect(page.locator('#game [data-card="3H"]')).to_have_count(0)
        state = message(page, server, table, token)
        assert state["seat"] == 1
        assert "3H" not in json.dumps(state)
        actions = offered(page, state)
        assert {a["kind"] for a in actions} == {"allow", "counter"}
        shot(page, "fano-trionfey-counter-window")
        point(page, next(a for a in actions if a["text"] == "counter AC+6C=7C"))
        assert ready(page) == "cover"
        page.click("#cover-ok")
        assert ready(page) == "decide"
        log = [item.inner_text() for item in page.locator("#log li").all()]
        notation = [item.get_attribute("title") for item in page.locator("#log li").all()]
        assert notation[-2:] == ["4H>6C", "counter AC+6C=7C"]
        assert log[-2].startswith("You declared an attack on Player 2 (♣)'s 6♣ with 4♥")
        assert log[-1].startswith("Player 2 (♣) countered: A♣ and 6♣ combine into 7♣")
        # 4 can not attack 7: the attack failed, the attacker's card went face up
        expect(page.locator('.fano-seat.mine .field .card[data-card="4H"]')).to_have_count(0)
        expect(page.locator('.fano-seat.other .field .card[data-card="7C"]')).to_have_count(1)
        page.click('.fano-seat.mine button.pile.up[data-pile="0"]')
        expect(page.locator('.fano-seat.mine .discards .card[data-card="4H"]')).to_have_count(1)
    finally:
        close(page)


def test_trionfey_the_attacker_bluffs(browser: Browser, server: Server) -> None:
    page = new_page(browser)
    try:
        created = page.request.post(
            f"{server.url}/api/tables",
            data={
                "game": "fano",
                "variant": "trionfey",
                "seats": ["you", "friend"],
                "position": WINDOW,
            },
        ).json()
        table = created["table"]
        friend = page.request.post(
            f"{server.url}/api/tables/{table}/claim", data={"invite": created["invites"]["1"]}
        ).json()["token"]
        page.goto(f"{server.url}/table/{table}#token={created['token']}")
        guest = new_page(browser)
        try:
            guest.goto(f"{server.url}/table/{table}#token={friend}")
            guest.wait_for_selector(".fano")
            assert ready(page) == "decide"
            page.click('#game .card[data-ref="f:0:4H"]')
            page.click('#game .card[data-ref="f:1:AC"]')  # needs a 2: a bluff
            assert ready(guest) == "decide"
            expect(guest.locator(".fano-actions .prompt.alert")).to_contain_text("maybe a bluff")
            guest.click('.fano-actions [data-action="allow"]')
            expect(page.locator("#log li")).to_have_count(2)
            # the bluff is called: the 4H went face up, the AC stays, the hand is kept
            expect(guest.locator('.fano-seat.other .field .card[data-card="4H"]')).to_have_count(0)
            expect(guest.locator('.fano-seat.mine .field .card[data-card="AC"]')).to_have_count(1)
            expect(guest.locator(".fano-seat.other .hand .card.back")).to_have_count(2)
            expect(guest.locator(".fano-seat.other .last")).to_contain_text(
                "attack on your A♣ with 4♥"
            )  # in words
            shot(guest, "fano-trionfey-bluff-called")
        finally:
            close(guest)
    finally:
        close(page)


#: Trionfey, three players: Player 1's 4H may attack Player 2's 6C or Player 3's 5S.
THREE = "fano player=1 phase=main | hand=3H,7H,2H field=4H,AH | field=6C | field=5S"


def test_trionfey_three_players_choose_whom_to_attack(browser: Browser, server: Server) -> None:
    page = new_page(browser)
    try:
        config = FANO.with_players(FANO.preset("trionfey").config, 3)
        assert FANO.num_players(config) == 3
        table, token = open_table(
            page,
            server,
            game="fano",
            variant="trionfey",
            players=3,
            seats=["you", "random", "random"],
            position=THREE,
        )
        assert ready(page) == "decide"
        page.click('#game .card[data-ref="f:0:4H"]')
        expect(page.locator('#game .card.target[data-ref="f:1:6C"]')).to_have_count(1)
        expect(page.locator('#game .card.target[data-ref="f:2:5S"]')).to_have_count(1)
        shot(page, "fano-trionfey-3p-targets")
        page.click('#game .card[data-ref="f:2:5S"]')  # 4 attacks 5 with a 7: Player 3
        expect(page.locator("#log li").first).to_have_attribute("title", "4H>5S@3")
        expect(page.locator("#log li").first).to_contain_text(
            "You declared an attack on Player 3 (♠)'s 5♠ with 4♥"
        )
        # Player 3 has no counter window (one card in play): the attack resolved at once
        expect(page.locator('.fano-seat.mine .field .card[data-card="7H"]')).to_have_count(1)
        state = message(page, server, table, token)
        if state["legal"]:
            assert all("@2" not in text for text in state["legal"])  # the choice holds all turn
    finally:
        close(page)


def test_a_partnership_game_with_bots(browser: Browser, server: Server) -> None:
    page = new_page(browser)
    try:
        table, token = open_table(
            page,
            server,
            game="fano",
            variant="trionfey-one-for-all",
            players=4,
            seats=["you", "random", "random", "random"],
            options={"turns_per_player": "6"},
            seed=3,
        )
        expect(page.locator('.fano-seat[data-seat="2"] .team')).to_contain_text("partner")
        expect(page.locator('.fano-seat[data-seat="1"] .team')).to_have_text("B")
        expect(page.locator(".fano-strip")).to_contain_text("One for all")
        expect(page.locator(".tag", has_text="priority")).to_have_count(1)
        decisions = play(page, server, table, token, purposeful(random.Random(3)))
        assert decisions >= 6
        expect(page.locator("#outcome")).to_be_visible()
    finally:
        close(page)


def test_a_spectator_sees_no_hidden_card(browser: Browser, server: Server) -> None:
    """A spectator watches Trionfey with its face-down specials (a player acting through the
    API against a bot): every state message the page receives is the public message (the one
    the message crawl of tests/server/test_security.py checks), and no card hidden at that
    point is in it or drawn on the page."""
    page = new_page(browser)
    frames: list[Any] = []
    page.on(
        "websocket",
        lambda socket: socket.on(
            "framereceived", lambda payload: frames.append(json.loads(payload))
        ),
    )
    try:
        created = page.request.post(
            f"{server.url}/api/tables",
            data={
                "game": "fano",
                "variant": "trionfey-specials",
                "seats": ["you", "random"],
                "options": {"turns_per_player": "12"},
                "seed": 8,
            },
        ).json()
        table, token = created["table"], created["token"]
        page.goto(f"{server.url}/table/{table}")  # no token: a spectator
        page.wait_for_selector(".fano")
        expect(page.locator(".fano-strip")).to_contain_text("spectating")
        rng = random.Random(8)
        while True:
            state = message(page, server, table, token)
            if state["outcome"] is not None:
                break
            if state["legal"]:
                answer = page.request.post(
                    f"{server.url}/api/tables/{table}/act",
                    data={
                        "token": token,
                        "version": state["version"],
                        "action": rng.choice(state["legal"]),
                    },
                )
                assert answer.ok, answer.text()
            else:
                time.sleep(0.02)
        page.wait_for_selector("#outcome:not([hidden])")
        expect(page.locator(".fano-actions [data-action]")).to_have_count(0)
        live = server.hub.live[table]
        states = live.table.finish().states()
        played = live.table.played
        states_seen = [frame for frame in frames if frame.get("type") == "state"]
        assert len(states_seen) > 20
        for frame in states_seen:
            number = frame["version"]  # no undo here: the version counts the actions
            state = states[number]
            assert frame["seat"] is None
            assert frame["legal"] == []
            assert frame["view"] == FANO.public_view(state)
            told = [live.table.announcement(p, None) for p in played[:number]]
            assert [entry["text"] for entry in frame["log"]] == [text for text in told if text]
            hidden, _ = fano_hidden(state, None)
            assert not card_tokens(frame["view"]) & hidden
        # and the page at the end draws no card that was hidden at the end
        shown = set(
            page.eval_on_selector_all(
                "#game [data-card]", "nodes => nodes.map(node => node.dataset.card)"
            )
        )
        hidden, _ = fano_hidden(states[-1], None)
        assert not shown & hidden
        assert page.locator("#game .hand .card:not(.back):not(.known)").count() == 0
        shot(page, "fano-spectator")
    finally:
        close(page)


#: (variant, options, position, the seat that decides, the specials offered, one to take)
SPECIALS = [
    (
        "trionfey-specials",
        {},
        "fano player=1 phase=main | tribute=3 hand=AH,5H field=4H | hand=7D field=2D,6D",
        0,
        {"4H>2D reverse": "Reverse Fano"},
        ["f:0:4H", "f:1:2D"],
    ),
    (
        "trionfey-specials",
        {"suits": "SC"},
        "fano player=1 phase=main | tribute=3 hand=3S field=4S | field=6C",
        0,
        {"joker": "Spades joker"},
        ["joker"],
    ),
    (
        "trionfey-specials",
        {"suits": "CD"},
        "fano player=1 phase=main | tribute=3 hand=3C,TC field=4C,7C | field=6D",
        0,
        {"4C+7C=TC oversum": "Oversum"},
        ["f:0:4C", "f:0:7C", "4C+7C=TC oversum"],
    ),
    (
        "trionfey-specials",
        {},
        "fano player=2 phase=main | field=4H | tribute=3 hand=5D,2D field=6D",
        1,
        {"play 5D down": "face down", "sub 6D 5D down": "face down"},
        ["h:1:5D", "play 5D down"],
    ),
    (
        "trionfey-specials",
        {},
        "fano player=2 phase=main | field=4H | hand=2D field=6D,5D hidden=5D",
        1,
        {"flip 5D": "Flip"},
        ["f:1:5D", "flip 5D"],
    ),
    (
        "specials-choice",
        {},
        "fano player=1 phase=main | hand=3H,5H,TH field=4H,6H | field=6C,2C",
        0,
        {"defend 4H": "Perfect defense", "4H+6H=5H oversum": "Oversum"},
        ["f:0:6H", "defend 6H"],
    ),
]


@pytest.mark.parametrize(
    ("variant", "options", "position", "seat", "specials", "clicks"),
    SPECIALS,
    ids=["reverse", "spades-joker", "clubs-oversum", "diamonds-down", "flip", "classic"],
)
def test_specials_are_offered_by_pointing_exactly_when_legal(
    browser: Browser,
    server: Server,
    variant: str,
    options: dict[str, str],
    position: str,
    seat: int,
    specials: dict[str, str],
    clicks: list[str],
) -> None:
    page = new_page(browser)
    try:
        seats = ["random", "random"]
        seats[seat] = "you"
        table, token = open_table(
            page,
            server,
            game="fano",
            variant=variant,
            options=options,
            seats=seats,
            position=position,
        )
        assert ready(page) == "decide"
        state = message(page, server, table, token)
        actions = {action["text"]: action for action in offered(page, state)}
        for text, words in specials.items():
            assert words in actions[text]["label"]
        before = version(page)
        for click in clicks:
            if click.startswith(("f:", "h:")):
                page.click(f'#game .card[data-ref="{click}"]')
            else:
                page.click(f'.fano-actions [data-action="{click}"]')
        page.wait_for_function(
            f"() => document.querySelector('.fano')?.dataset.version !== '{before}'"
        )
        played = message(page, server, table, token)["log"][0]
        assert played["seat"] == seat
        if "down" in played["text"]:
            # the card lies face down: its owner sees it marked, a spectator sees a back
            expect(page.locator('#game .card.face-down-own[data-card="5D"]')).to_have_count(1)
            public = message(page, server, table, None)
            assert public["view"]["players"][seat]["face_down_in_play"] == 1
            assert "5D" not in json.dumps(public)
            assert public["log"][0]["text"] == "play a card face down (Perfect defense)"
    finally:
        close(page)


# ----------------------------------------------------------------------------- screens

SCREENS = [
    ("classic", 2, 4),
    ("trionfey-all-for-one", 4, 4),
    ("eight-players", 8, 6),
]


@pytest.mark.parametrize(("variant", "players", "seed"), SCREENS)
def test_tables_at_two_four_and_eight_players_fit_desktop_and_phone(
    browser: Browser, server: Server, variant: str, players: int, seed: int
) -> None:
    for width, height, name in ((1280, 800, "desktop"), (390, 844, "phone")):
        page = new_page(browser, width, height)
        try:
            open_table(
                page,
                server,
                game="fano",
                variant=variant,
                players=players,
                seats=["you"] + ["random"] * (players - 1),
                seed=seed,
            )
            ready(page)
            expect(page.locator(".fano-seat")).to_have_count(players)
            overflow = page.evaluate(
                "() => document.scrollingElement.scrollWidth - window.innerWidth"
            )
            assert overflow <= 1, f"{players} players: {overflow} px wider than the screen"
            shot(page, f"fano-{players}p-{name}")
        finally:
            close(page)
