"""What the hidden cards are worth to a Fan Tan seat: ``hard`` against players who see them.

One searching seat plays against three heuristic seats (the arena's ``--agents hard,heuristic``
lineup), every deal once per seat rotation, and the same deals and seats are played by each way
of choosing the searching seat's cards:

* ``heuristic``: the strategy itself (the fair share, 25% at four players);
* ``hard``: the level, which reads the others' hands from their play (what a player may know);
* ``seeing``: the same compiled search as ``hard`` (look-ahead 2, group 50), given every hand
  instead of deals read from play: what ``hard``'s search would win if it saw the cards;
* ``seeing, no look-ahead``: the same with the seat's own later choices left to the strategy;
* ``omniscient``: whether some sequence of the seat's own choices wins the deal against the
  heuristic seats, given every hand and the heuristic seats' tie-breaking draws (an exact
  search over the seat's choices; the most any way of playing could win here).

``seeing`` and ``omniscient`` are measurements, not players: they read the hidden hands, which
no agent of fanfold is ever given. Each row prints its wins with a 95% interval and the games
it won or lost against ``hard`` on the same deal and seat.

Run: ``python3 benchmarks/fantan_ceiling.py --deals 100 --seed 1``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

from fanfold.agents import create_agent
from fanfold.agents.strategy import fantan_fast
from fanfold.agents.strategy.fantan import DEFAULT_WEIGHTS, _advance
from fanfold.games.fantan import GAME, FanTanConfig, FanTanState, rules
from fanfold.games.fantan.actions import PLAYS, FanTanAction
from fanfold.games.fantan.view import FanTanView
from fanfold.play.stats import wilson_interval

#: A way of choosing the searching seat's card: from the view, the true state and the legal moves.
Chooser = Callable[[FanTanView, FanTanState, Sequence[FanTanAction]], FanTanAction]

SEATS = (DEFAULT_WEIGHTS,) * 4


def _searched(deals: int, lookahead: int, rng: random.Random) -> Chooser:
    """The compiled search on ``deals`` copies of the true hands."""

    def choose(view: FanTanView, state: FanTanState, legal: Sequence[FanTanAction]) -> FanTanAction:
        hands = np.array([list(state.hands)] * deals, np.int64)
        values = fantan_fast.search_values(view, hands, legal, rng, lookahead, 50)
        return legal[max(range(len(legal)), key=values.__getitem__)]

    return choose


def _agent(name: str, seat: int) -> Chooser:
    agent = create_agent(name, GAME, seat)

    def choose(view: FanTanView, state: FanTanState, legal: Sequence[FanTanAction]) -> FanTanAction:
        del state
        action: FanTanAction = agent.choose(view, legal)
        return action

    return choose


def play(
    config: FanTanConfig, deal: int, searcher: int, choose: Chooser, others: Sequence[Chooser]
) -> bool:
    """Play one deal with ``choose`` at seat ``searcher`` and ``others`` (one per seat) in the
    other seats: whether ``searcher`` went out first."""
    state = GAME.new_state(config, deal)
    while GAME.current_player(state) is not None:
        seat = state.to_move
        legal = GAME.legal_actions(state)
        if len(legal) == 1:
            action = legal[0]
        else:
            view = GAME.observe(state, seat)
            action = (choose if seat == searcher else others[seat])(view, state, legal)
        state = GAME.apply(state, action)
    outcome = GAME.outcome(state)
    return outcome is not None and outcome.returns[searcher] > 0


def _wins_somehow(state: FanTanState, player: int, seed: int) -> bool:
    """Whether some sequence of ``player``'s choices from ``state`` wins, the other seats playing
    the strategy with their tie-breaking draws taken from ``seed``."""
    after, seen = _advance(state, random.Random(seed), SEATS, player)
    if seen is None:
        outcome = rules.outcome(after)
        return outcome is not None and outcome.returns[player] > 0
    choices = after.hands[player] & rules.state_playable(after)
    while choices:
        low = choices & -choices
        choices ^= low
        if _wins_somehow(rules.apply(after, PLAYS[low.bit_length() - 1]), player, seed + 1):
            return True
    return False


def main(argv: Sequence[str] | None = None) -> None:
    """Play every way on the same deals and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals (each played 4 times)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    args = parser.parse_args(argv)
    config = FanTanConfig()
    fantan_fast.warm_up()
    rng = random.Random(args.seed)
    ways: dict[str, Callable[[int], Chooser]] = {
        "heuristic": lambda seat: _agent("heuristic", seat),
        "hard": lambda seat: _agent("hard", seat),
        "seeing": lambda seat: _searched(200, 2, rng),
        "seeing, no look-ahead": lambda seat: _searched(200, 0, rng),
    }
    results: dict[str, list[bool]] = {}
    for name, make in ways.items():
        started = time.perf_counter()
        won: list[bool] = []
        for number in range(args.deals):
            for searcher in range(4):
                others = [_agent("heuristic", 100 + seat) for seat in range(4)]
                won.append(play(config, args.seed + number, searcher, make(searcher), others))
            print(f"\r{name}: deal {number + 1}/{args.deals}", end="", file=sys.stderr)
        print(f"\r{name}: {time.perf_counter() - started:.0f} s" + " " * 20, file=sys.stderr)
        results[name] = won
    results["omniscient"] = [
        _wins_somehow(GAME.new_state(config, args.seed + number), searcher, number * 4 + searcher)
        for number in range(args.deals)
        for searcher in range(4)
    ]
    games = 4 * args.deals
    print(f"Fan Tan, 4 players: {games} games (deals {args.seed}..{args.seed + args.deals - 1},")
    print("each with the searching seat in every seat), against three heuristic seats\n")
    print("| searching seat | won | win %, 95% interval | won only by it / only by hard |")
    print("|---|---:|---|---|")
    hard = results["hard"]
    for name, won in results.items():
        low, high = wilson_interval(sum(won), games)
        paired = "-"
        if name != "hard":
            mine = sum(w and not h for w, h in zip(won, hard, strict=True))
            theirs = sum(h and not w for w, h in zip(won, hard, strict=True))
            paired = f"{mine} / {theirs}"
        share = f"{100 * sum(won) / games:.1f}% ({100 * low:.1f}-{100 * high:.1f})"
        print(f"| {name} | {sum(won)} | {share} | {paired} |")


if __name__ == "__main__":
    main()
