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
and ``--games`` keep a run small (Fano's ``hard`` takes a tenth to half a second a decision);
the games done, of how many, and the seconds so far are written to standard error as it runs.

The Fano families rate members of the yardstick ladder (``docs/agents.md``) in the same pool,
as further players: each meets every level and every other member, so the levels' ratings
are measured against the ladder too. The members' ratings are written under the family's
``members`` key, apart from the levels' ``ratings`` (the server reads only the levels).
:data:`MEMBERS` names them per edition, the styles that play differently from ``ladder``
(Fano's ``medium``) in it, the strongest first by the ladder's tables, four at most;
``--members`` names others (``--members ''`` none).
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
import time
from pathlib import Path

from fanfold.agents.base import parse_agent
from fanfold.agents.levels import LEVELS, level_agent
from fanfold.core.errors import FanfoldError
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

#: family: the ladder members rated with its levels. Classic: the three styles that play
#: otherwise than ``ladder`` there (the others play as ``balanced``), by their win % against
#: the yardstick (attack 85.5, rush 84.5, defend 75.0); Trionfey: the four strongest of the
#: seven that differ (bluff 87.0, call 86.5, counter 86.0, honest 84.5; ``hoard`` plays as
#: ``ladder`` where no tribute is played).
MEMBERS: dict[str, tuple[str, ...]] = {
    "fano-classic": ("ladder(style=attack)", "ladder(style=rush)", "ladder(style=defend)"),
    "fano-trionfey": (
        "ladder(style=bluff)",
        "ladder(style=call)",
        "ladder(style=counter)",
        "ladder(style=honest)",
    ),
}
#: At most this many members a family: every member adds a pair of games with every player.
MAX_MEMBERS = 4


def split_agents(text: str) -> list[str]:
    """Split at the commas between agents, not those inside an agent's brackets; blank: none.

    Raises:
        ValueError: an empty agent between two commas.
    """
    if not text.strip():
        return []
    parts: list[str] = []
    depth, current = 0, ""
    for char in text:
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        depth += {"(": 1, ")": -1}.get(char, 0)
        current += char
    parts.append(current.strip())
    if not all(parts):
        raise ValueError(f"a comma-separated list of agents, not {text!r}")
    return parts


class Progress:
    """Writes a family's games done, of how many, and the seconds so far to standard error:
    every game for the first ten, then every ``every``-th game and the last."""

    def __init__(self, name: str, every: int = 5) -> None:
        self.name, self.every = name, every
        self.started = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        if done and (done <= 10 or done % self.every == 0 or done == total):
            took = time.monotonic() - self.started
            print(f"{self.name}: {done}/{total} games, {took:.0f} s", file=sys.stderr, flush=True)


def rate_family(
    name: str, games: int, seed: int, workers: int, members: tuple[str, ...] = ()
) -> dict[str, object]:
    """Play the family's arena (its levels and ``members``) and fit the ratings; returns its
    part of the file."""
    game_name, variant, players, levels = FAMILIES[name]
    game, config = set_up(game_name, variant, {}, players)
    assert game.rating_family(config) == name
    count = game.num_players(config)
    per_lineup = max(count, games - games % count)
    plan = plan_arena(game, config, [*levels, *members], per_lineup, seed)
    agents = plan.agents  # canonical texts, as the games' rows name the seats
    started = time.monotonic()
    rows = run_arena(plan, workers=workers, progress=Progress(name))
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
    for agent in sorted(agents, key=lambda agent: -ratings[agent].mu):
        print(
            f"  {agent:>22}: {ratings[agent].mu:7.1f} ± {2 * ratings[agent].sigma:5.1f}"
            f" ({played[agent]} games)",
            file=sys.stderr,
        )

    def fitted(agent: str) -> dict[str, float | int]:
        return {
            "mu": round(float(ratings[agent].mu), 1),
            "sigma": round(float(ratings[agent].sigma), 1),
            "games": played[agent],
        }

    part: dict[str, object] = {
        "game": game.id,
        "config": config.to_json(),
        "games": len(rows),
        "seconds": round(took),
        "ratings": {agent: fitted(agent) for agent in agents[: len(levels)]},
    }
    if members:
        part["members"] = {agent: fitted(agent) for agent in agents[len(levels) :]}
    return part


def family_members(name: str, chosen: list[str] | None) -> tuple[str, ...]:
    """The ladder members rated with ``name``'s levels: ``chosen`` (``--members``) for a
    family that has members, else :data:`MEMBERS`' (none for a family without).

    Raises:
        ValueError: more than :data:`MAX_MEMBERS`, or a member that is one of the levels.
    """
    if name not in MEMBERS:
        return ()
    if chosen is None:
        return MEMBERS[name]
    if len(chosen) > MAX_MEMBERS:
        raise ValueError(f"{len(chosen)} members; at most {MAX_MEMBERS} a family")
    game_name, variant, players, names = FAMILIES[name]
    game, _ = set_up(game_name, variant, {}, players)
    levels = {str(parse_agent(level)) for level in names}  # a level and the agent it plays
    levels |= {str(parse_agent(level_agent(game, level))) for level in names if level in LEVELS}
    for member in chosen:
        if str(parse_agent(member)) in levels:
            raise ValueError(f"{member} plays as one of the levels, rated already")
    return tuple(chosen)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default=",".join(FAMILIES), help="comma-separated")
    parser.add_argument("--games", type=int, default=40, help="games per lineup")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--members",
        default=None,
        help="the ladder members rated with the Fano families' levels, comma-separated "
        "(e.g. 'ladder(style=attack),ladder(style=rush)'; '' for none); default: "
        "the strongest styles that differ in each edition",
    )
    parser.add_argument("--out", type=Path, default=OUT)
    options = parser.parse_args(argv)
    wanted = [name.strip() for name in options.families.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in FAMILIES]
    if unknown:
        parser.error(f"no family {', '.join(unknown)}; families: {', '.join(FAMILIES)}")
    members: dict[str, tuple[str, ...]] = {}
    try:
        chosen = None if options.members is None else split_agents(options.members)
        if chosen is not None and not any(name in MEMBERS for name in wanted):
            raise ValueError(f"members are rated in {', '.join(MEMBERS)} only")
        for name in wanted:
            members[name] = family_members(name, chosen)
            game_name, variant, players, levels = FAMILIES[name]
            game, config = set_up(game_name, variant, {}, players)
            plan_arena(game, config, [*levels, *members[name]], game.num_players(config))
    except (ValueError, FanfoldError) as error:  # before any game is played
        parser.error(f"--members: {error}")
    found: dict[str, object] = {}
    if options.out.exists():  # a run of some families keeps the others
        found = json.loads(options.out.read_text())
    families = dict(found.get("families", {}))  # type: ignore[call-overload]
    for name in wanted:
        part = rate_family(name, options.games, options.seed, options.workers, members[name])
        command = (
            f"python3 scripts/rate_bots.py --families {name} --games {options.games} "
            f"--seed {options.seed}"
        )
        if name in MEMBERS:
            command += f" --members {shlex.quote(','.join(members[name]))}"
        part["command"] = command
        families[name] = part
        write(options.out, families)  # each family as it is done: a stopped run keeps it


def write(out: Path, families: dict[str, object]) -> None:
    """Write the ratings file with ``families`` (by name, sorted)."""
    text = {
        "about": (
            "Bot levels' starting ratings, measured by scripts/rate_bots.py with the server's "
            f"OpenSkill model (PlackettLuce, mu {MODEL.mu:g}, sigma {MODEL.sigma:g}, "
            f"beta {MODEL.beta:g}, tau {MODEL.tau:g}); a Fano family's yardstick ladder "
            "members, rated in the same pool, are under its members key."
        ),
        "families": dict(sorted(families.items())),
    }
    out.write_text(json.dumps(text, indent=2) + "\n")
    print(f"written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
