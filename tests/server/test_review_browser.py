"""End-to-end: a finished game's review in Debian's Chromium. A Morris game, a Fan game, a
two-player Fano game and a four-player Fan Tan hand (their first seat a person's) are loaded
as records (finished), their end panel's "Review" opens the review beside the replay, the
review fills in with its marks and graph, choosing a marked move (by mouse and by keyboard)
shows the position after it on the replay, each message of the review's socket bringing only
the moves the page has not got (no poll), and the page passes axe in both themes at both
sizes. Screenshots go to the test's own folder."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Response, WebSocket, expect

from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.games.fan import FanGame
from fanfold.games.morris import GAME as MORRIS
from fanfold.play.review import review
from fanfold.play.review_cards import review_cards
from fanfold.play.setup import play_game
from fanfold.server.app import create_app
from fanfold.server.bots.reviewer import HOLD_ENVIRONMENT
from fanfold.server.reviews import DEALS_ENVIRONMENT, review_seed
from tests.server.support import ROOMY, uvicorn_server
from tests.server.test_browser import browser, server  # noqa: F401  (fixtures)
from tests.server.test_i18n_browser import _french
from tests.server.test_site_browser import DEVELOPER, SIZES, serious_violations, small_text


def _load(server: str, record: GameRecord, seats: list[str]) -> tuple[str, str]:
    with httpx.Client(base_url=server, timeout=30) as client:
        answer = client.post("/api/records", json={"record": record.to_json(), "seats": seats})
    assert answer.status_code == 200, answer.text
    made = answer.json()
    return made["table"], made["token"]


def _open_review(page: Page, server: str, table: str, token: str) -> None:
    """The finished table's page, then its end panel's "Review", until the review is done."""
    page.goto(f"{server}/table/{table}#token={token}")
    page.wait_for_selector("#outcome:not([hidden])")
    page.locator("#review-link").click()
    page.wait_for_url(f"**/table/{table}?replay=1&review=1")
    expect(page.locator("#review-state")).to_contain_text("Reviewed", timeout=60_000)


def _check_page(browser: Browser, server: str, path: str, name: str, shots: Path) -> None:
    """axe, small text and developer words on the review page, at both sizes in both themes."""
    for size, (width, height) in SIZES.items():
        for theme in ("light", "dark"):
            context = browser.new_context(
                viewport={"width": width, "height": height},
                color_scheme=theme,
            )
            try:
                page = context.new_page()
                page.goto(f"{server}{path}")
                expect(page.locator("#review-state")).to_contain_text("Reviewed", timeout=60_000)
                assert serious_violations(page) == [], (size, theme)
                assert small_text(page) == [], (size, theme)
                assert DEVELOPER.search(page.locator("body").inner_text()) is None, (size, theme)
                page.screenshot(path=str(shots / f"{name}-{size}-{theme}.png"), full_page=True)
            finally:
                context.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    yield context.new_page()
    context.close()


def test_a_morris_game_s_review_marks_its_moves_and_shows_them_on_the_replay(
    browser: Browser, server: str, tmp_path: Path, page: Page
) -> None:
    record = play_game(MORRIS, None, ["medium", "easy"], agent_seed=1).finish()
    expected = review(record)
    assert expected.marked
    table, token = _load(server, record, ["you", "random"])
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _open_review(page, server, table, token)
    moves = page.locator(".review-move")
    expect(moves).to_have_count(len(record.actions))
    marked = page.locator(".review-move.mark-worse_result")
    expect(marked).to_have_count(
        sum(move.mark is not None and move.mark.value == "worse_result" for move in expected.moves)
    )
    first = next(move for move in expected.moves if move.mark is not None)
    button = page.locator(f'.review-move[data-move="{first.number}"]')
    expect(button).to_contain_text("better:")
    button.click()
    expect(page.locator("#replay-label")).to_have_text(
        f"move {first.number} of {len(record.actions)}"
    )
    expect(button).to_have_attribute("aria-current", "true")
    # By keyboard: the next move's button, focused and chosen with Enter.
    following = page.locator(f'.review-move[data-move="{first.number + 1}"]')
    following.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#replay-label")).to_have_text(
        f"move {first.number + 1} of {len(record.actions)}"
    )
    expect(page.locator(".review-graph .review-dot")).to_have_count(len(expected.marked))
    page.screenshot(path=str(tmp_path / "morris-review.png"), full_page=True)
    assert not errors, errors
    _check_page(browser, server, f"/table/{table}/review", "morris-review", tmp_path)


def test_a_fan_game_s_review_names_the_move_that_lost_the_deal(
    browser: Browser, server: str, tmp_path: Path, page: Page
) -> None:
    record = play_game(FanGame(), None, ["random"], seed=4, agent_seed=0).finish()
    expected = review(record)
    assert len(expected.marked) == 1, "deal 4 can be won; the random player loses it"
    losing = expected.marked[0]
    table, token = _load(server, record, ["you"])
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _open_review(page, server, table, token)
    button = page.locator(".review-move.mark-lost_deal")
    expect(button).to_have_count(1)
    expect(button).to_have_attribute("data-move", str(losing.number))
    expect(button).to_contain_text("lost the deal")
    expect(page.locator(".review-summary").first).to_contain_text("winning line")
    button.click()
    expect(page.locator("#replay-label")).to_have_text(
        f"move {losing.number} of {len(record.actions)}"
    )
    page.screenshot(path=str(tmp_path / "fan-review.png"), full_page=True)
    assert not errors, errors
    _check_page(browser, server, f"/table/{table}/review", "fan-review", tmp_path)


def _expect_card_review(
    page: Page,
    server: str,
    table: str,
    token: str,
    record: Any,
    expected: Any,
    bot_seats: tuple[int, ...],
    unmarked: str,
) -> None:
    """Open ``table``'s review from its end panel and check it against ``expected`` (the
    review made here with the job's seed): one button a move, the graph's one line with a dot
    at each mark, the first mark's words and better move, the bots' seats not reviewed, the
    summary's view, and the replay at the first marked move once its button is pressed;
    ``unmarked`` is the failure's sentence when nothing is marked."""
    marked = [entry for entry in expected["moves"] if entry["mark"] is not None]
    assert marked, unmarked
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    polls: list[Response] = []
    poll_path = f"/api/tables/{table}/review"
    page.on("response", lambda answer: polls.append(answer) if poll_path in answer.url else None)
    sockets: list[WebSocket] = []
    frames: list[str | bytes] = []

    def opened(socket: WebSocket) -> None:
        sockets.append(socket)
        socket.on("framereceived", lambda payload: frames.append(payload))

    page.on("websocket", opened)
    _open_review(page, server, table, token)
    # The review comes on its socket, not polled: each message the moves after those the page
    # has, each move once.
    assert not polls, [poll.url for poll in polls]
    watching = [socket for socket in sockets if f"/ws/reviews/{table}" in socket.url]
    assert len(watching) == 1, [socket.url for socket in sockets]
    assert watching[0].url.endswith(f"/ws/reviews/{table}?seen=0")
    have = 0
    for frame in frames:
        answer = json.loads(frame)
        if answer.get("type") != "review":
            continue
        assert answer["seen"] == have
        assert [entry["number"] for entry in answer["moves"]] == list(
            range(have + 1, have + 1 + len(answer["moves"]))
        )
        have += len(answer["moves"])
    assert have == len(record.actions)
    # the seat's own holder replays it from that seat's side, and is told which seat it held
    held = httpx.get(f"{server}/api/tables/{table}").json()["seats"][0]["name"]
    expect(page.locator("#replay-seat")).to_have_text(f"You played as {held}.")
    expect(page.locator("#game")).not_to_contain_text("Spectating")
    expect(page.locator("#game")).not_to_contain_text("public view")
    expect(page.locator(".review-move")).to_have_count(len(record.actions))
    expect(page.locator(".review-graph .review-line")).to_have_count(1)
    expect(page.locator(".review-graph .review-dot")).to_have_count(len(marked))
    first = marked[0]
    button = page.locator(f'.review-move[data-move="{first["number"]}"]')
    better = first["best_words"] or first["best"]  # a move no spectator is told: its notation
    expect(button).to_contain_text(f"{first['mark']}; better: {better}")
    expect(button).to_contain_text("% expected")
    for seat in bot_seats:
        bot = next(entry for entry in expected["moves"] if entry["seat"] == seat)
        expect(page.locator(f'.review-move[data-move="{bot["number"]}"]')).to_contain_text(
            "not reviewed: a bot's seat"
        )
    expect(page.locator(".review-summary").first).to_contain_text("judged from that seat's view")
    button.click()
    expect(page.locator("#replay-label")).to_have_text(
        f"move {first['number']} of {len(record.actions)}"
    )
    assert not errors, errors


def test_a_fano_game_s_review_judges_the_human_seat_from_its_view(
    browser: Browser,
    server: str,
    tmp_path: Path,
    page: Page,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From the end panel of a finished two-player Fano game whose first seat was a person's:
    its decisions judged (the marks and the better moves as the review finds them with the
    job's seed), the bot's seat said not to be reviewed, the graph's line for the person."""
    monkeypatch.setenv(DEALS_ENVIRONMENT, "3")
    fano = get_game("fano")
    record = play_game(fano, None, ["medium", "medium"], seed=5, agent_seed=5).finish()
    table, token = _load(server, record, ["you", "random"])
    labelled = dataclasses.replace(record, players=("human", "random"))
    expected: Any = review_cards(labelled, seed=review_seed(table), deals=3)
    _expect_card_review(
        page,
        server,
        table,
        token,
        record,
        expected,
        (1,),
        "the medium bot's moves lose expected result somewhere",
    )
    page.screenshot(path=str(tmp_path / "fano-review.png"), full_page=True)
    _check_page(browser, server, f"/table/{table}/review", "fano-review", tmp_path)


def test_a_fan_tan_game_s_review_judges_the_human_seat_from_its_view(
    browser: Browser,
    server: str,
    tmp_path: Path,
    page: Page,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A finished four-player Fan Tan hand, its first seat a person's and the others bots':
    from its end panel, the review judges the person's decisions from that seat's view (its
    marks and better cards as the review finds them with the job's seed), says the bots' seats
    are not reviewed and draws the graph's one line with a dot at each mark."""
    monkeypatch.setenv(DEALS_ENVIRONMENT, "30")
    fantan = get_game("fantan")
    # Deal 30, the person's seat played at random: marked under every review seed tried.
    record = play_game(fantan, None, ["random"] + ["medium"] * 3, seed=30, agent_seed=30).finish()
    table, token = _load(server, record, ["you", "random", "random", "random"])
    labelled = dataclasses.replace(record, players=("human", "bot", "bot", "bot"))
    expected: Any = review_cards(labelled, seed=review_seed(table), deals=30)
    _expect_card_review(
        page,
        server,
        table,
        token,
        record,
        expected,
        (1, 2, 3),
        "the seat played at random loses expected result somewhere",
    )
    page.screenshot(path=str(tmp_path / "fantan-review.png"), full_page=True)
    _check_page(browser, server, f"/table/{table}/review", "fantan-review", tmp_path)


def test_a_review_is_worded_in_french(
    browser: Browser, server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A finished Fano game's review on a French page: the summary, the moves and the better
    moves are worded from the catalogue (the codes and params the server sends beside its
    English), French's "du Joueur 1" where the template says "de" before the seat's name, the
    sentences on marked moves left to the list; screenshots at both sizes."""
    monkeypatch.setenv(DEALS_ENVIRONMENT, "3")
    fano = get_game("fano")
    record = play_game(fano, None, ["medium", "medium"], seed=5, agent_seed=5).finish()
    table, _token = _load(server, record, ["you", "random"])
    path = f"/table/{table}/review"
    deadline = time.monotonic() + 120
    while (body := httpx.get(f"{server}/api/tables/{table}/review").json())["state"] != "done":
        assert time.monotonic() < deadline, "the review never finished"
        time.sleep(0.2)
    shown = [
        _french(said)
        for said in body["summary_said"]
        if not said["code"].startswith("review.move.")  # said beside each marked move
    ]
    assert len(shown) < len(body["summary_said"])  # a marked move's sentence left out
    assert shown[0].startswith("Chaque décision du Joueur 1")
    # French goes on in lower case after the colon of "Résultat : " (English: "Result: Won")
    result = next(line for line in shown if line.startswith("Résultat : "))
    assert result[len("Résultat : ")].islower(), result
    marked = next(entry for entry in body["moves"] if entry["mark"] is not None)
    errors: list[str] = []
    for size, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
        try:
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{server}{path}")
            expect(page.locator("html")).to_have_attribute("lang", "fr")
            expect(page.locator("#review-state")).to_contain_text("Analysé", timeout=60_000)
            expect(page.locator(".review-summary")).to_have_text(shown)
            button = page.locator(f'.review-move[data-move="{marked["number"]}"]')
            expect(button.locator(".review-move-text")).to_have_text(
                f"{marked['number']}. {_french(marked['said'])}"
            )
            better = _french(marked["best_said"]) if marked.get("best_said") else marked["best"]
            expect(button.locator(".review-mark")).to_contain_text(f"; mieux : {better}")
            assert "de Joueur" not in page.locator("#review").inner_text()
            assert serious_violations(page) == [], size
            assert page.evaluate("document.documentElement.scrollWidth") <= width, size
            page.screenshot(path=str(tmp_path / f"fano-review-fr-{size}.png"), full_page=True)
            assert not errors, errors
        finally:
            context.close()


def test_the_review_page_says_while_its_step_pauses_for_the_tables_in_play(
    tmp_path: Path, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Fano review paused inside its first step: the page's line says it waits for the
    tables in play, then, once they are quiet, the line goes back to the moves reviewed and
    the review ends."""
    monkeypatch.setenv(DEALS_ENVIRONMENT, "2")
    monkeypatch.setenv(HOLD_ENVIRONMENT, "60")
    record = play_game(get_game("fano"), None, ["random"] * 2, seed=3, agent_seed=3).finish()
    app = create_app(f"sqlite:///{tmp_path / 'fanfold.db'}", bot_seconds=0.2, limits=ROOMY)
    with uvicorn_server(app) as running:
        server = f"http://127.0.0.1:{running.config.port}"
        # Live work as the review's step reads it (not as the event loop counts it): the step
        # starts at once and pauses inside, at its first pause point.
        shared = app.state.hub.pool.live.shared()
        shared.value = 1
        try:
            table, _ = _load(server, record, ["you", "random"])
            page.goto(f"{server}/table/{table}/review")
            state = page.locator("#review-state")
            total = len(record.actions)
            expect(state).to_have_text(
                f"Reviewing: 0 of {total} moves so far, waiting for the tables in play…",
                timeout=30_000,
            )
        finally:
            shared.value = 0  # the tables are quiet: the step goes on
        expect(state).not_to_contain_text("waiting", timeout=30_000)
        expect(state).to_contain_text("Reviewed", timeout=120_000)
