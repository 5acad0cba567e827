"""The store on SQLite and on a real PostgreSQL (a throw-away cluster), and the hub kept in step
with it: creating, appending, undoing, loading, listing, migrating, resuming after a restart,
and never telling a watcher of an action the store has not kept."""

from __future__ import annotations

import asyncio
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.exc import IntegrityError

from fanfold.core.registry import get_game
from fanfold.server.hub import Hub, StorageError, Watcher
from fanfold.server.store import Store, StoredSeat, make_engine, token_hash, upgrade
from fanfold.server.store.engine import MIGRATIONS
from tests.server.support import (
    JSON,
    PG_BIN,
    schema_head,
    sqlite_url,
    start_cluster,
    store_table,
)

MORRIS = get_game("morris")
FANTAN = get_game("fantan")


# ------------------------------------------------------------- the backends


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[str]:
    """A throw-away PostgreSQL 15 cluster listening on a Unix socket only; yields the folder
    of its socket. Stopped and removed at the end of the session."""
    initdb = PG_BIN / "initdb"
    if not initdb.is_file():
        pytest.fail(
            f"{initdb} is missing: the test set-up must install Debian's PostgreSQL 15 "
            "(apt-get install postgresql-15) so that the store is tested on PostgreSQL",
            pytrace=False,
        )
    with start_cluster(Path(tempfile.mkdtemp(prefix="fanfold-pg-")), 5432, fsync=False) as folder:
        yield folder


def _postgres_url(socket_folder: str, database: str) -> str:
    return f"postgresql+psycopg://postgres@/{database}?host={socket_folder}&port=5432"


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL for an empty database: a new SQLite file, or a new database in the cluster."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    cluster: str = request.getfixturevalue("postgres_cluster")
    name = f"t_{uuid.uuid4().hex[:16]}"
    engine = sa.create_engine(_postgres_url(cluster, "postgres"), isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return _postgres_url(cluster, name)


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    opened = Store(store_url)
    yield opened
    opened.close()


def create_table(store: Store, table_id: str = "t1", **changes: Any) -> None:
    arguments: JSON = {
        "game": "morris.v1",
        "config": {"adjacency": "geometric"},
        "seed": 2**53 - 1,
        "start_position": None,
        "players": ["human", "random"],
        "token_hashes": [token_hash("secret"), None],
        "allow_undo": True,
        "options": {"variant": "geometric", "analysis": True},
        "listed": True,
    }
    arguments.update(changes)
    store_table(store, table_id, **arguments)


# ------------------------------------------------------------------ the store


def test_create_and_load(store: Store) -> None:
    create_table(store, actions_done=[(0, "C1"), (1, "T2")], version=2)
    loaded = store.load("t1")
    assert loaded is not None
    assert (loaded.id, loaded.game, loaded.seed, loaded.version) == (
        "t1",
        "morris.v1",
        2**53 - 1,
        2,
    )
    assert loaded.config == {"adjacency": "geometric"}
    assert loaded.options == {"variant": "geometric", "analysis": True}
    assert loaded.allow_undo is True
    assert loaded.outcome is None
    assert loaded.start_position is None
    assert [(s.seat, s.player, s.token_hash) for s in loaded.seats] == [
        (0, "human", token_hash("secret")),
        (1, "random", None),
    ]
    assert loaded.actions == ((0, "C1"), (1, "T2"))
    assert loaded.created <= loaded.updated
    assert store.load("t2") is None
    assert "secret" not in repr(loaded)  # only the token's hash is kept


def test_several_tables_are_read_together_as_each_alone(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    create_table(store, "t1", actions_done=[(0, "C1"), (1, "T2")], version=2)
    create_table(store, "t2", players=["random", "human"], token_hashes=[None, "h"])
    create_table(store, "t3", actions_done=[(0, "C3")], version=1)
    store.append("t3", 2, 1, "T4", 2, None)
    monkeypatch.setattr("fanfold.server.store.table_reads.LOAD_CHUNK", 2)  # three tables: two reads
    found = store.load_many(["t3", "nobody", "t1", "t2", "t1"])
    assert sorted(found) == ["t1", "t2", "t3"]  # an id with no table is left out
    for table_id, stored in found.items():
        assert stored == store.load(table_id)
    assert found["t3"].actions == ((0, "C3"), (1, "T4"))
    assert found["t1"].actions == ((0, "C1"), (1, "T2"))
    assert found["t2"].actions == ()
    assert [seat.player for seat in found["t2"].seats] == ["random", "human"]
    assert store.load_many([]) == {}


def test_append_and_truncate(store: Store) -> None:
    create_table(store)
    store.append("t1", 1, 0, "C1", 1, None)
    store.append("t1", 2, 1, "T2", 2, None)
    store.append("t1", 3, 0, "C3", 3, {"reason": "over", "returns": [1.0, -1.0]})
    loaded = store.load("t1")
    assert loaded is not None
    assert loaded.actions == ((0, "C1"), (1, "T2"), (0, "C3"))
    assert (loaded.version, loaded.outcome) == (3, {"reason": "over", "returns": [1.0, -1.0]})
    assert store.unfinished() == []
    store.truncate("t1", 1, 4)  # an undo: the version still grows
    loaded = store.load("t1")
    assert loaded is not None
    assert loaded.actions == ((0, "C1"),)
    assert (loaded.version, loaded.outcome) == (4, None)
    assert store.unfinished() == ["t1"]
    store.append("t1", 2, 1, "T5", 5, None)
    loaded = store.load("t1")
    assert loaded is not None
    assert loaded.actions == ((0, "C1"), (1, "T5"))
    assert loaded.version == 5


def test_a_failed_append_changes_nothing(store: Store) -> None:
    create_table(store)
    store.append("t1", 1, 0, "C1", 1, None)
    with pytest.raises(IntegrityError):
        store.append("t1", 1, 1, "T2", 2, {"reason": "x", "returns": [0.0, 0.0]})
    loaded = store.load("t1")
    assert loaded is not None
    assert (loaded.actions, loaded.version, loaded.outcome) == (((0, "C1"),), 1, None)
    with pytest.raises(IntegrityError):
        store.append("no-such-table", 1, 0, "C1", 1, None)
    with pytest.raises(IntegrityError):
        create_table(store)  # the same id twice
    assert len(store.recent()) == 1


def test_recent_and_unfinished(store: Store) -> None:
    for number in range(5):
        create_table(store, f"t{number}", players=["human", f"bot{number}"])
    store.append("t1", 1, 0, "C1", 1, None)
    store.append("t3", 1, 0, "C1", 1, {"reason": "over", "returns": [1.0, -1.0]})
    store.append("t1", 2, 1, "T2", 2, None)
    recent = store.recent()
    assert [summary.id for summary in recent[:2]] == ["t1", "t3"]
    assert {summary.id for summary in recent} == {f"t{n}" for n in range(5)}
    by_id = {summary.id: summary for summary in recent}
    assert by_id["t1"].moves == 2
    assert by_id["t0"].moves == 0
    assert by_id["t3"].over
    assert not by_id["t1"].over
    assert by_id["t4"].players == ("human", "bot4")
    assert [summary.id for summary in store.recent(limit=1)] == ["t1"]
    assert sorted(store.unfinished()) == ["t0", "t1", "t2", "t4"]


def test_a_seat_is_claimed_once_with_its_invitation(store: Store) -> None:
    create_table(
        store, token_hashes=[token_hash("a"), None], invite_hashes=[None, token_hash("invite")]
    )
    assert not store.claim("t1", 1, token_hash("wrong"), token_hash("b"))
    assert store.claim("t1", 1, token_hash("invite"), token_hash("b"))
    assert not store.claim("t1", 1, token_hash("invite"), token_hash("c"))  # spent
    loaded = store.load("t1")
    assert loaded is not None
    assert [seat.token_hash for seat in loaded.seats] == [token_hash("a"), token_hash("b")]
    assert [seat.invite_hash for seat in loaded.seats] == [None, None]
    store.invite("t1", 1, token_hash("again"))  # the creator's new link: the old holder is out
    loaded = store.load("t1")
    assert loaded is not None
    assert loaded.seats[1] == StoredSeat(1, "random", None, token_hash("again"))


def test_seeds_of_128_bits_and_the_creator_are_kept(store: Store) -> None:
    seed = 2**128 - 12345
    create_table(store, seed=seed, creator_hash=token_hash("creator"), listed=True)
    create_table(store, "t2", listed=False)
    loaded = store.load("t1")
    assert loaded is not None
    assert loaded.seed == seed
    assert loaded.creator_hash == token_hash("creator")
    assert loaded.listed
    assert [summary.id for summary in store.recent()] == ["t1"]  # t2 is not listed


def test_a_store_of_revision_0001_is_upgraded_and_keeps_its_tables(store_url: str) -> None:
    engine = make_engine(store_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            sa.text(
                "INSERT INTO tables (id, game, config, seed, start_position, version, "
                "allow_undo, options, outcome, created, updated) VALUES ('old', 'morris.v1', "
                "'{\"adjacency\": \"geometric\"}', 9007199254740993, NULL, 1, TRUE, '{}', NULL, "
                "1.0, 2.0)"
            )
        )
        connection.execute(
            sa.text(
                "INSERT INTO seats (table_id, seat, player, token_hash) VALUES "
                "('old', 0, 'human', 'h0'), ('old', 1, 'random', NULL)"
            )
        )
        connection.execute(
            sa.text("INSERT INTO actions (table_id, number, seat, text) VALUES ('old', 1, 0, 'C1')")
        )
    engine.dispose()
    store = Store(store_url)
    loaded = store.load("old")
    assert loaded is not None
    assert loaded.seed == 2**53 + 1  # every digit kept
    assert loaded.actions == ((0, "C1"),)
    assert [(seat.token_hash, seat.invite_hash) for seat in loaded.seats] == [
        ("h0", None),
        (None, None),
    ]
    assert loaded.creator_hash is None
    assert not loaded.listed
    create_table(store, "new", seed=2**128 - 1)  # the new column holds a 128-bit seed
    new = store.load("new")
    assert new is not None
    assert new.seed == 2**128 - 1
    store.close()


def test_migrations_run_once_and_keep_the_data(store_url: str) -> None:
    first = Store(store_url)
    create_table(first, actions_done=[(0, "C1")], version=1)
    first.close()
    second = Store(store_url)  # opening again upgrades nothing and loses nothing
    upgrade(second.engine)
    loaded = second.load("t1")
    assert loaded is not None
    assert loaded.actions == ((0, "C1"),)
    with second.engine.connect() as connection:
        versions = connection.execute(sa.text("SELECT version_num FROM alembic_version")).all()
        names = set(sa.inspect(connection).get_table_names())
    assert [row[0] for row in versions] == [schema_head()]
    assert {
        "tables",
        "seats",
        "actions",
        "alembic_version",
        "accounts",
        "ratings",
        "seat_origins",
        "fairplay_flags",
    } <= names
    second.close()


# ----------------------------------------------------------------- the hub


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def _first_legal_moves(hub: Hub, table_id: str, token: str, seat: int, count: int) -> None:
    for _ in range(count):
        await hub.idle(table_id)
        live = await hub.get(table_id)
        if live.table.decider != seat:
            return
        await hub.act(table_id, token, live.table.version, live.table.legal_texts()[0], None)
    await hub.idle(table_id)


def test_tables_asked_for_at_once_are_read_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crowd of tables asked for at once (a killed process's, reaching their stand-in)
    is read in one read of the store, each rebuilt once where it was; a read that fails
    fails every request waiting on it and keeps nothing, and the next request reads again."""

    async def run() -> None:
        hub = Hub(Store(sqlite_url(tmp_path)), bot_seconds=None)
        made = [
            await hub.create(MORRIS, MORRIS.default_config(), ["you", "you"], seed=n)
            for n in range(6)
        ]
        for created in made[:3]:
            await _first_legal_moves(hub, created.id, created.token, 0, 1)
        versions = {created.id: hub.live[created.id].table.version for created in made}
        hub.live.clear()  # they left memory; the store keeps them
        reads: list[list[str]] = []
        load_many = hub.store.load_many

        def counted(table_ids: list[str]) -> dict[str, Any]:
            reads.append(list(table_ids))
            return load_many(table_ids)

        monkeypatch.setattr(hub.store, "load_many", counted)
        asked = [created.id for created in made] + [made[0].id, "nobody"]
        got = await asyncio.gather(
            *(hub.get(table_id) for table_id in asked), return_exceptions=True
        )
        assert len(reads) == 1
        assert sorted(reads[0]) == sorted({*asked})
        for table_id, live in zip(asked, got, strict=True):
            if table_id == "nobody":
                assert "no table" in str(live)
                continue
            assert not isinstance(live, BaseException)
            assert live is hub.live[table_id]  # one rebuild, shared by both requests
            assert live.table.version == versions[table_id]

        hub.live.clear()

        def broken(table_ids: list[str]) -> dict[str, Any]:
            raise sa.exc.OperationalError("SELECT", {}, Exception("the store is down"))

        monkeypatch.setattr(hub.store, "load_many", broken)
        failed = await asyncio.gather(
            *(hub.get(created.id) for created in made[:3]), return_exceptions=True
        )
        assert all(isinstance(error, StorageError) for error in failed), failed
        assert not hub.live
        monkeypatch.setattr(hub.store, "load_many", load_many)
        assert (await hub.get(made[0].id)).table.version == versions[made[0].id]
        hub.executor.shutdown()
        hub.store.close()

    asyncio.run(run())


def test_a_new_hub_resumes_every_table_where_it_was(store_url: str) -> None:
    async def first_life() -> JSON:
        hub = Hub(Store(store_url), bot_seconds=None)
        cards = await hub.create(
            FANTAN, FANTAN.default_config(), ["you", "random", "random", "random"], seed=5
        )
        await _first_legal_moves(hub, cards.id, cards.token, 0, 4)
        board = await hub.create(MORRIS, MORRIS.default_config(), ["you", "random"], seed=4)
        await _first_legal_moves(hub, board.id, board.token, 0, 2)
        assert await hub.undo(board.id, board.token, None)  # the version is not the length
        seen = {}
        for created in (cards, board):
            live = hub.live[created.id]
            seen[created.id] = {
                "token": created.token,
                "version": live.table.version,
                "state": live.table.state,
                "record": live.table.record,
                "log": [(p.seat, p.text) for p in live.table.played],
                "hashes": list(live.seat_hashes),
                "options": live.options,
            }
        assert seen[board.id]["version"] != len(seen[board.id]["log"])
        hub.executor.shutdown()
        hub.store.close()
        return seen

    async def second_life(seen: JSON) -> None:
        hub = Hub(Store(store_url), bot_seconds=None)
        assert await hub.resume_all() == 0  # people decide at both: they load when asked for
        for table_id, before in seen.items():
            live = await hub.get(table_id)
            table = live.table
            assert table.version == before["version"]
            assert table.state == before["state"]
            assert table.record == before["record"]
            assert [(p.seat, p.text) for p in table.played] == before["log"]
            assert live.seat_hashes == before["hashes"]
            assert live.options == before["options"]
            # the same token still holds the seat, and play goes on
            played = await hub.act(
                table_id, before["token"], table.version, table.legal_texts()[0], None
            )
            assert played.number == len(before["log"]) + 1
            assert table.version == before["version"] + 1
            await hub.idle(table_id)
            stored = hub.store.load(table_id)
            assert stored is not None
            assert stored.version == table.version
            assert [text for _, text in stored.actions] == [p.text for p in table.played]
        hub.executor.shutdown()
        hub.store.close()

    run(second_life(run(first_life())))


def test_unfinished_bot_games_are_resumed_and_played_to_the_end(store_url: str) -> None:
    store = Store(store_url)
    create_table(store, players=["random", "random"], token_hashes=[None, None], seed=29)
    store.close()

    async def resume() -> None:
        hub = Hub(Store(store_url), bot_seconds=None)
        assert await hub.resume_all() == 1
        await hub.idle("t1", timeout=30)
        assert hub.live["t1"].table.is_over
        stored = hub.store.load("t1")
        assert stored is not None
        assert stored.outcome is not None
        assert len(stored.actions) == stored.version == hub.live["t1"].table.version
        assert hub.store.unfinished() == []
        hub.executor.shutdown()
        hub.store.close()

    run(resume())


# ------------------------------------------- watchers hear only what is stored


class FailingStore(Store):
    """A store whose appends fail once the test says so."""

    fail = False

    def append(self, *args: Any, **kwargs: Any) -> None:
        if self.fail:
            raise RuntimeError("the disk is full")
        super().append(*args, **kwargs)

    def append_many(self, *args: Any, **kwargs: Any) -> set[str]:
        if self.fail:
            raise RuntimeError("the disk is full")
        return super().append_many(*args, **kwargs)

    def truncate(self, *args: Any, **kwargs: Any) -> None:
        if self.fail:
            raise RuntimeError("the disk is full")
        super().truncate(*args, **kwargs)


def test_a_new_watcher_is_not_told_of_an_action_being_stored(tmp_path: Path) -> None:
    """A watcher arrives while an action waits for its commit, which then fails: it must
    not hear of that action."""

    async def scenario() -> None:
        store = FailingStore(sqlite_url(tmp_path))
        hub = Hub(store, bot_seconds=None)
        created = await hub.create(MORRIS, MORRIS.default_config(), ["you", "hotseat"], seed=1)
        live = hub.live[created.id]
        heard: list[JSON] = []

        async def send(message: JSON) -> None:
            heard.append(message)

        store.fail = True
        acting = asyncio.create_task(hub.act(created.id, created.token, 0, "C1", None))
        watching = asyncio.create_task(hub.watch(live, Watcher(None, frozenset(), send)))
        with pytest.raises(StorageError):
            await acting
        await watching
        assert [len(message["log"]) for message in heard] == [0]
        assert live.table.played == []
        hub.executor.shutdown()
        store.close()

    run(scenario())


def test_an_undo_the_store_refuses_changes_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = FailingStore(sqlite_url(tmp_path))
        hub = Hub(store, bot_seconds=None)
        created = await hub.create(MORRIS, MORRIS.default_config(), ["you", "random"], seed=2)
        live = hub.live[created.id]
        for _ in range(2):
            await hub.act(created.id, created.token, None, live.table.legal_texts()[0], None)
            await hub.idle(created.id)
        table = live.table
        before = (table.version, table.state, table.record, list(table.played))
        store.fail = True
        with pytest.raises(StorageError, match="could not be taken back"):
            await hub.undo(created.id, created.token, None)
        assert (table.version, table.state, table.record, list(table.played)) == before
        stored = store.load(created.id)
        assert stored is not None
        assert len(stored.actions) == len(table.played)
        store.fail = False  # the store recovers: the same undo goes through
        assert await hub.undo(created.id, created.token, table.version)
        assert len(table.played) < len(before[3])
        stored = store.load(created.id)
        assert stored is not None
        assert (len(stored.actions), stored.version) == (len(table.played), table.version)
        hub.executor.shutdown()
        store.close()

    run(scenario())


def test_a_slow_watcher_is_not_told_of_a_later_action_being_stored(tmp_path: Path) -> None:
    """A push goes out slowly to one watcher; meanwhile another action is submitted and waits
    for its commit, which fails: the next watcher's push must not carry that action."""

    async def scenario() -> None:
        store = FailingStore(sqlite_url(tmp_path))
        hub = Hub(store, bot_seconds=None)
        created = await hub.create(MORRIS, MORRIS.default_config(), ["you", "hotseat"], seed=1)
        live = hub.live[created.id]
        heard: list[JSON] = []
        slow, stuck = asyncio.Event(), asyncio.Event()

        async def send(message: JSON) -> None:
            if message["version"] == 1 and not slow.is_set():
                stuck.set()
                await slow.wait()  # the first push of version 1 is slow to go out
            heard.append(message)

        for _ in range(2):
            await hub.watch(live, Watcher(None, frozenset(), send))
        first = asyncio.create_task(hub.act(created.id, created.token, 0, "C1", None))
        await asyncio.wait_for(stuck.wait(), 10)
        store.fail = True
        second = asyncio.create_task(hub.act(created.id, created.token, 1, "T2", None))
        slow.set()  # the push goes on right after the second action is submitted
        await first
        with pytest.raises(StorageError):
            await second
        assert [len(message["log"]) for message in heard] == [0, 0, 1, 1]  # T2 never
        assert [p.text for p in live.table.played] == ["C1"]
        hub.executor.shutdown()
        store.close()

    run(scenario())
