"""Fan Tan's determinized search: the reference route against the compiled one, side by side.

Collects the decisions (two or more playable cards) of seat 1 in games the heuristic plays
(standard four-player game), then times ``pimc`` on every one of them, once by the reference
route (state objects, Python playouts) and once compiled (``fast=true``: Numba kernels on
arrays of deals), at the same settings, and prints seconds a decision and deals a second. The
compiled kernels are loaded (or compiled) before timing.

The default rows: the reference route at ``deals=200, group=5`` (Fan Tan's ``hard`` before the
compiled search), the compiled route at the same settings, and the compiled route at
``deals=2000, group=50`` (``hard`` now).

Run: ``python3 benchmarks/fantan_search.py --games 6``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from fanfold.agents import create_agent
from fanfold.agents.pimc import PIMCAgent, PIMCConfig
from fanfold.agents.strategy import fantan_fast
from fanfold.games.fantan import GAME, FanTanAction, FanTanView


def decisions(games: int) -> list[tuple[FanTanView, list[FanTanAction]]]:
    """Seat 0's choices among two or more cards in ``games`` games of heuristic players."""
    config = GAME.preset("standard").config
    agents = [create_agent("heuristic", GAME, seat) for seat in range(config.players)]
    found = []
    for seed in range(games):
        state = GAME.new_state(config, seed)
        while GAME.current_player(state) is not None:
            seat = state.to_move
            legal = list(GAME.legal_actions(state))
            view = GAME.observe(state, seat)
            if seat == 0 and len(legal) > 1:
                found.append((view, legal))
            state = GAME.apply(state, agents[seat].choose(view, legal))
    return found


def timed(config: PIMCConfig, work: list[tuple[FanTanView, list[FanTanAction]]]) -> float:
    """Seconds a decision of ``pimc`` with ``config`` over ``work``."""
    agent = PIMCAgent(GAME, config, seed=1)
    start = time.perf_counter()
    for view, legal in work:
        agent.action_values(view, legal)
    return (time.perf_counter() - start) / len(work)


def main(argv: list[str] | None = None) -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=6, help="games whose decisions are timed")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--lookahead", type=int, default=2)
    parser.add_argument("--group", type=int, default=5)
    parser.add_argument(
        "--fast-deals", type=int, default=2000, help="deals of an extra compiled row"
    )
    parser.add_argument("--fast-group", type=int, default=50, help="group of that row")
    args = parser.parse_args(argv)
    fantan_fast.warm_up()
    work = decisions(args.games)
    print(
        f"Fan Tan search, {len(work)} decisions of {args.games} games; "
        f"{platform.machine()}, {os.cpu_count()} cores"
    )
    print(f"pimc(infer=true, lookahead={args.lookahead}), per decision:")
    rows = [
        ("reference", args.deals, args.group, False),
        ("compiled (fast=true)", args.deals, args.group, True),
        ("compiled (fast=true)", args.fast_deals, args.fast_group, True),
    ]
    reference = None
    for name, deals, group, fast in rows:
        config = PIMCConfig(
            deals=deals, infer=True, lookahead=args.lookahead, group=group, fast=fast
        )
        seconds = timed(config, work)
        if reference is None:
            reference = seconds / deals
        ratio = reference / (seconds / deals)
        print(
            f"  {name:<22} deals={deals:<5} group={group:<3} {seconds:8.4f} s/decision "
            f"{deals / seconds:>10,.0f} deals/s  {ratio:6.1f}x the reference's deals/s"
        )


if __name__ == "__main__":
    main()
