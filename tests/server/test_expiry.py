"""Start-up loads only the tables where play goes on without a person (a bot decides next, or
a person decides under a time limit), the others load when asked for; an unfinished table
with no action for ``expire_seconds`` (30 days by default) is deleted as abandoned. On SQLite
and on PostgreSQL (the fixtures of ``test_store``)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.cli.serve import serve as serve_command
from fanfold.core.errors import ConfigError
from fanfold.core.registry import get_game
from fanfold.server import app as server_app
from fanfold.server.hub import EXPIRE_SECONDS, Hub, NotFoundError, Watcher
from fanfold.server.store import RESUME, Store, actions, seats, tables
from fanfold.server.table_options import TableOptions
from tests.server import test_store as backends
from tests.server.support import JSON, no_server_started

# The store on SQLite and on PostgreSQL, as test_store has it.
postgres_cluster, store_url, store = backends.postgres_cluster, backends.store_url, backends.store
create_table = backends.create_table

MORRIS = get_game("morris")
DAY = 24 * 3600.0


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def _stored_resume(hub: Hub, table_id: str) -> Any:
    stored = hub.store.load(table_id)
    assert stored is not None
    return stored.options.get(RESUME)


def test_start_up_loads_only_the_tables_that_play_on_without_a_person(store_url: str) -> None:
    async def first_life() -> dict[str, str]:
        hub = Hub(Store(store_url), bot_seconds=None)
        config = MORRIS.default_config()
        people = await hub.create(MORRIS, config, ["you", "random"], seed=4)  # White: you
        timed = await hub.create(
            MORRIS, config, ["you", "hotseat"], options=TableOptions(time_limit=60)
        )
        # Opened last: its bot has not moved yet (opening a table waits for the store, and
        # the bot would move meanwhile).
        bots = await hub.create(MORRIS, config, ["random", "you"], seed=4)  # White: the bot
        for live in hub.live.values():  # stop here: as a kill would
            for task in (live.bots, live.clock):
                if task is not None:
                    task.cancel()
        await asyncio.sleep(0)
        assert [_stored_resume(hub, t.id) for t in (people, bots, timed)] == [False, True, True]
        create_table(hub.store, "old")  # stored before the store said: loaded, and told
        hub.executor.shutdown()
        hub.store.close()
        return {"people": people.id, "bots": bots.id, "timed": timed.id, "token": people.token}

    async def second_life(ids: dict[str, str]) -> None:
        hub = Hub(Store(store_url), bot_seconds=None)
        assert await hub.resume_all() == 3
        assert set(hub.live) == {ids["bots"], ids["timed"], "old"}
        assert _stored_resume(hub, "old") is False  # a person decides there
        assert hub.live[ids["timed"]].options.resume is None  # the store's own, never sent
        await hub.idle(ids["bots"])  # the bot moved: now a person decides
        assert _stored_resume(hub, ids["bots"]) is False
        people = await hub.get(ids["people"])  # the others load when asked for, as before
        await hub.act(ids["people"], ids["token"], 0, people.table.legal_texts()[0], None)
        await hub.idle(ids["people"])
        assert _stored_resume(hub, ids["people"]) is False
        for live in hub.live.values():
            if live.clock is not None:
                live.clock.cancel()
        hub.executor.shutdown()
        hub.store.close()

    async def third_life(ids: dict[str, str]) -> None:
        hub = Hub(Store(store_url), bot_seconds=None)
        assert await hub.resume_all() == 1
        assert set(hub.live) == {ids["timed"]}
        hub.live[ids["timed"]].clock.cancel()  # type: ignore[union-attr]
        hub.executor.shutdown()
        hub.store.close()

    ids = run(first_life())
    run(second_life(ids))
    run(third_life(ids))


def test_a_table_that_cannot_be_rebuilt_does_not_stop_start_up(store: Store) -> None:
    create_table(store, "bots", players=["random", "random"], token_hashes=[None, None])
    create_table(
        store,
        "broken",
        game="fano.v1",
        config={"players": 2, "turns_per_player": 10**23},  # stored before options had ranges
        players=["random", "random"],
        token_hashes=[None, None],
    )

    async def scenario() -> None:
        hub = Hub(store, bot_seconds=None)
        assert await hub.resume_all() == 1
        assert set(hub.live) == {"bots"}
        with pytest.raises(ConfigError, match="turns_per_player must be from 1 to 10000"):
            await hub.get("broken")
        hub.live["bots"].bots.cancel()  # type: ignore[union-attr]
        await asyncio.sleep(0)
        hub.executor.shutdown()

    run(scenario())


def _age(opened: Store, table_ids: list[str], days: float) -> None:
    with opened.engine.begin() as connection:
        connection.execute(
            tables.update()
            .where(tables.c.id.in_(table_ids))
            .values(updated=time.time() - days * DAY)
        )


def _rows(opened: Store, table_id: str) -> tuple[int, int, int]:
    with opened.engine.connect() as connection:
        return tuple(  # type: ignore[return-value]
            connection.execute(
                sa.select(sa.func.count()).select_from(t).where(column == table_id)
            ).scalar_one()
            for t, column in (
                (tables, tables.c.id),
                (seats, seats.c.table_id),
                (actions, actions.c.table_id),
            )
        )


def test_an_abandoned_table_expires_and_the_others_stay(store: Store) -> None:
    for table_id in ("abandoned", "recent", "finished", "watched"):
        create_table(store, table_id, actions_done=[(0, "C1"), (1, "T2")], version=2)
    store.append("finished", 3, 0, "C3", 3, {"reason": "over", "returns": [1.0, -1.0]})
    _age(store, ["abandoned", "finished", "watched"], 31)
    _age(store, ["recent"], 29)

    async def scenario() -> None:
        hub = Hub(store, bot_seconds=None)
        watched = await hub.get("watched")

        async def send(message: JSON) -> None:
            del message

        await hub.watch(watched, Watcher(None, frozenset(), send))
        await hub.get("abandoned")  # in memory but idle: it goes too
        assert await hub.expire_abandoned() == ["abandoned"]
        assert "abandoned" not in hub.live
        with pytest.raises(NotFoundError):
            await hub.get("abandoned")
        assert _rows(store, "abandoned") == (0, 0, 0)
        for kept in ("recent", "finished", "watched"):
            assert _rows(store, kept)[0] == 1, kept
        # 29 days later: the one that was recent has now gone 58 days without an action
        assert await hub.expire_abandoned(now=time.time() + 29 * DAY) == ["recent"]
        hub.executor.shutdown()

    run(scenario())


def test_an_unfinished_rated_game_never_expires_unrated(store: Store) -> None:
    rated = {"variant": "geometric", "rated": True, "fair": True}
    create_table(store, "rated", actions_done=[(0, "C1")], version=1, options=rated)
    create_table(store, "rated-unplayed", options=rated)  # opened, never played: no game
    create_table(store, "casual", actions_done=[(0, "C1")], version=1)
    _age(store, ["rated", "rated-unplayed", "casual"], 400)
    assert sorted(store.expire(time.time() - 30 * DAY)) == ["casual", "rated-unplayed"]
    assert _rows(store, "rated")[0] == 1


def test_start_up_expires_first_and_never_expire_keeps_everything(store: Store) -> None:
    create_table(store, "old", players=["random", "random"], token_hashes=[None, None])
    _age(store, ["old"], 40)

    async def scenario(expire: float | None) -> tuple[int, list[str]]:
        # The bots pause after each move, so that they cannot finish the game (and take it
        # off the unfinished tables) before they are stopped below.
        hub = Hub(store, bot_seconds=None, bot_pause=60.0, expire_seconds=expire)
        loaded = await hub.resume_all()
        stopped = [live.bots for live in hub.live.values() if live.bots is not None]
        for task in stopped:
            task.cancel()
        # A bot's action being written when it was stopped is stored (or not) first.
        await asyncio.gather(*stopped, return_exceptions=True)
        hub.executor.shutdown()
        return loaded, store.unfinished()

    assert run(scenario(None)) == (1, ["old"])  # never: kept and loaded (its bots play)
    _age(store, ["old"], 40)
    assert run(scenario(EXPIRE_SECONDS)) == (0, [])


def test_serve_takes_the_expiry_in_days(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Any] = []

    def fake_create_app(settings: Any, store: Store | None = None) -> SimpleNamespace:
        made.append(settings)
        if store is not None:  # the store serve opened, for the application to serve
            store.close()
        return SimpleNamespace(state=SimpleNamespace())

    no_server_started(monkeypatch)
    monkeypatch.setattr(server_app, "create_app", fake_create_app)
    runner = CliRunner()
    helped = runner.invoke(app, ["serve", "--help"])
    assert "--expire-days" in helped.output
    database = f"sqlite:///{tmp_path / 'x.db'}"
    # Called as the command line calls it, in this test's own streams (a command run by the
    # test runner would leave the server's log handlers on streams closed after it).
    for days, seconds in ((2, 2 * DAY), (0, None)):
        serve_command(db=database, expire_days=days)
        assert made.pop().expire_seconds == seconds
    serve_command(db=database)
    assert made.pop().expire_seconds == 30 * DAY
    refused = runner.invoke(app, ["serve", "--db", database, "--expire-days", "-1"])
    assert refused.exit_code != 0
