"""Table chat's cost to the server: how long one line takes at a table with many readers.

Opens a Fano330-R-Morris table on a SQLite store in a temporary folder, seats N signed-in
spectators who take part in the chat (each a connection with its own outbox), and has one of
them say L lines in the spectators' room: each line is checked, kept in the store (a worker
thread) and queued, serialised once, in every reader's outbox. Prints the median and 90th
percentile time of a line, and checks every reader was written every line.

Run: ``python3 benchmarks/chat.py`` (``--readers 300 --lines 200``; ``--db URL``: an empty
PostgreSQL database instead).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from fanfold.core.registry import get_game
from fanfold.server.chat import ChatRooms, Limits
from fanfold.server.hub import Hub
from fanfold.server.live import Watcher
from fanfold.server.outbox import Outbox
from fanfold.server.store import Store
from fanfold.server.store.chat_store import SqlChat


async def measure(readers: int, lines: int, url: str | None = None) -> tuple[float, float, int]:
    """The median and p90 seconds a line took, and the texts written to the readers, on the
    store at ``url`` (an empty database; a new SQLite file when ``None``)."""
    store = Store(url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'fanfold.db'}")
    hub = Hub(store)
    game = get_game("morris")
    created = await hub.create(game, game.default_config(), ["you", "friend"])
    live = await hub.get(created.id)
    written = 0

    async def write(text: str) -> None:
        nonlocal written
        written += 1

    async def close(code: int, reason: str) -> None:
        del code, reason

    async def unused(message: object) -> None:
        raise AssertionError("a watcher with an outbox is never awaited")

    speaker = None
    for number in range(readers):
        watcher = Watcher(None, frozenset(), unused, None, Outbox(write, close))
        watcher.chat, watcher.account = True, (number + 1, f"spectator{number}")
        live.watchers.add(watcher)
        speaker = watcher
    assert speaker is not None
    unlimited = Limits((lines + 1, 60.0), (lines + 1, 60.0))  # counted, never refused
    rooms = ChatRooms(SqlChat(store.engine), limits=unlimited)
    times = []
    for number in range(lines):
        started = time.perf_counter()
        await rooms.say(live, speaker, "spectators", f"line {number}")
        times.append(time.perf_counter() - started)
        await asyncio.sleep(0)  # the writers run
    for _ in range(10_000):
        if written >= readers * lines:
            break
        await asyncio.sleep(0)
    hub.executor.shutdown()
    store.close()
    times.sort()
    return statistics.median(times), times[int(0.9 * len(times))], written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readers", type=int, default=300)
    parser.add_argument("--lines", type=int, default=200)
    parser.add_argument(
        "--db", help="an empty store's URL (PostgreSQL); a new SQLite file if left out"
    )
    arguments = parser.parse_args()
    median, p90, written = asyncio.run(measure(arguments.readers, arguments.lines, arguments.db))
    print(
        f"{arguments.readers} readers, {arguments.lines} lines: a line kept and queued in "
        f"{median * 1000:.2f} ms (median), {p90 * 1000:.2f} ms (p90); "
        f"{written} of {arguments.readers * arguments.lines} texts written"
    )


if __name__ == "__main__":
    main()
