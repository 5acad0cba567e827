"""End-to-end, in Debian's Chromium: two properties of a Fano review seen on its page.

* Two finished two-player Fano tables whose records give the person's seat the same view
  (its own cards and everything public) at every move, the opponent's hidden cards dealt
  otherwise, reviewed with the same seed: the two review pages show the same review (the
  moves, their marks, the better moves, the graph) and the same page, and the replay's board
  never shows a card the opponent holds hidden.
* A review whose worker process is killed (SIGKILL) while the page is open, and a review whose
  holding process (another server's, on the same store) is killed: the page goes on showing
  the review's progress, reaches the finished review, and it is the review one process makes
  of the same record with the same seed and deals."""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import dataclasses
import os
import re
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from fanfold.core.errors import RecordError
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.games.fano.cards import card_text
from fanfold.play.review import REVIEW_VERSION
from fanfold.play.review_cards import review_cards
from fanfold.play.setup import play_game
from fanfold.server.app import create_app
from fanfold.server.bots.reviewer import HOLD_ENVIRONMENT
from fanfold.server.reviews import DEALS_ENVIRONMENT, review_seed
from tests.server.support import ROOMY, ROOT, subprocess_environment, uvicorn_server
from tests.server.test_browser import browser  # noqa: F401  (fixture)
from tests.server.test_review_browser import _load, _open_review
from tests.server.test_reviews import morris_record

#: The one id both swapped-cards tables get (each on a server of its own): the review's seed
#: comes from the table's id, so both are reviewed with the same seed.
SAME_ID = "swappedCards"

#: What the page renders of a review, read from its elements: each move's button (its number,
#: its mark's class and its words, the better move included), the graph's lines and dots (their
#: places and marks), the summary and the review's line.
RENDERED = """() => ({
  moves: [...document.querySelectorAll('.review-move')].map((button) => ({
    move: button.dataset.move, classes: button.className, text: button.innerText,
  })),
  lines: [...document.querySelectorAll('.review-graph .review-line')].map(
    (line) => line.getAttribute('d')),
  dots: [...document.querySelectorAll('.review-graph .review-dot')].map((dot) => ({
    cx: dot.getAttribute('cx'), cy: dot.getAttribute('cy'), classes: dot.getAttribute('class'),
  })),
  summary: [...document.querySelectorAll('.review-summary')].map((line) => line.innerText),
  state: document.getElementById('review-state').innerText,
})"""


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    yield context.new_page()
    context.close()


#: A card's suit letter in its notation (``3C``) and the suit the page writes (``3♣``).
_SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def _swapped(record: GameRecord) -> tuple[GameRecord, GameRecord]:
    """Two records of ``record``'s moves from its start: as dealt, and with a card of the
    second seat's opening hand swapped with a card of its draw pile, under which the first
    seat's view is the same at every move and the game ends alike: of those swaps, the one
    whose game differs for the most moves. Returns both records, each from its start."""
    game = get_game(record.game)
    start = record.initial_state()
    opponent = start.players[1]
    states = record.states()
    views = [game.observe(state, 0) for state in states]
    found: list[tuple[int, GameRecord]] = []
    for held in opponent.hand:
        for place, drawn in enumerate(opponent.draw):
            hand = tuple(sorted([card for card in opponent.hand if card != held] + [drawn]))
            draw = (*opponent.draw[:place], held, *opponent.draw[place + 1 :])
            swapped = dataclasses.replace(opponent, hand=hand, draw=draw)
            other = dataclasses.replace(start, players=(start.players[0], swapped))
            made = dataclasses.replace(record, start_position=game.format_position(other))
            try:
                others = made.states()
            except RecordError:  # an opponent's move the other deal does not allow
                continue
            if [game.observe(state, 0) for state in others] == views and game.outcome(
                others[-1]
            ) == game.outcome(states[-1]):
                found.append(
                    (sum(one != two for one, two in zip(states, others, strict=True)), made)
                )
    assert found, "no swap of the opponent's hidden cards keeps the seat's view"
    dealt = dataclasses.replace(record, start_position=game.format_position(start))
    return dealt, max(found, key=lambda pair: pair[0])[1]


def _hidden(state: Any, seat: int) -> set[str]:
    """The cards ``seat``'s opponent holds hidden in ``state`` (its hand, draw pile and
    face-down discards), as the page writes them (``3♣``)."""
    other = state.players[1 - seat]
    texts = (card_text(card) for card in (*other.hand, *other.draw, *other.down))
    return {text[:-1] + _SUITS[text[-1]] for text in texts}


def _review_page(
    page: Page,
    address: str,
    record: GameRecord,
    hidden: tuple[set[str], set[str]],
    shots: Path,
    name: str,
) -> tuple[Any, str, str]:
    """Load ``record`` at a table with the person in the first seat, open its review from the
    end panel until it is done, and return what the page renders of the review, the page's
    text, and the board's text at the first and at the last move, where the board shows none
    of the cards in ``hidden`` (the opponent's hidden cards there, of either deal)."""
    table, token = _load(address, record, ["you", "random"])
    assert table == SAME_ID
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _open_review(page, address, table, token)
    expect(page.locator(".review-move")).to_have_count(len(record.actions))
    rendered = page.evaluate(RENDERED)
    text = page.locator("body").inner_text()
    boards = []
    total = len(record.actions)
    for button, move, cards in zip(
        ("#replay-first", "#replay-last"), (0, total), hidden, strict=True
    ):
        page.locator(button).click()
        expect(page.locator("#replay-label")).to_have_text(f"move {move} of {total}")
        board = page.locator("#board").inner_text() + page.locator("#last-move").inner_text()
        assert sorted(card for card in cards if card in board) == [], (name, move)
        boards.append(board)
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    assert not errors, errors
    return rendered, text, "\n".join(boards)


def test_a_fano_review_is_the_same_when_the_opponent_s_hidden_cards_are_swapped(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 47: "a Fano review identical when the hidden cards are swapped under the same
    view and seed". Each record is loaded on a server of its own under the same table id (so
    the review's seed is the same), and its review opened from the end panel in Chromium for
    the person's seat: the marked moves, their marks and better moves, the graph's points, the
    summary and the whole page's text are the same for both, and the replay's board, at the
    first move and at the last, shows none of the opponent's hidden cards of either deal."""
    monkeypatch.setenv(DEALS_ENVIRONMENT, "3")
    monkeypatch.setattr("fanfold.server.hub.opening.table_id_for", lambda _name: SAME_ID)
    fano = get_game("fano")
    played = play_game(fano, None, ["medium", "medium"], seed=5, agent_seed=5).finish()
    dealt, other = _swapped(played)
    dealt_states, other_states = dealt.states(), other.states()
    assert dealt_states[0].players[1].hand != other_states[0].players[1].hand
    assert dealt_states[0].players[0] == other_states[0].players[0]
    hidden = (
        _hidden(dealt_states[0], 0) | _hidden(other_states[0], 0),
        _hidden(dealt_states[-1], 0) | _hidden(other_states[-1], 0),
    )
    assert all(hidden), "the opponent holds cards hidden at the start and at the end"
    expected: Any = review_cards(
        dataclasses.replace(dealt, players=("human", "random")),
        seed=review_seed(SAME_ID),
        deals=3,
    )
    marked = [entry for entry in expected["moves"] if entry["mark"] is not None]
    assert marked, "the medium bot's moves lose expected result somewhere"
    pages = []
    for number, record in enumerate((dealt, other)):
        database = tmp_path / f"table{number}.db"
        app = create_app(f"sqlite:///{database}", bot_seconds=0.2, bot_pause=0.0, limits=ROOMY)
        with uvicorn_server(app) as running:
            address = f"http://127.0.0.1:{running.config.port}"
            context = browser.new_context(viewport={"width": 1200, "height": 860})
            try:
                page = context.new_page()
                pages.append(
                    _review_page(page, address, record, hidden, tmp_path, f"swapped-{number}")
                )
            finally:
                context.close()
    (first, first_text, first_boards), (second, second_text, second_boards) = pages
    assert first == second
    assert first_text == second_text
    assert first_boards == second_boards
    # What the page shows is the review made here from the seat's view with the same seed.
    shown_marks = [
        (move["move"], move["classes"]) for move in first["moves"] if "mark-" in move["classes"]
    ]
    assert [number for number, _ in shown_marks] == [str(entry["number"]) for entry in marked]
    for (_, classes), entry in zip(shown_marks, marked, strict=True):
        assert f"mark-{entry['mark']}" in classes
        assert "better:" in first["moves"][entry["number"] - 1]["text"]
    assert len(first["dots"]) == len(marked)
    assert len(first["lines"]) == 1
    assert first["state"].startswith("Reviewed")
    # The opponent's discards face down are said without their cards.
    face_down = [
        (number, text)
        for number, (state, text) in enumerate(
            zip(dealt_states[:-1], dealt.actions, strict=True), start=1
        )
        if fano.current_player(state) == 1 and text.startswith("discard ")
    ]
    assert face_down, "the opponent discards face down"
    for number, text in face_down:
        said = first["moves"][number - 1]["text"]
        assert "face down" in said, said
        for card in text.split()[1:]:
            assert card not in said
            assert card[:-1] + _SUITS[card[-1]] not in said, (said, card)


def _moves_shown(state: str) -> int | None:
    """The count of moves reviewed in the review's line ("Reviewing: 6 of 48 moves so far"),
    or ``None`` once the review is done."""
    found = re.match(r"Reviewing: (\d+) of", state)
    return None if found is None else int(found.group(1))


def test_a_review_survives_its_worker_process_s_sigkill_on_the_page(
    tmp_path: Path, page: Page, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 47: "a review that survives its process's SIGKILL". A server whose reviews are
    computed in a worker process of their own (as in ``fanfold serve``); each step of the
    review held a second inside (live work under way, as the review's step reads it), so the
    review is still running when its page has shown its first moves. The worker process is
    killed then (SIGKILL): the page goes on showing more moves reviewed, a new worker process
    computes them, and the page ends on the finished review, the same, move for move, as the
    review one process makes of the record with the same seed and deals."""
    monkeypatch.setenv(DEALS_ENVIRONMENT, "2")
    monkeypatch.setenv(HOLD_ENVIRONMENT, "1")
    fano = get_game("fano")
    short = fano.config_from_json({"turns_per_player": 24})
    record = play_game(fano, short, ["random", "random"], seed=3, agent_seed=3).finish()
    total = len(record.actions)
    assert total >= 8 * 6, "eight steps of six moves at least"
    app = create_app(
        f"sqlite:///{tmp_path / 'fanfold.db'}",
        bot_seconds=0.2,
        limits=ROOMY,
        bot_processes=True,
        bot_workers=1,
    )
    with uvicorn_server(app) as running:
        server = f"http://127.0.0.1:{running.config.port}"
        shared = app.state.hub.pool.live.shared()
        shared.value = 1  # live work as the step reads it: each step waits its second inside
        try:
            table, token = _load(server, record, ["you", "random"])
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{server}/table/{table}#token={token}")
            page.wait_for_selector("#outcome:not([hidden])")
            page.locator("#review-link").click()
            state = page.locator("#review-state")
            expect(state).to_have_text(
                re.compile(rf"^Reviewing: [1-9]\d* of {total} "), timeout=120_000
            )
            before = _moves_shown(state.inner_text())
            assert before is not None
            assert before < total
            worker = app.state.review_worker
            killed = worker.pid
            assert killed is not None
            assert killed != os.getpid()
            os.kill(killed, signal.SIGKILL)
            # The page goes on: more moves reviewed than when the worker was killed, then the
            # finished review.
            page.wait_for_function(
                """([before, total]) => {
                  const found = document.getElementById('review-state').innerText
                    .match(/^Reviewing: (\\d+) of/);
                  return found !== null && Number(found[1]) > before
                    && Number(found[1]) < total;
                }""",
                arg=[before, total],
                timeout=120_000,
            )
        finally:
            shared.value = 0
        expect(state).to_contain_text("Reviewed", timeout=120_000)
        assert worker.pid is not None
        assert worker.pid != killed, "a new worker process computed the rest"
        assert "the review worker process stopped" in caplog.text
        rendered = page.evaluate(RENDERED)
        answer = httpx.get(f"{server}/api/tables/{table}/review").json()
        assert not errors, errors
    page.screenshot(path=str(tmp_path / "killed-review.png"), full_page=True)
    labelled = dataclasses.replace(record, players=("human", "random"))
    expected: Any = review_cards(labelled, seed=review_seed(table), deals=2)
    assert answer["state"] == "done"
    # The moves as the review computed without the kill has them (the server's answer carries
    # the same fields, and some of its own).
    assert len(answer["moves"]) == total
    for entry, alone in zip(answer["moves"], expected["moves"], strict=True):
        assert {key: entry[key] for key in alone} == alone
    marked = [entry for entry in expected["moves"] if entry["mark"] is not None]
    assert marked, "the seat played at random loses expected result somewhere"
    shown = [move["move"] for move in rendered["moves"] if "mark-" in move["classes"]]
    assert shown == [str(entry["number"]) for entry in marked]
    assert len(rendered["moves"]) == total
    assert len(rendered["dots"]) == len(marked)


#: Another process on the server's store that holds a table's review (as in
#: ``test_review_kill.py``): claims it with a three-second lease, computes and stores its first
#: step, then hangs in its second (its heartbeat keeps the lease) until it is killed.
HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from fanfold.core.records import GameRecord
    from fanfold.server.reviews import Reviews, review_step
    from fanfold.server.store import Store
    from fanfold.server.store.review_memory import review_store

    url, table, path = sys.argv[1], sys.argv[2], sys.argv[3]
    record = GameRecord.loads(open(path).read())
    store = Store(url)
    steps = []

    async def compute(game, stop, budget, seed, start):
        steps.append(stop)
        if len(steps) > 1:
            print("hanging", flush=True)
            await asyncio.Event().wait()
        return review_step(game.to_json(), stop, budget, seed, start)

    async def main():
        reviews = Reviews(review_store(store), compute, owner="holder", lease=3.0, batch=0)
        await reviews.open(table, record)
        await asyncio.Event().wait()

    asyncio.run(main())
    """
)


def test_a_review_whose_holding_process_is_killed_is_finished_by_the_page_s_server(
    tmp_path: Path, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 47: "a review that survives its process's SIGKILL", the process that holds the
    review killed. Another process on the server's store holds the review of a finished Fano
    table, has stored its first step and hangs in its second. The page, on the server, shows
    the moves stored so far; the holder is killed (SIGKILL); once its lease has run out the
    page's next poll has the server take the review over, the page shows more moves reviewed
    (each step of the server's held a second, live work under way as the step reads it) and
    then the finished review, which is, move for move, the review one process makes of the
    record with the same seed and deals."""
    monkeypatch.setenv(DEALS_ENVIRONMENT, "2")
    monkeypatch.setenv(HOLD_ENVIRONMENT, "1")
    fano = get_game("fano")
    short = fano.config_from_json({"turns_per_player": 24})
    played = play_game(fano, short, ["random", "random"], seed=3, agent_seed=3).finish()
    total = len(played.actions)
    assert total >= 8 * 6, "eight steps of six moves at least"
    database = tmp_path / "fanfold.db"
    app = create_app(f"sqlite:///{database}", bot_seconds=0.2, limits=ROOMY)
    with uvicorn_server(app) as running:
        server = f"http://127.0.0.1:{running.config.port}"
        table, token = _load(server, played, ["you", "random"])
        record = GameRecord.loads(httpx.get(f"{server}/api/tables/{table}/record").text)
        path = tmp_path / "record.json"
        path.write_text(record.dumps())
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLDER, f"sqlite:///{database}", table, str(path)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=subprocess_environment(),
        )
        shared = app.state.hub.pool.live.shared()
        try:
            assert holder.stdout is not None
            assert holder.stdout.readline().strip() == "hanging"
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{server}/table/{table}#token={token}")
            page.wait_for_selector("#outcome:not([hidden])")
            page.locator("#review-link").click()
            state = page.locator("#review-state")
            expect(state).to_have_text(
                re.compile(rf"^Reviewing: [1-9]\d* of {total} "), timeout=60_000
            )
            before = _moves_shown(state.inner_text())
            assert before is not None
            assert before < total
            reviews = app.state.reviews
            job = reviews.store.job(table, REVIEW_VERSION)
            assert job is not None
            assert (job.owner, job.attempts) == ("holder", 1)
            shared.value = 1  # live work as the step reads it: each step waits its second
            holder.send_signal(signal.SIGKILL)
            assert holder.wait(timeout=30) == -signal.SIGKILL
            page.wait_for_function(
                """([before, total]) => {
                  const found = document.getElementById('review-state').innerText
                    .match(/^Reviewing: (\\d+) of/);
                  return found !== null && Number(found[1]) > before
                    && Number(found[1]) < total;
                }""",
                arg=[before, total],
                timeout=120_000,
            )
        finally:
            shared.value = 0
            if holder.poll() is None:
                holder.kill()
            holder.wait(timeout=30)
        expect(state).to_contain_text("Reviewed", timeout=120_000)
        done = reviews.store.job(table, REVIEW_VERSION)
        assert done is not None
        assert (done.state, done.owner, done.attempts) == ("done", reviews.owner, 2)
        rendered = page.evaluate(RENDERED)
        answer = httpx.get(f"{server}/api/tables/{table}/review").json()
        assert not errors, errors
    page.screenshot(path=str(tmp_path / "taken-over-review.png"), full_page=True)
    expected: Any = review_cards(record, seed=review_seed(table), deals=2)
    assert len(answer["moves"]) == total
    for entry, alone in zip(answer["moves"], expected["moves"], strict=True):
        assert {key: entry[key] for key in alone} == alone
    marked = [entry for entry in expected["moves"] if entry["mark"] is not None]
    assert marked, "the seat played at random loses expected result somewhere"
    shown = [move["move"] for move in rendered["moves"] if "mark-" in move["classes"]]
    assert shown == [str(entry["number"]) for entry in marked]
    assert len(rendered["dots"]) == len(marked)


def test_a_page_whose_review_socket_closes_polls_instead(tmp_path: Path, page: Page) -> None:
    """The review's socket closed before its first message (a proxy without WebSockets): the
    page polls, each poll saying the moves it has, and shows the whole review."""
    record = morris_record()
    app = create_app(f"sqlite:///{tmp_path / 'fanfold.db'}", bot_seconds=0.2, limits=ROOMY)
    with uvicorn_server(app) as running:
        server = f"http://127.0.0.1:{running.config.port}"
        table, token = _load(server, record, ["you", "random"])
        page.route_web_socket(re.compile(r".*/ws/reviews/.*"), lambda socket: socket.close())
        polls: list[str] = []
        page.on(
            "request", lambda asked: polls.append(asked.url) if "/review?" in asked.url else None
        )
        _open_review(page, server, table, token)
        expect(page.locator(".review-move")).to_have_count(len(record.actions))
    assert polls, "the page did not poll"
    seen = [int(url.rsplit("=", 1)[1]) for url in polls]
    assert seen[0] == 0
    assert seen == sorted(seen)  # each poll says the moves it has, never fewer
    assert seen[-1] < len(record.actions)  # the last poll brought the rest
