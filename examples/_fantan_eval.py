"""What the Fan Tan learning examples share: their command line's number types, greedy play on
the legal cards, and their measurement on fixed deals, with Wilson 95% intervals and the
deal-by-deal difference of two players.

``examples/fantan_learning.py`` (a linear policy on card features) and
``examples/fantan_set_encoder.py`` (a set encoder on the observation tensor) import it; both
measure on the same deals (the seeds :data:`CURVE_SEED` and :data:`FINAL_SEED`), so their
figures can be set side by side.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

import fanfold.envs
from fanfold.play.stats import Z_95, wilson_interval

PASS_INDEX = 52
CARDS = 52
#: Seeds of the learning curve's deals and of the final measurement's (apart from training's).
CURVE_SEED, FINAL_SEED = 10_000_000, 20_000_000
#: Tables stepped as one batch when measuring.
EVAL_TABLES = 500

#: A greedy player: a batch's observations and action masks -> one action per row.
Greedy = Callable[[NDArray[np.float32], NDArray[np.int8]], NDArray[Any]]


# ------------------------------------------------------------------------------ arguments
def positive_float(text: str) -> float:
    """A number above 0 (for argparse)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"must be a number above 0, not {text}")
    return value


def count(low: int, high: int) -> Callable[[str], int]:
    """An integer from ``low`` to ``high`` (for argparse)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, not {value}")
        return value

    return parse


def say(line: str) -> None:
    """Print a line of progress at once (also when the output goes to a file)."""
    print(line, flush=True)


# ------------------------------------------------------------------------------- greedy play
def best_legal(scores: NDArray[Any], masks: NDArray[np.int8]) -> NDArray[np.intp]:
    """Per row, the legal card with the highest score, or the pass when none is legal."""
    cards = np.where(masks[:, :CARDS] > 0, scores, -np.inf)
    choice = cards.argmax(axis=1)
    return np.where(np.isfinite(cards.max(axis=1)), choice, PASS_INDEX)


def greedy_results(
    greedy: Greedy, players: int, opponents: str, games: int, seed: int
) -> list[bool]:
    """Whether ``greedy`` in seat 0 won each game against ``opponents`` in the other seats, on
    the deals a single environment reset with seeds ``seed .. seed + games - 1`` deals (a
    vector environment's table ``i`` plays seed ``seed + i``, the bots' seeds included; each
    table's first game)."""
    results: list[bool] = []
    for first in range(0, games, EVAL_TABLES):
        tables = min(EVAL_TABLES, games - first)
        envs = fanfold.envs.gym_vector_env(
            "fantan", opponents=opponents, num_envs=tables, players=players
        )
        observations, _ = envs.reset(seed=seed + first)
        won = np.zeros(tables, dtype=np.bool_)
        done = np.zeros(tables, dtype=np.bool_)
        while not done.all():
            actions = greedy(observations["observation"], observations["action_mask"])
            observations, rewards, terminated, truncated, _ = envs.step(actions)
            ended = (terminated | truncated) & ~done
            won[ended] = terminated[ended] & (rewards[ended] > 0)
            done |= ended
        envs.close()
        results.extend(won.tolist())
    return results


# ------------------------------------------------------------------------------ measurement
def wilson(wins: int, games: int) -> tuple[float, float]:
    """Wilson score 95% interval of a win rate (:func:`fanfold.play.stats.wilson_interval`;
    NaN with no games)."""
    if games == 0:
        return math.nan, math.nan
    return wilson_interval(wins, games)


def rate(results: Sequence[bool]) -> tuple[float, float, float]:
    """The win rate of some games' results, with its Wilson 95% interval."""
    wins = sum(results)
    low, high = wilson(wins, len(results))
    return wins / len(results), low, high


def paired_difference(first: Sequence[bool], second: Sequence[bool]) -> tuple[float, float, float]:
    """The difference of two players' win rates on the same deals, in points, with its 95%
    interval from the deal-by-deal differences (normal approximation)."""
    differences = np.array(first, dtype=float) - np.array(second, dtype=float)
    mean = float(differences.mean())
    half = Z_95 * float(differences.std(ddof=1)) / math.sqrt(len(differences))
    return 100 * mean, 100 * (mean - half), 100 * (mean + half)


# ---------------------------------------------------------------------------------- picture
@dataclass
class Curve:
    """The learning curve: training games, training win rate, greedy win rate (interval)."""

    games: list[int] = field(default_factory=list)
    train_rate: list[float] = field(default_factory=list)
    greedy_rate: list[float] = field(default_factory=list)
    greedy_low: list[float] = field(default_factory=list)
    greedy_high: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


def save_curve(
    curve: Curve,
    path: str,
    players: int,
    title: str,
    label: str,
    lines: Sequence[tuple[float, str, str, str]] = (),
) -> None:
    """The learning curve as a picture: the greedy rate with its interval (``label``), the
    training rate, a line across for each of ``lines`` (value, label, colour, line style), and
    the fair share."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.2))
    x = np.array(curve.games)
    axes.fill_between(x, curve.greedy_low, curve.greedy_high, alpha=0.2, color="C0")
    axes.plot(x, curve.greedy_rate, "o-", color="C0", label=label)
    axes.plot(x[1:], curve.train_rate[1:], ".--", color="C1", label="while training (sampling)")
    for value, name, colour, style in lines:
        axes.axhline(value, color=colour, linestyle=style, label=name)
    axes.axhline(1 / players, color="grey", linestyle=":", label=f"fair share ({1 / players:.0%})")
    axes.set_xlabel("training games")
    axes.set_ylabel("win rate against random seats")
    axes.set_title(title)
    axes.legend(loc="lower right", fontsize=8)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
