"""The compiled kernels take the rules' constants from the rules modules (nothing restated), and
a change to one of them gives the kernels a new cache stamp (:mod:`fanfold.core.numba_cache`),
so that the next process compiles them afresh instead of loading stale machine code."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import numpy as np
import pytest

from fanfold.core import numba_cache
from fanfold.games.fano import cards
from fanfold.games.fano.fast.kernels import cards as kernel_cards

KERNELS = Path(kernel_cards.__file__).parent
FAST = KERNELS.parent
#: Each constant of the rules the kernels use, and the module that defines it.
RULES_CONSTANTS = {
    "HAND_SIZE": "fanfold.games.fano.rules.deck",
    "TRIBUTE_COST": "fanfold.games.fano.rules.specials",
    "TRIBUTE_CAP": "fanfold.games.fano.rules.specials",
    "JOKER_SUPPLY": "fanfold.games.fano.rules.specials",
    "FIELD_SLOTS": "fanfold.games.fano.rules.zones",
    "MAX_COMBAT": "fanfold.games.fano.cards",
    "WILD": "fanfold.games.fano.cards",
    "TEMP": "fanfold.games.fano.cards",
}


def _compiled_files() -> list[Path]:
    return sorted([*KERNELS.glob("*.py"), *FAST.glob("*.py")])


def _bindings(path: Path) -> tuple[set[str], dict[str, str]]:
    """The names a file assigns at module level, and those it imports (name -> module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assigned: set[str] = set()
    imported: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            assigned |= {target.id for target in targets if isinstance(target, ast.Name)}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported |= {alias.asname or alias.name: node.module for alias in node.names}
    return assigned, imported


def test_no_compiled_file_restates_a_rules_constant() -> None:
    restated = [
        f"{path.relative_to(FAST)}: {name}"
        for path in _compiled_files()
        for name in sorted(_bindings(path)[0] & RULES_CONSTANTS.keys())
    ]
    assert not restated, f"import these from the rules instead: {restated}"


def test_every_rules_constant_used_is_imported_from_its_rules_module() -> None:
    used: set[str] = set()
    for path in _compiled_files():
        names = {
            node.id
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Name) and node.id in RULES_CONSTANTS
        }
        imported = _bindings(path)[1]
        for name in names:
            assert imported.get(name) == RULES_CONSTANTS[name], f"{path.name} {name}"
        used |= names
    assert used == RULES_CONSTANTS.keys()


def test_the_plane_tables_are_the_cards_tables() -> None:
    for table, rows in (
        (kernel_cards.ATTACK_SUPPORT, cards.ATTACK_SUPPORT),
        (kernel_cards.LINE_THIRD, cards.LINE_THIRD),
    ):
        size = len(rows)
        assert np.array_equal(table[:size, :size], np.array(rows))
        assert not table[size:, :].any()
        assert not table[:, size:].any()


@pytest.mark.parametrize(
    ("module", "name", "changed"),
    [
        ("fanfold.games.fano.rules.specials", "TRIBUTE_CAP", 8),
        ("fanfold.games.fano.rules.deck", "HAND_SIZE", 4),
        ("fanfold.games.fano.cards", "LINE_THIRD", ((0,) * 8,) * 8),
    ],
)
def test_a_changed_rules_constant_changes_the_kernels_cache_stamp(
    monkeypatch: pytest.MonkeyPatch, module: str, name: str, changed: object
) -> None:
    files = [KERNELS / "apply.py", KERNELS / "moves.py", KERNELS / "playouts.py"]
    numba_cache.forget()
    before = [numba_cache.fingerprint(path) for path in files]
    monkeypatch.setattr(importlib.import_module(module), name, changed)
    numba_cache.forget()
    try:
        after = [numba_cache.fingerprint(path) for path in files]
    finally:
        monkeypatch.undo()
        numba_cache.forget()
    assert all(old != new for old, new in zip(before, after, strict=True))
    assert [numba_cache.fingerprint(path) for path in files] == before
