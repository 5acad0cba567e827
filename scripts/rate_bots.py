"""Measure the bot levels' ratings for the server: ``python3 scripts/rate_bots.py``.

For each rating family (Morris, Fan Tan, Fano classic, Fano Trionfey) the levels (and
``random``, where it is not a level already) play each other in ``fanfold arena`` games
(:mod:`fanfold.play.arena`: seeded deals, every seat rotation), and the games are rated, in a
seeded random order, with the server's own OpenSkill model (:data:`fanfold.server.ratings.MODEL`,
every player starting at its first rating): each seat's rank from its returns, partners as one
team, exactly as the server rates a game. The levels' ratings are written to
``src/fanfold/server/bot_ratings.json``, which the server reads as each bot level's starting
rating (:func:`fanfold.server.ratings.bot_anchors`); the command that made it is kept in the
file, after each family (a run stopped part-way keeps the families it finished). ``--families``
and ``--games`` keep a run small (Fano's ``hard`` takes a tenth to half a second a decision).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from fanfold.core.registry import set_up
from fanfold.play.arena import plan_arena, run_arena
from fanfold.server.ratings import MODEL, ranks

OUT = Path(__file__).resolve().parent.parent / "src" / "fanfold" / "server" / "bot_ratings.json"

#: family: (game, variant, players, agents). Fan Tan's ``easy`` is ``random``; three seats
#: give each level one.
FAMILIES: dict[str, tuple[str, str | None, int | None, tuple[str, ...]]] = {
    "morris": ("morris", None, None, ("random", "easy", "medium", "hard")),
    "fantan": ("fantan", None, 3, ("easy", "medium", "hard")),
    "fano-classic": ("fano", "classic", 2, ("random", "easy", "medium", "hard")),
    "fano-trionfey": ("fano", "trionfey", 2, ("random", "easy", "medium", "hard")),
}


def rate_family(name: str, games: int, seed: int, workers: int) -> dict[str, object]:
    """Play the family's arena and fit the ratings; returns its part of the file."""
    game_name, variant, players, agents = FAMILIES[name]
    game, config = set_up(game_name, variant, {}, players)
    assert game.rating_family(config) == name
    count = game.num_players(config)
    per_lineup = max(count, games - games % count)
    plan = plan_arena(game, config, list(agents), per_lineup, seed)
    started = time.monotonic()
    rows = run_arena(plan, workers=workers)
    took = time.monotonic() - started
    teams = game.teams(config)
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    ratings = {agent: MODEL.rating() for agent in agents}
    played = dict.fromkeys(agents, 0)
    for index in order:
        row = rows[index]
        seats = [str(seat) for seat in row["seats"]]  # type: ignore[union-attr]
        returns = [float(value) for value in row["returns"]]  # type: ignore[union-attr, arg-type]
        team_ranks = ranks(returns, teams)
        rated = MODEL.rate(
            [[ratings[seats[seat]] for seat in team] for team in teams],
            ranks=[float(rank) for rank in team_ranks],
        )
        for team, new_team in zip(teams, rated, strict=True):
            for seat, new in zip(team, new_team, strict=True):
                ratings[seats[seat]] = new
                played[seats[seat]] += 1
    print(f"{name}: {len(rows)} games in {took:.0f} s", file=sys.stderr)
    for agent in agents:
        print(
            f"  {agent:>7}: {ratings[agent].mu:7.1f} ± {2 * ratings[agent].sigma:5.1f}"
            f" ({played[agent]} games)",
            file=sys.stderr,
        )
    return {
        "game": game.id,
        "config": config.to_json(),
        "games": len(rows),
        "seconds": round(took),
        "ratings": {
            agent: {
                "mu": round(float(ratings[agent].mu), 1),
                "sigma": round(float(ratings[agent].sigma), 1),
                "games": played[agent],
            }
            for agent in agents
        },
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default=",".join(FAMILIES), help="comma-separated")
    parser.add_argument("--games", type=int, default=40, help="games per lineup")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    options = parser.parse_args(argv)
    wanted = [name.strip() for name in options.families.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in FAMILIES]
    if unknown:
        parser.error(f"no family {', '.join(unknown)}; families: {', '.join(FAMILIES)}")
    found: dict[str, object] = {}
    if options.out.exists():  # a run of some families keeps the others
        found = json.loads(options.out.read_text())
    families = dict(found.get("families", {}))  # type: ignore[call-overload]
    for name in wanted:
        part = rate_family(name, options.games, options.seed, options.workers)
        part["command"] = (
            f"python3 scripts/rate_bots.py --families {name} --games {options.games} "
            f"--seed {options.seed}"
        )
        families[name] = part
        write(options.out, families)  # each family as it is done: a stopped run keeps it


def write(out: Path, families: dict[str, object]) -> None:
    """Write the ratings file with ``families`` (by name, sorted)."""
    text = {
        "about": (
            "Bot levels' starting ratings, measured by scripts/rate_bots.py with the server's "
            f"OpenSkill model (PlackettLuce, mu {MODEL.mu:g}, sigma {MODEL.sigma:g}, "
            f"beta {MODEL.beta:g}, tau {MODEL.tau:g})."
        ),
        "families": dict(sorted(families.items())),
    }
    out.write_text(json.dumps(text, indent=2) + "\n")
    print(f"written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
