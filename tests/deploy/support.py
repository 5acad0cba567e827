"""Helpers of the deploy tests: the tools that check the rendered files (Debian's
``prometheus`` package's ``promtool``, systemd's ``systemd-analyze``), failing with what to
install when one is missing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from fanfold.cli.app import app
from tests.server.support import ROOT

#: The shipped files (``deploy/``).
DEPLOY = ROOT / "deploy"

runner = CliRunner()


def fanfold(*arguments: str) -> Result:
    """``fanfold ARGUMENTS`` in this process."""
    return runner.invoke(app, list(arguments))


def tool(name: str, package: str) -> str:
    """The path of the command ``name``, or the test fails saying to install ``package``."""
    found = shutil.which(name) or next(
        (
            str(path)
            for path in (Path("/usr/bin") / name, Path("/usr/sbin") / name)
            if path.exists()
        ),
        None,
    )
    if found is None:
        pytest.fail(
            f"{name} is missing: the test set-up installs Debian's {package} package "
            "(scripts/test.sh)",
            pytrace=False,
        )
    return found


def run(*command: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``command``, its output kept."""
    return subprocess.run(
        list(command), capture_output=True, text=True, timeout=120, check=False, cwd=cwd
    )
