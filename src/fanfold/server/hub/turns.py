"""What plays on at a table without a person: its bots' loop and the clock of a decision
under a time limit.

The bots choose in the server's pool (:mod:`fanfold.server.bots`) off the event loop, without
the table's lock (an agent whose choice takes microseconds, such as ``random``, chooses on the
loop), and their choice is applied only on the version they were asked on; the
clock plays the game's passive choice when a person's time runs out. Both store, tell and rule
through their :class:`~fanfold.server.hub.host.TableHost` (the hub) like any action, and see
nothing else of it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Literal

from fanfold.play.table import ENDLESS
from fanfold.server.bots import decide, decision_for
from fanfold.server.clocks import Clocks, deadline
from fanfold.server.hub.host import TableHost
from fanfold.server.live import LiveTable, StorageError
from fanfold.server.logs import TABLE

log = logging.getLogger(__name__)

#: What one bot's move came to (:func:`_bot_move`).
Step = Literal["done", "again", "unstored", "told"]


async def play_on(host: TableHost, live: LiveTable) -> None:
    """After any change at ``live`` (an action, an undo, an ending, a seat taken, given or
    left, a table opened or loaded), play goes on: the timer of the decision now runs
    (:func:`start_clock`), every watcher is told (:meth:`TableHost.broadcast`), and the bots
    play when one decides (:func:`start_bots`). Called without the table's lock."""
    start_clock(host, live)
    await host.broadcast(live)
    start_bots(host, live)


def start_bots(host: TableHost, live: LiveTable) -> None:
    """Play the table's bots (:func:`run_bots`) when one decides and they are not playing
    already."""
    if live.table.agent_to_move() is None:
        return
    if live.bots is None or live.bots.done():
        live.bots = asyncio.get_running_loop().create_task(run_bots(host, live))


async def run_bots(host: TableHost, live: LiveTable) -> None:
    """Play the table's bots until a person decides or the game ends: each bot's choice
    stored, then told to the table's watchers.

    Without a pause between bots (``bot_pause`` 0), at a table where a person plays, a move
    after which another instant bot (``random``) answers at once is told with that answer: one
    message tells the run of instant bots' moves that ends at the person's next decision (each
    move is in its log), instead of one message a move, each the whole view, sent within a
    millisecond of the next. A bot that thinks longer is told of before it thinks (the move
    before it is not :func:`_answered_at_once`).
    """
    TABLE.set(live.id)  # this task's lines are about the table (fanfold.server.logs)
    untold = [False]  # a stored move is not yet told (the next instant bot answers with it)
    while True:
        # A bot's move, from its decision to its watchers told, is live work: the review
        # worker waits for it (LiveWork), as for a player's action; an instant bot's
        # (``random``), chosen here, is counted only so.
        with host.pool.live.doing():
            step = await _bot_move(host, live, untold)
        if step == "done":
            return
        if step == "unstored":  # taken back: the bot decides again once the store recovers
            await asyncio.sleep(1.0)
        elif step == "told" and host.bot_pause:
            await asyncio.sleep(host.bot_pause)


async def _bot_move(host: TableHost, live: LiveTable, untold: list[bool]) -> Step:
    """One bot's move at ``live`` (:func:`run_bots`): ``"done"`` (a person decides, the game
    is over, or the table went), ``"again"`` (an undo came in while the bot thought, or its
    move is told with the next instant bot's), ``"unstored"`` (the store refused it: taken
    back) or ``"told"``."""
    table = live.table
    async with live.lock:
        if live.evicted:
            return "done"  # handed over to another process: it plays on there
        seat = table.agent_to_move()
        agent = table.seats[seat].agent if seat is not None else None
        if seat is None or agent is None:
            return "done"  # a human decides, or the game is over
        if len(table.played) >= ENDLESS:
            log.warning("table %s: the bots stop after %d actions", live.id, ENDLESS)
            return "done"  # play went round in circles (see ENDLESS): nothing more is stored
        # The view and the legal actions now, so that the bot thinks off the loop
        # without the lock; its choice is applied only on the version it was asked on.
        view, legal, version = table.view(seat), table.legal_actions(), table.version
        live.thinking = seat
    decision = decision_for(live.id, seat, table.game.id, agent, view, legal)
    started = time.perf_counter()
    try:
        if agent.instant:
            # A choice of microseconds (``random``): made here, as a worker would make
            # it (the same agent text and seed), without the pool's hand-over.
            action = decide(decision)
        else:
            action = await host.pool.decide(decision, client=live.bot_client())
    finally:
        live.thinking = None
    host.metrics.bot_seconds.observe(time.perf_counter() - started)
    async with live.lock:
        if live.evicted:
            return "done"  # handed over to another process, or let go: it plays on there
        if table.version != version:
            return "again"  # an undo came in while the bot thought
        played = table.submit_action(seat, action, version)
        log.debug("seat %d's bot played %s (action %d)", seat, played.text, played.number)
        try:
            await host.store_played(live, played)
        except StorageError:
            stored = False
        else:
            stored = True
    if not stored:
        if untold[0]:
            untold[0] = False
            await host.broadcast(live)
        return "unstored"
    if not host.bot_pause and _answered_at_once(live):
        start_clock(host, live)
        untold[0] = True
        return "again"
    untold[0] = False
    await play_on(host, live)  # its bots are this loop, which plays on
    return "told"


def _answered_at_once(live: LiveTable) -> bool:
    """Whether the table's next decision is an instant bot's (``random``) at a table where a
    person plays: its move is told together with this one."""
    table = live.table
    seat = table.agent_to_move()
    if seat is None or len(table.played) >= ENDLESS:
        return False
    agent = table.seats[seat].agent
    if agent is None or not agent.instant:
        return False
    return any(entry.is_human for entry in table.seats)


def start_clock(host: TableHost, live: LiveTable) -> None:
    """Start the timer of the decision now when a person decides at a table with a time
    limit, or of the running clock at a table with a time control
    (:mod:`fanfold.server.clocks`); a timer left from an earlier decision stops (it would
    find the version moved on anyway)."""
    clocks = live.options.clocks
    if clocks is not None:
        _start_game_clock(host, live, clocks)
        return
    limit = live.time_limit
    table = live.table
    if not limit:
        return
    if live.deadline is not None and live.deadline[0] == table.version:
        return  # this decision's timer runs already
    if live.clock is not None and not live.clock.done():
        live.clock.cancel()
    live.clock, live.deadline = None, None
    if table.decider is None or table.agent_to_move() is not None:
        return  # the game is over, or a bot decides
    version = table.version
    live.deadline = (version, time.monotonic() + limit)
    live.clock = asyncio.get_running_loop().create_task(run_clock(host, live, version, limit))


async def run_clock(host: TableHost, live: LiveTable, version: int, limit: float) -> None:
    """When the time runs out, play the game's passive choice for the decider (``allow``,
    ``keep``, ``shuffle``, ``pass`` in Fano), through the same checks as any action."""
    TABLE.set(live.id)  # this task's lines are about the table (fanfold.server.logs)
    await asyncio.sleep(limit)
    async with live.lock:
        table = live.table
        seat = table.decider
        if table.version != version or seat is None or live.evicted:
            return  # decided in time (or undone, or the table moved): nothing to do
        action = table.game.passive_action(table.state)
        if action is None:
            return
        played = table.submit_action(seat, action, version)
        try:
            await host.store_played(live, played)
        except StorageError:
            live.deadline = None  # taken back: the decision gets a new timer
        live.clock = None  # this timer is done: the next decision gets its own
    await play_on(host, live)


def _start_game_clock(host: TableHost, live: LiveTable, clocks: Clocks) -> None:
    """The timer of a table's running clock: it fires when the clock runs out."""
    version = live.table.version
    when = deadline(clocks)
    if live.deadline == (version, when) and live.clock is not None and not live.clock.done():
        return  # this clock's timer runs already
    if live.clock is not None and not live.clock.done():
        live.clock.cancel()
    live.clock, live.deadline = None, None
    if when is None or live.table.is_over:
        return
    live.deadline = (version, when)
    live.clock = asyncio.get_running_loop().create_task(run_game_clock(host, live, version, when))


async def run_game_clock(host: TableHost, live: LiveTable, version: int, when: float) -> None:
    """When the running clock runs out (``when``, a ``time.time()``), the host rules on it
    (:meth:`TableHost.time_out`); while the store refuses the ruling, it tries
    again every second (nothing is stored, and the game waits)."""
    TABLE.set(live.id)  # this task's lines are about the table (fanfold.server.logs)
    await asyncio.sleep(max(0.0, when - time.time()) + 0.05)
    while True:
        try:
            await host.time_out(live, version)
        except StorageError:
            await asyncio.sleep(1.0)
            continue
        return
