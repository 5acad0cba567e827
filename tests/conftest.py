"""Fixtures shared by several test modules, the compile before the test workers start, and
the markers that sort the tests (``browser``, ``postgres``, ``slow``: see pyproject.toml)."""

from __future__ import annotations

import logging
import os
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from fanfold.agents.strategy import compiled
from fanfold.games.morris import Adjacency
from fanfold.server.logs import ENVIRONMENT, NAME_ENVIRONMENT
from fanfold.solvers import morris as solver
from fanfold.solvers.morris import MorrisTable

#: Fixtures that start a browser (Playwright's Chromium).
BROWSER_FIXTURES = frozenset({"browser", "page"})


def pytest_configure(config: pytest.Config) -> None:
    """Before any test worker starts (on the controller, or in a run without workers): fill
    Numba's cache with every game's compiled code and the environments', in one subprocess at
    a time (:func:`fanfold.agents.strategy.compiled.compile_ahead`), so that the workers load it
    instead of each compiling it."""
    if hasattr(config, "workerinput"):
        return  # a worker: its controller compiled
    for name in compiled.all_warm_ups():
        compiled.compile_ahead(name, say=lambda line: print(line, file=sys.stderr, flush=True))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests that drive a browser (``browser``) and those that run against PostgreSQL
    (``postgres``: its fixture, or a store parametrized to it)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        callspec = getattr(item, "callspec", None)
        params = callspec.params.values() if callspec is not None else ()
        if "postgres_cluster" in names or "postgresql" in params:
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(scope="session")
def morris_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache directory for the solved Morris tables, shared by the whole session."""
    return tmp_path_factory.getbasetemp() / "morris-tables"


@pytest.fixture(scope="session")
def tables(morris_cache: Path) -> dict[Adjacency, MorrisTable]:
    """The solved Morris table of each adjacency variant, solved once a session."""
    return {
        adjacency: solver.load_table(adjacency, cache_dir=morris_cache) for adjacency in Adjacency
    }


@pytest.fixture(scope="session", autouse=True)
def fano_compiled() -> None:
    """Fano's compiled engine and search, and Fan Tan's compiled search, loaded from Numba's
    cache (filled before the workers started, :func:`pytest_configure`) before any test, so
    that the first ``hard`` bot of a timed test does not pay the load."""
    from fanfold.agents import prepare

    prepare()


@pytest.fixture
def listed_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leaderboards list a person after one rated game against anyone, for tests of what a
    board shows (the server's default, ten games against five opponents, is tested in
    ``tests/server/test_fairplay.py``)."""
    monkeypatch.setattr("fanfold.server.ratings.LISTED_GAMES", 1)
    monkeypatch.setattr("fanfold.server.ratings.LISTED_OPPONENTS", 1)


@pytest.fixture
def no_repeat_discount(monkeypatch: pytest.MonkeyPatch) -> None:
    """Repeated results between the same people weigh as much as a first one, for tests of
    the rating model itself (the discount is tested in ``tests/server/test_fairplay.py``)."""
    monkeypatch.setattr("fanfold.server.fairplay.REPEAT_FACTOR", 1.0)


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """Every test leaves the process's logging as it found it: a ``fanfold serve`` run in the
    test's process sets the root logger's handler and level and captures Python's warnings
    (:func:`fanfold.server.logs.configure`), as a server process does for its whole life."""
    root = logging.getLogger()
    handlers, level, shown = list(root.handlers), root.level, warnings.showwarning
    variables = {name: os.environ.get(name) for name in (ENVIRONMENT, NAME_ENVIRONMENT)}
    yield
    for name, value in variables.items():  # configure keeps its choice for child processes
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    for handler in handlers:
        if handler not in root.handlers:
            root.addHandler(handler)
    root.setLevel(level)
    if warnings.showwarning is not shown:
        logging.captureWarnings(False)  # its own record of the function it replaced, cleared
        warnings.showwarning = shown
