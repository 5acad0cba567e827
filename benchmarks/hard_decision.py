"""Fano's ``hard`` timed by its budget: CPU seconds a decision at two, three and four players
of Trionfey, and where the time goes.

``hard`` is the ladder's balanced member looking ahead (:mod:`fanfold.agents.ladder.lookahead`):
every legal move tried on its deals of the view, each carried on by the member for every seat
to the end of the seat's next turn. Its cost a decision is deals x legal moves x the cost of
a continuation, and a continuation's cost is the member's decisions in it (three opponents'
turns at four players, one at two).

``--games`` games a player count from ``--seed``: the timed agent (``--agent``, ``hard`` by
default) in seat ``game mod players``, the other seats ``ladder``, ``ladder(style=attack)``
and ``ladder(style=bluff)`` (as many as there are seats, in that order), each game cut at
``--actions`` actions. At each of the timed agent's decisions with more than one legal move
and no promotion the process's CPU time is read (other work on a shared machine does not
count), with the legal moves and the deals dealt; the continuations of two further deals of
the same view (a separate generator: the game is not changed) are replayed by a counting twin
of :func:`fanfold.agents.ladder.lookahead.carry_on`, which gives their actions, the member's
decisions in them, how often the action limit cut one, and the CPU microseconds a
continuation and a member's decision cost. The last columns count the decisions whose move
the member's own search (:func:`fanfold.agents.ladder.compiled.root_values`) ranks outside
its best 4, 6 or 8: the choices a look-ahead kept to those moves (``ladder(deals=24,
keep=K)``) could not have made.

Run::

    python3 benchmarks/hard_decision.py --players 2,3,4 --games 2
    python3 benchmarks/hard_decision.py --players 4 --agent 'ladder(deals=24)'
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from fanfold.agents.base import create_agent
from fanfold.agents.ladder import compiled, lookahead
from fanfold.agents.ladder.agent import LadderAgent
from fanfold.agents.ladder.kernels import _is_end, decide
from fanfold.agents.ladder.styles import Style, params
from fanfold.agents.strategy.fano_search import decider
from fanfold.core.registry import get_game
from fanfold.games.fano.actions import Promote
from fanfold.games.fano.config import TRIONFEY
from fanfold.games.fano.fast import codec, engine
from fanfold.games.fano.fast.kernels import apply, legal_actions, winner
from fanfold.games.fano.fast.layout import MAX_ACTIONS, P_OVER, PHASE, SHUFFLE_SIZE, TURN

#: The ranks counted: how many decisions chose a move outside the member's top ``k``.
KEPT = (4, 6, 8)
#: The other seats, in order.
OTHERS = ("ladder", "ladder(style=attack)", "ladder(style=bluff)")


@njit
def _counted(deals, cfg, seat, legal, nlegal, suits, weights, fparams, iparams, limit, counts):  # type: ignore[no-untyped-def]
    """:func:`fanfold.agents.ladder.lookahead.look`'s continuations, counted: ``counts``
    gets [continuations, actions, member's decisions, cut at the limit, games over]."""
    out = np.empty(MAX_ACTIONS, np.int64)
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    for d in range(deals.shape[0]):
        for i in range(nlegal):
            s = deals[d].copy()
            apply(s, cfg, legal[i], shuffle)
            counts[0] += 1
            start = s[TURN]
            played = 0
            ended = False
            while played < limit:
                if winner(s, cfg) >= 0 or s[PHASE] == P_OVER:
                    counts[4] += 1
                    ended = True
                    break
                n = legal_actions(s, cfg, out)
                if n == 0:
                    ended = True
                    break
                mover = decider(s)
                if n > 1:
                    counts[2] += 1
                index = decide(s, cfg, mover, out, n, suits, weights, fparams, iparams)
                action = out[index]
                if mover == seat and s[TURN] != start and _is_end(action & 255):
                    ended = True
                    break
                apply(s, cfg, action, shuffle)
                played += 1
            counts[1] += played
            if not ended:
                counts[3] += 1


@dataclass
class Tally:
    """One player count's figures."""

    seconds: list[float] = field(default_factory=list)
    legal: list[int] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)
    counts: np.ndarray = field(default_factory=lambda: np.zeros(5, np.int64))
    replay: float = 0.0
    ranks: list[int] = field(default_factory=list)

    def row(self, players: int) -> list[str]:
        n = len(self.seconds)
        cont, actions, decisions, cut, over = (int(x) for x in self.counts)
        work = sum(d * k for d, k in zip(self.deals, self.legal, strict=True))
        return [
            str(players),
            str(n),
            f"{statistics.fmean(self.seconds):.3f}",
            f"{max(self.seconds):.3f}",
            f"{statistics.fmean(self.legal):.1f}",
            f"{statistics.fmean(self.deals):.1f}",
            f"{1e6 * sum(self.seconds) / max(work, 1):.0f}",
            f"{actions / max(cont, 1):.1f}",
            f"{decisions / max(cont, 1):.1f}",
            f"{100 * cut / max(cont, 1):.1f}%",
            f"{100 * over / max(cont, 1):.1f}%",
            f"{1e6 * self.replay / max(decisions, 1):.0f}",
            *(f"{sum(r >= k for r in self.ranks)}" for k in KEPT),
        ]


def run(players: int, games: int, seed: int, agent: str, limit: int) -> Tally:
    """The timed agent's decisions over ``games`` games at ``players`` players."""
    game = get_game("fano")
    config = game.with_players(TRIONFEY, players)
    tally = Tally()
    balanced = params(Style.BALANCED, config)
    weights, fparams, iparams = compiled._arrays(balanced)
    suits = compiled._suits(config)
    other_rng = random.Random(seed)
    for number in range(games):
        timed_seat = number % players
        names = iter(OTHERS)
        agents = [
            create_agent(agent if seat == timed_seat else next(names), game, seed + 97 * seat)
            for seat in range(players)
        ]
        state = game.new_state(config, seed + number)
        for _ in range(limit):
            if game.outcome(state) is not None:
                break
            seat = game.current_player(state)
            assert seat is not None
            view = game.observe(state, seat)
            legal = game.legal_actions(state)
            timed = (
                seat == timed_seat
                and len(legal) > 1
                and not any(isinstance(a, Promote) for a in legal)
            )
            start = time.process_time()
            action = agents[seat].choose(view, legal)
            spent = time.process_time() - start
            if timed:
                member = agents[seat]
                totals = member.last_totals if isinstance(member, LadderAgent) else None
                dealt = totals[0] if totals is not None else 0
                if dealt:
                    tally.seconds.append(spent)
                    tally.legal.append(len(legal))
                    tally.deals.append(dealt)
                    ids = np.array([codec.action_id(a) for a in legal], np.int64)
                    values = compiled.root_values(
                        game.sample_state(view, random.Random(0)), seat, ids, balanced
                    )
                    if values is not None:
                        chosen = legal.index(action)
                        tally.ranks.append(
                            sum(
                                1
                                for i in range(len(legal))
                                if (-values[i], i) < (-values[chosen], chosen)
                            )
                        )
                    deals = np.stack(
                        [engine.encode(game.sample_state(view, other_rng)).array for _ in range(2)]
                    )
                    before = time.process_time()
                    _counted(
                        deals,
                        engine.encode(state).options,
                        seat,
                        ids,
                        len(ids),
                        suits,
                        weights,
                        fparams,
                        iparams,
                        lookahead.LIMIT,
                        tally.counts,
                    )
                    tally.replay += time.process_time() - before
            state = game.apply_legal(state, action)
    return tally


HEADER = [
    "players",
    "decisions",
    "CPU s mean",
    "CPU s max",
    "legal moves",
    "deals",
    "us a continuation",
    "actions a continuation",
    "member decisions a continuation",
    "cut at limit",
    "game over",
    "us a member decision",
    *(f"chosen outside the member's top {k}" for k in KEPT),
]


def main(argv: Sequence[str] | None = None) -> None:
    """Print a Markdown table, one row a player count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3,4", help="player counts (comma-separated)")
    parser.add_argument("--games", type=int, default=2, help="games a player count")
    parser.add_argument("--seed", type=int, default=9301, help="first deal's seed")
    parser.add_argument("--agent", default="hard", help="the timed agent")
    parser.add_argument("--actions", type=int, default=400, help="actions a game at most")
    args = parser.parse_args(argv)
    counts = [int(text) for text in args.players.split(",") if text]
    if any(not 2 <= n <= 4 for n in counts):
        parser.error("players must be 2, 3 or 4")
    compiled.warm_up()
    print(f"Python {platform.python_version()}; `{args.agent}`, Trionfey, seed {args.seed}")
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "---:|" * len(HEADER))
    for players in counts:
        tally = run(players, args.games, args.seed, args.agent, args.actions)
        if tally.seconds:
            print("| " + " | ".join(tally.row(players)) + " |", flush=True)


if __name__ == "__main__":
    main()
