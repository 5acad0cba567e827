"""How a ``fanfold serve`` process stops on ``SIGTERM`` (or Ctrl-C): :class:`DrainingServer`,
uvicorn's server that drains first.

uvicorn alone, on ``SIGTERM``, closes its port, closes every socket with 1012 and only then
runs the application's shut-down, where the process's locks went with its connection: a table
nobody asked for again (a game between bots, a clock running, a game being reviewed) stood
still until another process's sweeper found it. Draining, in order:

1. ``/ready`` says 503 (``draining``) and the process waits, serving on, until the routers
   that check it have taken it out of service (:meth:`Readiness.out_of_service
   <fanfold.server.checks.Readiness.out_of_service>`, a second or so; at once where nothing
   checks it): its tables' requests go to the other processes, which ask it for each table
   (a hand-over), and none meets a closed port or a table let go;
2. the port closes (a request that still comes is refused, and the router sends it to
   another process, HAProxy's ``option redispatch``);
3. every table is let go and handed to the other processes at once, its sockets closed with
   1012 "restarting" (:mod:`fanfold.server.hub.draining`): the browsers reconnect at once
   (``static/table.js``), through the router, to the process that took it;
4. uvicorn's own shut-down then, and the application's (the store's writes flushed).

A full stop of a group (``fanfold serve --processes N`` told ``SIGTERM`` or Ctrl-C) sends
each of its processes :data:`FULL_STOP_SIGNAL` instead, at once: each stops taking tables
from that instant, lets its tables go into the store without announcing them, and none is
handed to a process that is stopping too; the next start resumes them.

Before a planned restart, ``fanfold restart`` tells every process when it comes
(:func:`announce_restart`), and each tells its tables' sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import socket
import threading
from collections.abc import Awaitable, Callable, Iterator
from types import FrameType

import uvicorn

from fanfold.server.ownership import CHANNEL, ElsewhereError
from fanfold.server.refusals import refusal
from fanfold.server.store.coordination import PgCoordination

log = logging.getLogger(__name__)

#: The most a drain may take before uvicorn's shut-down goes on anyway.
DRAIN_LIMIT_SECONDS = 15.0

#: What a supervisor sends each of its processes for a full stop of the group: stop without
#: handing tables over (they stay in the store for the next start).
FULL_STOP_SIGNAL = signal.SIGUSR1

Drain = Callable[..., Awaitable[object]]


async def announce_restart(url: str, seconds: int) -> None:
    """Tell every server process on the PostgreSQL store ``url`` that it restarts in
    ``seconds`` (each tells the sockets of its tables: :meth:`Draining.notice
    <fanfold.server.hub.draining.Draining.notice>`); ``fanfold restart`` calls it."""
    coordination = PgCoordination(
        url,
        CHANNEL,
        "fanfold restart",
        lambda: ElsewhereError(refusal("store.closed")),
    )
    await coordination.start()
    try:
        await coordination.publish(json.dumps({"restarting": seconds, "by": "fanfold restart"}))
    finally:
        await coordination.close()


class DrainingServer(uvicorn.Server):
    """uvicorn's server, whose shut-down first waits for the routers (``app.state.readiness``)
    and runs ``drain(hand_over=...)`` (set on the application's state by its life span as
    ``app.state.drain``, read when the shut-down begins). :data:`FULL_STOP_SIGNAL` stops it
    as ``SIGTERM`` does, without handing tables over (``app.state.stop_taking`` is called in
    the signal's instant).

    Args:
        config: uvicorn's configuration.
        state: the application's state (``app.state``).
    """

    def __init__(self, config: uvicorn.Config, state: object) -> None:
        super().__init__(config)
        self.state = state
        # The application's life span starts before the game's port opens (uvicorn binds it
        # after the start-up): its readiness waits for :meth:`startup` to say it is open.
        state.opens_port_later = True  # type: ignore[attr-defined]
        #: Set by :data:`FULL_STOP_SIGNAL`: the whole group stops, no table is handed over.
        self.full_stop = False

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            with super().capture_signals():
                yield
            return
        before = signal.signal(FULL_STOP_SIGNAL, self.stop_fully)
        try:
            with super().capture_signals():
                yield
        finally:
            signal.signal(FULL_STOP_SIGNAL, before)

    def stop_fully(self, signum: int, frame: FrameType | None) -> None:
        """:data:`FULL_STOP_SIGNAL`'s handler: take no table from now on, and stop."""
        del signum
        self.full_stop = True
        stop_taking: Callable[[], object] | None = getattr(self.state, "stop_taking", None)
        if stop_taking is not None:
            stop_taking()
        self.handle_exit(signal.SIGTERM, frame)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        readiness = getattr(self.state, "readiness", None)
        if readiness is not None and self.started:
            readiness.listening = True  # the game's port is open now: /ready may say so

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        readiness = getattr(self.state, "readiness", None)
        if readiness is not None and not self.force_exit and not self.full_stop:
            await readiness.out_of_service()  # the routers send the tables elsewhere first
        for server in self.servers:  # no new connection: the router tries another process
            server.close()
        drain: Drain | None = getattr(self.state, "drain", None)
        if drain is not None and not self.force_exit:
            try:
                await asyncio.wait_for(drain(hand_over=not self.full_stop), DRAIN_LIMIT_SECONDS)
            except Exception:
                log.exception("the tables could not all be handed over; stopping anyway")
        await super().shutdown(sockets)


__all__ = ["DRAIN_LIMIT_SECONDS", "FULL_STOP_SIGNAL", "DrainingServer", "announce_restart"]
