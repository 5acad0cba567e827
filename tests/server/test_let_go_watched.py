"""A stopping process's tables with sockets open on them move once: it announces them apart
(``"watched": true``), and the others leave each to the process its sockets reconnect to (the
router's choice, which takes it on their first request) for :data:`WATCHED_SECONDS
<fanfold.server.hub.draining.WATCHED_SECONDS>` before taking it themselves; the others (bots
playing, a clock running, nobody connected) are taken at once."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any, cast

import pytest

from fanfold.server.hub import draining
from fanfold.server.hub.draining import Draining
from fanfold.server.ownership import Ownership
from fanfold.server.table_options import TableOptions
from tests.server.test_restart_command import Notes


class Told(Notes):
    """A coordination that keeps what this process published."""

    def __init__(self, payloads: list[str]) -> None:
        super().__init__(payloads)
        self.published: list[dict[str, Any]] = []

    async def publish(self, payload: str) -> None:
        self.published.append(json.loads(payload))


def test_the_watched_tables_are_announced_apart() -> None:
    told = Told([])
    owner = Ownership("postgresql+psycopg://x@/y", name="s1", coordination=told)
    ids = ["aaaa.s1", "bbbb.s1", "cccc.s1"]
    asyncio.run(owner.announce_let_go(ids, ["bbbb.s1"]))
    assert told.published == [
        {"let_go": ["aaaa.s1", "cccc.s1"], "by": "s1"},
        {"let_go": ["bbbb.s1"], "by": "s1", "watched": True},
    ]
    told.published.clear()
    asyncio.run(owner.announce_let_go(["aaaa.s1"]))
    assert told.published == [{"let_go": ["aaaa.s1"], "by": "s1"}]  # as before


def test_a_process_hears_which_let_go_tables_were_watched() -> None:
    payloads = [
        json.dumps({"let_go": ["aaaa.s2"], "by": "s2"}),
        json.dumps({"let_go": ["bbbb.s2"], "by": "s2", "watched": True}),
        json.dumps({"let_go": ["cccc.s2"], "by": "s2", "watched": "yes"}),  # not true
    ]
    heard: list[tuple[list[str], bool]] = []

    async def stopped(ids: list[str], watched: bool) -> int:
        heard.append((ids, watched))
        return len(ids)

    async def scenario() -> None:
        owner = Ownership("postgresql+psycopg://x@/y", name="s1", coordination=Notes(payloads))
        owner.stopped = stopped
        await owner.start()
        await asyncio.sleep(0.1)
        await owner.close()

    asyncio.run(scenario())
    assert heard == [(["aaaa.s2"], False), (["bbbb.s2"], True), (["cccc.s2"], False)]


def test_a_watched_table_is_left_to_its_sockets_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(draining, "WATCHED_SECONDS", 0.5)
    asked: dict[str, float] = {}

    async def take(table_id: str, *, wait: float) -> bool:
        assert wait == 0
        asked[table_id] = time.monotonic()
        return table_id != "gone.s2"  # another process (the sockets') took it first

    loaded: list[str] = []

    async def get(table_id: str) -> None:
        loaded.append(table_id)

    residency = SimpleNamespace(draining=False, live={}, get=get)
    owner = SimpleNamespace(take=take)
    taker = Draining(cast(Any, residency), cast(Any, owner))

    async def scenario() -> tuple[int, int]:
        began = time.monotonic()
        taken = await asyncio.gather(
            taker.take(["bots.s2"]), taker.take(["seen.s2", "gone.s2"], watched=True)
        )
        for table_id in asked:
            asked[table_id] -= began
        return taken[0], taken[1]

    assert asyncio.run(scenario()) == (1, 1)
    assert asked["bots.s2"] < 0.4  # at once
    assert asked["seen.s2"] >= 0.5
    assert asked["gone.s2"] >= 0.5
    assert loaded == ["bots.s2", "seen.s2"]


def test_a_stopping_process_has_only_the_tables_that_play_on_taken_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every table is let go and unlocked; the others are told to take at once only the
    watched ones (apart) and those where play goes on without a person (a bot to move, a
    time limit running): a finished game or a person's turn with nobody connected waits in
    the store until asked for, as at start-up."""

    def table(decider: int | None, bot: bool) -> SimpleNamespace:
        return SimpleNamespace(
            decider=decider, agent_to_move=lambda: "random" if bot else None, played=[]
        )

    def live(
        table_id: str, at: SimpleNamespace, *, timed: bool = False, seen: bool = False
    ) -> SimpleNamespace:
        options = TableOptions(time_limit=30) if timed else TableOptions()
        return SimpleNamespace(
            id=table_id,
            table=at,
            options=options,
            watchers={object()} if seen else set(),
            lock=asyncio.Lock(),
            evicted=False,
        )

    tables = [
        live("bots.s1", table(1, bot=True)),
        live("timed.s1", table(0, bot=False), timed=True),
        live("waits.s1", table(0, bot=False)),
        live("ended.s1", table(None, bot=False)),
        live("seen.s1", table(0, bot=False), seen=True),
        live("storing.s1", table(0, bot=False)),  # an action still being stored: taken
    ]
    monkeypatch.setattr(draining, "DRAIN_SECONDS", 0.1)
    let_go: list[tuple[str, str]] = []

    def go(at: Any, reason: str, *, disown: bool) -> None:
        assert not disown
        at.evicted = True
        at.watchers.clear()
        let_go.append((at.id, reason))

    residency = SimpleNamespace(draining=False, live={t.id: t for t in tables}, let_go=go)
    unlocked: list[str] = []

    class Unlocking(Told):
        async def unlock(self, names: Sequence[str]) -> None:
            unlocked.extend(names)

    told = Unlocking([])
    owner = Ownership("postgresql+psycopg://x@/y", name="s1", coordination=told)
    owner.held.update([*residency.live, "loading.s1"])

    async def drain() -> int:
        async with residency.live["storing.s1"].lock:  # its action being stored throughout
            return await Draining(cast(Any, residency), owner).drain()

    assert asyncio.run(drain()) == 6
    assert residency.draining
    assert sorted(table_id for table_id, _ in let_go) == sorted(residency.live)
    assert {reason for _, reason in let_go} == {draining.RESTARTING}
    assert sorted(unlocked) == sorted([*residency.live, "loading.s1"])
    assert not owner.held
    assert told.published == [
        {"let_go": ["bots.s1", "timed.s1", "storing.s1", "loading.s1"], "by": "s1"},
        {"let_go": ["seen.s1"], "by": "s1", "watched": True},
    ]
