"""What a table's watchers are told: the table as it is now, each seat its own view and every
spectator the same public message (:func:`broadcast`), and the first message of a new
watcher (:func:`message_of`).

A connection's message is queued (:class:`~fanfold.server.outbox.Outbox`), never awaited:
nobody waits while the table's other connections are written to, and a connection whose
queue is full is dropped (:func:`unwatch`).
"""

from __future__ import annotations

import time

from fanfold.server.live import LiveTable, Watcher
from fanfold.server.protocol import State, as_json, message_text, state_for


def message_of(live: LiveTable, watcher: Watcher) -> tuple[State, str | None]:
    """The message telling ``watcher`` the table as it is now, and its text, serialised for
    its outbox (``None`` without one: :func:`~fanfold.server.protocol.as_json` is what its
    ``send`` is given)."""
    state = state_for(live, watcher.seat, watcher.seats)
    if watcher.outbox is None:
        return state, None
    return state, message_text(live, watcher.seat, watcher.seats, state)


def unwatch(live: LiveTable, watcher: Watcher) -> None:
    """A watcher leaves the table (its seats were held until now)."""
    live.watchers.discard(watcher)
    now = time.monotonic()
    for seat in watcher.seats:
        live.seen[seat] = now


async def broadcast(live: LiveTable) -> None:
    """Tell every watcher about the table as it is now: each seat its own view, every
    spectator the same public message, built and serialised once.

    A connection's message is queued (:class:`~fanfold.server.outbox.Outbox`), never
    awaited: nobody waits while the table's other connections are written to, and a
    connection whose queue is full is dropped.
    """
    async with live.lock:  # every message first: while one is sent, another action may
        # be submitted and wait for its commit, and no watcher may hear of it before that
        watchers = sorted(live.watchers, key=lambda watcher: watcher.spectating)
        built: dict[tuple[int | None, frozenset[int]], State] = {}
        texts: dict[tuple[int | None, frozenset[int]], str] = {}
        for watcher in watchers:
            key = (watcher.seat, watcher.seats)
            if key not in built:
                built[key] = state_for(live, watcher.seat, watcher.seats)
            if watcher.outbox is not None and key not in texts:  # serialised once for
                # every watcher with this view
                texts[key] = message_text(live, watcher.seat, watcher.seats, built[key])
    # Queued outside the lock, but with no await before every queue has its message: a
    # later broadcast cannot queue its version ahead of this one.
    awaited: list[tuple[Watcher, State]] = []
    for watcher in watchers:  # seats first: the player who acted hears first
        key = (watcher.seat, watcher.seats)
        if watcher.outbox is None:
            awaited.append((watcher, built[key]))
            continue
        if not watcher.outbox.post(texts[key]):
            unwatch(live, watcher)
    for watcher, state in awaited:
        try:
            await watcher.send(as_json(state))
        except Exception:
            unwatch(live, watcher)


__all__ = ["broadcast", "message_of", "unwatch"]
