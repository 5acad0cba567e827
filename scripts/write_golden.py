"""Write the golden playthroughs under tests/golden (see docs/api.md, "Golden playthroughs").

Each file is a seeded random game of one preset at one player count: what the seed deals, the
legal actions at every step (their number and a digest; in full every 25 steps), positions,
views, the outcome and the record. tests/golden/test_golden.py plays each again and compares.
Rewrite them only when a change is meant to change what a seed deals or the order of legal
actions, and then give the game a new id or migrate the stored records.

Usage: python3 scripts/write_golden.py [GAME ...]   (every registered game when none is named)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fanfold.core.errors import UnknownGameError
from fanfold.core.registry import get_game
from fanfold.play.playthrough import cases, dumps

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"


def main(argv: list[str] | None = None) -> int:
    """Write the files of the games named (every game when none is) and list them."""
    parser = argparse.ArgumentParser(
        description="Write the golden playthroughs of every registered game (or of the games "
        "named) to tests/golden/<game id>/<preset>[-<players>p]-s<seed>.json.",
        epilog="Rewriting a file that changed needs a new game id or a record migration "
        "(docs/api.md, 'Golden playthroughs').",
    )
    parser.add_argument("games", nargs="*", help="game names or ids (default: every game)")
    parser.add_argument(
        "--out", type=Path, default=GOLDEN, help=f"the folder to write to (default: {GOLDEN})"
    )
    args = parser.parse_args(argv)
    try:
        games = [get_game(name) for name in args.games] or None
    except UnknownGameError as error:
        print(f"write_golden: {error}", file=sys.stderr)
        return 2
    changed = 0
    for case in cases(games):
        path = args.out / case.path
        text = dumps(case.play())
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed += 1
            print(f"{'wrote' if old is None else 'rewrote'} {path}")
    print(f"{changed} file(s) written or changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
