"""The play server's start-up: how long ``Hub.resume_all`` takes on a store full of tables.

Builds a SQLite store in a temporary folder with N tables of Fano330-R-Morris, each a person
(the first legal move, a few times) against the ``random`` bot, left where the person decides
next (as a flood of abandoned tables leaves a server), then times a new hub's ``resume_all``:
the tables it loads and the seconds it takes.

Run: ``python3 benchmarks/server_resume.py`` (``--tables 2400``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from fanfold.core.registry import get_game
from fanfold.server.hub import Hub
from fanfold.server.store import Store


async def build(url: str, count: int) -> int:
    """Open ``count`` tables and play up to three first legal moves at each; returns how
    many are unfinished."""
    morris = get_game("morris")
    hub = Hub(Store(url), bot_seconds=None)
    unfinished = 0
    for number in range(count):
        created = await hub.create(morris, morris.default_config(), ["you", "random"], seed=number)
        live = hub.live[created.id]
        for _ in range(3):
            if live.table.decider != 0:
                break
            await hub.act(created.id, created.token, None, live.table.legal_texts()[0], None)
            await hub.idle(created.id)
        unfinished += live.table.outcome is None
        hub.live.clear()
    hub.executor.shutdown()
    hub.store.close()
    return unfinished


async def start(url: str) -> tuple[int, float]:
    """A new hub's ``resume_all``: the tables it loaded and the seconds it took."""
    hub = Hub(Store(url), bot_seconds=None)
    started = time.perf_counter()
    loaded = await hub.resume_all()
    seconds = time.perf_counter() - started
    for live in hub.live.values():
        for task in (live.bots, live.clock):
            if task is not None:
                task.cancel()
    hub.executor.shutdown()
    hub.store.close()
    return loaded, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=2400, help="tables in the store")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'fanfold.db'}"
        unfinished = asyncio.run(build(url, arguments.tables))
        loaded, seconds = asyncio.run(start(url))
    print(
        f"{arguments.tables} tables, {unfinished} unfinished: start-up loaded {loaded} "
        f"in {seconds:.2f} s"
    )


if __name__ == "__main__":
    main()
