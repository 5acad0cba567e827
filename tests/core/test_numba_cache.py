"""Numba's cache of compiled fanfold code notices a changed constant or compiled function
imported from another file (:mod:`fanfold.core.numba_cache`)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fanfold.core import numba_cache

SOURCE = Path(__file__).resolve().parents[2] / "src"

RULES = "SIZE = {size}\nTABLE = ({size}, 7)\n"
HELPER = textwrap.dedent(
    """\
    from numba import njit

    from fanfold.core import numba_cache

    numba_cache.install()


    @njit(cache=True)
    def extra():
        return {extra}
    """
)
KERNEL = textwrap.dedent(
    """\
    from numba import njit

    from fanfold.core import numba_cache
    from probe_helper import extra
    from probe_rules import SIZE, TABLE

    numba_cache.install()


    @njit(cache=True)
    def total():
        return SIZE * 100 + TABLE[1] * 10 + extra()
    """
)
RUN = textwrap.dedent(
    """\
    import sys
    from pathlib import Path

    from fanfold.core import numba_cache

    if sys.argv[1] == "fingerprinted":
        numba_cache.ROOTS.append(Path.cwd())
    import probe_kernel

    print(probe_kernel.total())
    """
)


def _write(folder: Path, size: int, extra: int) -> None:
    (folder / "probe_rules.py").write_text(RULES.format(size=size))
    (folder / "probe_helper.py").write_text(HELPER.format(extra=extra))
    (folder / "probe_kernel.py").write_text(KERNEL)
    (folder / "run.py").write_text(RUN)


def _run(folder: Path, mode: str) -> int:
    env = {**os.environ, "PYTHONPATH": f"{folder}{os.pathsep}{SOURCE}"}
    env.pop("NUMBA_CACHE_DIR", None)  # the cache beside the files, in __pycache__
    done = subprocess.run(
        [sys.executable, "run.py", mode],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return int(done.stdout.strip())


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "fresh"), [("fingerprinted", True), ("plain", False)])
def test_a_changed_import_compiles_afresh_only_with_the_fingerprint(
    tmp_path: Path, mode: str, fresh: bool
) -> None:
    _write(tmp_path, size=3, extra=1)
    assert _run(tmp_path, mode) == 371
    assert list((tmp_path / "__pycache__").glob("probe_kernel.total-*.nbi"))
    (tmp_path / "probe_rules.py").write_text(RULES.format(size=4))
    assert _run(tmp_path, mode) == (471 if fresh else 371)
    (tmp_path / "probe_helper.py").write_text(HELPER.format(extra=2))
    assert _run(tmp_path, mode) == (472 if fresh else 371)
    assert _run(tmp_path, mode) == (472 if fresh else 371)  # and the new code is cached


def test_the_fingerprint_follows_imported_constants_and_compiled_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(numba_cache, "ROOTS", [*numba_cache.ROOTS, tmp_path])
    monkeypatch.syspath_prepend(str(tmp_path))
    _write(tmp_path, size=3, extra=1)
    importlib.import_module("probe_kernel")  # the fingerprint reads the kernel's imports
    probe_rules = importlib.import_module("probe_rules")

    numba_cache.forget()
    path = tmp_path / "probe_kernel.py"
    first = numba_cache.fingerprint(path)
    numba_cache.forget()
    assert numba_cache.fingerprint(path) == first  # the same in every process
    monkeypatch.setattr(probe_rules, "TABLE", (3, 8))
    numba_cache.forget()
    assert numba_cache.fingerprint(path) != first
    monkeypatch.undo()
    numba_cache.forget()
    for name in ("probe_kernel", "probe_rules", "probe_helper"):
        sys.modules.pop(name, None)


def test_the_locators_take_fanfold_files_only() -> None:
    numba_cache.install()
    numba_cache.install()
    from numba.core.caching import CacheImpl

    assert CacheImpl._locator_classes[:3] == list(numba_cache.LOCATORS)
    from fanfold.games.fano.fast import kernels

    inside = kernels.legal_actions.py_func
    assert numba_cache.ImportsInTreeLocator.from_function(inside, kernels.__file__) is not None
    outside = textwrap.dedent
    assert numba_cache.ImportsInTreeLocator.from_function(outside, textwrap.__file__) is None
