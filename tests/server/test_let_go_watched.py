"""A stopping process's tables with sockets open on them move once: it announces them apart
(``"watched": true``), and the others leave each to the process its sockets reconnect to (the
router's choice, which takes it on their first request) for :data:`WATCHED_SECONDS
<fanfold.server.hub.draining.WATCHED_SECONDS>` before taking it themselves; the others (bots
playing, a clock running, nobody connected) are taken at once."""

from __future__ import annotations

import asyncio
import json
import time
from types import SimpleNamespace
from typing import Any, cast

import pytest

from fanfold.server.hub import draining
from fanfold.server.hub.draining import Draining
from fanfold.server.ownership import Ownership
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
