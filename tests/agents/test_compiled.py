"""Compiled code made ready: compiled in a subprocess, said aloud with the last time taken,
recorded for other processes, refused where the caller cannot wait."""

from __future__ import annotations

import _thread
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fanfold.agents.strategy import compiled

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def stub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Game ``fano``'s warm-up replaced by :mod:`tests.agents.compiled_stub`, a fresh record
    file, nothing loaded; returns the stub's notes."""
    notes = tmp_path / "notes"
    notes.touch()
    monkeypatch.setenv("STUB_NOTES", str(notes))
    monkeypatch.setenv(compiled.RECORD_VARIABLE, str(tmp_path / "record.json"))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setattr(compiled, "WARM_UPS", {"fano": "tests.agents.compiled_stub"})
    monkeypatch.setattr(compiled, "ENVIRONMENT_WARM_UPS", {})
    monkeypatch.setattr(compiled, "_loaded", set())
    return notes


def _pids(notes: Path) -> list[int]:
    return [int(line) for line in notes.read_text().split()]


def test_compiling_runs_in_a_subprocess_says_so_and_is_recorded(stub: Path) -> None:
    said: list[str] = []
    assert not compiled.is_compiled("fano")
    seconds = compiled.compile_ahead("fano", said.append)
    assert seconds is not None
    (pid,) = _pids(stub)
    assert pid != os.getpid()
    assert said[0].startswith("Preparing Fano's compiled search: compiling it")
    assert "last time" not in said[0]
    assert said[1] == f"Fano's compiled search prepared in {seconds:.0f} s."
    assert compiled.is_compiled("fano")
    assert compiled.last_seconds("fano") == round(seconds, 1)
    # Compiled: nothing more to do, nothing said.
    said.clear()
    assert compiled.compile_ahead("fano", said.append) is None
    assert said == []
    assert len(_pids(stub)) == 1


def test_the_progress_line_tells_the_last_time(stub: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled.compile_ahead("fano")
    monkeypatch.setattr(compiled, "installation_key", lambda: "another installation")
    said: list[str] = []
    compiled.compile_ahead("fano", said.append)
    last = compiled.last_seconds("fano")
    assert last is not None
    assert said[0].endswith("last time)...")
    assert len(_pids(stub)) == 2


def test_a_damaged_record_means_not_compiled(stub: Path) -> None:
    compiled.compile_ahead("fano")
    record = stub.parent / "record.json"
    record.write_text(json.dumps({f"fano {compiled.PACKAGE}": "not a record"}))
    assert not compiled.is_compiled("fano")
    assert compiled.last_seconds("fano") is None
    record.write_text("{not JSON")
    assert not compiled.is_compiled("fano")


def test_prepare_compiles_ahead_then_loads_here(stub: Path) -> None:
    said: list[str] = []
    compiled.prepare("fano", said.append)
    first, second = _pids(stub)
    assert first != os.getpid()
    assert second == os.getpid()
    assert compiled.is_loaded("fano")
    assert said[-1] == "Loading Fano's compiled search from the cache..."


def test_a_caller_that_cannot_wait_is_refused(stub: Path) -> None:
    with pytest.raises(compiled.NotCompiledError, match="Fano's compiled search is not"):
        compiled.prepare("fano", compile=False)
    with compiled.without_compiling(), pytest.raises(compiled.NotCompiledError):
        compiled.prepare("fano")
    assert _pids(stub) == []
    assert not compiled.is_loaded("fano")
    compiled.prepare("fano")  # outside, it compiles
    assert compiled.is_loaded("fano")


def test_a_failed_compile_says_why_and_records_nothing(
    stub: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUB_FAIL", "1")
    with pytest.raises(RuntimeError, match="the warm-up failed on purpose"):
        compiled.compile_ahead("fano")
    assert not compiled.is_compiled("fano")
    assert compiled.last_seconds("fano") is None


def test_a_game_without_compiled_code_is_refused() -> None:
    with pytest.raises(ValueError, match="no compiled code to prepare for 'morris'"):
        compiled.compile_ahead("morris")


@pytest.fixture
def python_ctrl_c() -> Iterator[None]:
    """Python's own SIGINT handler (a Ctrl-C raises ``KeyboardInterrupt``) for the test, as
    in a terminal, whatever handler another test run earlier in this process left; the
    previous one back after it."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("python_ctrl_c")
def test_ctrl_c_during_a_compile_ends_it_at_once(
    stub: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUB_SLEEP", "60")
    started: list[int] = []
    real_popen = subprocess.Popen

    def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        process = real_popen(*args, **kwargs)
        started.append(process.pid)
        return process

    monkeypatch.setattr(subprocess, "Popen", popen)
    threading.Timer(1.0, _thread.interrupt_main).start()  # Ctrl-C in a second
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        compiled.compile_ahead("fano")
    assert time.monotonic() - began < 5
    (pid,) = started
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and reaped
    assert not compiled.is_compiled("fano")


@pytest.fixture
def packaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The packaged cache's folder, in a temporary folder."""
    from fanfold.core import numba_cache

    folder = tmp_path / "_compiled"
    folder.mkdir()
    monkeypatch.setattr(numba_cache, "PACKAGED", folder)
    return folder


def _manifest(folder: Path, **changed: Any) -> None:
    modules = ["agents/strategy/compiled.py"]
    manifest = {
        **compiled._built_for(modules),
        "modules": modules,
        "games": {"fano": {"module": "tests.agents.compiled_stub", "seconds": 1.0}},
        **changed,
    }
    (folder / compiled.MANIFEST).write_text(json.dumps(manifest))


def test_a_current_packaged_cache_is_ready_without_compiling(stub: Path, packaged: Path) -> None:
    assert not compiled.packaged("fano")
    _manifest(packaged)
    assert compiled.packaged("fano")
    assert compiled.is_compiled("fano")
    said: list[str] = []
    assert compiled.compile_ahead("fano", said.append) is None
    compiled.prepare("fano", said.append, compile=False)
    assert _pids(stub) == [os.getpid()]  # loaded here; no compiling subprocess
    assert said == ["Loading Fano's compiled search from the cache..."]


@pytest.mark.parametrize(
    "changed",
    [
        {"numba": "0.1.0"},
        {"llvmlite": "0.1.0"},
        {"python": "cpython-27"},
        {"target": ["skylake-avx512", "+avx512f"]},
        {"sources": "0" * 64},
        {"modules": ["agents/strategy/compiled.py", "agents/strategy/missing.py"]},
        {"modules": "agents/strategy/compiled.py"},
        {"games": {"fano": {"module": "fanfold.agents.strategy.fano_fast"}}},
        {"games": {"fantan": {"module": "tests.agents.compiled_stub"}}},
    ],
)
def test_a_packaged_cache_built_for_something_else_is_not_ready(
    stub: Path, packaged: Path, changed: dict[str, Any]
) -> None:
    _manifest(packaged, **changed)
    assert not compiled.packaged("fano")
    assert not compiled.is_compiled("fano")


def test_a_damaged_manifest_means_not_ready(stub: Path, packaged: Path) -> None:
    (packaged / compiled.MANIFEST).write_text("{not JSON")
    assert not compiled.packaged("fano")
    (packaged / compiled.MANIFEST).write_text("[]")
    assert not compiled.packaged("fano")


def test_the_sources_digest_follows_the_contents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "module.py"
    module.write_text("VALUE = 1\n")
    (tmp_path / "other.py").write_text("OTHER = 1\n")
    monkeypatch.setattr(compiled, "PACKAGE", tmp_path)
    first = compiled.sources(["module.py"])
    later = module.stat().st_mtime + 1000
    os.utime(module, (later, later))
    assert compiled.sources(["module.py"]) == first
    (tmp_path / "other.py").write_text("OTHER = 2\n")  # not one of the modules
    assert compiled.sources(["module.py"]) == first
    module.write_text("VALUE = 2\n")
    assert compiled.sources(["module.py"]) != first
    assert compiled.sources(["module.py", "gone.py"]) != compiled.sources(["module.py"])


def test_a_build_whose_warm_ups_compiled_nothing_writes_no_manifest(
    stub: Path, packaged: Path
) -> None:
    with pytest.raises(RuntimeError, match="wrote no compiled code"):
        compiled.build()
    assert not (packaged / compiled.MANIFEST).exists()
    assert not compiled.packaged("fano")
    (packaged / "kernel.f-1.py311.nbi").touch()  # as Numba would have written
    said: list[str] = []
    manifest = compiled.build(said.append)
    assert manifest["games"]["fano"]["module"] == "tests.agents.compiled_stub"
    assert "agents/strategy/compiled.py" in manifest["modules"]
    assert said[0].startswith("Compiling Fano's compiled search into")
    assert compiled.packaged("fano")


def test_a_packaged_cache_is_not_used_when_the_variable_says_so(
    stub: Path, packaged: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fanfold.core import numba_cache

    _manifest(packaged)
    monkeypatch.setenv(numba_cache.NO_PACKAGED, "1")
    assert not compiled.packaged("fano")
    assert not compiled.is_compiled("fano")
