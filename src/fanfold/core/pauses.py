"""Pause points inside a long computation (:func:`pause_point`), where whoever runs it may make
it wait (:func:`pausing`): the server's review worker waits there while live play is under way
(:mod:`fanfold.server.bots.reviewer`).

A pause only waits: the computation's state, its random draws included, is left as it was, so
its result is the same with pauses as without. The pause is held in a context variable: it
applies to the thread (or task) that set it only, never to a bot's decision computed meanwhile
in another thread by the same functions."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar

#: A pause: called at each pause point, it returns once the computation may go on.
Pause = Callable[[], object]

_CURRENT: ContextVar[Pause | None] = ContextVar("fanfold_pause", default=None)


def pause_point() -> None:
    """A place between units of work (a sampled deal, a candidate move) where the computation
    may wait: calls the pause set by :func:`pausing`, if any."""
    pause = _CURRENT.get()
    if pause is not None:
        pause()


@contextlib.contextmanager
def pausing(pause: Pause | None) -> Iterator[None]:
    """Call ``pause`` at every :func:`pause_point` reached in the ``with`` block, in this
    thread (``None``: none)."""
    token = _CURRENT.set(pause)
    try:
        yield
    finally:
        _CURRENT.reset(token)


__all__ = ["Pause", "pause_point", "pausing"]
