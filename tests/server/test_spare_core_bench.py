"""``benchmarks/spare_core.py``: a thread hand-over's round trips beside a half-busy program,
with nothing else, with a worker in the idle class, and with one that leaves a core spare."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_three_rows_are_measured_and_only_the_workers_take_a_core_share() -> None:
    printed = subprocess.run(
        [sys.executable, "benchmarks/spare_core.py", "--seconds", "0.5", "--rounds", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    rows = {
        match[1]: [float(value.rstrip("%")) for value in match[2].split(" | ")]
        for match in re.finditer(r"^\| (none|idle class[^|]*) \| (.+) \|$", printed, re.M)
    }
    assert set(rows) == {"none", "idle class", "idle class, a core spare"}
    for count, p50, p99, p999, over, share in rows.values():
        assert 0.0 <= share <= 1.0
        assert count > 50  # about 2 ms apart for half a second
        assert 0 < p50 <= p99 <= p999
        assert 0 <= over <= 100
    assert rows["none"][5] == 0.0
    assert rows["idle class"][5] > 0.0  # the worker ran
    assert "command: python3 benchmarks/spare_core.py --seconds 0.5 --rounds 1" in printed
