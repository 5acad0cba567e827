"""Fixtures shared by several test modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from fanfold.games.morris import Adjacency
from fanfold.solvers import morris as solver
from fanfold.solvers.morris import MorrisTable


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
    """Fano's compiled engine and search, and Fan Tan's compiled search, loaded (compiled on a
    fresh checkout) before any test, so that the first ``hard`` bot of a timed test does not
    pay Numba's compile time."""
    from fanfold.agents import prepare

    prepare()
