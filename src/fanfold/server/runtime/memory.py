"""The garbage collector's policy and giving memory back: what the warm-up loaded is set
aside (:func:`set_aside`), full collections run on the sweeper's clock
(:data:`FULL_COLLECTION_SECONDS`), and :func:`give_back` empties fanfold's bounded caches,
collects and hands the freed heap back to the operating system."""

from __future__ import annotations

import ctypes
import gc
import logging
import sys
from typing import Any

from fanfold.server import allocator

log = logging.getLogger(__name__)


def set_aside() -> None:
    """Move every object alive now (the modules, Numba's compiled kernels and their types,
    the tables loaded at start-up) out of the garbage collector's reach, for the life of the
    process (see :data:`FULL_COLLECTION_SECONDS`)."""
    gc.collect()
    gc.freeze()
    log.info("%d objects set aside from garbage collection", gc.get_freeze_count())


#: How often the server runs the garbage collector's full collection itself (its sweeper does,
#: :func:`fanfold.server.runtime.sweeper.sweep`), instead of letting Python start one whenever
#: enough objects have grown old.
#:
#: Python's cycle collector walks every object it tracks in a full collection, and every
#: table waits while it does: after the warm-up that was about two hundred thousand objects
#: (set aside by :func:`set_aside`), and a busy server adds one or two hundred thousand more
#: (its tables, their moves, the connections), each walk about 0.2 s. Young objects are still
#: collected as usual (a few milliseconds), and finished games leave memory soon
#: (``keep_finished_seconds``). Measured with ``benchmarks/server.py`` in
#: ``docs/server/operate.md``.
FULL_COLLECTION_SECONDS = 600.0
#: The third generation's threshold that keeps Python from starting full collections itself.
NO_AUTOMATIC_FULL_COLLECTION = 1 << 30


def bounded_caches() -> list[Any]:
    """fanfold's bounded memo caches (``functools.lru_cache`` with a ``maxsize``), found in
    its loaded modules: the games' and the bots' caches of moves and values, filled by the
    positions of the tables in play. A cache without a bound (``functools.cache``) may hold
    what must stay one object, and is left alone."""
    found: dict[int, Any] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "fanfold" or name.startswith("fanfold.")):
            continue
        for value in list(vars(module).values()):
            info = getattr(value, "cache_info", None)
            if (
                callable(info)
                and callable(getattr(value, "cache_clear", None))
                and str(getattr(value, "__module__", "")).startswith("fanfold.")
                and info().maxsize is not None
            ):
                found[id(value)] = value
    return list(found.values())


def give_back() -> tuple[int, bool]:
    """Empty fanfold's bounded caches (:func:`bounded_caches`: what the tables that left
    filled them with would pin the memory around it), collect every unreachable object now
    (a full collection) and hand the heap that frees back to the operating system (jemalloc's
    purge where the process runs on it, :func:`fanfold.server.allocator.purge`; else glibc's
    ``malloc_trim``, where there is one): the memory a busy process took is returned once its
    tables leave. Returns the objects collected and whether the heap was trimmed."""
    for cache in bounded_caches():
        cache.cache_clear()
    found = gc.collect()
    if allocator.purge():
        return found, True
    try:
        trimmed = bool(ctypes.CDLL("libc.so.6").malloc_trim(0))
    except (OSError, AttributeError):  # not glibc: the collection alone
        trimmed = False
    return found, trimmed


__all__ = [
    "FULL_COLLECTION_SECONDS",
    "NO_AUTOMATIC_FULL_COLLECTION",
    "bounded_caches",
    "give_back",
    "set_aside",
]
