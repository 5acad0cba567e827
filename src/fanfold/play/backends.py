"""Where the batch runner's jobs run: processes on this machine, or a Ray cluster.

:func:`run_jobs` takes the jobs and yields ``{"job": key, **row}`` as they finish, in any
order (the batch runner puts them back in job order). Jobs travel in chunks (:func:`chunks`) so
that many quick jobs do not drown in scheduling.

Ray is an optional extra (``pip install 'fanfold[ray]'``) imported only when asked for. Where
to run is one text:

* ``"auto"``: join the cluster already running (``ray start --head`` on this machine, or the
  one ``RAY_ADDRESS`` names);
* ``"local"``: start a private Ray instance on this machine with the batch's worker count as
  its CPUs and its workers at normal priority, and stop it afterwards (what the tests and a
  single machine use);
* anything else: a cluster's address, ``HOST:6379`` or ``ray://HOST:10001`` (Ray Client,
  the ``ray`` extra installs ``ray[client]``).

Joining a cluster turns on Ray's token authentication when a token is at hand and
``RAY_AUTH_MODE`` is unset (:func:`use_cluster_token`), as ``ray start`` does.

A cluster keeps its own settings: Ray starts its workers at niceness 15, so on machines that
also do other work start it with ``RAY_worker_niceness=0 ray start ...`` to give the games
normal priority. On Ray a few chunks per CPU of the cluster are in flight at a time, so a
million-deal census never holds a million tasks. Every machine of the cluster needs fanfold
installed (the worker is sent by reference, as ``module.function``). Each row holds what its
payload alone decides, so the rows are the same on every backend and with any worker count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError, Refusal

#: The ``ray`` texts that are not addresses.
AUTO, LOCAL = "auto", "local"

#: A job's work: payload in, result row out. Must be importable (a module-level function).
Worker = Callable[[JSONObject], JSONObject]


@dataclass(frozen=True)
class Job:
    """One unit of work: a key unique in its batch (``"classic:1234"``) and a JSON payload."""

    key: str
    payload: JSONObject


def run_jobs(
    worker: Worker, jobs: Sequence[Job], workers: int, ray: str | None = None
) -> Iterator[JSONObject]:
    """Run ``jobs`` with ``worker``: on Ray when ``ray`` names where (see the module text),
    else in this process (``workers=1``) or a pool of ``workers`` processes."""
    if ray is not None:
        yield from run_on_ray(worker, jobs, ray, workers)
        return
    if workers == 1 or len(jobs) <= 1:
        for job in jobs:
            yield {"job": job.key, **worker(job.payload)}
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
        futures: dict[Future[list[JSONObject]], list[str]] = {
            pool.submit(run_chunk, worker, [job.payload for job in chunk]): [
                job.key for job in chunk
            ]
            for chunk in chunks(jobs, workers)
        }
        for future in as_completed(futures):
            for key, row in zip(futures[future], future.result(), strict=True):
                yield {"job": key, **row}


def chunks(jobs: Sequence[Job], workers: int, most: int = 32) -> list[Sequence[Job]]:
    """``jobs`` cut into consecutive chunks: about sixteen a worker, at most ``most`` jobs a
    chunk (a chunk's rows are written when it finishes, so an interruption loses little).

    >>> [len(chunk) for chunk in chunks([Job(str(n), {}) for n in range(10)], 2)]
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    >>> sizes = [len(chunk) for chunk in chunks([Job(str(n), {}) for n in range(200)], 2)]
    >>> len(sizes), set(sizes[:-1]), sizes[-1]
    (34, {6}, 2)
    >>> len(chunks([Job(str(n), {}) for n in range(10_000)], 2)[0])
    32
    """
    size = max(1, min(most, len(jobs) // (16 * workers)))
    return [jobs[start : start + size] for start in range(0, len(jobs), size)]


def run_chunk(worker: Worker, payloads: Sequence[JSONObject]) -> list[JSONObject]:
    """Run ``worker`` on each payload in turn (what a pool process or a Ray task does)."""
    return [worker(payload) for payload in payloads]


def import_ray() -> Any:
    """The ``ray`` module, or a clear error when the extra is not installed."""
    try:
        import ray
    except ImportError:
        raise FanfoldError(
            Refusal("batch.no_ray", install="pip install 'fanfold[ray]'", plain="pip install ray")
        ) from None
    return ray


def use_cluster_token() -> None:
    """Turn on Ray's token authentication for joining a cluster when a token is at hand
    (``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH`` or ``~/.ray/auth_token``) and
    ``RAY_AUTH_MODE`` is unset: ``ray start`` (Ray 2.60) does the same, so a cluster started
    with a token refuses a driver that does not send it. An explicit ``RAY_AUTH_MODE`` wins."""
    import os
    from pathlib import Path

    if "RAY_AUTH_MODE" in os.environ:
        return
    path = os.environ.get("RAY_AUTH_TOKEN_PATH")
    if (
        os.environ.get("RAY_AUTH_TOKEN")
        or (path and Path(path).is_file())
        or (Path.home() / ".ray" / "auth_token").is_file()
    ):
        os.environ["RAY_AUTH_MODE"] = "token"


def run_on_ray(
    worker: Worker, jobs: Sequence[Job], where: str, workers: int = 1
) -> Iterator[JSONObject]:
    """Run ``jobs`` with ``worker`` on Ray; yields ``{"job": key, **row}`` as chunks finish.

    Args:
        worker: a module-level function from payload to row.
        jobs: the jobs.
        where: ``"auto"``, ``"local"`` or a cluster address (see the module text).
        workers: the CPUs of a ``"local"`` instance; on a cluster, its CPUs count.

    Raises:
        FanfoldError: Ray not installed, or the cluster not reachable.
    """
    if not jobs:
        return
    if where != LOCAL:
        use_cluster_token()  # before Ray is imported: it reads the mode once
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        try:
            if where == LOCAL:
                ray.init(
                    num_cpus=workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                    # Ray runs its workers at niceness 15 by default; on a machine that also
                    # does other work they then get a fraction of the CPU the process backend
                    # gets. An instance started for this batch runs it at normal priority.
                    _system_config={"worker_niceness": 0},
                )
            else:
                ray.init(address=where, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as error:
            refusal = Refusal("batch.no_ray_cluster", where=repr(where), why=str(error))
            raise FanfoldError(refusal) from None
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", workers)))
        task = ray.remote(num_cpus=1)(run_chunk)
        waiting = list(reversed(chunks(jobs, cpus)))
        running: dict[Any, list[str]] = {}
        while waiting or running:
            while waiting and len(running) < 4 * cpus:
                chunk = waiting.pop()
                ref = task.remote(worker, [job.payload for job in chunk])
                running[ref] = [job.key for job in chunk]
            done, _ = ray.wait(list(running), num_returns=1)
            for ref in done:
                keys = running.pop(ref)
                for key, row in zip(keys, ray.get(ref), strict=True):
                    yield {"job": key, **row}
    finally:
        if started:
            ray.shutdown()
