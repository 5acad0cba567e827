"""What a restart's messages may be: ``fanfold restart`` refuses what it cannot do with a
sentence, and a process hears only well-formed "let go" and "restarting" notifications
(anything else on the channel changes nothing)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.server.ownership import Ownership


class Notes:
    """A coordination whose notifications are ``payloads``, then silence."""

    def __init__(self, payloads: list[str]) -> None:
        self.payloads = payloads
        self.healthy = True

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def try_locks(self, names: Sequence[str]) -> list[bool]:
        return [True for _ in names]

    async def unlock(self, names: Sequence[str]) -> None:
        return None

    async def publish(self, payload: str) -> None:
        return None

    async def notes(self) -> AsyncIterator[str]:
        for payload in self.payloads:
            yield payload
        await asyncio.Event().wait()

    async def ping(self) -> None:
        return None


def test_only_well_formed_notifications_are_acted_on() -> None:
    payloads = [
        "not json",
        json.dumps(["let_go"]),
        json.dumps({"let_go": "abc", "by": "x"}),  # not a list
        json.dumps({"let_go": ["a b", "x;DROP", 7, "a" * 80], "by": "x"}),  # no table id
        json.dumps({"restarting": "soon", "by": "x"}),
        json.dumps({"restarting": -5, "by": "x"}),
        json.dumps({"restarting": 10**9, "by": "x"}),
        json.dumps({"restarting": True, "by": "x"}),
        json.dumps({"let_go": ["abcDEF123_-x.s2", "bad id"], "restarting": 120, "by": "x"}),
    ]
    taken: list[list[str]] = []
    told: list[int] = []

    async def stopped(ids: list[str], watched: bool) -> int:
        assert not watched
        taken.append(ids)
        return len(ids)

    async def restarting(seconds: int) -> int:
        told.append(seconds)
        return 1

    async def scenario() -> None:
        owner = Ownership("postgresql+psycopg://x@/y", name="me", coordination=Notes(payloads))
        owner.stopped = stopped
        owner.restarting = restarting
        await owner.start()
        await asyncio.sleep(0.1)
        await owner.close()

    asyncio.run(scenario())
    assert taken == [["abcDEF123_-x.s2"]]
    assert told == [120]


def test_fanfold_restart_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    runner = CliRunner()
    sqlite = runner.invoke(app, ["restart", "--in", "0", "--db", f"sqlite:///{tmp_path}/x.db"])
    assert sqlite.exit_code == 2
    assert "needs the group's PostgreSQL store" in sqlite.output
    gone = runner.invoke(
        app, ["restart", "--in", "0", "--pid", "999999999", "--db", "postgresql+psycopg://x@/y"]
    )
    assert gone.exit_code == 2
    assert "no supervisor to signal" in gone.output
    late = runner.invoke(app, ["restart", "--in", "61", "--db", "postgresql+psycopg://x@/y"])
    assert late.exit_code == 2
