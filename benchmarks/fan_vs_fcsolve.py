"""Fan deals decided by fanfold and by fc-solve, side by side on the same machine.

fc-solve is run the way PySolFC runs it for Fan (``fc-solve -g fan -sp r:tf -m -sel -mi
1000000 -``), once a deal, as a process fed the board on standard input; its time is the
process's wall time and its memory the process's peak resident set. Every measured process is
started through GNU time (``/usr/bin/time -f %M``), because a child started straight from this
Python process would be charged this process's own peak (see :func:`find_time`); the launch
costs about a millisecond a process, included in every own-process time and printed.

fanfold is measured three ways, each deal in turn:

1. **timed, in this process**: wall time of dealing, deciding and replaying the solution
   through the rules engine (interpreter start-up and imports excluded);
2. **own process, like fc-solve**: ``benchmarks/fan_worker.py`` is started once a deal, fed
   the same board bytes as fc-solve, and decides it; its wall time (Python's start-up and
   imports included) and whole-process peak resident set are measured as for fc-solve, and its
   verdict must equal the in-process one;
3. **search only**: the peak of what the search allocates (``tracemalloc``; slows Python, so
   kept out of the timed pass; the interpreter itself is excluded).

Usage::

    python benchmarks/fan_vs_fcsolve.py --deals 1-1000 [--fcsolve PATH] [--json OUT]

Without ``--fcsolve`` the peer is built (or found) by ``benchmarks/build_fcsolve.sh`` in
``~/.cache/fanfold/fc-solve``. Prints tables of verdicts and agreement, time per deal (median,
p90, max, total, and the per-deal ratio fanfold / fc-solve) and peak memory; progress goes to
standard error. ``--json OUT`` writes the per-deal rows and the summary.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from fanfold.games.fan import FanConfig, FanGame
from fanfold.solvers.fan import SOLVED, UNSOLVABLE, solve

HERE = Path(__file__).resolve().parent
WORKER = HERE / "fan_worker.py"
FCS_ARGS = ["-g", "fan", "-sp", "r:tf", "-m", "-sel", "-mi", "1000000", "-"]
UNDECIDED = "undecided"
#: How many times the worker is started with ``--imports-only`` to measure the floor.
FLOOR_RUNS = 5


def find_fcsolve(explicit: str | None) -> str:
    """The fc-solve binary: the one given, or the one the build script makes."""
    if explicit:
        return explicit
    built = subprocess.run(
        ["bash", str(HERE / "build_fcsolve.sh")], check=True, capture_output=True, text=True
    )
    return built.stdout.strip().splitlines()[-1]


def deal_text(deal: int) -> str:
    """The deal as PySolFC hands it to fc-solve: one fan a line, bottom to top."""
    state = FanGame().new_state(FanConfig(), deal)
    return "".join(" ".join(str(card) for card in fan) + "\n" for fan in state.fans)


def find_time() -> str:
    """GNU time, which starts each measured program from its own small process.

    A child's peak resident set as ``os.wait4`` reports it includes the memory of the process
    it was forked from (Linux keeps the pre-``exec`` peak), so a program started straight from
    this Python process would be charged this process's tens of MiB. GNU time is a small C
    program: the peak it reports is the measured program's own.
    """
    found = shutil.which("time")
    if found is None:
        raise SystemExit("GNU time (/usr/bin/time) is needed to measure peak memory fairly")
    return found


def run_process(command: Sequence[str], stdin: bytes) -> tuple[str, float, int]:
    """Run ``command`` fed ``stdin``: its output, wall seconds and peak RSS in KiB."""
    env = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as report:
        started = time.perf_counter()
        finished = subprocess.run(
            [find_time(), "-f", "%M", "-o", report.name, *command],
            input=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            check=False,
        )
        seconds = time.perf_counter() - started
        lines = report.read().split()
    output = finished.stdout.decode(errors="replace")
    if finished.returncode != 0 or not lines:
        raise RuntimeError(f"{command[0]} exited with {finished.returncode}: {output[-300:]}")
    return output, seconds, int(lines[-1])  # GNU time's %M: peak RSS in KiB


def launcher_overhead() -> float:
    """Median wall seconds of starting a program that does nothing through :func:`run_process`."""
    return statistics.median(run_process(["true"], b"")[1] for _ in range(FLOOR_RUNS * 4))


def run_fcsolve(binary: str, deal: int) -> dict[str, Any]:
    """Run fc-solve on one deal: verdict, wall seconds, peak RSS in KiB."""
    output, seconds, rss = run_process([binary, *FCS_ARGS], deal_text(deal).encode())
    if "This game is solveable" in output:
        verdict = SOLVED
    elif "Iterations count exceeded" in output:
        verdict = UNDECIDED
    elif "I could not solve this game" in output:
        verdict = UNSOLVABLE
    else:
        raise RuntimeError(f"fc-solve said something unexpected on deal {deal}: {output[-300:]}")
    return {"verdict": verdict, "seconds": seconds, "rss_kib": rss}


def run_fanfold(deal: int) -> dict[str, Any]:
    """Deal, decide and check one deal in this process: verdict and wall seconds."""
    started = time.perf_counter()
    result = solve(FanGame().new_state(FanConfig(), deal))
    seconds = time.perf_counter() - started
    return {"verdict": result.verdict, "seconds": seconds, "states": result.states}


def run_worker(deal: int) -> dict[str, Any]:
    """Decide one deal in a fanfold process of its own: verdict, wall seconds, peak RSS."""
    output, seconds, rss = run_process([sys.executable, str(WORKER)], deal_text(deal).encode())
    verdict = output.split()[0] if output.split() else ""
    if verdict not in (SOLVED, UNSOLVABLE):
        raise RuntimeError(f"the fanfold worker said something unexpected on deal {deal}: {output}")
    return {"process_verdict": verdict, "process_seconds": seconds, "process_rss_kib": rss}


def worker_floor() -> dict[str, float]:
    """The worker's cost with nothing to solve: interpreter start-up and imports."""
    runs = [
        run_process([sys.executable, str(WORKER), "--imports-only"], b"") for _ in range(FLOOR_RUNS)
    ]
    return {
        "seconds": statistics.median(seconds for _, seconds, _ in runs),
        "rss_kib": statistics.median(rss for _, _, rss in runs),
    }


def search_peak_kib(deal: int) -> float:
    """Peak memory the search allocates on one deal, in KiB (tracemalloc)."""
    state = FanGame().new_state(FanConfig(), deal)
    tracemalloc.start()
    solve(state)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


class Progress:
    """Progress of one pass over the deals, on standard error."""

    def __init__(self, name: str, total: int) -> None:
        self.name = name
        self.total = total
        self.started = time.perf_counter()
        self.interactive = sys.stderr.isatty()

    def step(self, done: int, deal: int) -> None:
        """Report that ``done`` deals are finished, the last being ``deal``."""
        if not self.interactive and done % 50 and done != self.total:
            return
        elapsed = time.perf_counter() - self.started
        line = f"{self.name}: {done}/{self.total} deals (deal {deal}), {elapsed:.0f} s"
        print(f"\r{line}" if self.interactive else line, end="", file=sys.stderr, flush=True)
        if not self.interactive or done == self.total:
            print(file=sys.stderr, flush=True)


def each_deal(name: str, deals: Sequence[int], work: Callable[[int], Any]) -> list[Any]:
    """``work(deal)`` for every deal in order, with progress on standard error."""
    progress = Progress(name, len(deals))
    results = []
    for done, deal in enumerate(deals, start=1):
        results.append(work(deal))
        progress.step(done, deal)
    return results


def parse_deals(text: str) -> list[int]:
    """Deal numbers from ``first-last`` (or one number)."""
    low, _, high = text.partition("-")
    try:
        first, last = int(low), int(high or low)
    except ValueError:
        raise SystemExit(f"--deals {text!r}: expected FIRST-LAST, such as 1-1000") from None
    if first < 1 or last < first:
        raise SystemExit(f"--deals {text!r}: expected 1 <= FIRST <= LAST")
    return list(range(first, last + 1))


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print the tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--deals", default="1-1000", help="first-last deal numbers")
    parser.add_argument("--fcsolve", default=None, help="path of the fc-solve binary")
    parser.add_argument("--json", default=None, help="write per-deal rows and the summary here")
    args = parser.parse_args(argv)
    deals = parse_deals(args.deals)
    binary = find_fcsolve(args.fcsolve)

    def timed(deal: int) -> dict[str, Any]:
        return {"deal": deal, "fcsolve": run_fcsolve(binary, deal), "fanfold": run_fanfold(deal)}

    rows = each_deal("timed pass (fc-solve, fanfold in-process)", deals, timed)
    processes = each_deal("fanfold in its own process", deals, run_worker)
    peaks = each_deal("fanfold search memory (tracemalloc)", deals, search_peak_kib)
    for row, process, peak in zip(rows, processes, peaks, strict=True):
        row["fanfold"].update(process)
        row["fanfold"]["search_peak_kib"] = peak
    summary = summarise(rows, worker_floor())
    summary["launcher_seconds"] = launcher_overhead()
    summary["command"] = " ".join(["python", "benchmarks/fan_vs_fcsolve.py", *sys.argv[1:]])
    summary["machine"] = (
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    )
    print(render(summary))
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    return 0


def _quantile(values: Iterable[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _spread(values: list[float]) -> dict[str, float]:
    return {
        "median": statistics.median(values),
        "p90": _quantile(values, 0.9),
        "max": max(values),
        "total": sum(values),
    }


def _count(rows: list[dict[str, Any]], side: str, verdict: str) -> int:
    return sum(1 for row in rows if row[side]["verdict"] == verdict)


def summarise(rows: list[dict[str, Any]], floor: dict[str, float]) -> dict[str, Any]:
    """Agreement, verdict counts, time and memory figures over the rows."""
    both = [row for row in rows if row["fcsolve"]["verdict"] in (SOLVED, UNSOLVABLE)]
    ours, peer = [row["fanfold"] for row in rows], [row["fcsolve"] for row in rows]
    verdicts = {
        side: {verdict: _count(rows, side, verdict) for verdict in (SOLVED, UNSOLVABLE, UNDECIDED)}
        for side in ("fanfold", "fcsolve")
    }
    return {
        "deals": [rows[0]["deal"], rows[-1]["deal"]],
        "verdicts": verdicts,
        "decided_by_both": len(both),
        "agreeing": sum(
            1 for row in both if row["fcsolve"]["verdict"] == row["fanfold"]["verdict"]
        ),
        "disagreeing_deals": [
            row["deal"] for row in both if row["fcsolve"]["verdict"] != row["fanfold"]["verdict"]
        ],
        "process_verdict_mismatches": [
            row["deal"]
            for row in rows
            if row["fanfold"]["process_verdict"] != row["fanfold"]["verdict"]
        ],
        "seconds": {
            "fanfold_in_process": _spread([side["seconds"] for side in ours]),
            "fanfold_own_process": _spread([side["process_seconds"] for side in ours]),
            "fcsolve_own_process": _spread([side["seconds"] for side in peer]),
        },
        "time_ratio": {
            "in_process": _spread(
                [a["seconds"] / b["seconds"] for a, b in zip(ours, peer, strict=True)]
            ),
            "own_process": _spread(
                [a["process_seconds"] / b["seconds"] for a, b in zip(ours, peer, strict=True)]
            ),
        },
        "peak_rss_kib": {
            "fanfold_own_process": _spread([side["process_rss_kib"] for side in ours]),
            "fcsolve_own_process": _spread([side["rss_kib"] for side in peer]),
        },
        "rss_ratio": _spread(
            [a["process_rss_kib"] / b["rss_kib"] for a, b in zip(ours, peer, strict=True)]
        ),
        "fanfold_floor": floor,
        "fanfold_search_peak_kib": _spread([side["search_peak_kib"] for side in ours]),
    }


def _table(title: str, header: Sequence[str], lines: Sequence[Sequence[str]]) -> str:
    cells = [list(header), *[list(line) for line in lines]]
    widths = [max(len(row[column]) for row in cells) for column in range(len(header))]
    text = [title]
    for number, row in enumerate(cells):
        first = row[0].ljust(widths[0])
        rest = [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        text.append("  " + "   ".join([first, *rest]))
        if number == 0:
            text.append("  " + "   ".join("-" * width for width in widths))
    return "\n".join(text)


def _mib(kib: float) -> str:
    return f"{kib / 1024:.1f} MiB"


def render(summary: dict[str, Any]) -> str:
    """The summary as human-readable tables."""
    first, last = summary["deals"]
    verdicts = summary["verdicts"]
    parts = [
        f"Fan deals {first}-{last} (classic), fanfold vs fc-solve ({' '.join(FCS_ARGS)})",
        f"machine: {summary['machine']}",
        "",
        _table(
            "Verdicts",
            ["", "fanfold", "fc-solve"],
            [
                [verdict, str(verdicts["fanfold"][verdict]), str(verdicts["fcsolve"][verdict])]
                for verdict in (SOLVED, UNSOLVABLE, UNDECIDED)
            ],
        ),
        f"  decided by both: {summary['decided_by_both']}, agreeing: {summary['agreeing']}, "
        f"disagreeing deals: {summary['disagreeing_deals'] or 'none'}",
        f"  fanfold's own-process verdict differs from in-process on: "
        f"{summary['process_verdict_mismatches'] or 'no deal'}",
        "",
    ]
    spread = ("median", "p90", "max", "total")
    seconds = summary["seconds"]
    parts.append(
        _table(
            "Time per deal (seconds)",
            ["", *spread],
            [
                [label, *(f"{seconds[key][column]:.4f}" for column in spread)]
                for label, key in (
                    ("fanfold, in-process (deal+solve+replay)", "fanfold_in_process"),
                    ("fanfold, own process (start-up included)", "fanfold_own_process"),
                    ("fc-solve, own process", "fcsolve_own_process"),
                )
            ],
        )
    )
    ratio = summary["time_ratio"]
    parts.append(
        _table(
            "",
            ["ratio fanfold / fc-solve, per deal", "median", "p90", "max"],
            [
                [label, *(f"{ratio[key][column]:.3f}" for column in spread[:3])]
                for label, key in (
                    ("in-process / fc-solve process", "in_process"),
                    ("own process / fc-solve process", "own_process"),
                )
            ],
        )
    )
    floor = summary["fanfold_floor"]
    rss, search = summary["peak_rss_kib"], summary["fanfold_search_peak_kib"]
    parts += [
        "",
        _table(
            "Peak memory per deal",
            ["", "median", "p90", "max"],
            [
                ["fc-solve, whole process (peak RSS)"]
                + [_mib(rss["fcsolve_own_process"][column]) for column in spread[:3]],
                ["fanfold, whole process (peak RSS)"]
                + [_mib(rss["fanfold_own_process"][column]) for column in spread[:3]],
                ["ratio fanfold / fc-solve RSS, per deal"]
                + [f"{summary['rss_ratio'][column]:.2f}" for column in spread[:3]],
                ["fanfold, search only (tracemalloc)"]
                + [_mib(search[column]) for column in spread[:3]],
            ],
        ),
        f"  fanfold process with nothing to solve (interpreter + imports): "
        f"{_mib(floor['rss_kib'])}, {floor['seconds']:.3f} s",
        f"  starting a process that does nothing through GNU time: "
        f"{summary['launcher_seconds'] * 1000:.1f} ms (in every own-process time above)",
    ]
    return "\n".join(parts)


if __name__ == "__main__":
    raise SystemExit(main())
