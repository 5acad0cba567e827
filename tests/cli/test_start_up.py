"""``fanfold --help`` starts quickly: the agents, the play layer, the solvers and NumPy are
imported by the commands that use them, not at start-up."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src"
#: Modules ``fanfold --help`` must not load (each costs tens to hundreds of milliseconds).
HEAVY = ("fanfold.agents", "fanfold.play", "fanfold.solvers.morris", "fanfold.balance", "numpy")


#: ``fanfold ARGUMENTS`` as the installed script runs it.
_MAIN = (
    "import sys\n"
    "sys.argv = ['fanfold', *{arguments!r}]\n"
    "from fanfold.cli.app import main\n"
    "try:\n"
    "    main()\n"
    "except SystemExit:\n"
    "    pass\n"
)


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SOURCE), *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )


def test_help_loads_no_agents_play_layer_solver_or_numpy() -> None:
    code = (
        "import sys\n"
        "from fanfold.cli.app import app\n"
        "try:\n"
        "    app(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted(m for m in sys.modules if m.startswith({HEAVY!r})))\n"
    )
    loaded = _run(code).stdout.strip().splitlines()[-1]
    assert loaded == "[]"


def test_help_answers_within_a_generous_bound() -> None:
    # The aim is 0.5 s (benchmarks/cold_start.py measures the wall time); the processor time of
    # the command is counted here, with room to spare, so that a busy test machine (other test
    # workers compiling) does not make it fail.
    best = float("inf")
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        shown = _run(_MAIN.format(arguments=["--help"]))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        best = min(best, spent)
        assert "Play, solve and study" in shown.stdout
    assert best < 1.5, f"fanfold --help took {best:.2f} s of processor time at best"


def test_play_help_still_lists_the_agents_and_their_levels() -> None:
    shown = _run(_MAIN.format(arguments=["play", "--help"])).stdout
    assert "Agents (write parameters in brackets" in shown
    assert "hard:" in shown


def test_the_server_on_sqlite_starts_without_postgresqls_driver() -> None:
    # psycopg (tens of milliseconds) is imported where a process serves PostgreSQL.
    code = (
        "import sys\n"
        "import fanfold.server.app\n"
        "print(sorted(m for m in sys.modules if m.startswith('psycopg')))\n"
    )
    assert _run(code).stdout.strip().splitlines()[-1] == "[]"
