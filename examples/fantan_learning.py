"""Train a Fan Tan player from the game's rewards alone, and measure it against the heuristic.

The learner plays seat 0 of four-player Fan Tan (the standard game) against three ``random``
bots, through :class:`~fanfold.envs.vector_env.FanfoldVectorEnv` (many tables as one batch).
Its policy is a softmax over the legal cards, each card scored by one shared set of weights
times the card's features (:class:`~fanfold.envs.fantan_cards.FanTanCardFeatures`: how many of
my cards and the others' lie beyond it in its row, whether the card it opens is mine, ...;
computed from the observation tensor, so from the seat's view only). The weights start at 0
(every legal card equally likely: the random player) and are trained by policy gradient
(REINFORCE with a running-mean baseline, Adam steps): the only signal is the game's return at
the end, +1 for going out first and -1 otherwise. Nothing of fanfold's strategies is imitated
or used.

After every block of training games the greedy player (best-scored card) is measured on a
fixed set of deals; at the end the trained player and ``heuristic`` each play the same
``--eval-games`` deals against random seats, with Wilson 95% intervals, and the learning curve
is saved as a picture.

Run: ``python examples/fantan_learning.py --minutes 25 --out docs/images/fantan_learning.png``
(needs the ``envs`` extra; numpy does the learning, no deep-learning library).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

import _fantan_eval as shared
import fanfold.envs
from _fantan_eval import (
    CARDS,
    CURVE_SEED,
    FINAL_SEED,
    PASS_INDEX,
    Curve,
    best_legal,
    count,
    paired_difference,
    positive_float,
    rate,
    say,
)
from fanfold.agents import create_agent
from fanfold.envs.encodings import make_encoding
from fanfold.envs.fantan import FanTanEncoding
from fanfold.envs.fantan_cards import FanTanCardFeatures
from fanfold.envs.gymnasium_env import FanfoldGymEnv

Floats = NDArray[np.float64]


# ------------------------------------------------------------------------------ arguments
def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line; a bad value exits with a sentence saying what is allowed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--minutes",
        type=positive_float,
        default=25.0,
        help="training time at most, in minutes (default 25)",
    )
    parser.add_argument(
        "--games",
        type=count(1, 10**8),
        default=10**8,
        help="training games at most (default: no limit but --minutes)",
    )
    parser.add_argument("--players", type=count(3, 8), default=4, help="seats (default 4)")
    parser.add_argument(
        "--tables", type=count(1, 4096), default=64, help="tables stepped as one batch (default 64)"
    )
    parser.add_argument(
        "--batch",
        type=count(1, 10**6),
        default=256,
        help="finished games per weight update (default 256)",
    )
    parser.add_argument(
        "--lr", type=positive_float, default=0.05, help="Adam step size (default 0.05)"
    )
    parser.add_argument(
        "--block",
        type=count(1, 10**8),
        default=4000,
        help="training games between two points of the curve (default 4000)",
    )
    parser.add_argument(
        "--curve-games",
        type=count(1, 10**6),
        default=400,
        help="greedy games on fixed deals at each point of the curve (default 400)",
    )
    parser.add_argument(
        "--eval-games",
        type=count(0, 10**6),
        default=4000,
        help="final games for the trained player and for heuristic, the same "
        "deals (default 4000; 0: none)",
    )
    parser.add_argument("--seed", type=count(0, 2**31 - 2), default=1, help="training seed")
    parser.add_argument("--out", help="save the learning curve as this picture (png or svg)")
    parser.add_argument("--weights", help="save the trained weights and figures as this JSON")
    return parser.parse_args(argv)


# ------------------------------------------------------------------------------- the player
@dataclass
class CardPolicy:
    """A softmax over the legal cards, each scored by ``weights`` . its features."""

    features: FanTanCardFeatures
    weights: Floats = field(default_factory=lambda: np.zeros(0))

    def __post_init__(self) -> None:
        if self.weights.size == 0:
            self.weights = np.zeros(self.features.size)

    def scores(self, observations: NDArray[np.float32]) -> tuple[NDArray[np.float32], Floats]:
        """Each card's features ``(batch, 52, k)`` and score ``(batch, 52)``."""
        phi = self.features(observations)
        return phi, phi @ self.weights

    def greedy(self, observations: NDArray[np.float32], masks: NDArray[np.int8]) -> NDArray[Any]:
        """The best-scored legal action of each row (a pass where no card is legal)."""
        _, scores = self.scores(observations)
        return best_legal(scores, masks)


@dataclass
class Adam:
    """Adam steps for gradient ascent."""

    lr: float
    size: int
    beta1: float = 0.9
    beta2: float = 0.999
    steps: int = 0
    m: Floats = field(init=False)
    v: Floats = field(init=False)

    def __post_init__(self) -> None:
        self.m = np.zeros(self.size)
        self.v = np.zeros(self.size)

    def step(self, weights: Floats, gradient: Floats) -> Floats:
        self.steps += 1
        self.m = self.beta1 * self.m + (1 - self.beta1) * gradient
        self.v = self.beta2 * self.v + (1 - self.beta2) * gradient**2
        m = self.m / (1 - self.beta1**self.steps)
        v = self.v / (1 - self.beta2**self.steps)
        return weights + self.lr * m / (np.sqrt(v) + 1e-8)


# --------------------------------------------------------------------------------- training
def train(args: argparse.Namespace, policy: CardPolicy, log: Any = say) -> Curve:
    """Train ``policy`` by REINFORCE against random seats; the curve of its progress."""
    envs = fanfold.envs.gym_vector_env(
        "fantan", opponents="random", num_envs=args.tables, players=args.players
    )
    rng = np.random.default_rng(args.seed)
    adam = Adam(args.lr, policy.features.size)
    observations, _ = envs.reset(seed=args.seed * 100_003)
    # per table: the decisions of the game in progress (legal cards' features, chosen row)
    pending: list[list[tuple[NDArray[np.float32], int]]] = [[] for _ in range(args.tables)]
    finished: list[tuple[list[tuple[NDArray[np.float32], int]], float]] = []
    baseline = -1.0 + 2.0 / args.players  # the random player's mean return
    curve = Curve()
    games = wins = block_games = block_wins = 0
    start = time.monotonic()
    deadline = start + args.minutes * 60.0

    def point() -> None:
        won, low, high = greedy_rate(policy, args.players, args.curve_games, CURVE_SEED)
        curve.games.append(games)
        curve.train_rate.append(block_wins / block_games if block_games else math.nan)
        curve.greedy_rate.append(won)
        curve.greedy_low.append(low)
        curve.greedy_high.append(high)
        curve.seconds.append(time.monotonic() - start)
        log(
            f"{games:>8} games {curve.seconds[-1]:7.0f} s  load {os.getloadavg()[0]:4.1f}"
            f"  training {curve.train_rate[-1]:.3f}  greedy {won:.3f} ({low:.3f}-{high:.3f})"
            "  weights " + " ".join(f"{w:+.2f}" for w in policy.weights)
        )

    point()
    while games < args.games and time.monotonic() < deadline:
        masks = observations["action_mask"]
        phi, scores = policy.scores(observations["observation"])
        legal = masks[:, :CARDS] > 0
        noisy = np.where(legal, scores + rng.gumbel(size=scores.shape), -np.inf)
        actions = np.where(legal.any(axis=1), noisy.argmax(axis=1), PASS_INDEX)
        for table in np.flatnonzero(legal.sum(axis=1) > 1):
            cards = np.flatnonzero(legal[table])
            pending[table].append((phi[table, cards], int(np.searchsorted(cards, actions[table]))))
        observations, rewards, terminated, truncated, _ = envs.step(actions)
        for table in np.flatnonzero(terminated | truncated):
            reward = float(rewards[table])
            finished.append((pending[table], reward))
            pending[table] = []
            games += 1
            block_games += 1
            won = reward > 0
            wins += won
            block_wins += won
            if block_games >= args.block:
                point()
                block_games = block_wins = 0
        if len(finished) >= args.batch:
            gradient = np.zeros(policy.features.size)
            for decisions, reward in finished:
                advantage = reward - baseline
                for phi_legal, chosen in decisions:
                    logits = phi_legal @ policy.weights
                    p = np.exp(logits - logits.max())
                    p /= p.sum()
                    gradient += advantage * (phi_legal[chosen] - p @ phi_legal)
            mean = float(np.mean([reward for _, reward in finished]))
            baseline = 0.95 * baseline + 0.05 * mean
            policy.weights = adam.step(policy.weights, gradient / len(finished))
            finished = []
    if block_games:
        point()
    envs.close()
    seconds = time.monotonic() - start
    log(f"trained on {games} games in {seconds:.0f} s ({wins / max(games, 1):.3f} won)")
    return curve


# ------------------------------------------------------------------------------ measurement
def greedy_results(policy: CardPolicy, players: int, games: int, seed: int) -> list[bool]:
    """Whether the greedy player won each game against random seats on the deals of seeds
    ``seed .. seed + games - 1`` (:func:`_fantan_eval.greedy_results`)."""
    return shared.greedy_results(policy.greedy, players, "random", games, seed)


def greedy_rate(
    policy: CardPolicy, players: int, games: int, seed: int
) -> tuple[float, float, float]:
    """The greedy player's win rate (:func:`greedy_results`) with its interval."""
    return rate(greedy_results(policy, players, games, seed))


def agent_results(agent: str, players: int, games: int, seed: int) -> list[bool]:
    """Whether a fanfold agent in seat 0 won each game, on the same deals as
    :func:`greedy_results`."""
    env = FanfoldGymEnv("fantan", opponents="random", players=players)
    bot = create_agent(agent, env.game, seed)

    def choose(env: FanfoldGymEnv, obs: dict[str, Any]) -> int:
        del obs
        state = env.episode.table.state  # type: ignore[union-attr]  # reset was called
        view = env.game.observe(state, 0)
        action = bot.choose(view, env.game.legal_actions(state))
        return env.encoding.action_index(0, action)

    return play_games(players, games, seed, choose, env)


def play_games(
    players: int, games: int, seed: int, choose: Any, env: FanfoldGymEnv | None = None
) -> list[bool]:
    """Whether seat 0 won each game against random seats, the env reset with each seed in
    turn (the deal and the random seats' own seeds follow from it)."""
    env = env or FanfoldGymEnv("fantan", opponents="random", players=players)
    results = []
    for number in range(games):
        obs, _ = env.reset(seed=seed + number)
        done = False
        reward = 0.0
        while not done:
            obs, step_reward, terminated, truncated, _ = env.step(choose(env, obs))
            reward = float(step_reward)
            done = terminated or truncated
        results.append(reward > 0)
    return results


def save_curve(curve: Curve, path: str, heuristic: float | None, players: int) -> None:
    """The learning curve as a picture, with ``heuristic``'s rate across."""
    lines = [] if heuristic is None else [(heuristic, f"heuristic ({heuristic:.1%})", "C2", "-")]
    shared.save_curve(
        curve,
        path,
        players,
        f"Fan Tan, {players} players: learning from rewards alone",
        "learner, greedy (95% interval)",
        lines,
    )


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    encoding = make_encoding("fantan", players=args.players)
    assert isinstance(encoding, FanTanEncoding)
    policy = CardPolicy(FanTanCardFeatures(encoding))
    started = time.monotonic()
    curve = train(args, policy)
    seconds = time.monotonic() - started
    result: dict[str, Any] = {
        "players": args.players,
        "training_games": curve.games[-1],
        "training_seconds": round(seconds, 1),
        "weights": dict(zip(policy.features.names, policy.weights.round(4).tolist(), strict=True)),
    }
    heuristic = None
    if args.eval_games:
        learner = greedy_results(policy, args.players, args.eval_games, FINAL_SEED)
        other = agent_results("heuristic", args.players, args.eval_games, FINAL_SEED)
        heuristic = rate(other)[0]
        for name, results in (("learner", learner), ("heuristic", other)):
            won, low, high = rate(results)
            print(f"{name:>9}: {won:.1%} ({low:.1%}-{high:.1%}) of {args.eval_games} games")
            result[name] = {"rate": won, "low": low, "high": high, "games": args.eval_games}
        difference, low, high = paired_difference(learner, other)
        print(
            f"learner - heuristic, same deals: {difference:+.1f} points ({low:+.1f} to {high:+.1f})"
        )
        result["difference_points"] = {"mean": difference, "low": low, "high": high}
    result["load_average"] = os.getloadavg()[0]
    if args.out:
        save_curve(curve, args.out, heuristic, args.players)
    if args.weights:
        result["curve"] = curve.__dict__
        with open(args.weights, "w") as handle:
            json.dump(result, handle, indent=1)


if __name__ == "__main__":
    main()
