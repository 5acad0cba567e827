"""Fan deals decided by fanfold and by fc-solve, side by side on the same machine.

fc-solve is run the way PySolFC runs it for Fan (``fc-solve -g fan -sp r:tf -m -sel -mi
1000000 -``), once a deal, as a process; its time is the process's wall time and its memory
the process's peak resident set. fanfold's solver runs in this process; its time is the wall
time of dealing, deciding and replaying the solution through the rules engine, and its memory
is the peak of what the search allocates (measured in a second pass with ``tracemalloc``, which
slows Python down and so is kept out of the timed pass).

Usage::

    python benchmarks/fan_vs_fcsolve.py --deals 1-1000 [--fcsolve PATH] [--json OUT]

Without ``--fcsolve`` the peer is built (or found) by ``benchmarks/build_fcsolve.sh`` in
``~/.cache/fanfold/fc-solve``. Prints agreement, undecided counts, median and p90 time ratios
(fanfold / fc-solve, per deal) and peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from fanfold.games.fan import FanConfig, FanGame
from fanfold.solvers.fan import SOLVED, UNSOLVABLE, solve

HERE = Path(__file__).resolve().parent
FCS_ARGS = ["-g", "fan", "-sp", "r:tf", "-m", "-sel", "-mi", "1000000", "-"]


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


def run_fcsolve(binary: str, deal: int) -> dict[str, Any]:
    """Run fc-solve on one deal: verdict, wall seconds, peak RSS in KiB."""
    board = deal_text(deal).encode()
    env = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}
    started = time.perf_counter()
    process = subprocess.Popen(
        [binary, *FCS_ARGS],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    if process.stdin is None or process.stdout is None:
        raise RuntimeError("fc-solve was started without pipes")
    process.stdin.write(board)
    process.stdin.close()
    output = process.stdout.read().decode(errors="replace")
    _, _, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = 0
    if "This game is solveable" in output:
        verdict = SOLVED
    elif "Iterations count exceeded" in output:
        verdict = "undecided"
    elif "I could not solve this game" in output:
        verdict = UNSOLVABLE
    else:
        raise RuntimeError(f"fc-solve said something unexpected on deal {deal}: {output[-300:]}")
    return {"verdict": verdict, "seconds": seconds, "rss_kib": usage.ru_maxrss}


def run_fanfold(deal: int) -> dict[str, Any]:
    """Deal, decide and check one deal in this process: verdict and wall seconds."""
    started = time.perf_counter()
    result = solve(FanGame().new_state(FanConfig(), deal))
    seconds = time.perf_counter() - started
    return {"verdict": result.verdict, "seconds": seconds, "states": result.states}


def fanfold_peak_kib(deal: int) -> float:
    """Peak memory the search allocates on one deal, in KiB (tracemalloc)."""
    state = FanGame().new_state(FanConfig(), deal)
    tracemalloc.start()
    solve(state)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


def _quantile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-1000", help="first-last deal numbers")
    parser.add_argument("--fcsolve", default=None, help="path of the fc-solve binary")
    parser.add_argument("--json", default=None, help="write per-deal rows and the summary here")
    args = parser.parse_args(argv)
    low, _, high = args.deals.partition("-")
    deals = list(range(int(low), int(high or low) + 1))
    binary = find_fcsolve(args.fcsolve)
    rows: list[dict[str, Any]] = []
    for number, deal in enumerate(deals, start=1):
        peer = run_fcsolve(binary, deal)
        ours = run_fanfold(deal)
        rows.append({"deal": deal, "fcsolve": peer, "fanfold": ours})
        if number % 50 == 0:
            print(f"  {number}/{len(deals)} deals", file=sys.stderr, flush=True)
    peaks = [fanfold_peak_kib(deal) for deal in deals]
    for row, peak in zip(rows, peaks, strict=True):
        row["fanfold"]["peak_kib"] = peak
    summary = summarise(rows)
    print(json.dumps(summary, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    return 0


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Agreement, undecided counts, time ratios and memory over the rows."""
    both = [row for row in rows if row["fcsolve"]["verdict"] in (SOLVED, UNSOLVABLE)]
    agree = sum(1 for row in both if row["fcsolve"]["verdict"] == row["fanfold"]["verdict"])
    ratios = [row["fanfold"]["seconds"] / row["fcsolve"]["seconds"] for row in rows]
    ours = [row["fanfold"]["seconds"] for row in rows]
    peer = [row["fcsolve"]["seconds"] for row in rows]
    peer_rss = [row["fcsolve"]["rss_kib"] for row in rows]
    our_peak = [row["fanfold"]["peak_kib"] for row in rows]
    return {
        "deals": len(rows),
        "fanfold_solved": sum(1 for row in rows if row["fanfold"]["verdict"] == SOLVED),
        "fanfold_unsolvable": sum(1 for row in rows if row["fanfold"]["verdict"] == UNSOLVABLE),
        "fanfold_undecided": sum(
            1 for row in rows if row["fanfold"]["verdict"] not in (SOLVED, UNSOLVABLE)
        ),
        "fcsolve_solved": sum(1 for row in rows if row["fcsolve"]["verdict"] == SOLVED),
        "fcsolve_unsolvable": sum(1 for row in rows if row["fcsolve"]["verdict"] == UNSOLVABLE),
        "fcsolve_undecided": len(rows) - len(both),
        "decided_by_both": len(both),
        "agreeing": agree,
        "disagreeing_deals": [
            row["deal"] for row in both if row["fcsolve"]["verdict"] != row["fanfold"]["verdict"]
        ],
        "time_ratio_median": statistics.median(ratios),
        "time_ratio_p90": _quantile(ratios, 0.9),
        "fanfold_seconds_median": statistics.median(ours),
        "fanfold_seconds_p90": _quantile(ours, 0.9),
        "fanfold_seconds_max": max(ours),
        "fanfold_seconds_total": sum(ours),
        "fcsolve_seconds_median": statistics.median(peer),
        "fcsolve_seconds_p90": _quantile(peer, 0.9),
        "fcsolve_seconds_max": max(peer),
        "fcsolve_seconds_total": sum(peer),
        "fcsolve_peak_rss_kib_median": statistics.median(peer_rss),
        "fcsolve_peak_rss_kib_max": max(peer_rss),
        "fanfold_search_peak_kib_median": statistics.median(our_peak),
        "fanfold_search_peak_kib_max": max(our_peak),
    }


if __name__ == "__main__":
    raise SystemExit(main())
