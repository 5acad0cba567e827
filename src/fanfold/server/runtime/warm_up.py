"""The bots' warm-up: every worker loads the compiled searches Numba has cached
(:func:`warm_fast`), and one thread compiles those it lacks in the background
(:func:`start_compiling`) while the bots play their fallback level."""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future
from typing import Any

from fanfold.agents import prepare
from fanfold.agents.strategy import compiled, has_compiled_code
from fanfold.core.registry import all_games
from fanfold.server.metrics import Metrics
from fanfold.server.runtime.memory import set_aside

log = logging.getLogger(__name__)


#: Where the server says what it prepares (``fanfold serve`` prints it in the terminal).
progress = logging.getLogger("fanfold.server.progress")


def warm_fast() -> None:
    """Load every game's compiled search that is in Numba's cache already (a bot worker's
    warm-up: it never compiles, :func:`compile_ahead` does that in the background), then set
    aside what that loaded (:func:`set_aside`)."""
    for game in all_games():
        if has_compiled_code(game):
            started = time.monotonic()
            try:
                with compiled.without_compiling():
                    prepare(game, say=log.info)
            except compiled.NotCompiledError:
                continue
            log.info("%s's compiled search ready in %.1f s", game.title, time.monotonic() - started)
    set_aside()


def compile_ahead() -> None:
    """Compile every game's compiled search that Numba's cache lacks, one subprocess at a time
    (:func:`fanfold.agents.strategy.compiled.compile_ahead`), saying what and how long it took
    last time; the bots play their fallback meanwhile (see :mod:`fanfold.server.bots`)."""
    for name in compiled.WARM_UPS:
        try:
            took = compiled.compile_ahead(name, say=progress.warning)
        except RuntimeError as error:
            if not stopping.is_set():
                progress.error("%s; its bots play the %s level", error, compiled.FALLBACK_LEVEL)
            return
        if took is not None:
            progress.warning(
                "%s is ready: hard bots play at full strength from their next move.",
                compiled.WHAT[name],
            )


def report_warm_up(warming: list[Future[Any]], metrics: Metrics) -> None:
    """Log how long the bots' workers took to warm up, and set the metric, once every one of
    ``warming`` is done (in the background: the process serves meanwhile)."""
    if not warming:
        return
    started = time.monotonic()
    left = len(warming)
    lock = threading.Lock()

    def done(_: Future[Any]) -> None:
        nonlocal left
        with lock:
            left -= 1
            if left:
                return
        took = time.monotonic() - started
        metrics.warm_up_seconds.set(took)
        log.info("the bots' workers warmed up in %.1f s, in the background", took)

    for future in warming:
        future.add_done_callback(done)


#: Set while the server stops (a compile ended then is no failure).
stopping = threading.Event()


def start_compiling() -> threading.Thread | None:
    """Start :func:`compile_ahead` in a thread of its own when anything needs compiling,
    telling the players that the bots play their fallback until it is done."""
    missing = [name for name in compiled.WARM_UPS if not compiled.is_compiled(name)]
    if not missing:
        return None
    progress.warning(
        "Until it is compiled, the bots of %s play the %s level's moves.",
        " and ".join(compiled.WHAT[name].removesuffix("'s compiled search") for name in missing),
        compiled.FALLBACK_LEVEL,
    )
    stopping.clear()
    thread = threading.Thread(target=compile_ahead, name="compile-ahead", daemon=True)
    thread.start()
    return thread


__all__ = [
    "compile_ahead",
    "progress",
    "report_warm_up",
    "start_compiling",
    "stopping",
    "warm_fast",
]
