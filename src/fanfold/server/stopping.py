"""How a ``fanfold serve`` process stops on ``SIGTERM`` (or Ctrl-C): :class:`DrainingServer`,
uvicorn's server that drains first.

uvicorn alone, on ``SIGTERM``, closes its port, closes every socket with 1012 and only then
runs the application's shut-down, where the process's locks went with its connection: a table
nobody asked for again (a game between bots, a clock running, a game being reviewed) stood
still until another process's sweeper found it. Draining, in order:

1. the port closes: a router's new connections are refused, and it sends them to another
   process (HAProxy's ``option redispatch``, ``deploy/haproxy.cfg``), and ``/ready`` says
   503 (``draining``) so that the router takes the process out of service;
2. every table is let go and handed to the other processes at once, its sockets closed with
   1012 "restarting" (:mod:`fanfold.server.hub.draining`): the browsers reconnect at once
   (``static/table.js``), through the router, to the process that took it;
3. uvicorn's own shut-down then, and the application's (the store's writes flushed).

Before a planned restart, ``fanfold restart`` tells every process when it comes
(:func:`announce_restart`), and each tells its tables' sockets.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Awaitable, Callable

import uvicorn

from fanfold.server.ownership import CHANNEL, ElsewhereError
from fanfold.server.store.coordination import PgCoordination

log = logging.getLogger(__name__)

#: The most a drain may take before uvicorn's shut-down goes on anyway.
DRAIN_LIMIT_SECONDS = 15.0

Drain = Callable[[], Awaitable[object]]


async def announce_restart(url: str, seconds: int) -> None:
    """Tell every server process on the PostgreSQL store ``url`` that it restarts in
    ``seconds`` (each tells the sockets of its tables: :meth:`Draining.notice
    <fanfold.server.hub.draining.Draining.notice>`); ``fanfold restart`` calls it."""
    coordination = PgCoordination(
        url,
        CHANNEL,
        "fanfold restart",
        lambda: ElsewhereError("the connection to the store is closed"),
    )
    await coordination.start()
    try:
        await coordination.publish(json.dumps({"restarting": seconds, "by": "fanfold restart"}))
    finally:
        await coordination.close()


class DrainingServer(uvicorn.Server):
    """uvicorn's server, whose shut-down first runs ``drain()`` (set on the application's
    state by its life span as ``app.state.drain``, read when the shut-down begins).

    Args:
        config: uvicorn's configuration.
        state: the application's state (``app.state``).
    """

    def __init__(self, config: uvicorn.Config, state: object) -> None:
        super().__init__(config)
        self.state = state

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:  # no new connection: the router tries another process
            server.close()
        drain: Drain | None = getattr(self.state, "drain", None)
        if drain is not None and not self.force_exit:
            try:
                await asyncio.wait_for(drain(), DRAIN_LIMIT_SECONDS)
            except Exception:
                log.exception("the tables could not all be handed over; stopping anyway")
        await super().shutdown(sockets)


__all__ = ["DRAIN_LIMIT_SECONDS", "DrainingServer", "announce_restart"]
