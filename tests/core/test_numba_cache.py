"""Numba's cache of compiled fanfold code notices a changed constant or compiled function
imported from another file (:mod:`fanfold.core.numba_cache`)."""

from __future__ import annotations

import importlib
import json
import os
import platform
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
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

    assert CacheImpl._locator_classes[: len(numba_cache.LOCATORS)] == list(numba_cache.LOCATORS)
    from fanfold.games.fano.fast import kernels

    inside = kernels.legal_actions.py_func
    assert numba_cache.ImportsInTreeLocator.from_function(inside, kernels.__file__) is not None
    outside = textwrap.dedent
    assert numba_cache.ImportsInTreeLocator.from_function(outside, textwrap.__file__) is None


X86_V2 = dict.fromkeys(numba_cache.X86_64_V2_FEATURES, True)


@pytest.mark.parametrize(
    ("machine", "features", "chosen"),
    [
        ("x86_64", {**X86_V2, "avx2": True}, "x86-64-v2"),
        ("AMD64", X86_V2, "x86-64-v2"),
        ("x86_64", {**X86_V2, "popcnt": False}, None),
        ("x86_64", {name: True for name in X86_V2 if name != "sse4.2"}, None),
        ("aarch64", {}, "generic"),
        ("arm64", {"neon": True}, "generic"),
    ],
)
def test_the_cpu_target_is_portable_where_the_cpu_allows(
    machine: str, features: dict[str, bool], chosen: str | None
) -> None:
    assert numba_cache.portable_target(machine, features) == chosen


def test_this_process_compiles_for_the_portable_target() -> None:
    chosen = numba_cache.portable_target(platform.machine(), numba_cache._host_features())
    name, features = numba_cache.target()
    if chosen is not None and os.environ.get(numba_cache.CPU_NAME) == chosen:
        assert (name, features) == (chosen, "")
    from numba.core.registry import cpu_target

    assert cpu_target.target_context.codegen().magic_tuple()[1:] == (name, features)


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package folder standing in for fanfold's, with a packaged-cache folder."""
    folder = tmp_path / "site" / "probe_package"
    (folder / "_compiled").mkdir(parents=True)
    monkeypatch.setattr(numba_cache, "PACKAGE", folder)
    monkeypatch.setattr(numba_cache, "PACKAGED", folder / "_compiled")
    monkeypatch.setattr(numba_cache, "ROOTS", [folder])
    numba_cache.forget()
    yield folder
    numba_cache.forget()


def _locator(path: Path) -> numba_cache.PackagedLocator:
    found = numba_cache.PackagedLocator.from_function(textwrap.dedent, str(path))
    assert isinstance(found, numba_cache.PackagedLocator)
    return found


def test_the_packaged_stamp_is_the_content_alone(package: Path) -> None:
    kernel = package / "kernels" / "probe.py"
    kernel.parent.mkdir()
    kernel.write_text("VALUE = 1\n")
    first = _locator(kernel).get_source_stamp()
    assert _locator(kernel).get_cache_path() == str(package / "_compiled" / "kernels")
    later = kernel.stat().st_mtime + 1000
    os.utime(kernel, (later, later))  # touched (a wheel installs its files anew)
    numba_cache.forget()
    assert _locator(kernel).get_source_stamp() == first
    kernel.write_text("VALUE = 2\n")  # edited
    numba_cache.forget()
    assert _locator(kernel).get_source_stamp() != first


def test_the_packaged_locator_needs_its_folder_and_a_file_of_the_package(package: Path) -> None:
    kernel = package / "probe.py"
    kernel.write_text("VALUE = 1\n")
    assert numba_cache.PackagedLocator.from_function(textwrap.dedent, textwrap.__file__) is None
    assert _locator(kernel).get_cache_path() == str(package / "_compiled")
    (package / "_compiled").rmdir()
    assert numba_cache.PackagedLocator.from_function(textwrap.dedent, str(kernel)) is None


PACKAGED_KERNEL = textwrap.dedent(
    """\
    from numba import njit

    from fanfold.core import numba_cache

    numba_cache.install()


    @njit(cache=True)
    def total(n):
        return n * {factor}
    """
)
PACKAGED_RUN = textwrap.dedent(
    """\
    import json
    import sys
    from pathlib import Path

    from fanfold.core import numba_cache

    package = Path(sys.argv[1])
    numba_cache.PACKAGE = package
    numba_cache.PACKAGED = package / "_compiled"
    numba_cache.ROOTS.append(package)
    sys.path.insert(0, str(package.parent))
    from probe_package.kernels import kernel

    value = kernel.total(7)
    stats = kernel.total.stats
    print(json.dumps([value, sum(stats.cache_hits.values()), sum(stats.cache_misses.values())]))
    """
)


def _run_packaged(package: Path, empty_cache: Path) -> list[int]:
    env = {**os.environ, "PYTHONPATH": str(SOURCE), "NUMBA_CACHE_DIR": str(empty_cache)}
    done = subprocess.run(
        [sys.executable, "-c", PACKAGED_RUN, str(package)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    found: list[int] = json.loads(done.stdout.splitlines()[-1])
    return found


@pytest.mark.slow
def test_the_packaged_cache_travels_with_the_package(tmp_path: Path) -> None:
    built = tmp_path / "build" / "probe_package"
    (built / "kernels").mkdir(parents=True)
    (built / "_compiled").mkdir()
    (built / "__init__.py").touch()
    (built / "kernels" / "__init__.py").touch()
    (built / "kernels" / "kernel.py").write_text(PACKAGED_KERNEL.format(factor=3))
    empty = tmp_path / "numba-cache"
    empty.mkdir()
    assert _run_packaged(built, empty) == [21, 0, 1]  # compiled, into the package
    assert list((built / "_compiled" / "kernels").glob("kernel.total-*.nbi"))
    # Installed elsewhere, every file written anew (new time stamps): loaded, not compiled.
    installed = tmp_path / "site" / "probe_package"
    shutil.copytree(built, installed, copy_function=shutil.copy)
    later = (installed / "kernels" / "kernel.py").stat().st_mtime + 1000
    for path in installed.rglob("*"):
        os.utime(path, (later, later))
    assert _run_packaged(installed, empty) == [21, 1, 0]
    assert not any(empty.iterdir())  # Numba's own cache folder was never used
    (installed / "kernels" / "kernel.py").write_text(PACKAGED_KERNEL.format(factor=5))
    assert _run_packaged(installed, empty) == [35, 0, 1]  # edited: compiled afresh
    assert _run_packaged(installed, empty) == [35, 1, 0]
