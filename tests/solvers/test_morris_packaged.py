"""The solved Morris tables the package carries (``fanfold/_solved/``, built by ``setup.py``).

Loading reads the packaged table first, then the user cache, then solves: with a packaged
table present nothing is solved; a packaged file that fails its checks, or of another format
version, is passed over with a warning. :func:`~fanfold.solvers.morris.package_tables` (what
``setup.py`` runs) keeps current files, copies the user cache's, and solves only what is left.

The tables here are stand-ins of the right size (no solve): what is checked is where a table
comes from, not its values (``test_morris.py`` checks those).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from fanfold.games.morris import Adjacency
from fanfold.solvers import morris as solver
from fanfold.solvers.morris import MorrisTable

SRC = Path(__file__).resolve().parents[2] / "src"


def stand_in(adjacency: Adjacency, mark: int) -> MorrisTable:
    """A table of the right size whose first distance is ``mark`` (to tell files apart)."""
    size = solver.indexer().size
    distances = np.zeros(size, dtype=np.uint16)
    distances[0] = mark
    return MorrisTable(
        adjacency,
        np.zeros(size, dtype=np.int8),
        distances,
        np.zeros(size, dtype=np.bool_),
    )


def no_build(adjacency: Adjacency, progress: solver.ProgressFn = print) -> MorrisTable:
    raise AssertionError(f"the {adjacency.value} table was solved")


@pytest.fixture
def packaged(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """An empty packaged folder in place of the package's, the packaged tables enabled, no
    table in memory."""
    folder = tmp_path / "_solved"
    folder.mkdir()
    monkeypatch.setattr(solver, "PACKAGED_DIR", folder)
    monkeypatch.delenv(solver.NO_PACKAGED_TABLES, raising=False)
    solver.forget_loaded_tables()
    yield folder
    solver.forget_loaded_tables()


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def test_a_packaged_table_is_loaded_without_solving(
    packaged: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solver, "build_table", no_build)
    for adjacency in Adjacency:
        solver.save_table(stand_in(adjacency, 7), solver.packaged_path(adjacency))
    for adjacency in Adjacency:
        path = solver.packaged_path(adjacency)
        assert path == packaged / f"morris-{adjacency.value}-v{solver.FORMAT_VERSION}.npz"
        assert solver.stored_path(adjacency, cache) == path
        table = solver.load_table(adjacency, cache_dir=cache)
        assert table.adjacency is adjacency
        assert table.source == path
        assert int(table.distances[0]) == 7
        assert solver.load_table(adjacency, cache_dir=cache) is table  # held in memory
    assert not cache.exists()  # nothing solved, nothing cached


def test_the_bots_load_the_packaged_table(
    packaged: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``fanfold serve``'s bots call: the perfect agent's ``prepare`` and its table."""
    from fanfold.agents.perfect import PerfectAgent
    from fanfold.games.morris import GAME, MorrisConfig

    monkeypatch.setattr(solver, "build_table", no_build)
    monkeypatch.setenv(solver.CACHE_ENV, str(cache))
    config = MorrisConfig(Adjacency.COMPLETE)
    solver.save_table(stand_in(config.adjacency, 3), solver.packaged_path(config.adjacency))
    agent = PerfectAgent(GAME, 0)
    agent.prepare(config, lambda line: None)
    state = GAME.new_state(config, 0)
    table = agent.table(GAME.observe(state, 0))  # White places first
    assert table.source == solver.packaged_path(config.adjacency)
    assert not cache.exists()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "altered", "no sha256"])
def test_a_damaged_packaged_table_falls_back_to_the_cache(
    damage: str,
    packaged: Path,
    cache: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    adjacency = Adjacency.GEOMETRIC
    path = solver.packaged_path(adjacency)
    solver.save_table(stand_in(adjacency, 7), path)
    if damage == "garbage":
        path.write_bytes(b"not a table")
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:1000])
    else:
        with np.load(path) as archive:
            arrays = dict(archive)
        meta = json.loads(bytes(arrays["meta"]).decode())
        if damage == "altered":  # one distance changed, the header (with its checksums) kept
            arrays["distances"][0] = 8
            meta["checksum"] = solver._checksum(
                arrays["results"], arrays["distances"], arrays["reachable"]
            )  # so that only the SHA-256 catches it
        else:  # a header written before it had a SHA-256
            del meta["sha256"]
        arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
        with path.open("wb") as handle:
            np.savez(handle, **arrays)
    solver.save_table(stand_in(adjacency, 5), solver.cache_path(adjacency, cache))
    monkeypatch.setattr(solver, "build_table", no_build)
    with caplog.at_level(logging.WARNING, logger=solver.__name__):
        table = solver.load_table(adjacency, cache_dir=cache)
        assert table.source == solver.cache_path(adjacency, cache)
        assert int(table.distances[0]) == 5
        solver.load_table(adjacency, cache_dir=cache)
    warnings = [record for record in caplog.records if "packaged Morris table" in record.message]
    assert len(warnings) == 1  # once a process
    assert str(path) in warnings[0].getMessage()
    assert solver.stored_path(adjacency, cache) == solver.cache_path(adjacency, cache)


def test_a_damaged_packaged_table_without_a_cache_is_solved(
    packaged: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    adjacency = Adjacency.COMPLETE
    solver.packaged_path(adjacency).write_bytes(b"\x00" * 100)
    solved: list[Adjacency] = []

    def build(adjacency: Adjacency, progress: solver.ProgressFn = print) -> MorrisTable:
        solved.append(adjacency)
        return stand_in(adjacency, 9)

    monkeypatch.setattr(solver, "build_table", build)
    assert solver.stored_path(adjacency, cache) == solver.packaged_path(adjacency)  # not read yet
    table = solver.load_table(adjacency, cache_dir=cache)
    assert solved == [adjacency]
    assert int(table.distances[0]) == 9
    assert solver.cache_path(adjacency, cache).exists()  # cached as before


def test_a_packaged_table_of_another_version_is_not_used(
    packaged: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    adjacency = Adjacency.GEOMETRIC
    current = solver.packaged_path(adjacency)
    version = solver.FORMAT_VERSION
    # A file of the next version under this version's name (its header says which)...
    monkeypatch.setattr(solver, "FORMAT_VERSION", version + 1)
    solver.save_table(stand_in(adjacency, 7), current)
    # ...and one of the next version under its own name: neither is this version's table.
    solver.save_table(stand_in(adjacency, 7), solver.packaged_path(adjacency))
    monkeypatch.setattr(solver, "FORMAT_VERSION", version)
    assert sorted(path.name for path in packaged.iterdir()) == [
        current.name,
        f"morris-geometric-v{version + 1}.npz",
    ]
    solver.save_table(stand_in(adjacency, 5), solver.cache_path(adjacency, cache))
    monkeypatch.setattr(solver, "build_table", no_build)
    with caplog.at_level(logging.WARNING, logger=solver.__name__):
        table = solver.load_table(adjacency, cache_dir=cache)
    assert int(table.distances[0]) == 5
    assert table.source == solver.cache_path(adjacency, cache)
    assert any(f"not {solver.FORMAT_VERSION}" in record.message for record in caplog.records)


def test_the_variable_leaves_the_packaged_tables_unused(
    packaged: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    adjacency = Adjacency.GEOMETRIC
    solver.save_table(stand_in(adjacency, 7), solver.packaged_path(adjacency))
    solver.save_table(stand_in(adjacency, 5), solver.cache_path(adjacency, cache))
    monkeypatch.setattr(solver, "build_table", no_build)
    monkeypatch.setenv(solver.NO_PACKAGED_TABLES, "1")
    assert solver.stored_path(adjacency, cache) == solver.cache_path(adjacency, cache)
    assert int(solver.load_table(adjacency, cache_dir=cache).distances[0]) == 5
    monkeypatch.setenv(solver.NO_PACKAGED_TABLES, "0")
    assert int(solver.load_table(adjacency, cache_dir=cache).distances[0]) == 7
    # Solving afresh, or asked to, passes over it as well.
    assert int(solver.load_table(adjacency, cache_dir=cache, packaged=False).distances[0]) == 5


def test_package_tables_copies_keeps_and_solves(
    packaged: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = packaged.parent / "built"
    solver.save_table(
        stand_in(Adjacency.GEOMETRIC, 5), solver.cache_path(Adjacency.GEOMETRIC, cache)
    )
    solved: list[Adjacency] = []

    def build(adjacency: Adjacency, progress: solver.ProgressFn = print) -> MorrisTable:
        solved.append(adjacency)
        progress("retrograde analysis", 0.5)
        return stand_in(adjacency, 9)

    monkeypatch.setattr(solver, "build_table", build)
    said: list[str] = []
    files = solver.package_tables(target, say=said.append, cache_dir=cache)
    assert files == [solver.packaged_path(adjacency, target) for adjacency in Adjacency]
    assert solved == [Adjacency.COMPLETE]  # the geometric one came from the cache
    text = "\n".join(said)
    assert "geometric adjacency: copied from the user cache" in text
    assert "complete adjacency: solving it" in text
    assert "retrograde analysis (50% solved)" in text
    for path, adjacency, mark in zip(files, Adjacency, (5, 9), strict=True):
        table = solver.read_table(path, adjacency, require_sha256=True)
        assert int(table.distances[0]) == mark
    # Current files are kept as they are; a damaged one is replaced; other versions go.
    stamps = [path.stat().st_mtime_ns for path in files]
    files[1].write_bytes(b"damaged")
    stale = target / "morris-geometric-v0.npz"
    stale.write_bytes(b"old")
    said.clear()
    solver.package_tables(target, say=said.append, cache_dir=cache)
    assert solved == [Adjacency.COMPLETE, Adjacency.COMPLETE]
    assert files[0].stat().st_mtime_ns == stamps[0]
    assert "is current, kept" in said[0]
    assert "unusable" in said[1]
    assert not stale.exists()
    assert solver.read_table(files[1], Adjacency.COMPLETE, require_sha256=True)


def test_the_build_command_that_setup_py_runs(cache: Path, tmp_path: Path) -> None:
    """``python -m fanfold.solvers.morris --package DIR``, with both tables in the user cache
    (so that nothing is solved here), as ``setup.py``'s build step runs it."""
    for adjacency in Adjacency:
        solver.save_table(stand_in(adjacency, 4), solver.cache_path(adjacency, cache))
    target = tmp_path / "fanfold" / "_solved"
    env = {**os.environ, solver.CACHE_ENV: str(cache), "PYTHONPATH": str(SRC)}
    answer = subprocess.run(
        [sys.executable, "-m", "fanfold.solvers.morris", "--package", str(target)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert "copied from the user cache" in answer.stdout
    assert "Morris tables ready" in answer.stdout
    assert "solving" not in answer.stdout
    assert sorted(path.name for path in target.iterdir()) == sorted(
        solver.table_name(adjacency) for adjacency in Adjacency
    )
