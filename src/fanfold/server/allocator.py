"""Which memory allocator a server process runs on, and handing its unused memory back.

By default a process allocates Python's objects with Python's own allocator (``pymalloc``),
which takes memory from the system a 1 MiB arena at a time and gives an arena back only once
every object in it is gone. After a burst of tables the objects of the tables that left are
freed, but the few that live on (a client's rate-limit window, a cache entry) are spread over
the arenas the burst took, and each keeps its whole arena: the process stays well above its
idle size (``docs/deploy.md``, "Memory after the load").

``fanfold serve --allocator jemalloc`` runs the process on jemalloc (Debian's ``libjemalloc2``)
instead, every object allocated by it (``PYTHONMALLOC=malloc``): jemalloc hands unused pages
back one page at a time, from a thread of its own, a second after they were freed
(:data:`JEMALLOC_CONF`), and :func:`purge` hands them back at once when the server's sweeper
gives memory back.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

#: jemalloc's settings unless the environment gives ``MALLOC_CONF``: a background thread
#: purges unused pages (without it a quiet process keeps them until it allocates again),
#: dirty pages go back after a second, and none are kept "muzzy" (lazily freed) after.
JEMALLOC_CONF = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0"

#: Set in the environment of a process started again on jemalloc, so that a library that
#: did not load ends in an error rather than in starting again for ever.
STARTED_ON_JEMALLOC = "FANFOLD_STARTED_ON_JEMALLOC"

#: jemalloc's name for "every arena" in ``arena.<i>.purge`` (``MALLCTL_ARENAS_ALL``).
_ALL_ARENAS = 4096

#: Where Debian's ``libjemalloc2`` puts the library, should the loader's cache not say.
_DEBIAN_PATHS = (
    "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
    "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
)


def _mallctl() -> Callable[..., int] | None:
    """jemalloc's control function, where the process runs on jemalloc."""
    try:
        function = ctypes.CDLL(None).mallctl
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p]
    function.argtypes += [ctypes.c_void_p, ctypes.c_size_t]
    function.restype = ctypes.c_int
    control: Callable[..., int] = function
    return control


def running_on_jemalloc() -> bool:
    """Whether this process allocates with jemalloc (its ``mallctl`` is loaded)."""
    return _mallctl() is not None


def purge() -> bool:
    """Hand this thread's cache of freed blocks back to jemalloc (``thread.tcache.flush``),
    then every arena's unused pages to the system now (``arena.<all>.purge``) rather than
    after the decay. Returns whether both were done: ``False`` without jemalloc."""
    mallctl = _mallctl()
    if mallctl is None:
        return False
    flushed = mallctl(b"thread.tcache.flush", None, None, None, 0)
    purged = mallctl(f"arena.{_ALL_ARENAS}.purge".encode(), None, None, None, 0)
    return bool(flushed == 0 and purged == 0)


def jemalloc_library() -> str | None:
    """The jemalloc library to preload (a path or the loader's name for it), or ``None``
    where it is not installed."""
    for path in _DEBIAN_PATHS:
        if Path(path).is_file():
            return path
    return ctypes.util.find_library("jemalloc")


def jemalloc_environment(environment: Mapping[str, str], library: str) -> dict[str, str]:
    """``environment`` with what starts a Python process on jemalloc: the library preloaded
    (before any other preloaded library), every object allocated by it, jemalloc's settings
    (:data:`JEMALLOC_CONF`, unless ``MALLOC_CONF`` is given) and :data:`STARTED_ON_JEMALLOC`."""
    changed = dict(environment)
    preload = [part for part in changed.get("LD_PRELOAD", "").split(":") if part]
    changed["LD_PRELOAD"] = ":".join([library, *[p for p in preload if p != library]])
    changed["PYTHONMALLOC"] = "malloc"
    changed.setdefault("MALLOC_CONF", JEMALLOC_CONF)
    changed[STARTED_ON_JEMALLOC] = "1"
    return changed


class AllocatorError(RuntimeError):
    """jemalloc was asked for and cannot be had; the message says what to do."""


def start_on_jemalloc(arguments: list[str]) -> None:
    """Make sure this process runs on jemalloc: return where it does; else start it again
    (same process id, ``python -m fanfold`` with ``arguments``) with jemalloc preloaded.

    Raises:
        AllocatorError: jemalloc is not installed, or it did not load when the process was
            started again.
    """
    if running_on_jemalloc():
        return
    if os.environ.get(STARTED_ON_JEMALLOC):
        raise AllocatorError(
            "the process was started again with jemalloc preloaded, and jemalloc is still "
            f"not loaded (LD_PRELOAD={os.environ.get('LD_PRELOAD', '')!r}): check that the "
            "library loads for this Python"
        )
    library = jemalloc_library()
    if library is None:
        raise AllocatorError(
            "--allocator jemalloc needs the jemalloc library, which is not installed: "
            "install Debian's libjemalloc2 (apt install libjemalloc2), or leave out "
            "--allocator"
        )
    sys.stdout.flush()
    sys.stderr.flush()
    command = [sys.executable, "-m", "fanfold", *arguments]
    os.execve(sys.executable, command, jemalloc_environment(os.environ, library))


__all__ = [
    "JEMALLOC_CONF",
    "STARTED_ON_JEMALLOC",
    "AllocatorError",
    "jemalloc_environment",
    "jemalloc_library",
    "purge",
    "running_on_jemalloc",
    "start_on_jemalloc",
]
