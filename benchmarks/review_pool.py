"""Interleaved verdicts kept and pooled: ``benchmarks/review.py --impact --interleave S --save
FILE`` keeps a run's samples, window by window; ``benchmarks/review.py --pool FILE [FILE ...]``
reads kept runs of one tree and prints the verdict over all their pairs.

A twenty-minute run's 95% intervals span 25 to 35 points, more than the 10% the aim allows, and
one run of an hour holds the machine that long. Runs kept one by one and pooled give the
narrower interval of their pairs together: the on/off and A/A changes of the pooled samples,
each interval a bootstrap that draws every run's pairs with replacement within that run (so
each run weighs in the resamples as it does in the point estimate, and a run on a slower
machine cannot stand in for a quieter one's pairs). Pooling runs of different trees would
measure neither: runs are pooled only where they were made at the same commit with no change
beside it (``--pool-any`` overrides, and the table then says so).
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.review_interleave import (
    CONTROL,
    RESAMPLES,
    TEST,
    Change,
    Interleaved,
    bootstrap_change,
    p99,
    per_second,
)

#: The kept file's format; a file of another version is refused.
VERSION = 1

Found = dict[tuple[Any, str], list[float]]


#: The checkout the benchmark runs from.
ROOT = Path(__file__).resolve().parents[1]


def tree(root: Path = ROOT) -> str:
    """The commit measured, with ``+changes`` where a tracked file outside ``docs/`` differs
    from it (a guide's text does not change what is measured)."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+changes" if dirty else "")


def save(path: Path, run: Interleaved, about: dict[str, Any]) -> None:
    """Write a run's samples (each window's, by pair and kind) and what it ran on."""

    def samples(found: Found) -> list[list[Any]]:
        return [[pair, kind, values] for (pair, kind), values in sorted(found.items())]

    kept = {
        "version": VERSION,
        **about,
        "tree": tree(),
        "cpu": {
            kind: [per_second(run.windows, kinds, False), per_second(run.windows, kinds, True)]
            for kind, kinds in (("on", ("on",)), ("off", ("off",)), ("A and B", CONTROL))
        },
        "acts": samples(run.acts),
        "bots": samples(run.bots),
    }
    path.write_text(json.dumps(kept) + "\n")


def load(path: Path) -> dict[str, Any]:
    """A kept run, checked; a file that is not one is refused with a sentence."""
    try:
        kept = json.loads(path.read_text())
    except OSError as error:
        raise ValueError(f"{path}: cannot be read ({error.strerror})") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not a kept run (not JSON: {error.msg})") from None
    if not isinstance(kept, dict) or kept.get("version") != VERSION:
        raise ValueError(f"{path}: not a kept run of version {VERSION}")
    for what in ("acts", "bots"):
        rows = kept.get(what)
        if not isinstance(rows, list) or not all(
            isinstance(row, list)
            and len(row) == 3
            and isinstance(row[0], int)
            and row[1] in (*TEST, *CONTROL)
            and isinstance(row[2], list)
            and all(isinstance(v, (int, float)) for v in row[2])
            for row in rows
        ):
            raise ValueError(f"{path}: its {what} are not samples by pair and kind")
    return kept


def pooled(runs: Sequence[dict[str, Any]], what: str) -> Found:
    """The runs' samples of ``what`` (``acts`` or ``bots``), keyed by ((run, pair), kind)."""
    found: Found = {}
    for number, kept in enumerate(runs):
        for pair, kind, values in kept[what]:
            found[((number, pair), kind)] = [float(v) for v in values]
    return found


def stratified_change(
    found: Found,
    kinds: tuple[str, str],
    rng: random.Random,
    resamples: int = RESAMPLES,
) -> Change:
    """:func:`bootstrap_change` over pooled runs (a pair's key is ``(run, pair)``): each run's
    pairs drawn with replacement within that run."""
    return bootstrap_change(found, kinds, rng, resamples, stratum=lambda key: key[0])


def pool_main(paths: Sequence[Path], any_tree: bool = False) -> None:
    """Print the pooled verdict of the kept runs at ``paths``."""
    runs = [load(path) for path in paths]
    trees = sorted({str(kept.get("tree", "unknown")) for kept in runs})
    if not any_tree and (len(trees) > 1 or any("+changes" in t or t == "unknown" for t in trees)):
        raise ValueError(
            "runs are pooled only when made at one commit with no change beside it; these "
            f"were made at {', '.join(trees)} (--pool-any pools them anyway)"
        )
    print(f"{len(runs)} runs pooled, tree {', '.join(trees)}")
    print()
    print("| run | started (UTC) | pairs | load | off p99 ms, acts and bot replies |")
    print("|---|---|---:|---|---|")
    for number, (path, kept) in enumerate(zip(paths, runs, strict=True)):
        acts = [v for _, kind, values in kept["acts"] if kind == "off" for v in values]
        bots = [v for _, kind, values in kept["bots"] if kind == "off" for v in values]
        pairs = len({pair for pair, _, _ in kept["acts"]})
        levels = ", ".join(f"{p99(v) * 1e3:.1f}" if v else "-" for v in (acts, bots))
        print(
            f"| {number + 1} ({path.name}) | {kept.get('started', '?')} | {pairs} "
            f"| {kept.get('load', '?')} | {levels} |"
        )
    print()
    print(
        "| comparison | samples (base, other) | p99 ms (base → other) | p99 change "
        "| 95% interval (pairs bootstrap within each run) |"
    )
    print("|---|---|---|---:|---|")
    rng = random.Random(47)
    for name, what in (("act-to-ok", "acts"), ("bot reply", "bots")):
        found = pooled(runs, what)
        for label, kinds in (("reviews on vs off", TEST), ("A/A control, A vs B", CONTROL)):
            c = stratified_change(found, kinds, rng)
            print(
                f"| {name}: {label} | {c.count[0]}, {c.count[1]} | {c.p99[0]:.1f} → "
                f"{c.p99[1]:.1f} | {c.change:+.0f}% | {c.low:+.0f}% to {c.high:+.0f}% |"
            )


__all__ = ["ROOT", "load", "pool_main", "pooled", "save", "stratified_change", "tree"]
