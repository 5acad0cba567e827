"""A bot worker process (:class:`WorkerProcess`): its life (:func:`serve`), at a lower CPU
priority than the server's (:data:`NICENESS`; the review worker at the lowest,
:func:`lowest_priority`), fed through a pipe of its own."""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from fanfold.server.bots.pickling import dumps
from fanfold.server.logs import configure_from_environment

#: How much lower the worker processes' CPU priority is than the server's (``os.nice``).
NICENESS = 10

#: The lowest CPU priority a process may take (``os.nice``): the review worker's.
LOWEST_NICENESS = 19

#: The review worker process's name, as ``ps`` and ``/proc/PID/comm`` show it (Linux).
REVIEW_PROCESS_NAME = "fanfold-review"

#: Seconds between a worker process's looks at whether the server that started it still runs.
PARENT_CHECK_SECONDS = 1.0


def _leave_with_parent(parent: int) -> None:
    """End this worker process once the process that started it has gone (killed, or ended
    without stopping its workers): a bot worker never outlives its server."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def lowest_priority(pid: int = 0) -> None:
    """Put process ``pid`` (0: the calling one; on Linux, that thread and the threads it starts
    later) at the lowest CPU priority: nice :data:`LOWEST_NICENESS`, in the normal scheduling
    class. Not Linux's idle class (``SCHED_IDLE``): on a machine whose cores are busy with other
    work it gets no processor time at all, and a review never ends; the review worker yields to
    live play itself (:mod:`fanfold.server.bots.reviewer`), and at nice 19 a process that wakes
    takes the processor from it at once. (Its steps use the idle class only bounded, while live
    play goes on: :mod:`fanfold.server.bots.idle_class`.)"""
    os.setpriority(os.PRIO_PROCESS, pid, LOWEST_NICENESS)


def name_process(name: str) -> None:
    """Give the calling process ``name`` (at most 15 bytes) where ``ps`` and ``top`` show it
    (Linux's ``/proc/self/comm``; elsewhere nothing): an operator, or the impact benchmark,
    tells the review worker from the bot workers by it."""
    with contextlib.suppress(OSError):
        Path("/proc/self/comm").write_text(name[:15])


def _start_process(warm: Callable[[], object] | None, lowest: bool = False) -> None:
    """A worker process starts: watch for its server's end, lower its priority (``lowest``:
    to the lowest, :func:`lowest_priority`, and named :data:`REVIEW_PROCESS_NAME`), leave a
    terminal's Ctrl-C to the server (which stops its workers itself), then warm up (compiled
    kernels)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    configure_from_environment()  # its lines as its server's (fanfold.server.logs)
    threading.Thread(
        target=_leave_with_parent, args=(os.getppid(),), name="parent-watch", daemon=True
    ).start()
    if lowest:
        lowest_priority()
        name_process(REVIEW_PROCESS_NAME)
    else:
        os.nice(NICENESS)
    if warm is not None:
        warm()


def nothing() -> None:
    """Submitted to make a worker start now."""


def serve(connection: Connection, warm: Callable[[], object] | None, lowest: bool = False) -> None:
    """A worker process's life: start (:func:`_start_process`), then run each call that comes
    through ``connection`` and send back its result or its exception, until the server's end
    of the pipe closes."""
    _start_process(warm, lowest)
    while True:
        try:
            number, function, args = connection.recv()
        except (EOFError, OSError):
            os._exit(0)  # the server closed the pipe, or is gone
        try:
            answer: tuple[int, bool, Any] = (number, True, function(*args))
        except BaseException as error:
            answer = (number, False, error)
        try:
            connection.send(answer)
        except Exception as error:  # a result or an error that does not pickle
            connection.send((number, False, RuntimeError(f"{answer[2]!r}: {error}")))


_P = ParamSpec("_P")
_T = TypeVar("_T")


class WorkerProcess(Executor):
    """One bot worker process, fed through a pipe of its own.

    The server pickles each call and writes it to the pipe itself, and one thread reads the
    answers, so a decision crosses between threads once, when its answer comes back (a
    :class:`~concurrent.futures.ProcessPoolExecutor` hands each call to a thread that queues it
    for a second, which pickles and writes it, and its answer to the first again: three
    hand-overs of the interpreter lock, with a wake-up pipe besides, for every decision). The
    pool gives a worker one decision at a time, so the pipe never holds more than one call.

    A worker that dies (killed, out of memory) fails every call it was given, and every later
    one, with :class:`BrokenProcessPool`, as a process pool would; the pool starts another.

    Args:
        warm: run in the process once it has started, before its first call.
        lowest: run at the lowest CPU priority (:func:`lowest_priority`; the review worker)
            rather than :data:`NICENESS` below the server.
    """

    def __init__(self, warm: Callable[[], object] | None = None, *, lowest: bool = False) -> None:
        context = multiprocessing.get_context("spawn")
        self._connection, child = context.Pipe()
        self._process = context.Process(
            target=serve,
            args=(child, warm, lowest),
            name=REVIEW_PROCESS_NAME if lowest else "fanfold-bot",
            daemon=True,
        )
        self._child = child
        self._lowest = lowest
        self._lock = threading.Lock()
        self._calls: dict[int, Future[Any]] = {}
        self._numbers = itertools.count()
        self._started = False
        self._broken: str | None = None
        self._reader: threading.Thread | None = None

    @property
    def pid(self) -> int | None:
        """The worker process's id (``None`` before it starts)."""
        return self._process.pid

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        if kwargs:
            raise TypeError("a worker process takes positional arguments only")
        future: Future[_T] = Future()
        with self._lock:
            if self._broken is not None:
                raise BrokenProcessPool(self._broken)
            if not self._started:
                self._start()
            number = next(self._numbers)
            try:
                self._connection.send_bytes(dumps((number, fn, args)))
            except OSError as error:
                raise BrokenProcessPool(f"the bot worker process is gone: {error}") from None
            # Running from now on: it cannot be cancelled, so whoever gave the worker a call
            # holds it until the call ends (the pool hands the worker back then).
            future.set_running_or_notify_cancel()
            self._calls[number] = future
        return future

    def _start(self) -> None:
        self._process.start()
        if self._lowest and self._process.pid is not None:
            # At once, from here: its imports already at the lowest priority, not the
            # server's (the process lowers itself again as it starts).
            with contextlib.suppress(OSError):  # gone already: its first call fails
                lowest_priority(self._process.pid)
        self._child.close()  # the worker's end lives in the worker now
        self._started = True
        self._reader = threading.Thread(
            target=self._read, name=f"bot-answers-{self._process.pid}", daemon=True
        )
        self._reader.start()

    def _read(self) -> None:
        """The answers' thread: each answer to its call's future, until the pipe closes."""
        while True:
            try:
                number, ok, value = self._connection.recv()
            except (EOFError, OSError):
                self._break("the bot worker process stopped")
                return
            with self._lock:
                future = self._calls.pop(number, None)
            if future is None:
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def _break(self, reason: str) -> None:
        with self._lock:
            if self._broken is None:
                self._broken = reason
            calls, self._calls = self._calls, {}
        for future in calls.values():
            future.set_exception(BrokenProcessPool(reason))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the worker now (a call under way is abandoned, its future failed); with
        ``wait``, until the process has ended."""
        del cancel_futures  # every call still waiting is failed
        with self._lock:
            started = self._started
            if self._broken is None:
                self._broken = "the bot worker process was stopped"
        if started:
            if self._process.is_alive():
                self._process.terminate()
            self._connection.close()
            if wait:
                self._process.join()
        else:
            self._child.close()
            self._connection.close()
        self._break("the bot worker process was stopped")


__all__ = [
    "LOWEST_NICENESS",
    "NICENESS",
    "PARENT_CHECK_SECONDS",
    "REVIEW_PROCESS_NAME",
    "WorkerProcess",
    "lowest_priority",
    "name_process",
    "nothing",
    "serve",
]
