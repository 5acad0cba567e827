"""How well the Fan Tan strategy reads the other seats' hands from their play.

Four seats of the strategy (``heuristic``) play seeded games. At every decision of Player 1 with
a choice of cards, early enough that exact sampling is affordable (between the 7th and the 29th
action of the hand), three ways of dealing the hidden cards are compared by the share of them
each puts at the seat that really holds them:

* ``uniform``: deals drawn uniformly among those the view allows (every hand size, card seen
  and pass), :func:`fanfold.games.fantan.sampling.sample_state`;
* ``chain``: the swap chain of :func:`fanfold.agents.strategy.fantan.infer_states` (the
  ``hard`` level's reading);
* ``exact``: rejection sampling from the uniform deals, keeping those under which the others'
  plays are exactly what the strategy would have played (stray rate 0), which draws exactly
  from the posterior when the others are players of the strategy.

A position is counted when ``--samples`` exact deals were found within ``--tries`` uniform
draws. Run: ``python3 benchmarks/fantan_reading.py --games 12 --seed 2000``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from fanfold.agents import create_agent
from fanfold.agents.strategy import fantan as strategy
from fanfold.games.fantan import GAME, FanTanConfig, FanTanState


def _placed(truth: FanTanState, dealt: Sequence[FanTanState], viewer: int) -> float:
    """The share of the hidden cards that ``dealt`` put at the right seat, on average."""
    seats = [seat for seat in range(len(truth.hands)) if seat != viewer]
    hidden = sum(truth.hands[seat].bit_count() for seat in seats)
    right = sum(
        (state.hands[seat] & truth.hands[seat]).bit_count() for state in dealt for seat in seats
    )
    return right / (hidden * len(dealt))


def main(argv: Sequence[str] | None = None) -> None:
    """Play the games and print the mean share placed right by each way of dealing."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--tries", type=int, default=200_000)
    args = parser.parse_args(argv)
    config = FanTanConfig()
    totals = {"uniform": 0.0, "chain": 0.0, "exact": 0.0}
    positions = 0
    for number in range(args.games):
        agents = [create_agent("heuristic", GAME, seat) for seat in range(4)]
        state = GAME.new_state(config, args.seed + number)
        rng = random.Random(number)
        while GAME.current_player(state) is not None:
            seat = state.to_move
            view = GAME.observe(state, seat)
            legal = GAME.legal_actions(state)
            if seat == 0 and len(legal) > 1 and 6 < len(view.history) < 30:
                record = strategy.PlayRecord(view, 0.0)
                exact: list[FanTanState] = []
                for _ in range(args.tries):
                    dealt = GAME.sample_state(view, rng)
                    if all(record.seat_likelihood(other, dealt.hands[other]) > 0 for other in
                           range(1, 4)):  # fmt: skip
                        exact.append(dealt)
                        if len(exact) == args.samples:
                            break
                if len(exact) == args.samples:
                    chain = strategy.infer_states(view, args.samples, rng)
                    uniform = [GAME.sample_state(view, rng) for _ in range(args.samples)]
                    totals["uniform"] += _placed(state, uniform, 0)
                    totals["chain"] += _placed(state, chain, 0)
                    totals["exact"] += _placed(state, exact, 0)
                    positions += 1
            state = GAME.apply(state, agents[seat].choose(view, legal))
    print(f"{positions} positions from {args.games} games (seed {args.seed})")
    for name, total in totals.items():
        print(f"{name:<8} {100 * total / max(positions, 1):.1f}% of the hidden cards placed right")


if __name__ == "__main__":
    main()
