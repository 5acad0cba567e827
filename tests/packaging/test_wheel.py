"""The wheel: built by ``python -m build`` from the checkout, it holds every file the package
needs besides its modules and the compiled code (``fanfold/_compiled/``, tagged for its
platform), and installed without the network into a fresh virtual environment it serves every
page, the exact rules included, migrates its store, and plays its first ``hard`` decisions
without compiling anything. The source distribution carries no compiled code.

The wheel's build starts from the checkout's packaged cache (``src/fanfold/_compiled/``, which
``pip install -e .`` built), so it loads what is current there instead of compiling again."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
import tarfile
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


def _build(source: Path, kind: str, outdir: Path) -> None:
    """``python -m build --KIND`` (no network: this environment's setuptools and Numba)."""
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", f"--{kind}", "--outdir", str(outdir)],
        cwd=source,
        check=True,
        capture_output=True,
        timeout=1500,  # a wheel built without the checkout's cache compiles everything
    )


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout's sources (the build writes its folders there)."""
    source = tmp_path_factory.mktemp("build") / "source"
    source.mkdir()
    _copy_sources(source)
    return source


@pytest.fixture(scope="module")
def wheel(source: Path) -> Path:
    """The wheel ``python -m build --wheel`` makes from a copy of the checkout."""
    _build(source, "wheel", source.parent / "dist")
    (built,) = (source.parent / "dist").glob("fanfold-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed, which sees this environment's
    packages (the dependencies), not the network."""
    venv = tmp_path_factory.mktemp("installed") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    # This environment's packages after the new one's own: a path in a .pth file is put on
    # sys.path without reading the .pth files there (the checkout's editable install).
    own = venv.joinpath("lib", f"python{sys.version_info[0]}.{sys.version_info[1]}")
    outer = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    (own / "site-packages" / "outer_environment.pth").write_text("\n".join(outer) + "\n")
    subprocess.run(
        [venv / "bin" / "python", "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
         str(wheel)],
        check=True, capture_output=True, timeout=300, env=CLEAN,
    )  # fmt: skip
    return venv


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
    assert not [name for name in names if "__pycache__" in name]
    assert not [n for n in names if n.endswith(".nbi") and not n.startswith(COMPILED)]


#: The packaged compiled code's folder in the wheel.
COMPILED = "fanfold/_compiled/"


def test_wheel_holds_the_compiled_code_and_is_tagged_for_its_platform(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    names = set(archive.namelist())
    manifest = json.loads(archive.read(f"{COMPILED}manifest.json"))
    assert set(manifest["games"]) == {
        "fano",
        "fantan",
        "fantan-env",
        "fano-env",
        "fan-env",
        "morris-env",
    }
    assert manifest["python"] == sys.implementation.cache_tag
    indexes = {name.rpartition("/")[0] for name in names if name.endswith(".nbi")}
    assert f"{COMPILED}games/fano/fast/kernels" in indexes
    assert f"{COMPILED}agents/strategy" in indexes
    assert f"{COMPILED}envs" in indexes  # the environments' compiled stepping
    assert any(name.endswith(".nbc") for name in names)
    platform_tag = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert wheel.name.endswith(f"-{platform_tag}.whl"), wheel.name
    assert "-none-any" not in wheel.name
    (info,) = [name for name in names if name.endswith(".dist-info/WHEEL")]
    assert "Root-Is-Purelib: false" in archive.read(info).decode()


def test_the_source_distribution_carries_no_compiled_code(source: Path) -> None:
    (source / "src" / "fanfold" / "_compiled").mkdir(exist_ok=True)
    (source / "src" / "fanfold" / "_compiled" / "stale.nbi").touch()
    _build(source, "sdist", source.parent / "sdist")
    (built,) = (source.parent / "sdist").glob("fanfold-*.tar.gz")
    with tarfile.open(built) as archive:
        names = archive.getnames()
    assert any(name.endswith("src/fanfold/agents/strategy/compiled.py") for name in names)
    assert not [name for name in names if "_compiled" in name]


#: Run by the virtual environment's Python with an empty Numba cache folder and an empty
#: record: the first ``hard`` decision of each game and Fan Tan tables stepped on the compiled
#: engine, recording Numba's compile events and the subprocesses started.
FIRST_DECISIONS = """
import json, subprocess, sys
from numba.core import event
import fanfold
from fanfold.agents import create_agent
from fanfold.agents.strategy import compiled
from fanfold.core.registry import get_game

started = []
popen = subprocess.Popen
class Counted(popen):
    def __init__(self, *args, **kwargs):
        started.append(str(args[0]))
        super().__init__(*args, **kwargs)
subprocess.Popen = Counted
ready = {name: compiled.packaged(name) for name in compiled.all_warm_ups()}
with event.install_recorder("numba:compile") as recorded:
    for name, preset in (("fano", "classic"), ("fano", "trionfey"), ("fantan", "")):
        game = get_game(name)
        config = game.preset(preset).config if preset else game.default_config()
        state = game.new_state(config, 1)
        agent = create_agent("hard", game, 1)
        agent.prepare(config, lambda line: None)
        seat = game.current_player(state)
        agent.choose(game.observe(state, seat), list(game.legal_actions(state)))
    from fanfold.envs import fan_stepping, fano_stepping, fantan_stepping, morris_stepping
    for name, module in (("fantan-env", fantan_stepping), ("fano-env", fano_stepping),
                         ("fan-env", fan_stepping), ("morris-env", morris_stepping)):
        compiled.prepare(name)
        module.warm_up()
compiles = sorted({str(e.data["dispatcher"]) for _, e in recorded.buffer if e.is_start})
print(json.dumps({"file": fanfold.__file__, "ready": ready, "compiles": compiles,
                  "started": started}))
"""


def _files(folder: Path) -> dict[str, int]:
    return {str(path): path.stat().st_mtime_ns for path in folder.rglob("*") if path.is_file()}


def test_installed_wheel_plays_hard_at_once_without_compiling(venv: Path, tmp_path: Path) -> None:
    cache = tmp_path / "numba"
    cache.mkdir()
    env = {**CLEAN, "NUMBA_CACHE_DIR": str(cache)}
    env["FANFOLD_COMPILED_RECORD"] = str(tmp_path / "compiled.json")
    env.pop("NUMBA_CPU_NAME", None)
    env.pop("NUMBA_CPU_FEATURES", None)
    (packaged,) = venv.glob("lib/python*/site-packages/fanfold/_compiled")
    before = _files(packaged)
    answer = subprocess.run(
        [venv / "bin" / "python", "-c", FIRST_DECISIONS],
        cwd=tmp_path, env=env, check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    found = json.loads(answer.stdout.splitlines()[-1])
    assert Path(found["file"]).is_relative_to(venv), found["file"]
    assert found["ready"] == dict.fromkeys(
        ("fano", "fantan", "fantan-env", "fano-env", "fan-env", "morris-env"), True
    )
    assert found["compiles"] == []
    assert found["started"] == []  # no compiling subprocess
    assert not any(cache.iterdir())
    assert not (tmp_path / "compiled.json").exists()
    assert _files(packaged) == before  # nothing compiled and written there either


def test_installed_wheel_serves_every_page(venv: Path, tmp_path: Path) -> None:
    python = venv / "bin" / "python"
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
