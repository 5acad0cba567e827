"""The batch runner: many independent jobs (a seeded game, a deal to solve), run in parallel,
resumable, with results that do not depend on the worker count.

A job is a key and a JSON payload; a worker is a module-level function from payload to a JSON
row (module-level so that worker processes can import it). :func:`run_batch` runs the jobs in
this process (``workers=1``) or in a process pool, appends each row to a JSON-lines file as it
finishes (so an interrupted run loses nothing), skips on a rerun the jobs whose rows are already
there, and returns the rows in the order of the jobs. Everything random in a job comes from its
payload (its seed), so the rows are the same whatever the number of workers, and whatever the
backend: a process pool on this machine by default, or a Ray cluster (``ray="auto"`` joins a
running one, ``ray="local"`` starts one here, any other text is a cluster's address; see
:mod:`fanfold.play.backends`; Ray is an optional extra, imported only then). Jobs go to the
workers in small chunks, so that many quick jobs do not drown in scheduling::

    >>> rows = run_batch(square, [Job(str(n), {"n": n}) for n in range(4)], workers=1)
    >>> [row["square"] for row in rows]
    [0, 1, 4, 9]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError, Refusal
from fanfold.core.files import UnreadableFileError, read_text
from fanfold.play.backends import LOCAL, Job, Worker, chunks, run_jobs

#: Told after every finished job: (jobs done, jobs in all).
ProgressCallback = Callable[[int, int], None]


def square(payload: JSONObject) -> JSONObject:
    """A worker for examples and tests: ``{"n": 3}`` gives ``{"square": 9}``."""
    value = payload["n"]
    if not isinstance(value, int):
        raise TypeError("n must be a whole number")
    return {"square": value * value}


def read_results(path: Path, fields: Collection[str] = ()) -> dict[str, JSONObject]:
    """The rows of a results file by job key (a later row for the same key wins); ``fields``
    are those every row of the tool reading it has (a game's ``returns``, a deal's
    ``verdict``), so that a file another tool wrote is refused, not added to.

    Raises:
        FanfoldError: a line that is not a row written by the batch runner, or a row without
            one of ``fields``.
    """
    rows: dict[str, JSONObject] = {}
    if not path.exists():
        return rows
    try:
        text = read_text(path)
    except UnreadableFileError as error:
        raise FanfoldError(Refusal("file.unreadable", path=str(path), why=error.why)) from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            row = None
        if not isinstance(row, dict) or not isinstance(row.get("job"), str):
            raise FanfoldError(Refusal("batch.not_a_row", path=str(path), line=number))
        missing = [name for name in fields if name not in row]
        if missing:
            raise FanfoldError(
                Refusal("batch.another_tool", path=str(path), line=number, field=missing[0])
            )
        rows[row["job"]] = row
    return rows


def run_batch(
    worker: Worker,
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    results: Path | None = None,
    is_done: Callable[[JSONObject], bool] | None = None,
    progress: ProgressCallback | None = None,
    ray: str | None = None,
    fields: Collection[str] = (),
) -> list[JSONObject]:
    """Run ``jobs`` with ``worker``; returns one row per job, in job order, each with its
    ``"job"`` key.

    Args:
        worker: a module-level function from payload to row.
        jobs: the jobs, keys unique.
        workers: processes; 1 runs in this process.
        results: a JSON-lines file; rows found there for these keys (and accepted by
            ``is_done``) are reused, new rows are appended as they finish.
        is_done: whether a stored row counts as finished (e.g. not an ``unknown`` verdict);
            every stored row counts when not given.
        progress: called after every job with (done, total), reused jobs counted as done.
        ray: run on Ray instead of local processes: ``"auto"`` (a running cluster),
            ``"local"`` (start one here with ``workers`` CPUs) or a cluster's address.
        fields: the fields every row of this worker has; a stored row without one was
            written by another tool, and the file is refused (:func:`read_results`).

    Raises:
        FanfoldError: repeated keys, fewer than one worker, an unreadable results file or
            one of another tool, or Ray asked for but not installed or not reachable.
    """
    if workers < 1:
        raise FanfoldError(Refusal("batch.workers", workers=workers))
    keys = [job.key for job in jobs]
    if len(set(keys)) != len(keys):
        raise FanfoldError(Refusal("batch.keys"))
    stored = read_results(results, fields) if results is not None else {}
    rows: dict[str, JSONObject] = {
        job.key: stored[job.key]
        for job in jobs
        if job.key in stored and (is_done is None or is_done(stored[job.key]))
    }
    todo = [job for job in jobs if job.key not in rows]
    total = len(jobs)
    if progress is not None:
        progress(len(rows), total)
    with _appender(results) as append:
        for row in run_jobs(worker, todo, workers, ray):
            rows[str(row["job"])] = row
            append(row)
            if progress is not None:
                progress(len(rows), total)
    return [rows[key] for key in keys]


@contextmanager
def _appender(path: Path | None) -> Iterator[Callable[[JSONObject], None]]:
    if path is None:
        yield lambda row: None
        return
    try:
        out = path.open("a", encoding="utf-8")
    except OSError as error:
        why = error.strerror or type(error).__name__  # the system's words, as it says them
        raise FanfoldError(Refusal("file.unwritable", path=str(path), why=why)) from None
    with out:

        def append(row: JSONObject) -> None:
            out.write(json.dumps(row) + "\n")
            out.flush()

        yield append


@contextmanager
def progress_bar(label: str, console: Console | None = None) -> Iterator[ProgressCallback]:
    """A progress bar on standard error (or ``console``) for :func:`run_batch`'s ``progress``.

    The bar disappears when the batch ends, leaving the screen to the results.
    """
    bar = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console or Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield update


__all__ = [
    "LOCAL",
    "Job",
    "ProgressCallback",
    "Worker",
    "chunks",
    "progress_bar",
    "read_results",
    "run_batch",
    "square",
]
