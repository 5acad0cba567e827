"""The arena: agents play many seeded games against each other, and the results are counted.

A run seats *lineups*: with no more agents than seats, one lineup (the agents in order, the last
one filling the seats that are left, so ``hard,heuristic`` at four players is one ``hard``
against three ``heuristic``); with more agents than seats, every combination of as many agents as
there are seats (every pair in a two-player game), so that each meets each. A lineup plays
*rounds*: one deal, seeded, played once per seat rotation (:func:`fanfold.play.setup.rotate_seats`),
so every agent plays every seat of every deal and the luck of the deal cancels out. In a
one-player game every agent plays the same deals.

Each game is a job of the batch runner (:mod:`fanfold.play.batch`): seeded by the round, so the
results are the same on every run and with any number of workers; only the measured times vary.
:func:`summarize` turns the rows into per-agent counts with Wilson 95% intervals, head-to-head
results, mean game length, limit draws, time per decision and, with more than two agents,
Elo-style ratings fitted to every head-to-head result (Bradley-Terry, draws half a win).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from fanfold.agents.base import parse_agent
from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.config import GameConfig, JSONObject, JSONValue
from fanfold.core.errors import ConfigError, Refusal
from fanfold.core.game import Outcome, Termination
from fanfold.core.kinds import action_kind, allowed, played_kind
from fanfold.core.registry import AnyGame, get_game
from fanfold.play.batch import Job, ProgressCallback, read_results, run_batch
from fanfold.play.setup import make_seats, new_table, rotate_seats
from fanfold.play.stats import Proportion
from fanfold.play.table import ENDLESS

#: The fields of every game's row (an arena's or a balance experiment's, old rows included):
#: a results file whose rows lack them was written by another tool (a Fan census).
GAME_ROW_FIELDS = ("returns", "seats")


#: Actions after which an arena game is cut short as endless (it counts as a draw: returns 0,
#: "cut short"; see :data:`fanfold.play.table.ENDLESS`).
MAX_ACTIONS = ENDLESS


@dataclass(frozen=True)
class ArenaPlan:
    """What an arena run plays.

    Attributes:
        game: the game.
        config: its variant and options (the player count included).
        agents: the agents' canonical texts, distinct, in the order given.
        rounds: deals per lineup; each is played once per seat rotation.
        seed: the first deal's seed; round ``r`` deals from ``seed + r``.
    """

    game: AnyGame
    config: GameConfig
    agents: tuple[str, ...]
    rounds: int
    seed: int

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.game.num_players(self.config)

    def lineups(self) -> list[tuple[str, ...]]:
        """The seatings played, each in the seat order of its first game."""
        players = self.players
        if len(self.agents) <= players:
            filler = self.agents[-1]
            return [self.agents + (filler,) * (players - len(self.agents))]
        return [tuple(group) for group in itertools.combinations(self.agents, players)]

    def jobs(self) -> list[Job]:
        """One job a game: lineup, round and rotation."""
        config = self.config.to_json()
        jobs: list[Job] = []
        for number, lineup in enumerate(self.lineups()):
            for round_ in range(self.rounds):
                for rotation in range(self.players):
                    seats = rotate_seats(list(lineup), rotation)
                    payload: JSONObject = {
                        "game": self.game.id,
                        "config": config,
                        "seats": list(seats),
                        "seed": self.seed + round_,
                        "agent_seed": (self.seed + round_) * 1000 + rotation * 100,
                    }
                    jobs.append(Job(f"{number}:{round_}:{rotation}", payload))
        return jobs

    @property
    def games(self) -> int:
        """Games in the whole run."""
        return len(self.lineups()) * self.rounds * self.players


def plan_arena(
    game: AnyGame, config: GameConfig, agents: Sequence[str], games: int, seed: int = 0
) -> ArenaPlan:
    """Check an arena request and plan it; ``games`` is per lineup and must fill whole rounds.

    Raises:
        ConfigError: no agents, the same agent twice, too few games, or games that do not
            split evenly over the seats.
        UnknownAgentError, NotationError: an agent text that is not an agent for ``game``.
    """
    if not agents:
        raise ConfigError(Refusal("arena.no_agents", example="--agents hard,random"))
    texts: list[str] = []
    for text in agents:
        spec = parse_agent(text)
        spec.create(game)  # refuses an agent that does not play this game
        if str(spec) in texts:
            raise ConfigError(Refusal("arena.named_twice", agent=str(spec)))
        texts.append(str(spec))
    players = game.num_players(config)
    if games < 1:
        raise ConfigError(Refusal("arena.games_at_least_one", games=games))
    if games % players:
        raise ConfigError(
            Refusal(
                "arena.games_multiple", players=players, games=games + players - games % players
            )
        )
    if seed < 0:
        raise ConfigError(Refusal("arena.negative_seed", seed=seed))
    return ArenaPlan(game, config, tuple(texts), games // players, seed)


def play_arena_game(payload: JSONObject) -> JSONObject:
    """The arena's (and the balance lab's) worker: one seeded game between the payload's seats,
    with each seat's returns, decisions (choices among two or more actions), time spent
    deciding and the kinds of the actions it played (:mod:`fanfold.core.kinds`), the seat that
    decided first, and the turns played where the game counts turns (Fano).

    The row names the game's ``"deal"`` (the seed it was dealt from), ``"agent_seed"``, the
    ``"game"`` and a digest of its configuration (``"config"``, :func:`config_digest`), so that
    two results files can be matched game by game whatever seeds their runs started from, and a
    results file of another run is not taken for this one's (:func:`run_arena`).
    For the balance lab's warnings the row also holds ``"digest"``, a digest of the game's
    actions in order (two games with the same digest were played move for move alike), and
    ``"offered"``, per seat, how many of its decisions offered each action kind (what its agent
    was offered: the legal actions less its restriction).

    An optional ``"forbidden"`` entry of the payload, one list of action kinds per seat,
    restricts what each seat's agent is offered; ``"yielded"`` in the row counts, per seat, the
    decisions where the restriction left nothing and so gave way."""
    game_id, seats, seed, agent_seed = (
        payload["game"],
        payload["seats"],
        payload["seed"],
        payload["agent_seed"],
    )
    config_json = payload["config"]
    if not (
        isinstance(game_id, str)
        and isinstance(seats, list)
        and isinstance(seed, int)
        and isinstance(agent_seed, int)
        and isinstance(config_json, dict)
    ):
        raise TypeError(f"not an arena job: {payload!r}")
    forbidden = _forbidden(payload.get("forbidden"), len(seats))
    game = get_game(game_id)
    config = game.config_from_json(config_json)
    made = make_seats(game, [str(seat) for seat in seats], agent_seed)
    table = new_table(
        game,
        config,
        [replace(seat, forbidden=names) for seat, names in zip(made, forbidden, strict=True)],
        seed=seed,
        allow_undo=False,
    )
    for entry in table.seats:
        if entry.agent is not None:
            entry.agent.prepare(config, lambda text: None)
    count = len(seats)
    decisions = [0] * count
    seconds = [0.0] * count
    slowest = [0.0] * count
    yielded = [0] * count
    kinds: list[dict[str, int]] = [{} for _ in range(count)]
    offered: list[dict[str, int]] = [{} for _ in range(count)]
    plain: dict[object, str] = {}  # an action's kind before the position's flags
    first = table.decider
    for _ in range(MAX_ACTIONS):
        seat = table.agent_to_move()
        if seat is None:
            break
        legal = table.legal_actions()
        offer = legal
        if forbidden[seat]:
            offer = allowed(game, table.state, legal, forbidden[seat])
            if not offer:
                yielded[seat] += 1
                offer = legal
        for kind in _kinds_of(game, table.state, offer, plain):
            offered[seat][kind] = offered[seat].get(kind, 0) + 1
        start = time.perf_counter()
        played = table.step()
        elapsed = time.perf_counter() - start
        if len(legal) > 1:
            decisions[seat] += 1
            seconds[seat] += elapsed
            slowest[seat] = max(slowest[seat], elapsed)
        if played is not None:
            kind = played_kind(game, played.before, played.action)
            kinds[seat][kind] = kinds[seat].get(kind, 0) + 1
    outcome = table.outcome
    if outcome is None:
        outcome = Outcome(
            f"cut short after {MAX_ACTIONS} actions without an end (play went round in circles)",
            (0.0,) * count,
            by_limit=True,
            termination=Termination.CUT_SHORT,
        )
    row: JSONObject = {
        "returns": list(outcome.returns),
        "winners": list(outcome.winners),
        "by_limit": outcome.by_limit,
        "reason": outcome.reason,
        "termination": outcome.termination.value,
        "actions": len(table.played),
        "decisions": list(decisions),
        "seconds": list(seconds),
        "slowest": list(slowest),
        "seats": list(seats),
        "kinds": [dict(counts) for counts in kinds],
        "offered": [dict(counts) for counts in offered],
        "digest": _digest(entry.text for entry in table.played),
        "first": first,
        "deal": seed,
        "agent_seed": agent_seed,
        "game": game_id,
        "config": config_digest(config_json),
    }
    turns = getattr(table.state, "turn", None)
    if isinstance(turns, int) and not isinstance(turns, bool):
        row["turns"] = turns
    if any(forbidden):
        row["yielded"] = list(yielded)
    return row


def _kinds_of(
    game: AnyGame, state: object, actions: Sequence[object], plain: dict[object, str]
) -> set[str]:
    """The kinds (:func:`~fanfold.core.kinds.played_kind`) of ``actions`` in ``state``;
    ``plain`` remembers each action's kind before the position's flags."""
    found: set[str] = set()
    for action in actions:
        kind = plain.get(action)
        if kind is None:
            kind = plain[action] = action_kind(action)
        flags = game.played_flags(state, action)
        found.add("+".join((kind, *flags)) if flags else kind)
    return found


def _digest(texts: Iterable[str]) -> str:
    """A digest of a game's actions, in order (SHA-256 of their texts, one a line)."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8") + b"\n")
    return digest.hexdigest()[:32]


def _forbidden(value: JSONValue | None, seats: int) -> list[tuple[str, ...]]:
    if value is None:
        return [()] * seats
    if not isinstance(value, list) or len(value) != seats:
        raise TypeError(f"forbidden needs one list of action kinds per seat, not {value!r}")
    return [tuple(str(name) for name in _list(names)) for names in value]


def run_arena(
    plan: ArenaPlan,
    *,
    workers: int = 1,
    results: Path | None = None,
    progress: ProgressCallback | None = None,
) -> list[JSONObject]:
    """Play ``plan`` on the batch runner; one row per game, in job order. The games already in
    ``results`` are reused; a row there that another run wrote (other seats, deal, game or
    configuration for the same job) is refused before any game is played (``ConfigError``):
    reusing it would report another run's games as this one's."""
    jobs = plan.jobs()
    if results is not None:
        _check_stored(plan, jobs, results)
    return run_batch(
        play_arena_game,
        jobs,
        workers=workers,
        results=results,
        progress=progress,
        fields=GAME_ROW_FIELDS,
    )


def config_digest(config_json: JSONValue) -> str:
    """A short digest of a game configuration's JSON (keys sorted)."""
    text = json.dumps(config_json, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _check_stored(plan: ArenaPlan, jobs: Sequence[Job], results: Path) -> None:
    """Refuse ``results`` when a row there for one of ``plan``'s ``jobs`` was written by another
    run (rows written before a field was kept are checked on the fields they have)."""
    stored = read_results(results, GAME_ROW_FIELDS)
    config = config_digest(plan.config.to_json())
    for job in jobs:
        row = stored.get(job.key)
        if row is None:
            continue
        wanted: dict[str, JSONValue] = {
            "game": job.payload["game"],
            "config": config,
            "deal": job.payload["seed"],
            "seats": job.payload["seats"],
        }
        for name, value in wanted.items():
            if name in row and row[name] != value:
                raise ConfigError(
                    Refusal(
                        "arena.results_of_another_run",
                        path=str(results),
                        job=job.key,
                        name=name,
                        found=json.dumps(row[name]),
                        wanted=json.dumps(value),
                    )
                )


@dataclass
class AgentResult:
    """One agent's results over a run. A *game* is one seat taken: an agent filling three
    seats of one game counts three."""

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    returns: float = 0.0
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    rating: float | None = None

    @property
    def win_rate(self) -> Proportion:
        """Wins among games, with its Wilson interval."""
        return Proportion(self.wins, self.games)

    @property
    def seconds_per_decision(self) -> float:
        """Mean time a decision (0 with none)."""
        return self.seconds / self.decisions if self.decisions else 0.0

    def to_json(self) -> JSONObject:
        low, high = self.win_rate.interval
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": self.win_rate.fraction,
            "win_interval": [low, high],
            "mean_return": self.returns / self.games if self.games else None,
            "decisions": self.decisions,
            "seconds_per_decision": self.seconds_per_decision,
            "max_seconds_per_decision": self.slowest,
            "rating": self.rating,
        }


@dataclass
class HeadToHead:
    """Games in which two agents both sat, counted by whose return was higher."""

    first: str
    second: str
    first_wins: int = 0
    second_wins: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        """Games they met in."""
        return self.first_wins + self.second_wins + self.draws

    def to_json(self) -> JSONObject:
        low, high = Proportion(self.first_wins, self.games).interval
        return {
            "first": self.first,
            "second": self.second,
            "games": self.games,
            "first_wins": self.first_wins,
            "second_wins": self.second_wins,
            "draws": self.draws,
            "first_win_interval": [low, high],
        }


@dataclass
class ArenaReport:
    """Everything an arena run measured."""

    agents: list[AgentResult]
    pairs: list[HeadToHead]
    games: int
    limit_draws: int
    mean_length: float
    reasons: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> JSONObject:
        agents: list[JSONValue] = [agent.to_json() for agent in self.agents]
        pairs: list[JSONValue] = [pair.to_json() for pair in self.pairs]
        return {
            "games": self.games,
            "limit_draws": self.limit_draws,
            "mean_length": self.mean_length,
            "agents": agents,
            "pairs": pairs,
        }


def summarize(plan: ArenaPlan, rows: Sequence[JSONObject]) -> ArenaReport:
    """Count ``rows`` (from :func:`run_arena`) per agent and per pair of agents."""
    results = {name: AgentResult(name) for name in plan.agents}
    pairs = {
        (first, second): HeadToHead(first, second)
        for first, second in itertools.combinations(plan.agents, 2)
    }
    limit_draws = 0
    length = 0
    for row in rows:
        seats = [str(seat) for seat in _list(row["seats"])]
        returns = [float(_number(value)) for value in _list(row["returns"])]
        winners = {int(_number(seat)) for seat in _list(row["winners"])}
        decisions = _list(row["decisions"])
        seconds = _list(row["seconds"])
        slowest = _list(row["slowest"])
        limit_draws += bool(row["by_limit"])
        length += int(_number(row["actions"]))
        for seat, name in enumerate(seats):
            result = results[name]
            result.games += 1
            result.returns += returns[seat]
            if seat in winners:
                result.wins += 1
            elif not winners and len(seats) > 1:  # a solitaire not won is lost
                result.draws += 1
            else:
                result.losses += 1
            result.decisions += int(_number(decisions[seat]))
            result.seconds += _number(seconds[seat])
            result.slowest = max(result.slowest, _number(slowest[seat]))
        best: dict[str, float] = {}
        for seat, name in enumerate(seats):
            best[name] = max(best.get(name, -math.inf), returns[seat])
        for (first, second), pair in pairs.items():
            if first in best and second in best:
                if best[first] > best[second]:
                    pair.first_wins += 1
                elif best[second] > best[first]:
                    pair.second_wins += 1
                else:
                    pair.draws += 1
    met = [pair for pair in pairs.values() if pair.games]
    if len(plan.agents) > 2 and met:  # a solitaire's agents never meet: nothing to rate
        for name, rating in elo_ratings(plan.agents, met).items():
            results[name].rating = rating
    return ArenaReport(
        agents=list(results.values()),
        pairs=met,
        games=len(rows),
        limit_draws=limit_draws,
        mean_length=length / len(rows) if rows else 0.0,
    )


def elo_ratings(
    names: Sequence[str], pairs: Sequence[HeadToHead], iterations: int = 2000
) -> dict[str, float]:
    """Elo-scale ratings (mean 1500) that best explain the head-to-head results.

    A Bradley-Terry fit by minorization-maximization, a draw counting half a win to each side,
    with one drawn game added between every pair that met, so that an agent that won every
    game gets a large finite rating rather than an infinite one. 400 points of difference
    mean odds of 10 to 1.

    >>> ratings = elo_ratings(["a", "b"], [HeadToHead("a", "b", first_wins=3, second_wins=1)])
    >>> round(ratings["a"] - ratings["b"])
    147
    """
    index = {name: number for number, name in enumerate(names)}
    count = len(names)
    wins = [[0.0] * count for _ in range(count)]
    for pair in pairs:
        a, b = index[pair.first], index[pair.second]
        half = (pair.draws + 1) / 2
        wins[a][b] += pair.first_wins + half
        wins[b][a] += pair.second_wins + half
    strength = [1.0] * count
    for _ in range(iterations):
        updated = []
        for a in range(count):
            total = sum(wins[a])
            denominator = sum(
                (wins[a][b] + wins[b][a]) / (strength[a] + strength[b])
                for b in range(count)
                if b != a and wins[a][b] + wins[b][a]
            )
            updated.append(total / denominator if denominator else strength[a])
        scale = math.exp(sum(math.log(value) for value in updated) / count)
        strength = [value / scale for value in updated]
    return {name: 1500 + 400 * math.log10(strength[index[name]]) for name in names}


def _list(value: JSONValue) -> list[JSONValue]:
    if not isinstance(value, list):
        raise TypeError(f"not a list in an arena row: {value!r}")
    return value


def _number(value: JSONValue) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise TypeError(f"not a number in an arena row: {value!r}")
    return float(value)
