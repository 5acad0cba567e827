"""The log rotation ``docs/logs.md`` gives for a process without systemd, run as written by
Debian's ``logrotate``: ``logrotate -d`` takes the block, and a forced rotation of a log that a
process holds open in append mode (as ``2>>FILE`` does) keeps every line: the old ones in the
rotated copy, the ones written after it in the file itself, from its start."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.deploy.support import tool
from tests.server.support import ROOT

GUIDE = ROOT / "docs" / "logs.md"


def the_guides_block() -> str:
    blocks = re.findall(r"```logrotate\n(.*?)```", GUIDE.read_text(), re.S)
    assert len(blocks) == 1, "docs/logs.md has one logrotate block"
    assert "/var/log/fanfold/*.log {" in blocks[0]
    return str(blocks[0])


def test_the_guides_rotation_keeps_every_line(tmp_path: Path) -> None:
    logrotate = tool("logrotate", "logrotate")
    folder = tmp_path / "log"
    folder.mkdir(mode=0o755)
    config = tmp_path / "fanfold"
    config.write_text(the_guides_block().replace("/var/log/fanfold/", f"{folder}/"))
    config.chmod(0o644)
    state = tmp_path / "state"
    log = folder / "serve.log"
    with log.open("a") as stream:  # the process's standard error, 2>>serve.log
        for number in range(3):
            stream.write(f'{{"message": "before {number}"}}\n')
        stream.flush()

        checked = subprocess.run(
            [logrotate, "-d", "-s", str(state), str(config)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "error" not in checked.stderr.lower(), checked.stderr
        assert log.read_text().count("before") == 3  # -d changed nothing

        rotated = subprocess.run(
            [logrotate, "-f", "-s", str(state), str(config)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert rotated.returncode == 0, rotated.stdout + rotated.stderr
        stream.write('{"message": "after"}\n')
        stream.flush()
    copy = folder / "serve.log.1"  # the first rotation is not compressed (delaycompress)
    assert copy.read_text().count("before") == 3
    assert log.read_text() == '{"message": "after"}\n'  # truncated, written from its start
