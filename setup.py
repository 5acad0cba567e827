"""fanfold's build: everything is in ``pyproject.toml`` except one step. The exact rules pages
(``/rules/GAME/exact``) render the rules documents, ``docs/rules/GAME.md``, which live with the
other documents; a wheel carries a copy of them as package data of ``fanfold.server``
(``fanfold/server/rules_docs/``), so an installation from a wheel serves the same pages as a
source checkout. An editable installation reads them from the checkout itself.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: The rules documents, and where the wheel carries them (``fanfold.server.rules.PACKAGED``).
RULES = Path(__file__).resolve().parent / "docs" / "rules"
PACKAGED = ("fanfold", "server", "rules_docs")


class BuildWithRules(build_py):
    """``build_py`` that also copies ``docs/rules/*.md`` into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        documents = sorted(RULES.glob("*.md"))
        if not documents:
            raise SystemExit(f"no rules documents in {RULES}: the wheel would serve none")
        target = Path(self.build_lib, *PACKAGED)
        self.mkpath(str(target))
        for source in documents:
            self.copy_file(str(source), str(target / source.name))


setup(cmdclass={"build_py": BuildWithRules})
