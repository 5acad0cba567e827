"""The wheel: built the way a release is (``python -m build``: a source distribution, then a
wheel from it), it holds every file the package needs besides its modules, and installed
without the network into a fresh virtual environment it serves every page, the exact rules
included, and migrates its store."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

#: The subprocesses' environment: without ``PYTHONPATH`` (a test run may point it at ``src``).
CLEAN = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}

ROOT = Path(__file__).resolve().parents[2]
#: What the build reads (a copy is built, so that the checkout gets no build folders).
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "src", "docs/rules")

pytestmark = pytest.mark.slow

#: Run by the virtual environment's Python: the pages it serves, and where fanfold came from.
SERVE = """
import json, sys
from fastapi.testclient import TestClient
import fanfold
from fanfold.server.app import create_app
pages = {}
with TestClient(create_app(f"sqlite:///{sys.argv[1]}", resume=False)) as client:
    for path in sys.argv[2:]:
        answer = client.get(path)
        pages[path] = [answer.status_code, answer.text]
print(json.dumps({"file": fanfold.__file__, "pages": pages}))
"""
PAGES = (
    "/",
    "/rules/fano/exact",
    "/rules/fantan/exact",
    "/rules/morris/exact",
    "/rules/fan/exact",
    "/how-to-play/fano",
    "/learn/fano",
    "/static/fanfold.css",
    "/static/games/fano.js",
)


def _copy_sources(target: Path) -> None:
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
            )
        else:
            shutil.copy2(source, target / name)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel ``python -m build`` makes from a copy of the checkout (no network: the build
    uses this environment's setuptools)."""
    work = tmp_path_factory.mktemp("build")
    source = work / "source"
    source.mkdir()
    _copy_sources(source)
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(work / "dist"), "."],
        cwd=source,
        check=True,
        capture_output=True,
        timeout=600,
    )
    (built,) = (work / "dist").glob("fanfold-*.whl")
    return built


def _package_files() -> set[str]:
    """The files of fanfold's package folders in the checkout that are not modules."""
    listed = subprocess.run(
        ["git", "ls-files", "src/fanfold"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    return {
        name.removeprefix("src/")
        for name in listed
        if not name.endswith(".py") and (ROOT / name).is_file()
    }


def test_wheel_holds_the_package_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = _package_files() - names
    assert not missing, f"the wheel lacks {sorted(missing)}"
    documents = {f"fanfold/server/rules_docs/{p.name}" for p in (ROOT / "docs/rules").glob("*.md")}
    assert documents
    assert documents <= names
    assert not [name for name in names if "__pycache__" in name or name.endswith(".nbi")]


def test_installed_wheel_serves_every_page(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    # The environment sees this one's packages (the dependencies), not the network.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
        env=CLEAN,
    )
    store = tmp_path / "store.db"
    answer = subprocess.run(
        [python, "-c", SERVE, str(store), *PAGES],
        cwd=tmp_path,  # not the checkout: fanfold must come from the wheel
        env=CLEAN,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    served = json.loads(answer.stdout.splitlines()[-1])
    assert Path(served["file"]).is_relative_to(venv), served["file"]
    pages = served["pages"]
    assert {path: status for path, (status, _) in pages.items()} == dict.fromkeys(PAGES, 200)
    for name in ("fano", "fantan", "morris", "fan"):
        text = (ROOT / "docs" / "rules" / f"{name}.md").read_text("utf-8")
        heading = text.splitlines()[0].removeprefix("# ").split(":")[0]
        page = pages[f"/rules/{name}/exact"][1]
        assert "not installed here" not in page
        assert f"<h1>{heading}" in page
        assert len(page) > len(text) / 2
    with sqlite3.connect(store) as migrated:  # Alembic's migrations ran from the wheel
        (version,) = migrated.execute("SELECT version_num FROM alembic_version").fetchone()
    assert version
    helped = subprocess.run(
        [venv / "bin" / "fanfold", "--help"], env=CLEAN, capture_output=True, text=True, timeout=120
    )
    assert helped.returncode == 0
    assert "serve" in helped.stdout
