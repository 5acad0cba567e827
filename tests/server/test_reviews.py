"""The engines' review of a finished table as a stored job (:mod:`fanfold.server.reviews`,
``GET /api/tables/{id}/review``): the answer equals :func:`fanfold.play.review.review` of the
table's record, move by move; a running game, an unknown table and a game without an engine
review are refused and open nothing; one claimant at a time, a second one taking over once the
first's lease has run out; the moves shown as they are stored."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fanfold.core.config import JSONObject
from fanfold.core.phrases import Phrase
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.games.fan import FanGame
from fanfold.games.morris import GAME as MORRIS
from fanfold.play.review import REVIEW_VERSION, review
from fanfold.play.review_cards import review_cards
from fanfold.play.setup import play_game
from fanfold.server.review_answers import graph_points
from fanfold.server.reviews import (
    CHUNK,
    DEALS_ENVIRONMENT,
    Reviews,
    review_step,
)
from fanfold.server.store.review_memory import MemoryReviews
from tests.server.support import JSON, open_table, serve

FAN = FanGame()


def morris_record(agent_seed: int = 1) -> GameRecord:
    """A finished Morris game between two bots, with moves that lose value."""
    return play_game(MORRIS, None, ["medium", "easy"], agent_seed=agent_seed).finish()


def fan_record(deal: int = 4) -> GameRecord:
    """A finished Fan game played by a weak player."""
    return play_game(FAN, None, ["random"], seed=deal, agent_seed=0).finish()


def load(client: TestClient, record: GameRecord) -> str:
    answer = client.post("/api/records", json={"record": record.to_json(), "seats": ["random"]})
    if answer.status_code != 200:  # two seats (Morris)
        answer = client.post(
            "/api/records", json={"record": record.to_json(), "seats": ["random", "random"]}
        )
    assert answer.status_code == 200, answer.text
    table: str = answer.json()["table"]
    return table


def without_words(entry: JSON) -> JSON:
    """A stored move without the words of its best move (the page's, not the engines')."""
    return {key: value for key, value in entry.items() if key not in ("best_words", "best_said")}


def wait_done(client: TestClient, table: str) -> JSON:
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(f"/api/tables/{table}/review")
        assert answer.status_code == 200, answer.text
        body: JSON = answer.json()
        if body["state"] in ("done", "failed"):
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.05)


@pytest.mark.parametrize("game", ["morris", "fan"])
def test_the_review_of_a_finished_table_is_the_engines_review(tmp_path: Path, game: str) -> None:
    record = morris_record() if game == "morris" else fan_record()
    expected: Any = review(record, max_states=None if game == "morris" else 2_000_000).to_json()
    with serve(tmp_path) as client:
        table = load(client, record)
        body = wait_done(client, table)
        again = client.get(f"/api/tables/{table}/review").json()
        whole = client.get(f"/api/tables/{table}/review?seen=0").json()
        nothing_new = client.get(f"/api/tables/{table}/review?seen={len(record.actions)}").json()
        worker = client.app.state.review_worker  # type: ignore[attr-defined]
    assert body["state"] == "done", body
    steps = -(-len(record.actions) // CHUNK) if game == "morris" else 1
    assert worker.steps == steps  # every step computed by the process's review worker
    assert [without_words(entry) for entry in body["moves"]] == expected["moves"]
    for entry in body["moves"]:  # the best move said in words, where one was better
        assert (entry["best_words"] is None) == (entry["best"] is None)
        if entry["best"] is not None:
            assert entry["best_words"].endswith(".")
            assert entry["best_words"] != entry["words"]  # a move other than the one played
            # its code and params too, worded on the page in its reader's language
            assert Phrase.from_json(entry["best_said"]) == entry["best_words"]
    assert body["summary"] == expected["summary"]
    assert body["summary_said"] == expected["summary_said"]
    assert body["engine"] == expected["engine"]
    assert body["deal"] == expected["deal"]
    assert (body["total"], body["judged"], body["version"]) == (
        len(record.actions),
        len(record.actions),
        REVIEW_VERSION,
    )
    marked = [move for move in expected["moves"] if move["mark"] is not None]
    assert body["marks"] == [
        {"move": move["number"], "mark": move["mark"], "best": move["best"]} for move in marked
    ]
    assert len(body["graph"]) == len(record.actions) + 1
    assert body["seed"].isdigit()
    assert body["budget"] == (None if game == "morris" else 2_000_000)
    assert again == body  # asked again: the stored review, not a new one
    assert "seen" not in body  # a client that does not say what it has: the whole review
    assert whole == {**body, "seen": 0}
    assert nothing_new == {
        **body,
        "seen": len(record.actions),
        "moves": [],
        "marks": [],
        "graph": [],
    }
    if game == "morris":
        assert marked, "the medium bot against the easy one loses value somewhere"


def test_a_running_game_an_unknown_table_and_an_unreviewed_variant_are_refused(
    tmp_path: Path,
) -> None:
    with serve(tmp_path) as client:
        created = open_table(client, game="morris", seats=["you", "random"])
        running = client.get(f"/api/tables/{created['table']}/review")
        assert running.status_code == 409
        assert running.json()["error"] == (
            "this game is still being played: its review opens once it is over"
        )
        unknown = client.get("/api/tables/no-such-table/review")
        assert unknown.status_code == 404
        chips = get_game("fantan")
        chips_config = chips.config_from_json({"scoring": "chips"})
        record = play_game(chips, chips_config, ["random"] * 4, agent_seed=0).finish()
        answer = client.post(
            "/api/records", json={"record": record.to_json(), "seats": ["random"] * 4}
        )
        assert answer.status_code == 200, answer.text
        refused = client.get(f"/api/tables/{answer.json()['table']}/review")
        assert refused.status_code == 409
        assert refused.json()["error"].startswith("no engine review for this Fan Tan variant")
        # A poll that says a count of moves no client can have is refused, and opens nothing.
        finished = load(client, morris_record())
        for seen in ("-1", "two", "1000001", "1.5"):
            malformed = client.get(f"/api/tables/{finished}/review?seen={seen}")
            assert malformed.status_code == 422, (seen, malformed.text)
            assert malformed.json()["kind"] == "MalformedRequest"
            assert "seen" in malformed.json()["error"]
        assert client.app.state.reviews.store.job(finished, REVIEW_VERSION) is None  # type: ignore[attr-defined]
        # A running game opened nothing: once over, its review starts afresh.
        assert client.app.state.reviews.store.job(created["table"], REVIEW_VERSION) is None  # type: ignore[attr-defined]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_second_claimant_takes_over_once_the_lease_runs_out() -> None:
    """The first holder stops answering after its first step (as a killed process would);
    the second cannot claim the review during the lease, takes it over after, keeps the
    stored moves and finishes it; the first one's late moves are refused."""
    record = morris_record()
    assert len(record.actions) > 2 * CHUNK
    store = MemoryReviews()
    clock = Clock()
    stuck = asyncio.Event()
    first_steps: list[int] = []

    async def first_compute(
        game: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        first_steps.append(stop)
        if len(first_steps) > 1:
            await stuck.wait()  # never set: the first holder hangs
        return review_step(game.to_json(), stop, budget, seed, start)

    async def compute(
        game: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        return review_step(game.to_json(), stop, budget, seed, start)

    async def scenario() -> None:
        first = Reviews(store, first_compute, owner="first", lease=30.0, clock=clock, batch=0.1)
        second = Reviews(store, compute, owner="second", lease=30.0, clock=clock)
        await first.open("t1", record)
        # The first step's moves are stored once the batch's time is up, while the second
        # step is computed.
        deadline = time.monotonic() + 30
        while len(first_steps) < 2 or not store.moves("t1", REVIEW_VERSION):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.01)
        assert len(store.moves("t1", REVIEW_VERSION)) == CHUNK
        await second.open("t1", record)  # the lease holds: second does not claim
        assert "t1" not in {key[0] for key in second.tasks}
        clock.now += 31.0  # the first holder's lease runs out (its heartbeat sleeps)
        await second.open("t1", record)
        await second.tasks[("t1", REVIEW_VERSION)]
        job = store.job("t1", REVIEW_VERSION)
        assert job is not None
        assert (job.state, job.owner, job.attempts) == ("done", "second", 2)
        assert not store.add_moves("t1", REVIEW_VERSION, "first", {1: {}}, clock.now, 30.0)
        for task in first.tasks.values():
            task.cancel()

    asyncio.run(scenario())
    expected = review(record).to_json()
    stored = [without_words(entry) for entry in store.moves("t1", REVIEW_VERSION)]
    assert stored == expected["moves"]


def test_moves_are_shown_while_the_review_fills_in() -> None:
    record = morris_record()
    store = MemoryReviews()
    gate = asyncio.Event()

    async def compute(
        game: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        if stop > CHUNK:
            await gate.wait()
        return review_step(game.to_json(), stop, budget, seed, start)

    async def scenario() -> list[JSON]:
        reviews = Reviews(store, compute, owner="me")
        seen: list[JSON] = []
        await reviews.open("t1", record)
        while len(store.moves("t1", REVIEW_VERSION)) < CHUNK:
            await asyncio.sleep(0.01)
        seen.append(await reviews.answer("t1"))
        gate.set()
        await reviews.tasks[("t1", REVIEW_VERSION)]
        seen.append(await reviews.answer("t1"))
        return seen

    partial, done = asyncio.run(scenario())
    assert (partial["state"], partial["judged"], partial["summary"]) == ("running", CHUNK, [])
    assert len(partial["graph"]) == CHUNK + 1
    assert (done["state"], done["judged"]) == ("done", len(record.actions))
    assert done["moves"][:CHUNK] == partial["moves"]


def test_the_graph_is_from_the_first_seats_side() -> None:
    entries: list[Any] = [
        {"number": 1, "seat": 0, "before": {"result": "draw", "distance": None},
         "after": {"result": "loss", "distance": 20}},
        {"number": 2, "seat": 1, "before": {"result": "win", "distance": 19},
         "after": {"result": "win", "distance": 19}},
    ]  # fmt: skip
    assert graph_points("morris.v1", entries) == [
        {"move": 0, "value": 0.0},
        {"move": 1, "value": -0.9},
        {"move": 2, "value": -(1 - 19 / 200)},
    ]
    fan: list[Any] = [
        {"number": 1, "seat": 0, "before": {"result": "win", "distance": None},
         "after": {"result": "loss", "distance": None}},
        {"number": 2, "seat": 0, "before": None, "after": None},
    ]  # fmt: skip
    assert graph_points("fan.v1", fan) == [
        {"move": 0, "value": 1.0},
        {"move": 1, "value": -1.0},
        {"move": 2, "value": None},
    ]


def test_a_review_whose_step_broke_is_taken_up_again_at_the_next_request() -> None:
    """A step that fails unexpectedly (a worker process lost) leaves the review held and
    unfinished; the next request of the same process goes on from the moves stored."""
    record = morris_record()
    store = MemoryReviews()
    calls: list[int] = []

    async def compute(
        game: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        calls.append(stop)
        if len(calls) == 2:
            raise RuntimeError("the bot worker process is gone")
        return review_step(game.to_json(), stop, budget, seed, start)

    async def scenario() -> None:
        reviews = Reviews(store, compute, owner="me")
        await reviews.open("t1", record)
        task = reviews.tasks[("t1", REVIEW_VERSION)]
        await asyncio.wait([task])
        assert isinstance(task.exception(), RuntimeError)
        job = store.job("t1", REVIEW_VERSION)
        assert job is not None
        assert (job.state, len(store.moves("t1", REVIEW_VERSION))) == ("running", CHUNK)
        await reviews.open("t1", record)
        await reviews.tasks[("t1", REVIEW_VERSION)]

    asyncio.run(scenario())
    job = store.job("t1", REVIEW_VERSION)
    assert job is not None
    assert (job.state, job.attempts) == ("done", 1)
    assert calls[2] == 2 * CHUNK  # went on after the stored moves
    assert len(store.moves("t1", REVIEW_VERSION)) == len(record.actions)


@pytest.mark.parametrize("name", ["fano", "fantan"])
def test_a_finished_card_game_is_reviewed_from_its_human_seats_views(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fano and Fan Tan: the human seat's decisions judged from its view with the job's seed
    and deals (as :func:`fanfold.play.review_cards.review_cards` judges them), the bots' seats
    listed but not judged, the summary made from the stored moves, a line of the graph for the
    human seat."""
    monkeypatch.setenv(DEALS_ENVIRONMENT, "3" if name == "fano" else "30")
    game = get_game(name)
    players = game.num_players(game.default_config())
    record = play_game(game, None, ["medium"] * players, seed=5, agent_seed=5).finish()
    seats = ["you"] + ["random"] * (players - 1)
    with serve(tmp_path) as client:
        answer = client.post("/api/records", json={"record": record.to_json(), "seats": seats})
        assert answer.status_code == 200, answer.text
        table = answer.json()["table"]
        body = wait_done(client, table)
    assert body["state"] == "done", body
    assert body["budget"] == (3 if name == "fano" else 30)
    labelled = dataclasses.replace(record, players=("human",) + ("bot",) * (players - 1))
    expected: Any = review_cards(labelled, seed=body["seed"], deals=body["budget"])
    assert body["moves"] == expected["moves"]
    assert body["summary"] == expected["summary"]
    assert body["summary_said"] == expected["summary_said"]
    assert body["engine"] == expected["engine"]
    assert body["engine"]["seats"] == [0]
    assert (body["total"], body["judged"]) == (len(record.actions), len(record.actions))
    assert {entry["judged"] for entry in body["moves"] if entry["seat"] != 0} == {"bot"}
    judged = [entry for entry in body["moves"] if entry["judged"] == "yes"]
    assert judged
    assert all(entry["seat"] == 0 for entry in judged)
    assert [point["move"] for point in body["graph"]] == [entry["number"] for entry in judged]
    assert {point["seat"] for point in body["graph"]} == {0}
    assert body["marks"] == [
        {"move": entry["number"], "mark": entry["mark"], "best": entry["best"]}
        for entry in body["moves"]
        if entry["mark"] is not None
    ]


def test_polls_that_say_what_they_have_build_the_same_review_as_a_whole_answer() -> None:
    """A client that sends how many judged moves it has (``seen``) after each step, keeping
    its first ``seen`` moves, marks and graph points and adding the answer's (as the review
    page does), ends with the whole review; a count the store does not have (more moves than
    are stored) gets the whole review again (``seen`` 0)."""
    record = morris_record()
    store = MemoryReviews()
    steps = asyncio.Semaphore(0)

    async def compute(
        game: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        await steps.acquire()  # one step at a time, as the test lets it
        return review_step(game.to_json(), stop, budget, seed, start)

    async def scenario() -> tuple[JSON, JSON, list[JSON]]:
        reviews = Reviews(store, compute, owner="me", batch=0)  # each step stored as it ends
        await reviews.open("t1", record)
        kept: JSON = {"moves": [], "marks": [], "graph": []}
        answers: list[JSON] = []
        while True:
            answer: Any = await reviews.answer("t1", len(kept["moves"]))
            answers.append(answer)
            seen = answer["seen"]
            kept = {
                "moves": kept["moves"][:seen] + answer["moves"],
                "marks": [m for m in kept["marks"] if m["move"] <= seen] + answer["marks"],
                "graph": [p for p in kept["graph"] if seen and p["move"] <= seen] + answer["graph"],
            }
            if answer["state"] == "done":
                break
            stored = len(store.moves("t1", REVIEW_VERSION))
            steps.release()
            while (
                len(store.moves("t1", REVIEW_VERSION)) == stored
                and not reviews.tasks[("t1", REVIEW_VERSION)].done()
            ):
                await asyncio.sleep(0.005)
        whole = await reviews.answer("t1")
        beyond = await reviews.answer("t1", len(record.actions) + 5)
        return {**answers[-1], **kept}, dict(whole), [*answers, dict(beyond)]

    built, whole, answers = asyncio.run(scenario())
    assert len(record.actions) > 2 * CHUNK
    assert {key: value for key, value in built.items() if key != "seen"} == whole
    # Each move sent once, a step's moves at a time.
    assert sum(len(answer["moves"]) for answer in answers[:-1]) == len(record.actions)
    assert max(len(answer["moves"]) for answer in answers[:-1]) == CHUNK
    assert all(answer["judged"] == answer["seen"] + len(answer["moves"]) for answer in answers[:-1])
    assert answers[-1]["seen"] == 0
    assert {key: value for key, value in answers[-1].items() if key != "seen"} == whole


class CountedReviews(MemoryReviews):
    """A review store that counts its transactions that store moves."""

    def __init__(self) -> None:
        super().__init__()
        self.stores: list[int] = []

    def add_moves(
        self,
        table_id: str,
        version: int,
        owner: str,
        entries: Mapping[int, JSONObject],
        now: float,
        lease: float,
    ) -> bool:
        self.stores.append(len(entries))
        return super().add_moves(table_id, version, owner, entries, now, lease)


@pytest.mark.parametrize("batch", [0.0, 3600.0])
def test_steps_computed_within_the_batch_s_time_are_stored_in_one_transaction(
    batch: float,
) -> None:
    """Steps that end within the batch's time of the last store are stored together (here: a
    batch longer than the review, one store at its end); with no batch time, each step as it
    ends. The review is the same."""
    record = morris_record()
    store = CountedReviews()

    async def compute(
        game: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        return review_step(game.to_json(), stop, budget, seed, start)

    async def scenario() -> None:
        reviews = Reviews(store, compute, owner="me", batch=batch)
        await reviews.open("t1", record)
        await reviews.tasks[("t1", REVIEW_VERSION)]

    asyncio.run(scenario())
    steps = -(-len(record.actions) // CHUNK)
    assert steps > 2
    assert store.stores == (
        [len(record.actions)]
        if batch
        else [CHUNK] * (steps - 1) + [len(record.actions) - CHUNK * (steps - 1)]
    )
    job = store.job("t1", REVIEW_VERSION)
    assert job is not None
    assert job.state == "done"
    expected = review(record).to_json()
    assert [without_words(entry) for entry in store.moves("t1", REVIEW_VERSION)] == (
        expected["moves"]
    )


def test_steps_not_stored_when_their_holder_stops_are_computed_again_alike() -> None:
    """A holder stopped (its task cancelled, as at a shutdown or a process's death) with two
    steps computed and not stored yet leaves nothing of them; the next holder computes them
    again and the review equals the engines' review."""
    record = morris_record()
    store = MemoryReviews()
    clock = Clock()
    computed: list[int] = []

    async def first_compute(
        game: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        computed.append(stop)
        if len(computed) > 2:
            await asyncio.Event().wait()  # the third step never ends
        return review_step(game.to_json(), stop, budget, seed, start)

    async def compute(
        game: GameRecord, stop: int, budget: int | None, seed: str, start: int
    ) -> JSONObject:
        computed.append(stop)
        return review_step(game.to_json(), stop, budget, seed, start)

    async def scenario() -> None:
        first = Reviews(store, first_compute, owner="first", clock=clock, batch=3600.0)
        await first.open("t1", record)
        while len(computed) < 3:
            await asyncio.sleep(0.01)
        await first.stop()
        assert store.moves("t1", REVIEW_VERSION) == []  # two steps computed, none stored
        clock.now += 31.0
        second = Reviews(store, compute, owner="second", clock=clock)
        await second.open("t1", record)
        await second.tasks[("t1", REVIEW_VERSION)]

    asyncio.run(scenario())
    assert computed[:2] == computed[3:5] == [CHUNK, 2 * CHUNK]  # the same steps, again
    job = store.job("t1", REVIEW_VERSION)
    assert job is not None
    assert (job.state, job.owner, job.attempts) == ("done", "second", 2)
    expected = review(record).to_json()
    assert [without_words(entry) for entry in store.moves("t1", REVIEW_VERSION)] == (
        expected["moves"]
    )
