"""The group commit's answer on SQLite (no appender) reaches its row in few turns of the event
loop once the store's thread has written it: each turn waits for every callback made ready
before it, so on a busy loop every turn between a write's end and its action's ``ok`` is time
the player waits."""

from __future__ import annotations

import asyncio
from typing import Any

from fanfold.server.hub.commits import Commits
from fanfold.server.hub.outage import Outage
from fanfold.server.metrics import Metrics
from fanfold.server.store.records import AppendRow


class _Store:
    """A store whose group commit notes the loop's turn count as its write ends."""

    def __init__(self, turns: list[int]) -> None:
        self.turns = turns
        self.ended: list[int] = []

    def append_many(self, rows: Any) -> set[str]:
        self.ended.append(self.turns[0])
        return set()


def test_a_commit_settles_its_row_within_four_turns_of_the_loop() -> None:
    async def run() -> list[int]:
        turns = [0]
        loop = asyncio.get_running_loop()
        going = True

        def turn() -> None:  # one callback a turn: counts the loop's turns
            turns[0] += 1
            if going:
                loop.call_soon(turn)

        store = _Store(turns)
        commits = Commits(
            store,  # type: ignore[arg-type]
            appender=None,
            metrics=Metrics(),
            outage=Outage({}, None),  # type: ignore[arg-type]
            let_go=lambda live: None,
        )
        loop.call_soon(turn)
        spans = []
        for number in range(5):
            future = commits.commit(AppendRow("t1", number, 0, "x", number + 1, None))
            await future
            spans.append(turns[0] - store.ended[-1])
        going = False
        commits.writer.shutdown()
        return spans

    spans = asyncio.run(run())
    # The thread's answer wakes the loop (1), the writing task (2) sets the row's future,
    # whose waiter runs next (3; one more where the thread's note of the count was early);
    # before, a task, a gather and a shield lay between (6).
    assert max(spans) <= 4, spans
