"""Whether ``hard``'s model of Fan Tan's ``heuristic`` seats is the arena's ``heuristic`` agent.

``hard`` (``pimc(fast=true)``) plays every other seat in its playouts by the compiled kernels'
strategy and reads their hands by that strategy's likelihood of the plays seen. This plays
seeded four-seat games (one ``--agent`` seat, rotating, against three ``heuristic`` seats, as
``fanfold arena fantan --agents AGENT,heuristic`` does) and checks, move by move:

* at every choice of a ``heuristic`` seat among two or more cards: the cards the kernels score
  best (:func:`fanfold.agents.strategy.fantan_kernels.score_choices`) are exactly the cards
  :func:`fanfold.agents.strategy.fantan.card_scores` scores best, and the card the agent
  played is one of them (ties are broken at random by both, each with its own generator:
  uniform among the tied cards);
* at every choice of the ``--agent`` seat: the others' real hands keep every pass seen, and are
  possible under a reading that never strays (stray rate 0): every play seen is one of the
  strategy's best cards for the hand really held. It also gives the share of the hidden cards
  the compiled reading (:func:`fanfold.agents.strategy.fantan_fast.infer_deals`) puts at the
  seat that holds them, against deals drawn uniformly.

Run: ``python3 benchmarks/fantan_model_check.py --games 40 --agent hard``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from fanfold.agents import create_agent
from fanfold.agents.strategy import fantan as strategy
from fanfold.agents.strategy import fantan_fast as fast
from fanfold.agents.strategy import fantan_kernels as kernels
from fanfold.games.fantan import GAME, FanTanState, FanTanView, rules
from fanfold.games.fantan.actions import Play


def _share(view: FanTanView, state: FanTanState, infer: bool, seed: int) -> tuple[float, int]:
    """The hidden cards 200 compiled deals put at their real holder (on average), and how
    many hidden cards there are."""
    deals = fast.infer_deals(view, 200, random.Random(seed), infer)
    right, hidden = 0.0, 0
    for seat, hand in enumerate(state.hands):
        if seat != view.player:
            hidden += hand.bit_count()
            right += sum((int(row[seat]) & hand).bit_count() for row in deals) / len(deals)
    return right, hidden


@dataclass
class Counts:
    """What :func:`check` found (see the module docstring)."""

    choices: int = 0
    differ: int = 0
    outside: int = 0
    tied: int = 0
    decisions: int = 0
    broken: int = 0
    impossible: int = 0
    read: float = 0.0
    uniform: float = 0.0
    hidden: int = 0


def check(games: int, seed: int, agent: str) -> Counts:
    """Play ``games`` games from ``seed`` (one ``agent`` seat, rotating, three ``heuristic``
    seats) and count, move by move, where the model of the ``heuristic`` seats differs."""
    config = GAME.preset("standard").config
    tables = fast.tables(config)
    cards, scores = np.empty(52, np.int64), np.empty(52, np.float64)
    found = Counts()
    for number in range(games):
        deal = seed + number
        searcher = number % config.players
        agents = [
            create_agent(agent if seat == searcher else "heuristic", GAME, deal * 10 + seat)
            for seat in range(config.players)
        ]
        state = GAME.new_state(config, deal)
        while GAME.current_player(state) is not None:
            seat = state.to_move
            legal = GAME.legal_actions(state)
            view = GAME.observe(state, seat)
            choices = sum(1 << action.index for action in legal if isinstance(action, Play))
            best: set[int] = set()
            if seat != searcher and choices & (choices - 1):
                found.choices += 1
                count = kernels.score_choices(
                    view.hand, choices, view.layout, cards, scores, *tables.scoring()
                )
                top = scores[:count].max()
                best = {int(cards[k]) for k in range(count) if scores[k] == top}
                reference = strategy.card_scores(
                    config, view.layout, view.start_rank, view.hand, choices
                )
                high = max(reference.values())
                found.differ += best != {
                    index for index, score in reference.items() if score == high
                }
                found.tied += len(best) > 1
            if seat == searcher and len(legal) > 1:
                found.decisions += 1
                record = strategy.PlayRecord(view, 0.0)
                forbidden = rules.pass_constraints(config, view.leader, view.history)
                for other, hand in enumerate(state.hands):
                    if other != seat:
                        found.broken += bool(hand & forbidden[other])
                        found.impossible += record.seat_likelihood(other, hand) == 0.0
                right, hidden = _share(view, state, True, deal)
                plain, _ = _share(view, state, False, deal)
                found.read += right
                found.uniform += plain
                found.hidden += hidden
            action = agents[seat].choose(view, legal)
            if best and isinstance(action, Play) and action.index not in best:
                found.outside += 1
            state = GAME.apply(state, action)
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agent", default="hard")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    found = check(args.games, args.seed, args.agent)
    print(f"{args.games} games, seeds {args.seed}..{args.seed + args.games - 1}, {args.agent}")
    print(f"heuristic choices among two or more cards: {found.choices}")
    print(f"  kernels' best cards differ from the strategy's: {found.differ}")
    print(f"  card played outside the kernels' best: {found.outside}")
    print(f"  choices with tied best cards: {found.tied}")
    print(f"{args.agent}'s choices: {found.decisions}")
    print(f"  a real hand breaks a pass seen: {found.broken}")
    print(f"  a real hand impossible under a reading that never strays: {found.impossible}")
    if found.hidden:
        print(
            f"  hidden cards at their holder: read {found.read / found.hidden:.3f}, "
            f"uniform {found.uniform / found.hidden:.3f}"
        )


if __name__ == "__main__":
    main()
