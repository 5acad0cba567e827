"""The sweep of the reviews nobody works on (:mod:`fanfold.server.review_sweep`): a process
finishes, with no request, the reviews left pending in the store or whose holder's lease ran
out, at its start and every period after; at shutdown its reviews are cancelled cleanly, their
stored moves kept and their claims left to run out for another process."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from fanfold.core.config import JSONObject
from fanfold.core.errors import NotationError
from fanfold.core.records import GameRecord
from fanfold.games.morris import GAME as MORRIS
from fanfold.play.review import REVIEW_VERSION, review
from fanfold.play.setup import play_game
from fanfold.server.i18n import messages, refusal_codes
from fanfold.server.review_answers import failure_fields, failure_text
from fanfold.server.review_sweep import sweeping
from fanfold.server.reviews import CHUNK, Reviews, review_seed, review_step
from fanfold.server.store.review_memory import MemoryReviews, review_store
from fanfold.server.store.table_side_protocols import ReviewStore
from tests.server.support import JSON, serve


def morris_record(agent_seed: int) -> GameRecord:
    return play_game(MORRIS, None, ["medium", "easy"], agent_seed=agent_seed).finish()


def without_words(entries: list[JSONObject]) -> list[JSONObject]:
    return [
        {key: value for key, value in entry.items() if key not in ("best_words", "best_said")}
        for entry in entries
    ]


async def compute(
    game: GameRecord, stop: int, budget: int | None, seed: str, start: int
) -> JSONObject:
    return review_step(game.to_json(), stop, budget, seed, start)


def open_job(store: ReviewStore, table: str, record: GameRecord, now: float) -> None:
    store.open(
        table,
        REVIEW_VERSION,
        game=record.game,
        moves=len(record.actions),
        seed=review_seed(table),
        budget=None,
        now=now,
    )


def test_reviews_left_in_the_store_are_finished_by_a_freshly_started_process(
    tmp_path: Path,
) -> None:
    """One review left pending (opened, never claimed), one whose holder died holding it with
    a move stored: the next process to start on the store finishes both, nobody asking."""
    records = [morris_record(1), morris_record(2)]
    with serve(tmp_path) as client:
        tables: list[str] = []
        for record in records:
            answer = client.post(
                "/api/records", json={"record": record.to_json(), "seats": ["random", "random"]}
            )
            assert answer.status_code == 200, answer.text
            tables.append(answer.json()["table"])
        store = review_store(client.app.state.hub.store)  # type: ignore[attr-defined]
        now = time.time()
        open_job(store, tables[0], records[0], now)
        open_job(store, tables[1], records[1], now)
        # The second one's holder: claimed, one move stored, its lease run out long ago.
        assert store.claim(tables[1], REVIEW_VERSION, "gone", now - 100.0, 1.0) is not None
        first: JSON = {"kept": "as stored"}
        assert store.add_moves(tables[1], REVIEW_VERSION, "gone", {1: first}, now - 100.0, 1.0)
        assert store.job(tables[0], REVIEW_VERSION).state == "pending"  # type: ignore[union-attr]
    with serve(tmp_path) as client:  # a fresh process: no request for the reviews
        store = review_store(client.app.state.hub.store)  # type: ignore[attr-defined]
        deadline = time.monotonic() + 120
        while {store.job(table, REVIEW_VERSION).state for table in tables} != {"done"}:  # type: ignore[union-attr]
            assert time.monotonic() < deadline, [store.job(t, REVIEW_VERSION) for t in tables]
            time.sleep(0.05)
        pending, lapsed = (store.job(table, REVIEW_VERSION) for table in tables)
        assert pending is not None
        assert lapsed is not None
        assert (pending.attempts, lapsed.attempts) == (1, 2)
        assert pending.owner == lapsed.owner != "gone"
        assert (
            without_words(store.moves(tables[0], REVIEW_VERSION))
            == (review(records[0]).to_json()["moves"])
        )
        taken_over = store.moves(tables[1], REVIEW_VERSION)
        assert taken_over[0] == first  # the stored move kept, the rest computed
        assert without_words(taken_over[1:]) == review(records[1]).to_json()["moves"][1:]  # type: ignore[index]


def test_the_sweep_takes_over_a_review_cancelled_at_shutdown_once_its_claim_runs_out() -> None:
    """The first process is stopped in its second step: its review's task is cancelled, the
    job still held with its first step stored. The second process's sweep, already running,
    takes it over once the claim has run out and finishes it; a review whose table is gone
    fails, saying so."""
    record = morris_record(1)
    store = MemoryReviews()
    gate = asyncio.Event()  # never set: the first process's second step waits until stopped

    async def first_compute(
        game: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        if start > 0:
            await gate.wait()
        return review_step(game.to_json(), stop, budget, seed, start)

    async def record_of(table: str) -> GameRecord | None:
        return record if table == "t1" else None

    async def scenario() -> None:
        first = Reviews(store, first_compute, owner="first", lease=0.6)
        second = Reviews(store, compute, owner="second", lease=0.6)
        await first.open("t1", record)
        while len(store.moves("t1", REVIEW_VERSION)) < CHUNK:
            await asyncio.sleep(0.01)
        open_job(store, "gone", record, time.time())
        sweeper = asyncio.get_running_loop().create_task(
            sweeping(second, record_of, compute, period=0.1)
        )
        await asyncio.sleep(0.3)  # the first process's heartbeat holds the review
        assert store.job("t1", REVIEW_VERSION).owner == "first"  # type: ignore[union-attr]
        task = first.tasks[("t1", REVIEW_VERSION)]
        await first.stop()
        assert task.cancelled()
        held = store.job("t1", REVIEW_VERSION)
        assert held is not None
        assert (held.state, held.owner) == ("running", "first")
        assert len(store.moves("t1", REVIEW_VERSION)) == CHUNK
        deadline = time.monotonic() + 60
        while store.job("t1", REVIEW_VERSION).state != "done":  # type: ignore[union-attr]
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        sweeper.cancel()
        await second.stop()

    asyncio.run(scenario())
    done = store.job("t1", REVIEW_VERSION)
    assert done is not None
    assert (done.owner, done.attempts) == ("second", 2)
    assert without_words(store.moves("t1", REVIEW_VERSION)) == review(record).to_json()["moves"]
    gone = store.job("gone", REVIEW_VERSION)
    assert gone is not None
    assert gone.state == "failed"
    # kept as a code beside its English, which the page words in its reader's language
    assert failure_fields(gone.error) == {
        "error": "the finished table could not be found",
        "error_said": {"code": "reviews.table_gone", "params": {}},
    }
    template = refusal_codes()["reviews.table_gone"]
    assert messages("fr").gettext(template) == "la table finie est introuvable"
    assert failure_fields("an older failure, in English") == {
        "error": "an older failure, in English"
    }
    # a record that does not replay keeps its error's code; a mangled one is shown as it is
    with pytest.raises(NotationError) as bad:
        MORRIS.parse_action("Q9")
    kept = failure_fields(failure_text(bad.value))
    assert kept["error_said"] == {"code": "morris.not_a_move_text", "params": {"text": "Q9"}}
    assert failure_fields("\x1enot as written") == {"error": "not as written"}
