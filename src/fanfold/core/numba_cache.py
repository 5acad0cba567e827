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
"""

from __future__ import annotations

import ast
import enum
import hashlib
import inspect
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from numba.core.caching import (
    CacheImpl,
    InTreeCacheLocator,
    UserProvidedCacheLocator,
    UserWideCacheLocator,
)
from numba.core.dispatcher import Dispatcher

#: The folders whose files get the locators: fanfold's package.
ROOTS: list[Path] = [Path(__file__).resolve().parents[1]]

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
    function's file, a module's constants (or its file, for a module of compiled code)."""
    if isinstance(value, Dispatcher):
        return _file_print(Path(inspect.getfile(value.py_func)), stack)
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


def _file_print(path: Path, stack: tuple[Path, ...]) -> bytes:
    path = path.resolve()
    if path in stack:  # two compiled files importing each other: each is folded in once
        return b"cycle:" + str(path).encode()
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


#: The locators, in the order Numba tries its own.
LOCATORS = (ImportsUserProvidedLocator, ImportsInTreeLocator, ImportsUserWideLocator)


def install() -> None:
    """Put :data:`LOCATORS` in front of Numba's own (once a process)."""
    classes = CacheImpl._locator_classes
    for locator in reversed(LOCATORS):
        if locator not in classes:
            classes.insert(0, locator)
