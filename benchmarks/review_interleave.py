"""What reviews cost the games being played, in one server: ``benchmarks/review.py --impact
--interleave SECONDS``.

Two servers started a minute apart differ by more than the reviews' effect (the machine's other
work, the server's own warm-up), so this protocol keeps ONE ``fanfold serve`` and the same
tables playing throughout (the load generator of ``benchmarks/server.py``: a scripted player at
a person's pace against ``random`` bots), and switches the reviews on and off in alternating
windows of ``SECONDS``:

* **on**: the readers (as in :mod:`benchmarks.review_impact`: each review asked for from a
  loopback address of its own and watched on its socket as the page does, each new step
  pushed, a finished one replaced by a new one) open reviews, and the review worker process
  runs;
* **off**: the readers open no review (one being opened is waited for; an open socket stays),
  and the review worker process is stopped (``SIGSTOP``, found among the server's children by
  its name, ``fanfold-review``): no step computes, so none is stored and nothing is pushed.
  What stays is each open review's lease renewal (one write every 10 s a review) in the
  server's loop.

The windows come in pairs, a **test pair** (one ``on`` and one ``off`` window, in random order)
and a **control pair** (two ``off`` windows, ``A`` and ``B``, in random order) in turn, so the
A/A comparison has as many windows, as much time and the same neighbours as the on/off one: its
change is the noise floor, printed beside it. Each act's latency (act to ``ok``) and each bot
reply (a human action to the player's next turn) is given to the window it *started* in; the
first ``--guard`` seconds of every window are dropped (work begun just before the switch), and
so is the warm-up window before the first pair (the worker process's start, at least one
window, until a review step was judged). The p99s are nearest-rank; each change's interval is
a bootstrap over the pairs (:func:`bootstrap_change`: pairs drawn with replacement, their
samples pooled, so a window's correlated samples move together).

It also prints the processor seconds per second of the server's main process and of the review
worker in each kind of window (the worker's in ``off`` windows must be 0: the check that the
``off`` windows held no review work).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import os
import random
import signal
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import httpx
import uvloop

from benchmarks.review_impact import (
    READER_PACE,
    Reader,
    RefusedError,
    Reviewing,
    review_records,
    until,
)
from benchmarks.server import Slot, Tally, cpu_seconds, free_port, player, start_server, uncollected
from benchmarks.window_metrics import Histogram, scrape, window_change
from benchmarks.window_metrics import table as metrics_table
from fanfold.server.bots.worker import REVIEW_PROCESS_NAME

#: Kinds of window: the test pair's and the control pair's.
TEST, CONTROL = ("on", "off"), ("A", "B")
#: Bootstrap resamples of each interval.
RESAMPLES = 2000
#: The longest warm-up (seconds) before the first pair: the worker must have judged a move.
WARM_UP_LIMIT = 180.0


class Stamped(list[float]):
    """A list of latencies that also keeps when each one started (``time.perf_counter()`` at
    its append less the latency): the load generator appends a latency the moment it ends."""

    def __init__(self) -> None:
        super().__init__()
        self.starts: list[float] = []

    def append(self, value: float, /) -> None:
        self.starts.append(time.perf_counter() - value)
        super().append(value)


def stamped_tally() -> Tally:
    """A :class:`~benchmarks.server.Tally` whose acts and bot replies keep their starts."""
    tally = Tally()
    tally.latencies, tally.bot_replies = Stamped(), Stamped()
    return tally


@dataclasses.dataclass
class Window:
    """One window: its pair (-1: the warm-up), its kind (``on``/``off``/``A``/``B``/``warm``),
    its span (``time.perf_counter()``), and the processor seconds the server's main process
    and the review worker spent in it."""

    pair: int
    kind: str
    start: float
    end: float = 0.0
    server_cpu: float = 0.0
    worker_cpu: float = 0.0
    #: The server's watched histograms as the window opened, then what they observed in it.
    metrics: dict[str, Histogram] = dataclasses.field(default_factory=dict)


def schedule(pairs: int, rng: random.Random) -> list[tuple[int, str]]:
    """The windows after the warm-up: ``pairs`` pairs, a test pair (``on``, ``off``) and a
    control pair (``A``, ``B``) in turn from the first, each pair's order drawn by ``rng``."""
    order: list[tuple[int, str]] = []
    for pair in range(pairs):
        kinds = list(TEST if pair % 2 == 0 else CONTROL)
        rng.shuffle(kinds)
        order += [(pair, kind) for kind in kinds]
    return order


def attribute(
    starts: Sequence[float], values: Sequence[float], windows: Sequence[Window], guard: float
) -> dict[tuple[int, str], list[float]]:
    """Each value given to the window it started in, by (pair, kind); a value that started
    in a window's first ``guard`` seconds, in the warm-up, or outside every window is left
    out."""
    measured = sorted((w for w in windows if w.pair >= 0), key=lambda w: w.start)
    found: dict[tuple[int, str], list[float]] = {(w.pair, w.kind): [] for w in measured}
    for start, value in zip(starts, values, strict=True):
        for window in measured:
            if window.start + guard <= start < window.end:
                found[(window.pair, window.kind)].append(value)
                break
    return found


def p99(values: Sequence[float]) -> float:
    """The nearest-rank 99th percentile (as :func:`benchmarks.server.percentile`)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


@dataclasses.dataclass
class Change:
    """One comparison: the samples and p99 of each side, the p99's change in percent and its
    bootstrap interval (2.5th to 97.5th percentile of the resampled changes)."""

    count: tuple[int, int]
    p99: tuple[float, float]
    change: float
    low: float
    high: float


def bootstrap_change(
    found: dict[tuple[Any, str], list[float]],
    kinds: tuple[str, str],
    rng: random.Random,
    resamples: int = RESAMPLES,
    stratum: Callable[[Any], Any] = lambda pair: None,
) -> Change:
    """The change of the p99 from ``kinds[1]``'s windows to ``kinds[0]``'s (on against off,
    or A against B), over the pairs holding both; its interval resamples the pairs with
    replacement (a pair's two windows drawn together) and pools their samples. Pairs of one
    ``stratum`` (e.g. one run of several pooled) are drawn only among themselves."""
    base, other = kinds[1], kinds[0]
    strata: dict[Any, list[Any]] = {}
    for pair in sorted(
        {p for p, k in found if k == base and found[(p, base)] and found.get((p, other))}
    ):
        strata.setdefault(stratum(pair), []).append(pair)
    if not strata:
        raise ValueError(f"no pair of windows holds samples of both {base} and {other}")

    def change(chosen: Iterable[Any]) -> tuple[float, float, float, int, int]:
        picked = list(chosen)
        xs = [v for p in picked for v in found[(p, base)]]
        ys = [v for p in picked for v in found[(p, other)]]
        return (p99(ys) / p99(xs) - 1) * 100, p99(xs), p99(ys), len(xs), len(ys)

    point, x99, y99, xs, ys = change(p for pairs in strata.values() for p in pairs)
    drawn = sorted(
        change(p for pairs in strata.values() for p in rng.choices(pairs, k=len(pairs)))[0]
        for _ in range(resamples)
    )
    low = drawn[int(0.025 * (resamples - 1))]
    high = drawn[int(0.975 * (resamples - 1))]
    return Change((xs, ys), (x99 * 1000, y99 * 1000), point, low, high)


def worker_pid(server: int) -> int | None:
    """The server's review worker (its child named :data:`REVIEW_PROCESS_NAME`, alive: one
    that ended and is not reaped yet is left out), the latest started if several, if any."""
    found: list[tuple[int, int]] = []  # (start time, pid)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        state, parent, started = fields[0], int(fields[1]), int(fields[19])
        if parent == server and name == REVIEW_PROCESS_NAME and state not in ("Z", "X"):
            found.append((started, int(entry.name)))
    return max(found)[1] if found else None


def cpu_of(pid: int | None) -> float:
    """A process's processor seconds so far (0 if it is gone or ``None``)."""
    if pid is None:
        return 0.0
    try:
        return cpu_seconds(pid)
    except (OSError, IndexError):
        return 0.0


class Switch:
    """Reviews on or off: the readers' gate and the review worker's ``SIGSTOP``/``SIGCONT``."""

    def __init__(self, server: int) -> None:
        self.server = server
        self.gate = asyncio.Event()
        self.busy = asyncio.Lock()  # held by the readers while a request is under way
        self.stopped: int | None = None

    async def on(self) -> None:
        if self.stopped is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.stopped, signal.SIGCONT)
            self.stopped = None
        self.gate.set()

    async def off(self) -> None:
        """Stop asking (the request under way answered first), then stop the worker."""
        self.gate.clear()
        async with self.busy:
            pid = worker_pid(self.server)
            if pid is None:
                raise RuntimeError("the review worker process is not running: no off window")
            os.kill(pid, signal.SIGSTOP)
            self.stopped = pid
            await stopped(pid)


def state_of(pid: int) -> str:
    """A process's state letter (``T``: stopped), from ``/proc/PID/stat``; ``""`` if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


async def stopped(pid: int, limit: float = 2.0) -> None:
    """Wait until ``pid`` has stopped (a signal is delivered after ``kill`` returns), at
    most ``limit`` seconds, so that an ``off`` window opens with the worker still."""
    deadline = time.monotonic() + limit
    while state_of(pid) not in ("T", "t", "") and time.monotonic() < deadline:
        await asyncio.sleep(0.001)


async def gated_reviewing(
    base: str,
    count: int,
    switch: Switch,
    stop: asyncio.Event,
    seen: Reviewing,
    played: collections.deque[str] | None = None,
) -> None:
    """``count`` reviews asked for and watched on their sockets (as
    :func:`benchmarks.review_impact.keep_reviewing`: each new step pushed), a new one opened
    only while the switch's gate is open (in an ``off`` window an open socket stays, and the
    stopped worker stores nothing for it); with ``played`` (the tables the players finished,
    oldest first), each review is of such a table, taken from it, rather than of a record
    loaded as a new table."""
    records = review_records(count) if played is None else []

    async def opened(index: int) -> Reader | None:
        """A new reader with its review opened (under the switch's lock: an ``off`` window
        waits for it), or ``None`` when no finished table waits or the gate closed."""
        await switch.gate.wait()
        async with switch.busy:
            if not switch.gate.is_set() or (played is not None and not played):
                return None
            reader = Reader(base, seen.readers)
            seen.readers += 1
            if played is not None:
                reader.table = played.popleft()
            else:
                record, seats = records[index]
                await reader.load(record, seats, seen)
            return reader

    async def keep(index: int) -> None:
        while not stop.is_set():
            reader = await until(stop, opened(index))
            if reader is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 0.25)
                continue
            try:
                if await until(stop, reader.watch(seen)):
                    seen.done += 1
                    seen.took.append(time.monotonic() - reader.loaded)
            finally:
                await reader.client.aclose()
            with contextlib.suppress(TimeoutError):
                rest = reader.loaded + READER_PACE - time.monotonic()
                await asyncio.wait_for(stop.wait(), max(rest, 0.0))

    await asyncio.gather(*(keep(index) for index in range(count)))


async def finished_tables(
    slots: Sequence[Slot], finished: collections.deque[str], stop: asyncio.Event
) -> None:
    """Until ``stop``, add each table a player finished to ``finished`` (a player opens its
    next table once its game ends: a slot's table that changed was finished)."""
    last = {slot.number: slot.table for slot in slots}
    while not stop.is_set():
        for slot in slots:
            if slot.table != last[slot.number]:
                finished.append(last[slot.number])
                last[slot.number] = slot.table
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)


@dataclasses.dataclass
class Interleaved:
    """One interleaved run's windows and samples."""

    windows: list[Window]
    acts: dict[tuple[int, str], list[float]]
    bots: dict[tuple[int, str], list[float]]
    seen: Reviewing
    errors: list[str]
    #: The load generator's own event loop's lateness, by window (as ``acts``).
    lags: dict[tuple[int, str], list[float]] = dataclasses.field(default_factory=dict)


#: How often the load generator's loop lag is probed (seconds).
LAG_PROBE = 0.005


async def generator_lag(stop: asyncio.Event, lags: Stamped) -> None:
    """Until ``stop``, how late the load generator's own event loop wakes from a sleep of
    :data:`LAG_PROBE`: a stall of the generator itself (a reader made, an answer decoded) delays
    every player's ``ok`` then awaited, and would be read as the server's."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        asked = loop.time()
        await asyncio.sleep(LAG_PROBE)
        lags.append(max(0.0, loop.time() - asked - LAG_PROBE))


async def interleaved_run(
    base: str,
    server: int,
    tables: int,
    pairs: int,
    window: float,
    think: float,
    reviews: int,
    guard: float,
    rng: random.Random,
    played: bool = False,
) -> Interleaved:
    """The tables played throughout; a warm-up window with the reviews on, then the windows
    of :func:`schedule`, each switched as its kind says. With ``played``, the reviews are of
    the tables the players finished (:func:`finished_tables`), not of loaded records."""
    tally = stamped_tally()
    switch = Switch(server)
    stop_reviews = asyncio.Event()
    seen = Reviewing()
    slots = [Slot(number) for number in range(tables)]
    start = asyncio.Event()
    stop = [time.monotonic() + 36000.0]
    players = [asyncio.create_task(player(base, slot, start, stop, tally, think)) for slot in slots]
    while not all(slot.table for slot in slots):
        await asyncio.sleep(0.05)
        for task in players:
            if task.done():
                task.result()
    windows: list[Window] = []
    finished: collections.deque[str] | None = collections.deque() if played else None
    watcher = (
        asyncio.create_task(finished_tables(slots, finished, stop_reviews))
        if finished is not None
        else None
    )
    reviewer = asyncio.create_task(
        gated_reviewing(base, reviews, switch, stop_reviews, seen, finished)
    )
    lags = Stamped()
    prober = asyncio.create_task(generator_lag(stop_reviews, lags))

    client = httpx.AsyncClient()

    async def close(current: Window) -> None:
        current.end = time.perf_counter()
        current.server_cpu += cpu_of(server)
        current.worker_cpu += cpu_of(worker_pid(server))
        current.metrics = window_change(current.metrics, await scrape(client, base))

    async def open_(pair: int, kind: str) -> Window:
        opened = Window(pair, kind, time.perf_counter())
        opened.server_cpu = -cpu_of(server)
        opened.worker_cpu = -cpu_of(worker_pid(server))
        opened.metrics = await scrape(client, base)
        windows.append(opened)
        return opened

    with uncollected():
        start.set()
        await switch.on()
        warm = await open_(-1, "warm")
        limit = time.monotonic() + WARM_UP_LIMIT
        await asyncio.sleep(window)
        while worker_pid(server) is None or not seen.judged:
            if time.monotonic() > limit:
                raise RuntimeError(f"no review step judged in {WARM_UP_LIMIT:g} s of warm-up")
            await asyncio.sleep(0.5)
        current = warm
        for pair, kind in schedule(pairs, rng):
            # The switch's own moments belong to the window with the reviews on: an on window
            # ends once the worker has stopped, an off one before the worker goes on.
            if kind == "on":
                await close(current)
                await switch.on()
            else:
                await switch.off()
                await close(current)
            current = await open_(pair, kind)
            await asyncio.sleep(window)
        await close(current)
        await client.aclose()
        stop[0] = time.monotonic()
        stop_reviews.set()
        await switch.on()  # the worker goes on, so that the server stops cleanly
        await asyncio.gather(*players)
    await reviewer
    await prober
    if watcher is not None:
        await watcher
    acts, bots = tally.latencies, tally.bot_replies
    assert isinstance(acts, Stamped)
    assert isinstance(bots, Stamped)
    return Interleaved(
        windows,
        attribute(acts.starts, acts, windows, guard),
        attribute(bots.starts, bots, windows, guard),
        seen,
        sorted(set(tally.errors))[:5],
        attribute(lags.starts, lags, windows, guard),
    )


def per_second(windows: Sequence[Window], kinds: Iterable[str], worker: bool) -> float:
    """Processor seconds per second of the server (or the review worker) over ``kinds``."""
    chosen = [w for w in windows if w.kind in set(kinds)]
    spent = sum(w.worker_cpu if worker else w.server_cpu for w in chosen)
    wall = sum(w.end - w.start for w in chosen)
    return spent / wall if wall else float("nan")


def lines(run: Interleaved, rng: random.Random) -> list[str]:
    """The verdict's table: for acts and bot replies, on against off and A against B."""
    out = [
        "| comparison | samples (base, other) | p99 ms (base → other) | p99 change "
        "| 95% interval (pairs bootstrap) |",
        "|---|---|---|---:|---|",
    ]
    for what, found in (("act-to-ok", run.acts), ("bot reply", run.bots)):
        for name, kinds in (("reviews on vs off", TEST), ("A/A control, A vs B", CONTROL)):
            c = bootstrap_change(found, kinds, rng)
            out.append(
                f"| {what}: {name} | {c.count[0]}, {c.count[1]} | {c.p99[0]:.1f} → "
                f"{c.p99[1]:.1f} | {c.change:+.0f}% | {c.low:+.0f}% to {c.high:+.0f}% |"
            )
    return out


def interleave_main(
    tables: int,
    seconds: float,
    window: float,
    think: float,
    reviews: int,
    guard: float,
    played: bool = False,
    keep: Path | None = None,
) -> None:
    """``seconds`` of pairs of ``window``-second windows after the warm-up, one server; with
    ``keep``, the run's samples are written there (:mod:`benchmarks.review_pool`)."""
    pairs = max(2, int(seconds // (2 * window)))
    pairs += pairs % 2  # as many test pairs as control pairs
    rng = random.Random(47)
    what = "the tables the players finished" if played else "records loaded as new tables"
    print(
        f"{tables} tables, one server; {pairs} pairs of {window:g} s windows (test and control "
        f"in turn), {reviews} reviews asked in the 'on' windows (of {what}), {guard:g} s "
        f"dropped at each window's start; players think {think:g} s"
    )
    port = free_port()
    started = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder), port, 0.05)
        load = os.getloadavg()[0]
        try:
            run = uvloop.run(
                interleaved_run(
                    f"http://127.0.0.1:{port}",
                    server.pid,
                    tables,
                    pairs,
                    window,
                    think,
                    reviews,
                    guard,
                    rng,
                    played,
                )
            )
        except RefusedError as refused:
            raise SystemExit(f"# stopped: {refused}") from None
        finally:
            server.kill()
            server.wait()
    loads = f"{load:.1f}-{os.getloadavg()[0]:.1f}"
    if keep is not None:
        from benchmarks.review_pool import save

        about = {"started": started, "load": loads, "window": window, "tables": tables}
        save(keep, run, {**about, "reviews": reviews, "played": played})
        print(f"samples kept in {keep}")
    for line in lines(run, rng):
        print(line)
    print()
    print("| windows | server CPU s/s | review worker CPU s/s |")
    print("|---|---:|---:|")
    for name, kinds in (("on", ("on",)), ("off", ("off",)), ("A and B", CONTROL)):
        print(
            f"| {name} | {per_second(run.windows, kinds, False):.3f} "
            f"| {per_second(run.windows, kinds, True):.3f} |"
        )
    print()
    measured = [w for w in run.windows if w.pair >= 0]
    for line in metrics_table(
        {
            name: [w.metrics for w in measured if w.kind in kinds]
            for name, kinds in (("on", ("on",)), ("off", ("off",)), ("A and B", CONTROL))
        }
    ):
        print(line)
    print()
    print("| windows | generator's loop lag p99 ms | max ms | stalls over 10 ms |")
    print("|---|---:|---:|---:|")
    for name, kinds in (("on", ("on",)), ("off", ("off",)), ("A and B", CONTROL)):
        found = [lag for (_, kind), values in run.lags.items() if kind in kinds for lag in values]
        late = p99(found) if found else float("nan")
        print(
            f"| {name} | {late * 1e3:.1f} | {max(found, default=0.0) * 1e3:.1f} "
            f"| {sum(lag > 0.010 for lag in found)} |"
        )
    seen = run.seen
    took = sorted(seen.took)
    print(
        f"\nload {loads}; review moves judged {seen.judged}, reviews done {seen.done} "
        f"(median {took[len(took) // 2] if took else float('nan'):.1f} s from load to end, "
        f"the off windows' stops included), readers {seen.readers} (refused {seen.refused})"
    )
    for error in run.errors:
        print(f"#   error: {error}")


__all__ = [
    "Interleaved",
    "Stamped",
    "Switch",
    "Window",
    "attribute",
    "bootstrap_change",
    "interleave_main",
    "schedule",
    "state_of",
    "worker_pid",
]
