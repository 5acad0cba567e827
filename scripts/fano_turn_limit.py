"""How often Fano games reach the turn limit, by edition, table size and agents.

Plays seeded games (seed 0, 1, ...) of the ``classic`` and ``trionfey`` presets with every
seat given the same agent, and prints for each row the share of games drawn at the limit and
the turns each player took on average. ``docs/rules/fano.md`` quotes its output.

The agent is any registered agent (``random``, ``mcts(iterations=50, rollout_limit=40)``),
played through :func:`fanfold.play.setup.play_game`, or ``greedy``: a purposeful player
defined here for the measurement only (promote, combine for a prestige card, attack, counter,
recruit, combine, play a card, in that order of preference, ties and one move in ten at
random).

Run: ``PYTHONPATH=src python3 scripts/fano_turn_limit.py --games 20 --agent greedy``.
"""

from __future__ import annotations

import argparse
import random
import time

from fanfold.core.registry import get_game
from fanfold.games.fano import (
    Attack,
    Combine,
    CombineCounter,
    Declare,
    FanoAction,
    FanoConfig,
    FanoState,
    Mulligan,
    Play,
    Promote,
    Recruit,
)
from fanfold.games.fano.cards import is_prestige
from fanfold.games.fano.game import FanoGame
from fanfold.play.setup import play_game

_REGISTERED = get_game("fano")
assert isinstance(_REGISTERED, FanoGame)
GAME: FanoGame = _REGISTERED


def preference(action: FanoAction) -> int:
    """How much the greedy player wants ``action`` (higher first)."""
    if isinstance(action, Promote):
        return 100
    if isinstance(action, Combine):
        return 50 if is_prestige(action.result) else 10
    if isinstance(action, Attack | Declare):
        return 30
    if isinstance(action, CombineCounter):
        return 25
    if isinstance(action, Recruit):
        return 20
    if isinstance(action, Play):
        return 5
    if isinstance(action, Mulligan):
        return 5 if action.take else 0
    return 0


def play_greedy(config: FanoConfig, seed: int) -> FanoState:
    """A whole game between greedy players; the final state."""
    rng = random.Random(seed)
    state: FanoState = GAME.new_state(config, seed)
    legal = GAME.legal_actions(state)
    while legal:
        if rng.random() < 0.1:
            action = legal[rng.randrange(len(legal))]
        else:
            best = max(map(preference, legal))
            action = rng.choice([move for move in legal if preference(move) == best])
        state = GAME.apply_legal(state, action)
        legal = GAME.legal_actions(state)
    return state


def measure(edition: str, players: int, agent: str, games: int, turns_per_player: int) -> str:
    """One row: games of ``edition`` with ``players`` seats of ``agent``."""
    config: FanoConfig = GAME.with_players(GAME.preset(edition).config, players)
    config = config.replace(turns_per_player=turns_per_player)
    limited = 0
    turns = 0
    longest = 0
    start = time.perf_counter()
    for seed in range(games):
        if agent == "greedy":
            state = play_greedy(config, seed)
        else:
            state = play_game(GAME, config, [agent] * players, seed=seed).state
        outcome = GAME.outcome(state)
        assert outcome is not None
        limited += "turn limit" in outcome.reason
        played = min(state.turn, config.last_turn)
        turns += played
        longest = max(longest, played)
    seconds = time.perf_counter() - start
    return (
        f"{edition:<9} {players} players  {agent:<28} limit reached {limited:>3}/{games} "
        f"({100 * limited / games:5.1f} %)  turns per player: mean {turns / games / players:5.1f}"
        f", longest game {longest / players:5.1f}  ({seconds:.0f} s)"
    )


def main(argv: list[str] | None = None) -> None:
    """Print one row per edition and table size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per row (seeds 0..N-1)")
    parser.add_argument("--agent", default="random", help="the agent in every seat")
    parser.add_argument("--players", default="2,4,8", help="table sizes, comma-separated")
    parser.add_argument("--editions", default="classic,trionfey", help="presets to play")
    parser.add_argument(
        "--turns-per-player", type=int, default=FanoConfig().turns_per_player, help="the limit"
    )
    args = parser.parse_args(argv)
    for edition in args.editions.split(","):
        for players in map(int, args.players.split(",")):
            row = measure(edition, players, args.agent, args.games, args.turns_per_player)
            print(row, flush=True)


if __name__ == "__main__":
    main()
