"""Decide one Fan board in a process of its own: the fanfold side of the memory comparison.

The board comes on standard input in fc-solve's text format (one fan a line, cards bottom to
top), the very bytes fc-solve is given, and the verdict and the positions searched are printed
on one line. Only the card parser and the search are imported (not the rules engine, the games
package or the command line), so the process's peak resident set is what deciding a Fan deal
costs in Python. ``--imports-only`` stops after the imports: the interpreter's floor.

Usage::

    python benchmarks/fan_worker.py < board.txt
"""

from __future__ import annotations

import sys

from fanfold.core.cards import Card
from fanfold.solvers.fan_search import BEST_FIRST_STATES, search

NUM_FANS = 18


def main(argv: list[str]) -> int:
    """Read the board, decide it, print ``VERDICT STATES``."""
    if "--imports-only" in argv:
        return 0
    fans = [
        [Card.parse(word).index for word in line.split()]
        for line in sys.stdin.read().splitlines()
        if line.strip()
    ]
    fans.extend([] for _ in range(NUM_FANS - len(fans)))
    result = search(fans, (0, 0, 0, 0), best_first=BEST_FIRST_STATES)  # as fanfold's solve
    print(result.verdict, result.states)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
