"""The contract of a table store (:class:`fanfold.server.store.protocols.TableStore`), held by
each of them alike: in memory, on SQLite and on a real PostgreSQL (a throw-away cluster).

Creating and loading tables, appending actions (one at a time and in group commits), an action
number stored already refused with nothing of its table stored, the end of a game and what runs
in its transaction (a rated game's ratings) kept together or not at all, the expiry of old
tables, and the lobby's lists. The model is boardgame.io's ``Async`` storage and its
``InMemory`` store; the last test runs a hub on the in-memory store.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from fanfold.core.errors import FanfoldError
from fanfold.core.registry import get_game
from fanfold.server.hub import Hub
from fanfold.server.store import (
    RESUME,
    AppendRow,
    SeatPlan,
    Store,
    TablePlan,
    Transaction,
    token_hash,
)
from fanfold.server.store.chat_records import (
    PLAYERS,
    SPECTATORS,
    ChatLine,
    LineLimits,
    OverLimitError,
)
from fanfold.server.store.chat_store import SqlChat
from fanfold.server.store.lease_store import SqlBotLeases
from fanfold.server.store.memory import MemoryTables
from fanfold.server.store.memory_chat import MemoryChat
from fanfold.server.store.memory_leases import MemoryBotLeases
from fanfold.server.store.protocols import ChatStore, ReviewStore, TableStore
from fanfold.server.store.review_file import FileReviews
from fanfold.server.store.review_memory import review_store
from fanfold.server.store.table_side_protocols import BotLeases
from tests.server.support import JSON, sqlite_url, store_table
from tests.server.test_store import (
    _postgres_url,
    postgres_cluster,  # noqa: F401 (a fixture, by name)
)

MORRIS = get_game("morris")
#: What a store raises for a table id, or an action number, it has already: its own error
#: in memory, the database's on SQL.
REFUSED = (FanfoldError, sa.exc.IntegrityError)


def _new_postgres_database(cluster: str) -> str:
    """A new, empty database in the throw-away cluster: its URL."""
    from fanfold.server.store.engine import make_engine

    name = f"c_{uuid.uuid4().hex[:16]}"
    engine = make_engine(_postgres_url(cluster, "postgres")).execution_options(
        isolation_level="AUTOCOMMIT"
    )
    with engine.connect() as connection:
        connection.exec_driver_sql(f"CREATE DATABASE {name}")
    engine.dispose()
    return _postgres_url(cluster, name)


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def tables(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TableStore]:
    """An empty table store of each kind."""
    store: TableStore
    if request.param == "memory":
        store = MemoryTables()
    elif request.param == "sqlite":
        store = Store(sqlite_url(tmp_path))
    else:
        store = Store(_new_postgres_database(request.getfixturevalue("postgres_cluster")))
    yield store
    store.close()


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def chats(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ChatStore]:
    """An empty chat store of each kind (a SQL one on a tables store's engine)."""
    if request.param == "memory":
        yield MemoryChat()
        return
    if request.param == "sqlite":
        store = Store(sqlite_url(tmp_path))
    else:
        store = Store(_new_postgres_database(request.getfixturevalue("postgres_cluster")))
    yield SqlChat(store.engine)
    store.close()


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def leases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BotLeases]:
    """An empty store of the bot pool's leases of each kind."""
    if request.param == "memory":
        yield MemoryBotLeases()
        return
    if request.param == "sqlite":
        store = Store(sqlite_url(tmp_path))
    else:
        store = Store(_new_postgres_database(request.getfixturevalue("postgres_cluster")))
    yield SqlBotLeases(store.engine)
    store.close()


def create(store: TableStore, table_id: str = "t1", **changes: Any) -> None:
    """A two-seat Morris table: a person (holding a token) and a random bot."""
    arguments: JSON = {
        "game": "morris.v1",
        "config": {"adjacency": "geometric"},
        "seed": 2**53 - 1,
        "start_position": None,
        "players": ["human", "random"],
        "token_hashes": [token_hash("secret"), None],
        "allow_undo": True,
        "options": {"variant": "geometric"},
        "listed": True,
    }
    arguments.update(changes)
    store_table(store, table_id, **arguments)


def row(table_id: str, number: int, **changes: Any) -> AppendRow:
    """Action ``number`` of a table (version ``number`` after it)."""
    values: dict[str, Any] = {
        "table_id": table_id,
        "number": number,
        "seat": (number - 1) % 2,
        "text": f"a{number}",
        "version": number,
        "outcome": None,
    }
    values.update(changes)
    return AppendRow(**values)


def texts(store: TableStore, table_id: str) -> list[str]:
    loaded = store.load(table_id)
    assert loaded is not None
    return [text for _, text in loaded.actions]


class BoomError(RuntimeError):
    """A failure injected inside a change's transaction."""


def boom(tx: Transaction) -> None:
    raise BoomError("the ratings could not be written")


# ------------------------------------------------------------ creating, loading


def test_a_table_is_created_and_loaded_as_it_was_stored(tables: TableStore) -> None:
    create(tables, actions_done=[(0, "a1"), (1, "a2")], version=2, creator_hash="c" * 64)
    loaded = tables.load("t1")
    assert loaded is not None
    assert (loaded.id, loaded.game, loaded.seed, loaded.version) == (
        "t1",
        "morris.v1",
        2**53 - 1,
        2,
    )
    assert loaded.config == {"adjacency": "geometric"}
    assert loaded.options == {"variant": "geometric"}
    assert loaded.outcome is None
    assert loaded.allow_undo
    assert loaded.listed
    assert loaded.creator_hash == "c" * 64
    assert [(s.seat, s.player, s.token_hash) for s in loaded.seats] == [
        (0, "human", token_hash("secret")),
        (1, "random", None),
    ]
    assert loaded.actions == ((0, "a1"), (1, "a2"))
    assert tables.load("nobody") is None
    create(tables, "t2")
    assert sorted(tables.load_many(["t2", "t1", "nobody", "t1"])) == ["t1", "t2"]


def test_each_seat_is_stored_as_planned(tables: TableStore) -> None:
    """One plan a seat: a person holding it with a token and an account, a friend's seat
    opened by an invitation, a seat open to anyone, a bot."""
    seats = (
        SeatPlan("human", token_hash=token_hash("creator"), account_id=7),
        SeatPlan("human", invite_hash=token_hash("invite")),
        SeatPlan("human"),
        SeatPlan("mcts(iterations=50)"),
    )
    plan = TablePlan("fantan.v1", {}, 5, None, seats, allow_undo=False, listed=True)
    tables.create("planned", plan, {"open": [2], "variant": "standard"})
    loaded = tables.load("planned")
    assert loaded is not None
    assert loaded.seats == tuple(seat.at(number) for number, seat in enumerate(seats))
    assert loaded.seats[0].account_id == 7
    assert loaded.seats[1].invite_hash == token_hash("invite")
    assert (loaded.seats[2].token_hash, loaded.seats[2].invite_hash) == (None, None)
    assert loaded.options == {"open": [2], "variant": "standard"}
    assert (loaded.listed, loaded.allow_undo, loaded.version, loaded.actions) == (
        True,
        False,
        0,
        (),
    )


def test_a_table_id_stored_already_is_refused(tables: TableStore) -> None:
    create(tables)
    with pytest.raises(REFUSED):
        create(tables, game="fantan.v1", players=["human"], token_hashes=[None])
    loaded = tables.load("t1")
    assert loaded is not None
    assert loaded.game == "morris.v1"
    assert len(loaded.seats) == 2


# ------------------------------------------------------------------ appending


def test_actions_are_appended_one_at_a_time_and_in_group_commits(tables: TableStore) -> None:
    create(tables, "t1")
    create(tables, "t2")
    tables.append("t1", 1, 0, "a1", 1, None)
    assert tables.append_many([row("t1", 2), row("t2", 1)]) == set()  # one a table
    assert tables.append_many([row("t1", 3), row("t1", 4, options={"x": 1})]) == set()
    assert texts(tables, "t1") == ["a1", "a2", "a3", "a4"]
    assert texts(tables, "t2") == ["a1"]
    first = tables.load("t1")
    assert first is not None
    assert first.version == 4
    assert first.options == {"x": 1}
    tables.truncate("t1", 2, 5, options={"x": 2})  # an undo
    undone = tables.load("t1")
    assert undone is not None
    assert undone.version == 5
    assert undone.options == {"x": 2}
    assert texts(tables, "t1") == ["a1", "a2"]
    assert tables.append_many([]) == set()


def test_a_duplicate_action_number_is_refused_and_nothing_of_it_stored(
    tables: TableStore,
) -> None:
    create(tables, "t1")
    create(tables, "t2")
    tables.append("t1", 1, 0, "a1", 1, None)
    with pytest.raises(REFUSED):
        tables.append("t1", 1, 1, "other", 7, {"returns": [1.0, -1.0]})
    kept = tables.load("t1")
    assert kept is not None
    assert kept.version == 1
    assert kept.outcome is None
    assert texts(tables, "t1") == ["a1"]

    # In a group commit the table is refused (another process stored its action first),
    # none of its rows is stored, and the other tables are stored as usual.
    for rows in ([row("t1", 1, text="x"), row("t2", 1)], [row("t1", 2), row("t1", 1)]):
        refused = tables.append_many(rows)
        assert refused == {"t1"}
        assert texts(tables, "t1") == ["a1"]
        again = tables.load("t1")
        assert again is not None
        assert again.version == 1
    assert texts(tables, "t2") == ["a1"]


def test_a_seat_given_to_a_bot_keeps_its_token_unless_let_go(tables: TableStore) -> None:
    create(tables, "t1")
    written: list[Transaction] = []
    tables.set_player("t1", 0, "mcts", {"seated": 1}, also=written.append)
    kept = tables.load("t1")
    assert kept is not None
    assert (kept.seats[0].player, kept.seats[0].token_hash) == ("mcts", token_hash("secret"))
    assert (kept.options, len(written)) == ({"seated": 1}, 1)
    tables.set_player("t1", 0, "random", {"left": 1}, let_go=True)
    kept = tables.load("t1")
    assert kept is not None
    assert (kept.seats[0].player, kept.seats[0].token_hash) == ("random", None)
    assert kept.options == {"left": 1}


# ---------------------------------------------------------- the end of a game


def test_the_end_of_a_game_and_its_ratings_are_stored_together_or_not_at_all(
    tables: TableStore,
) -> None:
    outcome: JSON = {"returns": [1.0, -1.0], "termination": "resigned"}
    for name in ("t1", "t2", "t3"):
        create(tables, name)
        tables.append(name, 1, 0, "a1", 1, None)

    with pytest.raises(BoomError):  # a ruling (resign, a clock run out)
        tables.rule("t1", 2, outcome, {"ruling": 1}, on_end=boom)
    with pytest.raises(BoomError):  # the last action, in a group commit with another table's
        tables.append_many([row("t2", 2, outcome=outcome, on_end=boom), row("t3", 2)])
    with pytest.raises(BoomError):  # a person leaving, rated as they leave
        tables.set_player("t3", 0, "random", {"left": 1}, let_go=True, also=boom)
    for name in ("t1", "t2", "t3"):
        kept = tables.load(name)
        assert kept is not None
        assert (kept.version, kept.outcome, kept.options) == (1, None, {"variant": "geometric"})
        assert [seat.player for seat in kept.seats] == ["human", "random"]
        assert kept.seats[0].token_hash == token_hash("secret")
        assert texts(tables, name) == ["a1"]

    written: list[Transaction] = []
    tables.rule("t1", 2, outcome, {"ruling": 1}, on_end=written.append)
    assert tables.append_many([row("t2", 2, outcome=outcome, on_end=written.append)]) == set()
    assert len(written) == 2
    for name in ("t1", "t2"):
        ended = tables.load(name)
        assert ended is not None
        assert ended.version == 2
        assert ended.outcome == outcome
    with pytest.raises(FanfoldError, match="changed elsewhere"):  # not at version 1 any more
        tables.rule("t1", 2, outcome, {}, on_end=written.append)
    assert len(written) == 2


# ------------------------------------------------------------------ expiry


def test_old_unfinished_tables_expire_and_the_others_stay(tables: TableStore) -> None:
    told: list[int] = []
    tables.lobby_listeners.append(lambda: told.append(1))
    create(tables, "old")
    create(tables, "kept")
    create(tables, "over", outcome={"returns": [1.0, -1.0]})
    create(tables, "rated", options={"rated": True})
    tables.append("rated", 1, 0, "a1", 1, None)
    create(tables, "rated-unplayed", options={"rated": True})
    time.sleep(0.01)
    now = time.time()
    create(tables, "new")
    assert tables.expire(now - 3600) == []
    gone = tables.expire(now, keep=["kept"])
    assert sorted(gone) == ["old", "rated-unplayed"]
    assert sorted(tables.load_many(["old", "kept", "over", "rated", "rated-unplayed", "new"])) == [
        "kept",
        "new",
        "over",
        "rated",
    ]
    assert tables.unfinished().count("old") == 0
    if not isinstance(tables, Store) or not tables.postgresql:
        assert told  # one process: the store tells its own lobby (PostgreSQL notifies)


# ------------------------------------------------------------------ the processes' beats


def test_each_process_keeps_its_last_beat_and_the_long_silent_are_forgotten(
    tables: TableStore,
) -> None:
    assert tables.last_beat("s1.1.a") is None
    tables.beat("s1.1.a", 100.0, 0.0)
    tables.beat("s2.2.b", 150.0, 0.0)
    tables.beat("s1.1.a", 160.5, 0.0)  # the same process again: its row moves on
    assert tables.last_beat("s1.1.a") == 160.5
    assert tables.last_beat("s2.2.b") == 150.0
    tables.beat("s3.3.c", 200.0, 155.0)  # s2 silent since before 155: forgotten
    assert tables.last_beat("s2.2.b") is None
    assert tables.last_beat("s1.1.a") == 160.5
    assert tables.last_beat("s3.3.c") == 200.0


# ------------------------------------------------------------------ listing


def test_the_lists_of_tables(tables: TableStore) -> None:
    create(tables, "first")
    create(tables, "hidden", listed=False)
    create(tables, "full", token_hashes=[token_hash("a"), None])
    tables.invite("full", 0, "i" * 64)  # a friend's seat: not open to anyone
    create(tables, "open", players=["human", "human"], token_hashes=[token_hash("b"), None])
    tables.append("open", 1, 0, "a1", 1, None)
    tables.set_options("open", {RESUME: True})
    create(tables, "rated", game="morris.v1", options={"rated": True}, listed=False)

    lines = tables.open_tables()
    assert [(line[0], line[3], line[4]) for line in lines] == [("open", 2, 1)]
    assert tables.take_open("open", 1, token_hash("c"))
    assert not tables.take_open("open", 1, token_hash("d"))  # taken already
    assert tables.open_tables() == []

    recent = tables.recent()
    assert next(summary.id for summary in recent) == "open"  # changed last
    assert {summary.id for summary in recent} == {"first", "full", "open"}
    opened = next(summary for summary in recent if summary.id == "open")
    assert (opened.players, opened.moves, opened.over) == (("human", "human"), 1, False)

    assert sorted(tables.unfinished()) == ["first", "full", "hidden", "open", "rated"]
    resume = dict(tables.to_resume())
    assert resume["open"] is True
    assert resume["first"] is None
    assert [table.id for table in tables.running_rated("morris.v1")] == ["rated"]
    assert tables.claim("full", 0, "i" * 64, token_hash("e"))
    assert not tables.claim("full", 0, "i" * 64, token_hash("f"))  # spent


# ------------------------------------------------------------ the hub in memory


def test_a_hub_plays_on_the_in_memory_store() -> None:
    async def play() -> None:
        hub = Hub(MemoryTables(), bot_seconds=None)
        created = await hub.create(MORRIS, MORRIS.default_config(), ["you", "random"], seed=3)
        for _ in range(4):
            await hub.idle(created.id)
            live = await hub.get(created.id)
            if live.table.is_over:
                break
            if live.table.decider == 0:
                text = live.table.legal_texts()[0]
                await hub.act(created.id, created.token, live.table.version, text, None)
        await hub.idle(created.id)
        version = hub.live[created.id].table.version
        hub.live.clear()  # out of memory: rebuilt from the store
        again = await hub.get(created.id)
        assert again.table.version == version >= 2
        stored = hub.store.load(created.id)
        assert stored is not None
        assert len(stored.actions) == version
        hub.executor.shutdown()

    asyncio.run(play())


# ------------------------------------------------------------ reviews


@pytest.fixture(params=["memory", "sqlite", "sqlite in memory", "postgresql"])
def reviews(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ReviewStore]:
    """An empty review store of each kind (beside a table store of that kind: on a SQLite
    file, the reviews' own file beside it; in a SQLite database in memory, that database)."""
    store: TableStore
    if request.param == "memory":
        store = MemoryTables()
    elif request.param == "sqlite":
        store = Store(sqlite_url(tmp_path))
        assert isinstance(review_store(store), FileReviews)
    elif request.param == "sqlite in memory":
        store = Store("sqlite://")
        assert not isinstance(review_store(store), FileReviews)
    else:
        store = Store(_new_postgres_database(request.getfixturevalue("postgres_cluster")))
    yield review_store(store)
    store.close()


def _open_review(store: ReviewStore, now: float = 100.0) -> None:
    store.open("t1", 1, game="morris.v1", moves=3, seed="42", budget=None, now=now)


def test_a_review_is_opened_once_and_kept_with_its_seed_and_budget(reviews: ReviewStore) -> None:
    first = reviews.open("t1", 1, game="fan.v1", moves=9, seed="42", budget=5000, now=100.0)
    again = reviews.open("t1", 1, game="fan.v1", moves=9, seed="7", budget=1, now=200.0)
    assert first == again
    assert (first.state, first.owner, first.attempts) == ("pending", None, 0)
    assert (first.seed, first.budget, first.moves, first.created) == ("42", 5000, 9, 100.0)
    assert reviews.job("t1", 1) == first
    assert reviews.job("t1", 2) is None
    assert reviews.job("t2", 1) is None


def test_one_claimant_holds_a_review_until_its_lease_runs_out(reviews: ReviewStore) -> None:
    _open_review(reviews)
    held = reviews.claim("t1", 1, "a", now=100.0, lease=10.0)
    assert held is not None
    assert (held.state, held.owner, held.lease_until, held.attempts) == ("running", "a", 110, 1)
    assert reviews.claim("t1", 1, "b", now=105.0, lease=10.0) is None
    assert reviews.renew("t1", 1, "a", now=108.0, lease=10.0)  # the heartbeat: until 118
    assert reviews.claim("t1", 1, "b", now=115.0, lease=10.0) is None
    assert not reviews.renew("t1", 1, "b", now=115.0, lease=10.0)
    taken = reviews.claim("t1", 1, "b", now=118.0, lease=10.0)  # a's lease ran out
    assert taken is not None
    assert (taken.owner, taken.attempts) == ("b", 2)
    assert not reviews.renew("t1", 1, "a", now=119.0, lease=10.0)
    assert not reviews.add_moves("t1", 1, "a", {1: {"n": 1}}, now=119.0, lease=10.0)
    assert reviews.moves("t1", 1) == []
    assert reviews.claim("t1", 2, "a", now=100.0, lease=10.0) is None  # never opened


def test_moves_are_stored_as_computed_and_a_finished_review_is_closed(
    reviews: ReviewStore,
) -> None:
    _open_review(reviews)
    assert reviews.claim("t1", 1, "a", now=100.0, lease=10.0) is not None
    assert reviews.add_moves("t1", 1, "a", {2: {"n": 2}, 1: {"n": 1}}, now=101.0, lease=10.0)
    assert reviews.moves("t1", 1) == [{"n": 1}, {"n": 2}]
    job = reviews.job("t1", 1)
    assert job is not None
    assert job.lease_until == 111.0  # storing moves renews the lease
    # A move stored already is kept (one taken over recomputes the same moves).
    assert reviews.add_moves("t1", 1, "a", {2: {"n": "other"}, 3: {"n": 3}}, 102.0, 10.0)
    assert reviews.moves("t1", 1) == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert not reviews.finish("t1", 1, "b", {"engine": "x"}, ["No."], None, 103.0)
    assert reviews.finish("t1", 1, "a", {"engine": "x"}, ["Good."], {"verdict": "won"}, 103.0)
    done = reviews.job("t1", 1)
    assert done is not None
    assert (done.state, done.engine, done.summary, done.deal) == (
        "done",
        {"engine": "x"},
        ["Good."],
        {"verdict": "won"},
    )
    assert reviews.claim("t1", 1, "b", now=500.0, lease=10.0) is None  # done: nobody claims it
    assert not reviews.add_moves("t1", 1, "a", {4: {"n": 4}}, now=104.0, lease=10.0)


def test_a_poll_reads_only_the_moves_after_those_its_client_has(reviews: ReviewStore) -> None:
    _open_review(reviews)
    assert reviews.claim("t1", 1, "a", now=100.0, lease=10.0) is not None
    assert reviews.add_moves("t1", 1, "a", {n: {"n": n} for n in (1, 2, 3)}, 101.0, 10.0)
    assert reviews.moves("t1", 1, after=0) == reviews.moves("t1", 1)
    assert reviews.moves("t1", 1, after=1) == [{"n": 2}, {"n": 3}]
    assert reviews.moves("t1", 1, after=3) == []
    assert reviews.moves("t1", 1, after=7) == []
    assert reviews.moves("t1", 2, after=1) == []  # another version: none
    reviews.add_moves("t1", 1, "a", {4: {"n": 4}}, 102.0, 10.0)
    assert reviews.moves("t1", 1, after=3) == [{"n": 4}]


def test_a_failed_review_says_why_and_is_not_claimed_again(reviews: ReviewStore) -> None:
    _open_review(reviews)
    assert reviews.claim("t1", 1, "a", now=100.0, lease=10.0) is not None
    assert not reviews.fail("t1", 1, "b", "not mine", now=101.0)
    assert reviews.fail("t1", 1, "a", "the record does not replay", now=101.0)
    job = reviews.job("t1", 1)
    assert job is not None
    assert (job.state, job.error) == ("failed", "the record does not replay")
    assert reviews.claim("t1", 1, "a", now=500.0, lease=10.0) is None


def test_the_reviews_nobody_holds_are_listed_for_the_sweep(reviews: ReviewStore) -> None:
    """Pending reviews and running ones whose lease ran out, least recently changed first;
    not those held, done, failed or of another version."""
    for name, now in (("t1", 100.0), ("t2", 90.0), ("t3", 95.0), ("t4", 96.0), ("t5", 97.0)):
        reviews.open(name, 1, game="morris.v1", moves=3, seed="42", budget=None, now=now)
    reviews.open("t6", 2, game="morris.v1", moves=3, seed="42", budget=None, now=80.0)
    assert reviews.claim("t3", 1, "a", now=101.0, lease=10.0) is not None  # held until 111
    assert reviews.claim("t4", 1, "b", now=98.0, lease=5.0) is not None  # ran out at 103
    assert reviews.claim("t5", 1, "c", now=99.0, lease=10.0) is not None
    assert reviews.finish("t5", 1, "c", {"engine": "x"}, ["Done."], None, 99.5)
    assert [job.table_id for job in reviews.lapsed(1, now=104.0, limit=10)] == ["t2", "t4", "t1"]
    assert [job.table_id for job in reviews.lapsed(1, now=104.0, limit=1)] == ["t2"]
    assert [job.table_id for job in reviews.lapsed(1, now=102.0, limit=10)] == ["t2", "t1"]
    taken = [job.table_id for job in reviews.lapsed(1, now=120.0, limit=10)]
    assert taken == ["t2", "t4", "t1", "t3"]
    assert [job.table_id for job in reviews.lapsed(2, now=120.0, limit=10)] == ["t6"]


# ------------------------------------------------------------------ chat


def test_chat_lines_are_kept_by_room_and_read_back_newest_last(chats: ChatStore) -> None:
    said = [
        chats.add_line("t1", PLAYERS if n % 3 else SPECTATORS, n, f"p{n}", n % 2, f"line {n}", n)
        for n in range(12)
    ]
    chats.add_line("t2", PLAYERS, None, "White", 0, "elsewhere", 20.0)
    assert [line.id for line in said] == sorted({line.id for line in said})  # new ids, rising
    players = [line for line in said if line.room == PLAYERS]
    assert chats.recent("t1", PLAYERS, 50) == players
    assert chats.recent("t1", PLAYERS, 3) == players[-3:]
    assert chats.recent("t1", SPECTATORS, 50) == [line for line in said if line.room == SPECTATORS]
    assert chats.recent("t3", PLAYERS, 50) == []
    assert chats.line(said[4].id) == said[4]
    assert chats.line(10_000) is None
    spectator = chats.add_line("t1", SPECTATORS, 7, "carol", None, "watching", 30.0)
    assert (spectator.seat, spectator.account_id) == (None, 7)
    assert chats.recent("t1", SPECTATORS, 1) == [spectator]


def test_a_chat_report_keeps_the_lines_around_it(chats: ChatStore) -> None:
    said = [chats.add_line("t1", PLAYERS, None, "White", 0, f"l{n}", float(n)) for n in range(20)]
    chats.add_line("t1", SPECTATORS, 3, "carol", None, "not in the players' room", 1.5)
    middle = said[10]
    around = chats.around(middle, 5)
    assert around == said[5:16]
    assert chats.around(said[1], 5) == said[0:7]  # fewer before the start
    assert chats.around(said[-1], 5) == said[-6:]
    assert not chats.reported("bob", middle.id)
    first = chats.add_report(middle, "bob", 2, "rude", around, 99.0)
    second = chats.add_report(said[0], "White (seat 1)", None, "", chats.around(said[0], 5), 100.0)
    assert chats.reported("bob", middle.id)
    assert not chats.reported("bob", said[0].id)
    reports = chats.reports(10)
    assert [report.id for report in reports] == [second, first]  # newest first
    kept = reports[1]
    assert (kept.message_id, kept.table_id, kept.reporter, kept.reporter_id) == (
        middle.id,
        "t1",
        "bob",
        2,
    )
    assert (kept.note, kept.at, kept.context) == ("rude", 99.0, tuple(around))
    assert chats.reports(1) == reports[:1]


# ------------------------------------------------------------------ profiles


@pytest.fixture(params=["sqlite", "postgresql"])
def profiles(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An empty SQL store of each kind (the ratings and the profiles are SQL only, like the
    accounts: the in-memory table store has neither)."""
    if request.param == "sqlite":
        store = Store(sqlite_url(tmp_path))
    else:
        store = Store(_new_postgres_database(request.getfixturevalue("postgres_cluster")))
    yield store
    store.close()


def _change(table: str, family: str, player: str, team: int, rank: int, mu: float) -> JSON:
    """A rating change row (the rest of it does not matter to the profile's reads)."""
    at = float(table[1:])
    return {
        "rated_table": table,
        "player": player,
        "family": family,
        "seat": team,
        "team": team,
        "rank": rank,
        "mu_before": mu,
        "sigma_before": 100.0,
        "mu_after": mu,
        "sigma_after": 100.0,
        "at": at,
        "weight": 1.0,
    }


def test_a_players_record_reads_results_best_wins_and_opponents(profiles: Store) -> None:
    from fanfold.server.store import rating_changes
    from fanfold.server.store.profile_reads import ProfileReads, Results, Win

    me, other, partner, fourth, bot = "a:1", "a:2", "a:3", "a:4", "bot:fantan:easy"
    rows = [
        # Morris: won, lost, drawn against a:2
        _change("t1", "morris", me, 0, 1, 1500.0),
        _change("t1", "morris", other, 1, 2, 1600.0),
        _change("t2", "morris", me, 0, 2, 1500.0),
        _change("t2", "morris", other, 1, 1, 1610.0),
        _change("t3", "morris", me, 0, 1, 1500.0),
        _change("t3", "morris", other, 1, 1, 1620.0),
        # Fan Tan, three seats: first above a:2 and the bot
        _change("t4", "fantan", me, 0, 1, 1500.0),
        _change("t4", "fantan", other, 1, 2, 1550.0),
        _change("t4", "fantan", bot, 2, 3, 1700.0),
        # a partnership: me and a:3 (one team) above a:2 and a:4
        _change("t5", "fano-trionfey", me, 0, 1, 1500.0),
        _change("t5", "fano-trionfey", partner, 0, 1, 1900.0),
        _change("t5", "fano-trionfey", other, 1, 2, 1400.0),
        _change("t5", "fano-trionfey", fourth, 1, 2, 1400.0),
        # a game without me
        _change("t6", "morris", other, 0, 1, 1650.0),
        _change("t6", "morris", fourth, 1, 2, 2000.0),
    ]
    with profiles.engine.begin() as connection:
        connection.execute(rating_changes.insert(), rows)
    data = ProfileReads(profiles.engine)
    with data.reading() as tx:
        assert data.family_results(tx, me) == [
            Results("fano-trionfey", "fano-trionfey", 1, 1, 0, 0),
            Results("fantan", "fantan", 1, 1, 0, 0),
            Results("morris", "morris", 3, 1, 1, 1),
        ]
        assert data.family_results(tx, "a:99") == []
        assert data.best_wins(tx, me, 3) == [
            Win("t4", "fantan", bot, 1700.0, 4.0),
            Win("t1", "morris", other, 1600.0, 1.0),
            Win("t4", "fantan", other, 1550.0, 4.0),
        ]
        met = data.met_opponents(tx, me, 10)
        assert [(one.key, one.games, one.won, one.lost, one.drawn) for one in met] == [
            (other, 5, 3, 1, 1),
            (fourth, 1, 1, 0, 0),  # met last (t5), before the bot (t4)
            (bot, 1, 1, 0, 0),
        ]
        assert partner not in {one.key for one in met}  # a partner is no opponent
        assert len(data.met_opponents(tx, me, 1)) == 1


def test_the_closed_accounts_among_those_a_profile_names_are_found(profiles: Store) -> None:
    from fanfold.server.store.profile_reads import ProfileReads
    from fanfold.server.store.schema import accounts

    with profiles.engine.begin() as connection:
        for number, closed in ((1, False), (2, True), (3, True)):
            connection.execute(
                accounts.insert().values(
                    id=number,
                    name=f"p{number}",
                    name_key=f"p{number}",
                    password_hash="x",
                    created=1.0,
                    closed=closed,
                )
            )
    data = ProfileReads(profiles.engine)
    with data.reading() as tx:
        assert data.closed_among(tx, {1, 2, 9}) == {2}
        assert data.closed_among(tx, {1, 2, 3}) == {2, 3}
        assert data.closed_among(tx, set()) == set()


def test_an_accounts_finished_tables_are_read_with_their_seats_and_reviews(
    profiles: Store,
) -> None:
    from fanfold.server.store.profile_reads import ProfileReads

    outcome: JSON = {"returns": [1.0, -1.0], "termination": "won"}
    create(profiles, "done1", account_ids=[7, None], outcome=outcome)
    create(profiles, "running", account_ids=[7, None])  # not over: never read
    create(profiles, "other", account_ids=[8, None], outcome=outcome)
    create(
        profiles,
        "done2",
        players=["human", "human"],
        token_hashes=[token_hash("a"), token_hash("b")],
        account_ids=[None, 7],
    )
    time.sleep(0.01)
    profiles.append("done2", 1, 0, "a1", 1, outcome)  # ends after done1
    data = ProfileReads(profiles.engine)
    with data.reading() as tx:
        held = data.finished_seats(tx, 7, 10)
        assert [(seat.table_id, seat.seat) for seat in held] == [("done2", 1), ("done1", 0)]
        assert held[1].outcome == outcome
        assert held[1].game == "morris.v1"
        assert held[1].options == {"variant": "geometric"}
        assert held[1].seats == ((0, "human", 7), (1, "random", None))
        assert held[0].seats == ((0, "human", None), (1, "human", 7))
        assert [seat.table_id for seat in data.finished_seats(tx, 7, 1)] == ["done2"]
        assert data.finished_seats(tx, 9, 10) == []
        assert data.reviewed(tx, ["done1", "other"], 1) == set()
    reviews = review_store(profiles)  # on SQLite, the reviews' own file
    for name in ("done1", "done2"):
        reviews.open(name, 1, game="morris.v1", moves=1, seed="1", budget=None, now=1.0)
    assert reviews.claim("done1", 1, "p", now=2.0, lease=60.0) is not None
    assert reviews.finish("done1", 1, "p", {"name": "e"}, ["fine"], None, now=3.0)
    with data.reading() as tx:
        assert data.reviewed(tx, ["done1", "done2"], 1) == {"done1"}  # done2: opened only
        assert data.reviewed(tx, ["done1"], 2) == set()  # another version
        assert data.reviewed(tx, [], 1) == set()


def test_the_chat_store_counts_a_speakers_lines_against_the_limits(chats: ChatStore) -> None:
    limits = LineLimits(table_most=2, table_seconds=10.0, site_most=3, site_seconds=60.0)

    def say(table: str, speaker: str, at: float) -> ChatLine:
        return chats.add_line(table, PLAYERS, 1, "ann", 0, "hi", at, speaker, limits)

    say("t1", "a:1", 1.0)
    say("t1", "a:1", 2.0)
    with pytest.raises(OverLimitError) as refused:
        say("t1", "a:1", 3.0)
    assert refused.value.which == "table"
    say("t1", "a:2", 3.0)  # another speaker has a budget of its own
    say("t2", "a:1", 3.0)  # and another table
    with pytest.raises(OverLimitError) as refused:
        say("t3", "a:1", 4.0)  # three lines in the minute over every table
    assert refused.value.which == "site"
    assert [line.text for line in chats.recent("t3", PLAYERS, 9)] == []  # nothing kept
    chats.add_line("t3", PLAYERS, 1, "ann", 0, "uncounted", 4.0)  # no speaker: no limit
    say("t3", "a:1", 61.5)  # the first line left the minute
    with pytest.raises(OverLimitError):
        say("t3", "a:1", 61.6)


def test_the_chat_store_counts_a_reporters_reports_in_the_hour(chats: ChatStore) -> None:
    said = [chats.add_line("t1", PLAYERS, None, "White", 0, f"l{n}", float(n)) for n in range(4)]
    for number in range(2):
        chats.add_report(said[number], "bob", 2, "", [said[number]], 10.0 + number, 2)
    with pytest.raises(OverLimitError) as refused:
        chats.add_report(said[2], "bob", 2, "", [said[2]], 20.0, 2)
    assert refused.value.which == "reports"
    chats.add_report(said[2], "White (seat 1 at t1)", None, "", [said[2]], 20.0, 2)  # a guest
    chats.add_report(said[3], "bob", 2, "", [said[3]], 3611.0, 2)  # an hour after the first
    assert len(chats.reports(10)) == 4


# ------------------------------------------------------------------ the bot pool's leases


def test_a_client_holds_at_most_its_share_of_leases_in_the_order_asked(
    leases: BotLeases,
) -> None:
    first = leases.ask("address:1", "s1:10", now=100.0, seconds=15.0)
    second = leases.ask("address:1", "s2:20", now=100.1, seconds=15.0)
    third = leases.ask("address:1", "s3:30", now=100.2, seconds=15.0)
    assert len({first, second, third}) == 3
    assert not leases.take(third, "address:1", 2, now=100.3)  # two were asked for before it
    assert leases.take(second, "address:1", 2, now=100.3)
    assert leases.take(first, "address:1", 2, now=100.3)
    assert leases.take(first, "address:1", 2, now=100.4)  # granted already: still
    other = leases.ask("address:2", "s3:30", now=100.4, seconds=15.0)
    assert leases.take(other, "address:2", 2, now=100.4)  # another client has its own share
    assert leases.held("address:1", now=100.5) == 2
    # One given back: the next in line is granted; one asked for later waits behind it.
    later = leases.ask("address:1", "s1:10", now=100.5, seconds=15.0)
    leases.give_back(first)
    leases.give_back(first)  # given back twice: nothing more happens
    assert not leases.take(later, "address:1", 2, now=100.6)
    assert leases.take(third, "address:1", 2, now=100.6)
    assert not leases.take(later, "address:1", 2, now=100.6)
    # A holder killed renews nothing: its leases run out; renewed ones go on.
    leases.renew([third, later], until=130.0)
    assert leases.held("address:1", now=116.0) == 1  # the second ran out at 115.1
    assert leases.take(later, "address:1", 2, now=116.0)
    assert leases.held("address:1", now=131.5) == 0  # every lease ran out
    assert not leases.take(later, "address:1", 2, now=131.5)
