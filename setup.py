"""fanfold's build: everything is in ``pyproject.toml`` except two steps of ``build_py``.

* **The rules documents.** The exact rules pages (``/rules/GAME/exact``) render
  ``docs/rules/GAME.md``, which live with the other documents; a wheel carries a copy of them as
  package data of ``fanfold.server`` (``fanfold/server/rules_docs/``), so an installation from a
  wheel serves the same pages as a source checkout. An editable installation reads them from
  the checkout itself.
* **The compiled code.** Fano's and Fan Tan's compiled searches take minutes to compile, so the
  package carries them ready: every game's warm-up runs in a subprocess
  (``python -m fanfold.agents.strategy.compiled --build``) with the package being built first on
  the path, and Numba keeps what it compiles in the package folder ``fanfold/_compiled/`` (built
  for a portable CPU target; ``fanfold.core.numba_cache``, docs/fast.md). A wheel's build starts
  from the checkout's ``src/fanfold/_compiled/`` when an editable install made one, so what is
  current there is loaded, not compiled twice. An editable install builds it in the checkout
  (git ignores it). Set ``FANFOLD_NO_PACKAGED_CACHE=1`` to skip this step (at run time, that
  variable also leaves the packaged code unused): the code then compiles on first use.
* **The solved Morris tables.** The perfect player and the Morris bots read a solved table per
  variant (``fanfold.solvers.morris``), which takes from seconds to a minute to solve, so the
  package carries every variant's: ``python -m fanfold.solvers.morris --package DIR`` (in a
  subprocess, the package being built first on the path) writes them into the package folder
  ``fanfold/_solved/``, one file per variant named by it and by the table format's version
  (``morris-geometric-v1.npz``), each with a SHA-256 of its arrays that loading checks
  (docs/solvers/morris.md). A file already there that passes its checks is kept; a missing one
  is copied from the user cache when a valid one is there, else solved. A wheel's build starts
  from the checkout's ``src/fanfold/_solved/`` (an editable install's; git ignores it). Set
  ``FANFOLD_NO_PACKAGED_TABLES=1`` to skip this step (at run time, that variable also leaves the
  packaged tables unused): a table is then solved on first use and cached. The two variables are
  separate: either step runs without the other.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: The rules documents, and where the wheel carries them (``fanfold.server.rules.PACKAGED``).
RULES = ROOT / "docs" / "rules"
PACKAGED = ("fanfold", "server", "rules_docs")
#: The packaged compiled code's folder in the package (``fanfold.core.numba_cache.PACKAGED``).
COMPILED = ("fanfold", "_compiled")
#: Set to 1 to build without compiling (``fanfold.core.numba_cache.NO_PACKAGED``).
SKIP = "FANFOLD_NO_PACKAGED_CACHE"
#: The packaged solved Morris tables' folder (``fanfold.solvers.morris.PACKAGED_DIR``).
SOLVED = ("fanfold", "_solved")
#: Set to 1 to build without the solved tables (``fanfold.solvers.morris.NO_PACKAGED_TABLES``).
SKIP_TABLES = "FANFOLD_NO_PACKAGED_TABLES"


def _skipped(variable: str) -> bool:
    return os.environ.get(variable, "") not in ("", "0")


def _run_in(package_parent: Path, module: str, *arguments: str) -> int:
    """Run ``python -m MODULE ARGUMENTS`` with the ``fanfold`` package in ``package_parent``
    first on the path, printing its lines as they come (``pip install -v`` shows them);
    returns its exit status."""
    package_parent = package_parent.resolve()  # the build folder is relative to the checkout
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(package_parent), *filter(None, [env.get("PYTHONPATH")])]
    )
    env.pop("NUMBA_DISABLE_JIT", None)
    process = subprocess.Popen(
        [sys.executable, "-m", module, *arguments],
        env=env,
        cwd=package_parent,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    for line in process.stdout:
        print(f"fanfold: {line.rstrip()}", flush=True)
    return process.wait()


def solve_into(package_parent: Path) -> None:
    """Make the ``fanfold`` package in ``package_parent`` carry every variant's solved Morris
    table (``python -m fanfold.solvers.morris --package``), printing its progress lines."""
    if _skipped(SKIP_TABLES):
        print(f"fanfold: {SKIP_TABLES} is set: the Morris tables are not built into the package")
        return
    folder = package_parent.resolve().joinpath(*SOLVED)
    print(f"fanfold: building the solved Morris tables into {folder}", flush=True)
    status = _run_in(package_parent, "fanfold.solvers.morris", "--package", str(folder))
    if status != 0:
        raise SystemExit(
            f"fanfold: building the Morris tables failed (exit status {status}); "
            f"set {SKIP_TABLES}=1 to build without them"
        )


def compile_into(package_parent: Path) -> None:
    """Run ``fanfold.agents.strategy.compiled --build`` for the ``fanfold`` package in
    ``package_parent``, printing its progress lines (``pip install -v`` shows them)."""
    if _skipped(SKIP):
        print(f"fanfold: {SKIP} is set: the compiled code is not built into the package")
        return
    folder = package_parent.joinpath(*COMPILED)
    folder.mkdir(exist_ok=True)  # before anything compiled is imported: Numba then uses it
    print(f"fanfold: building the compiled code into {folder} (minutes the first time)")
    started = time.monotonic()
    status = _run_in(package_parent, "fanfold.agents.strategy.compiled", "--build")
    if status != 0:
        raise SystemExit(
            f"fanfold: building the compiled code failed (exit status {status}); "
            f"set {SKIP}=1 to build without it"
        )
    print(f"fanfold: compiled code built in {time.monotonic() - started:.0f} s", flush=True)


class BuildPy(build_py):
    """``build_py`` that also copies ``docs/rules/*.md`` into the built package and builds the
    solved Morris tables and the compiled code into it (into the checkout's package for an
    editable install)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            solve_into(ROOT / "src")
            compile_into(ROOT / "src")
            return
        documents = sorted(RULES.glob("*.md"))
        if not documents:
            raise SystemExit(f"no rules documents in {RULES}: the wheel would serve none")
        target = Path(self.build_lib, *PACKAGED)
        self.mkpath(str(target))
        for source in documents:
            self.copy_file(str(source), str(target / source.name))
        built = Path(self.build_lib).joinpath(*COMPILED)
        checkout = ROOT.joinpath("src", *COMPILED)
        if checkout.is_dir() and not built.exists():
            shutil.copytree(checkout, built)  # an editable install's: loaded where current
        solved = Path(self.build_lib).joinpath(*SOLVED)
        tables = ROOT.joinpath("src", *SOLVED)
        if tables.is_dir() and not solved.exists():  # an editable install's: kept where current
            shutil.copytree(tables, solved, ignore=shutil.ignore_patterns(".*"))
        solve_into(Path(self.build_lib))
        compile_into(Path(self.build_lib))


class PlatformDistribution(Distribution):
    """The wheel carries machine code for one platform (and one Python, whose version Numba's
    cache files name): not a pure wheel."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildPy}, distclass=PlatformDistribution)
