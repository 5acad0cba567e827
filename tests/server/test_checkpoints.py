"""The SQLite store's write-ahead log moved into its file by a thread of its own
(:mod:`fanfold.server.store.checkpoints`), not by the commits of the store's writer."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import sqlalchemy as sa

from fanfold.server.store.checkpoints import BACKSTOP_PAGES, Checkpointer
from fanfold.server.store.engine import make_engine, sqlite_file
from tests.server.support import serve

ROW = "x" * 3000  # most of a 4 kB page: one page of the log a row


def _engine(path: Path) -> sa.Engine:
    engine = make_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.execute(sa.text("CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT)"))
    return engine


def _write(engine: sa.Engine, count: int) -> None:
    for _ in range(count):
        with engine.begin() as connection:
            connection.execute(sa.text("INSERT INTO rows (body) VALUES (:body)"), {"body": ROW})


def _pages(engine: sa.Engine) -> int:
    with engine.connect() as connection:
        return int(connection.execute(sa.text("PRAGMA wal_autocheckpoint")).scalar_one())


def test_only_a_sqlite_file_has_a_file_to_checkpoint(tmp_path: Path) -> None:
    assert sqlite_file(f"sqlite:///{tmp_path / 'a.db'}") == tmp_path / "a.db"
    assert sqlite_file("sqlite:///:memory:") is None
    assert sqlite_file("sqlite://") is None
    assert sqlite_file("sqlite:///file:a.db?mode=memory&uri=true") is None
    assert sqlite_file("postgresql://user@host/fanfold") is None
    assert sqlite_file("not a url") is None


def test_an_adopted_engine_leaves_the_log_to_the_checkpointer(tmp_path: Path) -> None:
    """Its connections (those pooled before included) checkpoint themselves only past the
    backstop; SQLite's own default before."""
    engine = _engine(tmp_path / "a.db")
    try:
        assert _pages(engine) == 1000
        Checkpointer.adopt(engine)
        assert _pages(engine) == BACKSTOP_PAGES
        _write(engine, 1200)  # past SQLite's 1,000 pages: its own checkpoint would have run
        with sqlite3.connect(tmp_path / "a.db") as reader:
            logged = reader.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
        assert logged >= 1200
    finally:
        engine.dispose()


def test_a_checkpoint_copies_the_log_and_the_writer_starts_it_again(tmp_path: Path) -> None:
    engine = _engine(tmp_path / "a.db")
    Checkpointer.adopt(engine)
    timed: list[float] = []
    checkpoints = Checkpointer(tmp_path / "a.db", timed=timed.append)
    try:
        _write(engine, 300)
        logged, copied = checkpoints.checkpoint()
        assert logged >= 300
        assert copied == logged
        assert (checkpoints.checkpoints, checkpoints.pages, len(timed)) == (1, copied, 1)
        assert checkpoints.checkpoint() == (logged, copied)  # nothing new: nothing counted
        assert (checkpoints.checkpoints, checkpoints.pages) == (1, copied)
        _write(engine, 50)  # the writer finds the log copied and starts it again
        again, copied_again = checkpoints.checkpoint()
        assert 50 <= again < logged / 2
        assert copied_again == again
        assert (checkpoints.checkpoints, checkpoints.pages) == (2, copied + again)
        with engine.connect() as connection:
            assert connection.execute(sa.text("SELECT count(*) FROM rows")).scalar_one() == 350
    finally:
        checkpoints.stop()
        engine.dispose()


def test_a_log_started_again_and_grown_past_the_last_figures_is_counted_whole(
    tmp_path: Path,
) -> None:
    engine = _engine(tmp_path / "a.db")
    Checkpointer.adopt(engine)
    checkpoints = Checkpointer(tmp_path / "a.db")
    try:
        _write(engine, 100)
        logged, copied = checkpoints.checkpoint()
        assert copied == logged >= 100
        _write(engine, 2 * logged)  # started again from its first page, now longer than before
        again, copied_again = checkpoints.checkpoint()
        assert copied_again == again > logged
        assert (checkpoints.checkpoints, checkpoints.pages) == (2, copied + copied_again)
    finally:
        checkpoints.stop()
        engine.dispose()


def test_the_checkpointer_s_thread_keeps_the_log_short_beside_a_writer(tmp_path: Path) -> None:
    engine = _engine(tmp_path / "a.db")
    Checkpointer.adopt(engine)
    checkpoints = Checkpointer(tmp_path / "a.db", seconds=0.005)
    checkpoints.start()
    try:
        for _ in range(30):  # bursts of commits, as a server's group commits come
            _write(engine, 100)
            time.sleep(0.03)
    finally:
        checkpoints.stop()
    try:
        assert checkpoints.failures == 0
        assert checkpoints.checkpoints >= 2
        assert checkpoints.pages >= 3000
        with sqlite3.connect(tmp_path / "a.db") as reader:
            logged = reader.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
        wal = (tmp_path / "a.db-wal").stat().st_size
        assert wal < checkpoints.pages * 4096 / 4  # the log started again, burst after burst
        assert logged < checkpoints.pages / 4
        with engine.connect() as connection:
            assert connection.execute(sa.text("SELECT count(*) FROM rows")).scalar_one() == 3000
    finally:
        engine.dispose()


def test_the_server_on_a_sqlite_file_checkpoints_in_a_thread_of_its_own(tmp_path: Path) -> None:
    def running() -> int:
        return sum(thread.name == "checkpoints" for thread in threading.enumerate())

    before = running()
    with serve(tmp_path) as client:
        assert running() == before + 1
        assert "fanfold_store_checkpoint_seconds_count" in client.get("/metrics").text
        with client.app.state.hub.store.engine.connect() as connection:  # type: ignore[attr-defined]
            pages = connection.execute(sa.text("PRAGMA wal_autocheckpoint")).scalar_one()
        assert pages == BACKSTOP_PAGES
    assert running() == before
