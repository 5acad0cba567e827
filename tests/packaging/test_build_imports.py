"""The package's build compiles the bots' and the environments' kernels
(``python -m fanfold.agents.strategy.compiled --build``, run by ``setup.py``) in pip's isolated
build environment, which holds only ``[build-system]``'s requirements: every warm-up the build
runs must import nothing else (a module of the package that pulls in, say, ``rich`` through
``fanfold.play`` breaks every fresh install)."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Run in a process that sees only the package's sources and the build's requirements.
WARM_UPS = """
import importlib, sys
from fanfold.agents.strategy.compiled import all_warm_ups
for module in all_warm_ups().values():
    importlib.import_module(module).warm_up()
outside = {name.split(".")[0] for name in sys.modules} - set(sys.stdlib_module_names)
print(" ".join(sorted(name for name in outside if not name.startswith("_"))))
"""


def _build_requirements() -> list[str]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    names = [
        re.split(r"[<>=!~ \[;]", item, maxsplit=1)[0]
        for item in pyproject["build-system"]["requires"]
    ]
    return [name for name in names if name not in ("setuptools", "wheel")]


def _only_the_build_requirements(folder: Path) -> set[str]:
    """Links in ``folder`` to the installed files of the build's requirements (their top-level
    packages, libraries and metadata); the import names they give."""
    given: set[str] = set()
    for requirement in _build_requirements():
        distribution = importlib.metadata.distribution(requirement)
        tops = {
            Path(str(path)).parts[0]
            for path in distribution.files or ()
            if not str(path).startswith("..")
        }
        for top in tops:
            target = Path(str(distribution.locate_file(top)))
            link = folder / top
            if target.exists() and not link.exists():
                link.symlink_to(target)
                if not top.endswith((".dist-info", ".libs")):
                    given.add(top.removesuffix(".py").split(".")[0])
    return given


def test_the_builds_warm_ups_import_only_the_build_requirements(tmp_path: Path) -> None:
    given = _only_the_build_requirements(tmp_path)
    assert {"numba", "numpy"} <= given
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(tmp_path)]),
        "PYTHONNOUSERSITE": "1",
    }
    done = subprocess.run(
        [sys.executable, "-S", "-c", WARM_UPS],
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    imported = set(done.stdout.split())
    assert imported - given - {"fanfold", "cython_runtime"} == set(), imported
