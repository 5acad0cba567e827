"""A fresh installation's cold start: seconds from a command's start to the first decision of
the full-strength ``hard`` bot, and to ``fanfold serve`` having its compiled search ready.

Builds a wheel of this checkout (``python -m build --no-isolation --wheel``: the build puts the
compiled code in the package, starting from the checkout's ``src/fanfold/_compiled`` when an
editable install made one), installs it without its dependencies into a fresh virtual
environment that sees this environment's packages, and runs each case in a new process with an
empty Numba cache (``NUMBA_CACHE_DIR``) and an empty record of compiles
(``FANFOLD_COMPILED_RECORD``), as a first ``pip install`` would, then once more (warm):

* ``fano classic`` / ``fano trionfey``: ``hard`` prepares (compiles in a subprocess, says so,
  unless the package carries the compiled code), then chooses the first move of a 2-player game;
* ``fantan``: the same for Fan Tan's ``hard`` (4 players);
* ``serve``: ``fanfold serve`` from its start until it answers and says that every compiled
  search is ready (its bots play the ``medium`` level before that, which does not count here);
  ``--no-serve`` leaves it out;
* ``fanfold --help``.

``--without-packaged`` runs the cases with ``FANFOLD_NO_PACKAGED_CACHE=1``: the packaged code
unused, everything compiled on first use, as before the package carried it (minutes for Fano on
a 2-core machine).

Run: ``python3 benchmarks/cold_start.py`` (``--cases fantan,help`` for some of them). Prints a
table.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What the first-decision cases run in the installed package.
FIRST_DECISION = """
import sys
from fanfold.agents import create_agent
from fanfold.core.registry import get_game
game = get_game(sys.argv[1])
config = game.preset(sys.argv[2]).config if sys.argv[2] else game.default_config()
state = game.new_state(config, 1)
agent = create_agent("hard", game, 1)
agent.prepare(config, lambda line: print(line, file=sys.stderr, flush=True))
seat = game.current_player(state)
legal = list(game.legal_actions(state))
agent.choose(game.observe(state, seat), legal)
"""
#: name: (game, preset)
DECISIONS = {
    "fano classic": ("fano", "classic"),
    "fano trionfey": ("fano", "trionfey"),
    "fantan": ("fantan", ""),
}
READY = "is ready: hard bots play at full strength"


def _wheel(work: Path) -> Path:
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "src", "docs/rules"):
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, source / name)
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(work)],
        cwd=source,
        check=True,
        capture_output=True,
    )
    (wheel,) = work.glob("fanfold-*.whl")
    return wheel


def _venv(work: Path, wheel: Path) -> Path:
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    subprocess.run(
        [venv / "bin" / "python", "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
        check=True,
    )
    return venv


def _environment(cache: Path, packaged: bool) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["NUMBA_CACHE_DIR"] = str(cache / "numba")
    env["FANFOLD_COMPILED_RECORD"] = str(cache / "compiled.json")
    if not packaged:
        env["FANFOLD_NO_PACKAGED_CACHE"] = "1"
    return env


def _timed(command: list[str | Path], env: dict[str, str], cwd: Path) -> float:
    started = time.monotonic()
    subprocess.run(command, env=env, cwd=cwd, check=True, capture_output=True)
    return time.monotonic() - started


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def _serve(venv: Path, env: dict[str, str], cwd: Path) -> float:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = cwd / "serve.log"
    started = time.monotonic()
    with log.open("w") as written:
        server = subprocess.Popen(
            [venv / "bin" / "fanfold", "serve", "--port", str(port), "--db",
             f"sqlite:///{cwd / 'serve.db'}"],
            env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=written,
        )  # fmt: skip
    try:
        while True:
            said = log.read_text()
            if server.poll() is not None:
                raise RuntimeError(f"fanfold serve stopped: {said}")
            if _answers(port):
                waiting = [line for line in said.splitlines() if "Until it is compiled" in line]
                games = waiting[0].count(" and ") + 1 if waiting else 0
                if said.count(READY) >= games:
                    return time.monotonic() - started
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default="fano classic,fano trionfey,fantan,serve,help")
    parser.add_argument("--no-serve", action="store_true")
    parser.add_argument(
        "--without-packaged", action="store_true", help="compile on first use, as before"
    )
    options = parser.parse_args()
    cases = [case.strip() for case in options.cases.split(",") if case.strip()]
    if options.no_serve:
        cases = [case for case in cases if case != "serve"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
        f"load average {load:.1f} at the start"
    )
    with tempfile.TemporaryDirectory(prefix="fanfold-cold-") as folder:
        work = Path(folder)
        started = time.monotonic()
        venv = _venv(work, _wheel(work))
        print(f"wheel built and installed in a fresh venv: {time.monotonic() - started:.1f} s")
        print(f"{'case':<16}{'fresh install':>20}{'warm':>10}")
        for number, case in enumerate(cases):
            cache = work / f"cache{number}"
            (cache / "numba").mkdir(parents=True)
            env = _environment(cache, packaged=not options.without_packaged)
            figures = []
            for _ in ("cold", "warm"):
                if case == "serve":
                    figures.append(_serve(venv, env, cache))
                elif case == "help":
                    figures.append(_timed([venv / "bin" / "fanfold", "--help"], env, cache))
                else:
                    game, preset = DECISIONS[case]
                    python = venv / "bin" / "python"
                    command: list[str | Path] = [python, "-c", FIRST_DECISION, game, preset]
                    figures.append(_timed(command, env, cache))
            print(f"{case:<16}{figures[0]:>18.1f} s{figures[1]:>8.1f} s", flush=True)


if __name__ == "__main__":
    main()
