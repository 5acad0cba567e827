"""Numba's cache, kept fresh when what a compiled file imports changes.

Numba keeps each ``@njit(cache=True)`` function's machine code in a cache keyed on the text of
the function's own file. A constant imported from another module (Fano's hand size from its
rules) is frozen into that machine code, and so is a compiled function imported from another
file: changing either leaves the cache stale, and the old code would keep running.

:func:`install` puts cache locators in front of Numba's own, for fanfold's files only (and any
folder added to :data:`ROOTS`), whose source stamp is the file's own stamp together with
:func:`fingerprint`: the values of the constants the file imports from fanfold modules, and the
fingerprints of the files of the compiled functions and compiled modules it imports. A change
to any of them makes the next process compile afresh; nothing else changes where the cache
lives or what it holds. Every file of compiled kernels calls :func:`install` before its first
``@njit``.

Two more things make the compiled code travel, so that an installation can ship it ready
(``setup.py`` builds it into the package, docs/fast/install.md):

* **The packaged cache.** :class:`PackagedLocator`, first in Numba's list, keeps the cache of
  fanfold's own files in the package folder :data:`PACKAGED` (``fanfold/_compiled/``, one folder
  per folder of compiled files) whenever that folder exists and is writable (and
  ``FANFOLD_NO_PACKAGED_CACHE`` is not set), with the file's
  content fingerprint as its stamp (no time stamp, no absolute path: a wheel installs the files
  anew and elsewhere). Elsewhere Numba's own folders serve as before.
* **A portable CPU target.** Numba keys cached code on the CPU's name and features, and code
  built for this machine's CPU is ignored on another. Importing this module sets the target of
  every compile in the process (``NUMBA_CPU_NAME``, ``NUMBA_CPU_FEATURES``) to
  :func:`portable_target`: ``x86-64-v2`` on an x86-64 CPU that has its features, ``generic`` on
  other architectures, and this CPU's own where it lacks them, unless ``NUMBA_CPU_NAME`` is set
  already (by the person running, or by a fanfold parent process) or Numba compiled something in
  this process before (its target is fixed then). Every file of compiled kernels imports this
  module before its first ``@njit``.
"""

from __future__ import annotations

import ast
import enum
import hashlib
import inspect
import os
import platform
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from numba.core import config as _config
from numba.core.caching import (
    CacheImpl,
    InTreeCacheLocator,
    UserProvidedCacheLocator,
    UserWideCacheLocator,
    _CacheLocator,
)
from numba.core.dispatcher import Dispatcher
from numba.core.extending import _Intrinsic
from numba.core.registry import cpu_target

#: Numba's settings (read from its ``NUMBA_*`` variables).
config: Any = _config

#: fanfold's package folder.
PACKAGE = Path(__file__).resolve().parents[1]
#: The folders whose files get the locators: fanfold's package.
ROOTS: list[Path] = [PACKAGE]
#: The compiled code shipped inside the package (:class:`PackagedLocator`).
PACKAGED = PACKAGE / "_compiled"
#: Set to 1 to neither build (``setup.py``) nor use the packaged cache: fanfold's code then
#: compiles on first use into Numba's own cache folders.
NO_PACKAGED = "FANFOLD_NO_PACKAGED_CACHE"


def packaged_enabled() -> bool:
    """Whether the packaged cache may be used (:data:`NO_PACKAGED` is not set)."""
    return os.environ.get(NO_PACKAGED, "") in ("", "0")


#: The portable target on x86-64, and what a CPU needs for it (LLVM's feature names): SSE3,
#: SSSE3, SSE4.1, SSE4.2, POPCNT, CMPXCHG16B and LAHF/SAHF, every x86-64 CPU since about 2009.
X86_64_V2 = "x86-64-v2"
X86_64_V2_FEATURES = ("cx16", "popcnt", "sahf", "sse3", "sse4.1", "sse4.2", "ssse3")
#: The portable target on other architectures.
GENERIC = "generic"
#: Numba's variables for the target (read again by Numba before each compile).
CPU_NAME = "NUMBA_CPU_NAME"
CPU_FEATURES = "NUMBA_CPU_FEATURES"


def portable_target(machine: str, features: Mapping[str, bool]) -> str | None:
    """The CPU target fanfold's kernels are built for on a ``machine`` (``platform.machine()``)
    whose CPU has ``features`` (LLVM's names): ``x86-64-v2`` on x86-64 when the CPU has every
    feature of it, ``None`` (this CPU's own target) when it lacks one, ``generic`` on other
    architectures."""
    if machine.lower() in ("x86_64", "amd64"):
        has_all = all(features.get(name, False) for name in X86_64_V2_FEATURES)
        return X86_64_V2 if has_all else None
    return GENERIC


def _host_features() -> dict[str, bool]:
    import llvmlite.binding as llvm

    try:
        return dict(llvm.get_host_cpu_features())
    except RuntimeError:  # LLVM cannot tell on this platform
        return {}


def use_portable_target() -> None:
    """Make this process compile (and load) for :func:`portable_target`, unless
    ``NUMBA_CPU_NAME`` is set already or Numba's CPU target is set up already (it compiled or
    decorated something: its target is fixed for the process)."""
    if CPU_NAME in os.environ or "_toplevel_target_context" in vars(cpu_target):
        return
    name = portable_target(platform.machine(), _host_features())
    if name is None:
        return
    os.environ[CPU_NAME] = name
    os.environ[CPU_FEATURES] = ""  # the target's own features, no more
    config.reload_config()


def target() -> tuple[str, str]:
    """The CPU name and features this process compiles for (part of each cache entry's key)."""
    import llvmlite.binding as llvm
    from numba.core import codegen

    name = config.CPU_NAME or llvm.get_host_cpu_name()
    features = config.CPU_FEATURES
    if features is None:
        features = getattr(codegen, "get_host_cpu_features")()  # noqa: B009 (untyped)
    return str(name), str(features)


_CONSTANTS = (bool, int, float, complex, str, bytes, type(None), np.generic, enum.Enum)


def _inside(path: str | Path) -> bool:
    resolved = Path(path).resolve()
    return any(resolved.is_relative_to(root) for root in ROOTS)


def _module_level_imports(tree: ast.Module) -> list[tuple[str, str | None]]:
    """``(module, name)`` for each ``from module import name`` at module level, and
    ``(module, None)`` for each ``import module`` (compiled code reads module globals only)."""
    found: list[tuple[str, str | None]] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
    return found


def _is_compiled_module(module: ModuleType) -> bool:
    return any(isinstance(value, Dispatcher) for value in vars(module).values())


def _value_print(value: Any, stack: tuple[Path, ...]) -> bytes:
    """What of ``value`` compiled code may have frozen: a constant's value, a compiled
    function's or an intrinsic's file, a module's constants (or its file, for a module of
    compiled code)."""
    if isinstance(value, Dispatcher):
        return _file_print(Path(inspect.getfile(value.py_func)), stack)
    if isinstance(value, _Intrinsic):  # its code generation is inlined into the caller's
        return _file_print(Path(inspect.getfile(value._defn)), stack)
    if isinstance(value, ModuleType):
        file = getattr(value, "__file__", None)
        if file is None or not _inside(file):
            return value.__name__.encode()
        if _is_compiled_module(value):
            return _file_print(Path(file), stack)
        return b"".join(
            name.encode() + b"=" + _value_print(item, stack)
            for name, item in sorted(vars(value).items())
            if not name.startswith("__") and not isinstance(item, ModuleType)
        )
    if isinstance(value, np.ndarray):
        return repr((value.dtype.str, value.shape)).encode() + value.tobytes()
    if isinstance(value, tuple | list | frozenset):
        items = sorted(value, key=repr) if isinstance(value, frozenset) else value
        return b"(" + b",".join(_value_print(item, stack) for item in items) + b")"
    if isinstance(value, _CONSTANTS):
        return repr(value).encode()
    # A function, class or other object: compiled code cannot freeze it; its name will do.
    return getattr(value, "__qualname__", type(value).__qualname__).encode()


def _relative(path: Path) -> str:
    """``path`` from the root that holds it (a fingerprint must not depend on where fanfold is
    installed: the packaged cache travels with the package)."""
    for root in ROOTS:
        if path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    return str(path)


def _file_print(path: Path, stack: tuple[Path, ...]) -> bytes:
    path = path.resolve()
    if path in stack:  # two compiled files importing each other: each is folded in once
        return b"cycle:" + _relative(path).encode()
    known = _PRINTS.get(path)
    if known is None:
        known = _PRINTS[path] = _compute(path, (*stack, path))
    return known


#: Fingerprints computed in this process, by file.
_PRINTS: dict[Path, bytes] = {}


def fingerprint(path: Path) -> bytes:
    """The SHA-256 of ``path``'s text, of the constants it imports from modules under
    :data:`ROOTS` and of the fingerprints of the compiled files it imports from (computed once
    a process: :func:`forget` starts again)."""
    return _file_print(path, ())


def _compute(path: Path, stack: tuple[Path, ...]) -> bytes:
    text = path.read_bytes()
    digest = hashlib.sha256(text)
    for module_name, name in _module_level_imports(ast.parse(text)):
        module = sys.modules.get(module_name)
        if module is None or not _inside(getattr(module, "__file__", None) or "/"):
            continue
        value = module if name is None else getattr(module, name, None)
        digest.update(f"{module_name}:{name}=".encode())
        digest.update(_value_print(value, stack))
    return digest.digest()


def forget() -> None:
    """Compute every fingerprint afresh (after a constant was changed in this process)."""
    _PRINTS.clear()


class _ImportsStamp:
    """Folds :func:`fingerprint` into a source-file locator's stamp, for files under
    :data:`ROOTS` only (others are left to Numba's own locators)."""

    _py_file: str

    def get_source_stamp(self) -> Any:
        own = super().get_source_stamp()  # type: ignore[misc]
        return (own, fingerprint(Path(self._py_file)))

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if not _inside(py_file):
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]


class ImportsUserProvidedLocator(_ImportsStamp, UserProvidedCacheLocator):
    """Numba's ``NUMBA_CACHE_DIR`` locator with the imports' fingerprint."""


class ImportsInTreeLocator(_ImportsStamp, InTreeCacheLocator):
    """Numba's ``__pycache__`` locator with the imports' fingerprint."""


class ImportsUserWideLocator(_ImportsStamp, UserWideCacheLocator):
    """Numba's user-wide locator with the imports' fingerprint."""


class PackagedLocator(_CacheLocator):
    """The cache of a file of fanfold's package in the package itself: in :data:`PACKAGED`,
    under the file's folder relative to the package (``_compiled/games/fano/fast/kernels``),
    stamped with the file's :func:`fingerprint` alone (its content and what it imports, never a
    time stamp or a path). Used for every file of the package when :data:`PACKAGED` exists and
    is writable (Numba writes there what it compiles afresh) and :data:`NO_PACKAGED` is not
    set; otherwise the next locator."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        folder = Path(py_file).resolve().parent.relative_to(PACKAGE)
        self._cache_path = str(PACKAGED.joinpath(*folder.parts))

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> Any:
        return fingerprint(Path(self._py_file))

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if not packaged_enabled() or not PACKAGED.is_dir():
            return None
        if not Path(py_file).resolve().is_relative_to(PACKAGE):
            return None
        locator = cls(py_func, py_file)
        try:
            locator.ensure_cache_path()  # type: ignore[no-untyped-call]
        except OSError:  # a read-only installation: Numba's user-wide cache instead
            return None
        return locator


#: ``njit``'s options for a kernel that allocates nothing (``@njit(**UNCOUNTED)``): cached, and
#: compiled without Numba's reference counts, which otherwise count every array it is passed
#: (an atomic count up and one down a call: most of the time of the ladder's small kernels).
#: Numba refuses to compile such a kernel if it allocates.
UNCOUNTED: dict[str, Any] = {"cache": True, "_nrt": False}

#: ``@njit(**COUNTED)``: the options of a kernel that allocates and is called from an
#: uncounted one: a kernel typed while an uncounted caller is compiled inherits its
#: ``_nrt=False`` unless it sets the option itself.
COUNTED: dict[str, Any] = {"cache": True, "_nrt": True}

#: The locators, in the order they are tried: the packaged cache, then Numba's own order.
LOCATORS = (
    PackagedLocator,
    ImportsUserProvidedLocator,
    ImportsInTreeLocator,
    ImportsUserWideLocator,
)


def install() -> None:
    """Put :data:`LOCATORS` in front of Numba's own (once a process)."""
    use_portable_target()
    classes = CacheImpl._locator_classes
    for locator in reversed(LOCATORS):
        if locator not in classes:
            classes.insert(0, locator)


use_portable_target()
