"""The reviews' own SQLite file beside the main one (:mod:`fanfold.server.store.review_file`):
a live commit never waits for a review's write held open, nor a review's write for a live
commit; the main file's reviews moved into it at start; a review whose game the main file does
not hold is dropped, a game whose review is missing reviewed again; several processes on one
file pair claim each review once."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlalchemy.sql.expression import Executable

from fanfold.play.review import REVIEW_VERSION
from fanfold.server.routes.reviews import reviews_of
from fanfold.server.settings import Settings
from fanfold.server.store import AppendRow, SeatPlan, Store, StoreOpenError, TablePlan
from fanfold.server.store.backup import copy_reviews, copy_store
from fanfold.server.store.review_file import FileReviews, review_path
from fanfold.server.store.review_memory import review_store
from fanfold.server.store.review_store import SqlReviews
from fanfold.server.store.schema import reviews, tables
from tests.server.support import act, look, open_table, serve, sqlite_url
from tests.server.test_reviews import load, morris_record, wait_done

#: A live commit on its own file takes milliseconds; the old code's waited for SQLite's busy
#: handler until the review's transaction ended (here: never before the test released it).
QUICK = 1.0


def make_table(store: Store, table_id: str, *, finished: bool = True) -> None:
    store.create(
        table_id,
        TablePlan(
            game="morris.v1",
            config={"adjacency": "geometric"},
            seed=1,
            start_position=None,
            seats=(SeatPlan("human"), SeatPlan("random")),
            allow_undo=False,
            outcome={"winner": 0} if finished else None,
        ),
        {},
    )


def open_review(store: Store, table_id: str, owner: str = "me") -> None:
    found = review_store(store)
    found.open(table_id, REVIEW_VERSION, game="morris", moves=10, seed="1", budget=None, now=0)
    assert found.claim(table_id, REVIEW_VERSION, owner, time.time(), 60.0) is not None


def rows(path: Path, query: str) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(query).fetchall()
    finally:
        connection.close()


@contextmanager
def held_open(engine: Engine, statement: Executable) -> Iterator[threading.Event]:
    """A transaction on ``engine`` that ran ``statement`` and stays open, in a thread of its
    own, until the block ends; yields the event that ends it (set only at the block's end)."""
    held, release = threading.Event(), threading.Event()

    def write() -> None:
        with engine.begin() as connection:
            connection.execute(statement)
            held.set()
            release.wait(10)

    writer = threading.Thread(target=write)
    writer.start()
    assert held.wait(5)
    try:
        yield release
    finally:
        release.set()
        writer.join()


def test_a_live_commit_is_not_delayed_by_a_review_write_held_open(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    try:
        make_table(store, "live", finished=False)
        make_table(store, "done")
        open_review(store, "done")
        found = review_store(store)
        assert isinstance(found, SqlReviews)
        # a review's write that blocks inside its transaction
        with held_open(found.engine, reviews.update().values(updated=1.0)) as release:
            started = time.perf_counter()
            refused = store.append_many([AppendRow("live", 0, 0, "C1", 1, None)])
            took = time.perf_counter() - started
            still_open = not release.is_set()
        assert refused == set()
        assert still_open
        assert took < QUICK, took  # old code: waits for the review's lock (5 s, then "locked")
        loaded = store.load("live")
        assert loaded is not None
        assert [text for _, text in loaded.actions] == ["C1"]
    finally:
        store.close()


def test_a_review_write_is_not_delayed_by_a_live_commit_held_open(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    try:
        make_table(store, "done")
        open_review(store, "done")
        # a live group commit that blocks inside its transaction
        with held_open(store.engine, tables.update().values(updated=1.0)) as release:
            started = time.perf_counter()
            stored = review_store(store).add_moves(
                "done", REVIEW_VERSION, "me", {1: {"number": 1}}, time.time(), 60.0
            )
            took = time.perf_counter() - started
            still_open = not release.is_set()
        assert stored
        assert still_open
        assert took < QUICK, took
        assert review_store(store).moves("done", REVIEW_VERSION) == [{"number": 1}]
    finally:
        store.close()


def test_the_reviews_live_in_a_file_of_their_own_beside_the_main_one(tmp_path: Path) -> None:
    main = tmp_path / "site.db"
    assert review_path(f"sqlite:///{main}") == tmp_path / "site-reviews.sqlite3"
    assert review_path("sqlite://") is None
    assert review_path("postgresql+psycopg://u@h/db") is None
    settings = Settings(store_url=f"sqlite:///{main}")
    assert settings.review_file == tmp_path / "site-reviews.sqlite3"
    assert Settings(store_url="postgresql+psycopg://u@h/db").review_file is None
    store = Store(f"sqlite:///{main}")
    try:
        found = review_store(store)
        assert isinstance(found, FileReviews)
        assert found.engine.url.database == str(tmp_path / "site-reviews.sqlite3")
        make_table(store, "done")
        open_review(store, "done")
    finally:
        store.close()
    reviews_file = tmp_path / "site-reviews.sqlite3"
    assert rows(reviews_file, "SELECT table_id, state FROM reviews") == [("done", "running")]
    assert rows(main, "SELECT count(*) FROM reviews") == [(0,)]  # the main file's stay empty
    assert rows(reviews_file, "PRAGMA journal_mode") == [("wal",)]


def test_opening_moves_the_main_files_reviews_into_their_file(tmp_path: Path) -> None:
    main = tmp_path / "fanfold.db"
    store = Store(f"sqlite:///{main}")
    for table in ("old", "both", "gone"):
        make_table(store, table)
    store.close()
    reviews_file = tmp_path / "fanfold-reviews.sqlite3"
    # The reviews' file has a newer state of "both" than the main file.
    shutil.copy(main, reviews_file)  # same schema: the rows as an older release kept them
    for path, state in ((main, "running"), (reviews_file, "done")):
        connection = sqlite3.connect(path)
        with connection:
            connection.execute("DELETE FROM reviews")
            for table in ("old", "both") if path == main else ("both",):
                connection.execute(
                    "INSERT INTO reviews VALUES (?, ?, 'morris', ?, 3, '1', NULL, NULL, 0, 1, "
                    "NULL, NULL, NULL, NULL, 0, 0)",
                    (table, REVIEW_VERSION, state),
                )
                connection.execute(
                    "INSERT INTO review_moves VALUES (?, ?, 1, ?)",
                    (table, REVIEW_VERSION, f'{{"from": "{path.name}"}}'),
                )
        connection.close()
    store = Store(f"sqlite:///{main}")
    try:
        found = review_store(store)
        old = found.job("old", REVIEW_VERSION)
        both = found.job("both", REVIEW_VERSION)
        assert old is not None
        assert old.state == "running"
        assert found.moves("old", REVIEW_VERSION) == [{"from": "fanfold.db"}]
        assert both is not None
        assert both.state == "done"
        assert found.moves("both", REVIEW_VERSION) == [{"from": "fanfold-reviews.sqlite3"}]
    finally:
        store.close()
    assert rows(main, "SELECT count(*) FROM reviews") == [(0,)]
    assert rows(main, "SELECT count(*) FROM review_moves") == [(0,)]


def test_a_review_whose_game_is_missing_is_not_shown_and_a_missing_one_is_made_again(
    tmp_path: Path,
) -> None:
    main, reviews_file = tmp_path / "fanfold.db", tmp_path / "fanfold-reviews.sqlite3"
    saved = tmp_path / "saved"
    saved.mkdir()
    url = sqlite_url(tmp_path)
    with serve(tmp_path) as client:
        copy_store(url, saved / "empty.db")  # the main file before the game
        assert copy_reviews(url, saved / "empty-reviews.sqlite3")
        table = load(client, morris_record())
        first = wait_done(client, table)
        assert first["state"] == "done", first
    # The reviews' file restored older than the main one: the game is reviewed again.
    shutil.copy(saved / "empty-reviews.sqlite3", reviews_file)
    for companion in ("-wal", "-shm"):
        Path(f"{reviews_file}{companion}").unlink(missing_ok=True)
    with serve(tmp_path) as client:
        again = wait_done(client, table)
        assert again["state"] == "done"
        assert again["attempts"] == 1
        assert again["judged"] == first["judged"]
    # The main file restored older than the reviews' one: its review is not shown.
    main.unlink()
    for companion in ("-wal", "-shm"):
        Path(f"{main}{companion}").unlink(missing_ok=True)
    shutil.copy(saved / "empty.db", main)
    with serve(tmp_path) as client:
        answer = client.get(f"/api/tables/{table}/review")
        assert answer.status_code == 404, answer.text
        store = reviews_of(client.app.state, client.app.state.hub).store  # type: ignore[attr-defined]
        assert store.job(table, REVIEW_VERSION) is None
    assert rows(reviews_file, "SELECT count(*) FROM review_moves") == [(0,)]


CLAIMER = """
import sys, time
from fanfold.server.store import Store
from fanfold.server.store.review_memory import review_store
store = Store(sys.argv[1])
found = review_store(store)
won = []
start = float(sys.argv[3])
while time.time() < start:
    time.sleep(0.005)
for number in range(int(sys.argv[2])):
    if found.claim(f"t{number}", 1, sys.argv[4], time.time(), 600.0) is not None:
        won.append(number)
print(" ".join(map(str, won)))
store.close()
"""


def test_several_processes_on_one_file_pair_claim_each_review_once(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    count = 30
    store = Store(url)
    try:
        for number in range(count):
            make_table(store, f"t{number}")
            review_store(store).open(
                f"t{number}", 1, game="morris", moves=3, seed="1", budget=None, now=0
            )
    finally:
        store.close()
    start = time.time() + 3.0  # every process claims from then on, at once
    environment = {"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", CLAIMER, url, str(count), str(start), f"p{number}"],
            stdout=subprocess.PIPE,
            text=True,
            env=environment,
        )
        for number in range(3)
    ]
    won = [process.communicate(timeout=120)[0].split() for process in processes]
    assert all(process.returncode == 0 for process in processes)
    claimed = [int(number) for each in won for number in each]
    assert sorted(claimed) == list(range(count)), won  # each once, by one process
    owners = rows(tmp_path / "fanfold-reviews.sqlite3", "SELECT DISTINCT owner FROM reviews")
    assert {owner for (owner,) in owners} == {
        f"p{number}" for number, each in enumerate(won) if each
    }


def test_a_damaged_reviews_file_is_named_and_nothing_is_served(tmp_path: Path) -> None:
    Store(sqlite_url(tmp_path)).close()
    (tmp_path / "fanfold-reviews.sqlite3").write_bytes(b"not a database" * 100)
    for companion in ("-wal", "-shm"):
        Path(f"{tmp_path / 'fanfold-reviews.sqlite3'}{companion}").unlink(missing_ok=True)
    with pytest.raises(StoreOpenError) as raised:
        Store(sqlite_url(tmp_path))
    said = str(raised.value)
    assert said.startswith(f"the store at sqlite:///{tmp_path / 'fanfold-reviews.sqlite3'}"), said
    assert "file is not a database" in said


def test_a_players_action_is_not_held_up_by_a_review_write_held_open_in_the_server(
    tmp_path: Path,
) -> None:
    with serve(tmp_path) as client:
        state: Any = client.app.state  # type: ignore[attr-defined]
        served = reviews_of(state, state.hub)
        found = served.store
        assert isinstance(found, SqlReviews)
        created = open_table(client, game="morris", seats=["you", "you"], seed=2)
        table, token = created["table"], created["token"]
        legal = look(client, table, token)["legal"][0]
        held, release = threading.Event(), threading.Event()

        def review_write() -> None:  # blocks inside its transaction
            with found.engine.begin() as connection:
                connection.execute(reviews.update().values(updated=1.0))
                held.set()
                release.wait(10)

        assert client.portal is not None
        # Sent as the server sends a review's writes (the code before: to the store's
        # thread after the live commits, where the action's commit then waited for it).
        writing = client.portal.start_task_soon(served.writes, review_write)
        try:
            assert held.wait(5)
            started = time.perf_counter()
            answer = act(client, table, token, legal)
            took = time.perf_counter() - started
            still_open = not release.is_set()
        finally:
            release.set()
            writing.result(timeout=10)
        assert answer.status_code == 200, answer.text
        assert still_open
        assert took < QUICK, took
        assert look(client, table, token)["version"] == 1
