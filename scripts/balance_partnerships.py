"""The first partnership's wins in a balance run of Fano's Trionfey partnerships.

The balance report counts seats and players; in a partnership game a designer also asks how
often the partnership that moved first won. Partners sit on seats of the same parity (odd
seats against even seats), so the first partnership is the first mover's parity. Reads a
run's ``games.jsonl`` (``fanfold balance ... --out DIR``) and prints, per variant, the first
partnership's wins with the Wilson 95% interval and the p-value against half::

    python3 scripts/balance_partnerships.py DIR/games.jsonl
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

from fanfold.play.stats import Proportion, proportion_test, wilson_interval


def first_partnership_wins(rows: list[dict[str, object]]) -> dict[str, tuple[int, int]]:
    """Per variant number (the first part of a row's ``job``): the games the first mover's
    partnership won, and the games."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        variant = str(row["job"]).split(":")[0]
        winners = row["winners"]
        first = row["first"]
        if not isinstance(winners, list) or not isinstance(first, int):
            raise ValueError(f"not a row of a balance run's games.jsonl: {row!r}")
        counts[variant][1] += 1
        if winners and int(winners[0]) % 2 == first % 2:
            counts[variant][0] += 1
    return {variant: (won, games) for variant, (won, games) in counts.items()}


def main(path: str) -> None:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    for variant, (won, games) in sorted(first_partnership_wins(rows).items()):
        low, high = wilson_interval(won, games)
        p = proportion_test(Proportion(won, games), 0.5)
        print(
            f"variant {variant}: the first partnership won {won} of {games}, "
            f"{100 * won / games:.1f}% ({100 * low:.1f}% to {100 * high:.1f}%), p = {p:.3g}"
        )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 scripts/balance_partnerships.py DIR/games.jsonl")
    main(sys.argv[1])
