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


def compile_into(package_parent: Path) -> None:
    """Run ``fanfold.agents.strategy.compiled --build`` for the ``fanfold`` package in
    ``package_parent``, printing its progress lines (``pip install -v`` shows them)."""
    if os.environ.get(SKIP, "") not in ("", "0"):
        print(f"fanfold: {SKIP} is set: the compiled code is not built into the package")
        return
    folder = package_parent.joinpath(*COMPILED)
    folder.mkdir(exist_ok=True)  # before anything compiled is imported: Numba then uses it
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(package_parent), *filter(None, [env.get("PYTHONPATH")])]
    )
    env.pop("NUMBA_DISABLE_JIT", None)
    print(f"fanfold: building the compiled code into {folder} (minutes the first time)")
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "fanfold.agents.strategy.compiled", "--build"],
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
    if process.wait() != 0:
        raise SystemExit(
            f"fanfold: building the compiled code failed (exit status {process.returncode}); "
            f"set {SKIP}=1 to build without it"
        )
    print(f"fanfold: compiled code built in {time.monotonic() - started:.0f} s", flush=True)


class BuildPy(build_py):
    """``build_py`` that also copies ``docs/rules/*.md`` into the built package and builds the
    compiled code into it (into the checkout's package for an editable install)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
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
        compile_into(Path(self.build_lib))


class PlatformDistribution(Distribution):
    """The wheel carries machine code for one platform (and one Python, whose version Numba's
    cache files name): not a pure wheel."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildPy}, distclass=PlatformDistribution)
