"""Train a Fan Tan player from the standard observation alone, with a network shaped for cards.

The learner plays seat 0 of four-player Fan Tan (the standard game) against three ``random``
bots, through :class:`~fanfold.envs.vector_env.FanfoldVectorEnv` (64 tables as one batch). It
reads nothing but the environment's observation tensor: no hand-designed card features. Each of
the 52 cards gets one input row made only of what the tensor says about it and about the table:

- its place: in my hand, on the layout, or unseen (neither), and who played it (``played_by``);
- its rank and suit, one-hot;
- the public facts every row shares: each seat's cards held (/ 13) and passes, the start rank.

A *set encoder* (DeepSets) turns the rows into scores: one small MLP, shared by all 52 cards,
embeds every card; the embeddings are pooled (the mean over the card's suit, which is its row
of the layout, and the mean over all cards); a second shared MLP scores each card from
``[its embedding, its suit's pool, the whole pool]``. The policy is a softmax over the legal
cards' scores (a pass where none is legal); a value head reads the whole pool. Everything is
NumPy with hand-written backpropagation (:meth:`SetNet.gradients`, checked against finite
differences by the tests): no deep-learning library.

Learning is REINFORCE with the value head as baseline (advantage = return to go - value), an
entropy bonus, and Adam steps after every ``--batch`` finished games; only decisions with two
or more legal cards count. ``--clip 0.2 --epochs 4`` makes each batch PPO's clipped update
(several Adam steps over the batch, the probability ratio to the policy that played held within
``1 +- clip``), ``--normalize`` scales each batch's advantages to mean 0 and sd 1, and
``--lr-end`` lowers the step size in a straight line over the run (PPO's updates cost 2.3 times
the time per game and did not end better: ``docs/envs/examples.md``). ``--reward cards`` (the
default) trains on the environment's ``reward="cards"`` option (:mod:`fanfold.envs.rewards`:
the game's return, +1 for going out first and -1 otherwise, and each step's change of the card
margin); ``--reward outcome`` on the return alone, which learns far more slowly
(``docs/envs/examples.md``). A run is seeded: the same ``--games N`` and ``--seed`` give the
same weights; ``--minutes`` stops it by the clock instead.

Every ``--block`` training games the greedy player (best-scored legal card) plays the same
``--curve-games`` deals against three ``random`` seats. At the end the trained player and the
untrained one (the same network before any step) play the same ``--eval-games`` deals against
three ``random`` seats and the same ``--medium-games`` deals against three ``medium`` seats,
with Wilson 95% intervals and the deal-by-deal difference with its interval (the measurement
shared with ``examples/fantan_learning.py``: ``examples/_fantan_eval.py``).

Run: ``python examples/fantan_set_encoder.py --minutes 22 --clip 0.2 --epochs 4 --normalize
--out docs/images/fantan_set_encoder.png --weights fantan_set_encoder.npz`` (needs the ``envs``
extra).
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Callable, Sequence
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
    best_legal,
    count,
    paired_difference,
    positive_float,
    rate,
    say,
)
from fanfold.envs.encodings import make_encoding
from fanfold.envs.fantan import FanTanEncoding

RANKS = 13
SUITS = 4
#: ``--games`` when not given: no limit but the clock.
GAMES_UNLIMITED = 10**8

Floats = NDArray[Any]
Params = dict[str, Floats]


# ------------------------------------------------------------------------------ arguments
def clip_band(text: str) -> float:
    """PPO's clip: a number from 0 (no clipping) up to, not including, 1 (for argparse)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"must be from 0 up to 1 (not 1), not {text}")
    return value


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line; a bad value exits with a sentence saying what is allowed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    add = parser.add_argument
    add("--minutes", type=positive_float, default=25.0, help="training time at most (25)")
    add(
        "--games",
        type=count(1, GAMES_UNLIMITED),
        default=GAMES_UNLIMITED,
        help="training games at most",
    )
    add("--players", type=count(3, 8), default=4, help="seats (default 4)")
    add("--tables", type=count(1, 4096), default=64, help="tables stepped as one batch (64)")
    add("--batch", type=count(1, 10**6), default=32, help="finished games per update (32)")
    add("--lr", type=positive_float, default=3e-3, help="Adam step size (default 0.003)")
    add("--lr-end", type=positive_float, default=1.0, help="last step size / first (1: none)")
    add("--entropy", type=float, default=0.01, help="entropy bonus (default 0.01)")
    add("--epochs", type=count(1, 100), default=1, help="passes over each batch (default 1)")
    add("--clip", type=clip_band, default=0.0, help="PPO ratio clip, 0: plain REINFORCE (0)")
    add("--normalize", action="store_true", help="scale each batch's advantages to mean 0, sd 1")
    add("--hidden", type=count(1, 1024), default=64, help="hidden units per layer (64)")
    add("--embed", type=count(1, 1024), default=32, help="card embedding size (32)")
    add("--reward", choices=("outcome", "cards"), default="cards", help="env reward option")
    add("--block", type=count(1, 10**8), default=5000, help="games between curve points")
    add("--curve-games", type=count(1, 10**6), default=400, help="deals per curve point (400)")
    add("--eval-games", type=count(0, 10**6), default=4000, help="final deals vs random")
    add("--medium-games", type=count(0, 10**6), default=1000, help="final deals vs medium")
    add("--seed", type=count(0, 2**31 - 2), default=1, help="training seed")
    add("--out", help="save the learning curve as this picture (png or svg)")
    add("--weights", help="save the trained weights as this .npz")
    return parser.parse_args(argv)


# ------------------------------------------------------------------------------ the inputs
class CardRows:
    """The observation tensor of a batch as one input row per card ``(batch, 52, size)``:
    place (mine, on the layout, unseen), who played it, rank and suit one-hot, then the
    shared public facts (cards held and passes per seat, the start rank)."""

    def __init__(self, encoding: FanTanEncoding) -> None:
        self.players = encoding.players
        offsets = encoding.layout.offsets
        self.hand = offsets["hand"]
        self.layout = offsets["layout"]
        self.played = offsets["played_by"]
        self.counts = offsets["hand_counts"]
        self.passes = offsets["passes"]
        self.start = offsets["start_rank"]
        self.dealt = CARDS / self.players
        index = np.arange(CARDS)
        static = np.zeros((CARDS, RANKS + SUITS), dtype=np.float32)
        static[index, index % RANKS] = 1.0  # card order: C, D, H, S; A..K
        static[index, RANKS + index // RANKS] = 1.0
        self.static = static
        self.size = 3 + self.players + RANKS + SUITS + 2 * self.players + RANKS + 1

    def __call__(self, observations: NDArray[np.float32]) -> NDArray[np.float32]:
        obs = np.asarray(observations, dtype=np.float32).reshape(-1, observations.shape[-1])
        n, p = len(obs), self.players
        hand = obs[:, self.hand : self.hand + CARDS]
        layout = obs[:, self.layout : self.layout + CARDS]
        unseen = np.clip(1.0 - hand - layout, 0.0, 1.0)
        played = obs[:, self.played : self.played + p * CARDS].reshape(n, p, CARDS)
        shared = np.concatenate(
            [
                obs[:, self.counts : self.counts + p] / self.dealt,
                np.minimum(obs[:, self.passes : self.passes + p], self.dealt) / self.dealt,
                obs[:, self.start : self.start + RANKS + 1],
            ],
            axis=1,
        )
        return np.concatenate(
            [
                np.stack([hand, layout, unseen], axis=2),
                played.transpose(0, 2, 1),
                np.broadcast_to(self.static, (n, CARDS, RANKS + SUITS)),
                np.broadcast_to(shared[:, None, :], (n, CARDS, shared.shape[1])),
            ],
            axis=2,
        )


# ------------------------------------------------------------------------------ the network
def init_params(
    inputs: int, hidden: int, embed: int, rng: np.random.Generator, dtype: Any = np.float32
) -> Params:
    """He-initialised weights of a :class:`SetNet`."""

    def dense(fan_in: int, fan_out: int) -> Floats:
        return (rng.standard_normal((fan_in, fan_out)) * math.sqrt(2.0 / fan_in)).astype(dtype)

    return {
        "w1": dense(inputs, hidden),
        "b1": np.zeros(hidden, dtype=dtype),
        "w2": dense(hidden, embed),
        "b2": np.zeros(embed, dtype=dtype),
        "w3": dense(3 * embed, hidden),
        "b3": np.zeros(hidden, dtype=dtype),
        "w4": (dense(hidden, 1)[:, 0] * 0.1).astype(dtype),
        "wv": np.zeros(embed, dtype=dtype),
        "bv": np.zeros(1, dtype=dtype),
    }


@dataclass
class Forward:
    """What the backward pass needs of a forward pass."""

    x: Floats
    a1: Floats
    h1: Floats
    a2: Floats
    e: Floats
    z: Floats
    a3: Floats
    h3: Floats
    g: Floats
    scores: Floats
    values: Floats


class SetNet:
    """The set encoder: card rows -> per-card scores and a value (see the module)."""

    def __init__(self, params: Params) -> None:
        self.params = params

    def forward(self, x: Floats) -> Forward:
        p = self.params
        n = x.shape[0]
        a1 = x @ p["w1"] + p["b1"]
        h1 = np.maximum(a1, 0)
        a2 = h1 @ p["w2"] + p["b2"]
        e = np.maximum(a2, 0)
        suits = e.reshape(n, SUITS, RANKS, -1).mean(axis=2)  # (n, 4, E)
        g = e.mean(axis=1)  # (n, E)
        z = np.concatenate(
            [
                e,
                np.repeat(suits, RANKS, axis=1),
                np.broadcast_to(g[:, None, :], e.shape),
            ],
            axis=2,
        )
        a3 = z @ p["w3"] + p["b3"]
        h3 = np.maximum(a3, 0)
        scores = h3 @ p["w4"]
        values = g @ p["wv"] + p["bv"][0]
        return Forward(x, a1, h1, a2, e, z, a3, h3, g, scores, values)

    def gradients(self, f: Forward, d_scores: Floats, d_values: Floats) -> Params:
        """The gradient of a loss with ``d_scores`` = dL/dscores ``(n, 52)`` and ``d_values``
        = dL/dvalues ``(n,)``, for every parameter."""
        p = self.params
        n, _, embed = f.e.shape
        grads: Params = {}
        grads["w4"] = np.einsum("nch,nc->h", f.h3, d_scores)
        d_a3 = d_scores[:, :, None] * p["w4"] * (f.a3 > 0)
        grads["w3"] = f.z.reshape(-1, f.z.shape[2]).T @ d_a3.reshape(-1, d_a3.shape[2])
        grads["b3"] = d_a3.sum(axis=(0, 1))
        d_z = d_a3 @ p["w3"].T
        d_e = d_z[:, :, :embed].copy()
        d_suits = d_z[:, :, embed : 2 * embed].reshape(n, SUITS, RANKS, embed).sum(axis=2)
        d_e += np.repeat(d_suits / RANKS, RANKS, axis=1)
        d_g = d_z[:, :, 2 * embed :].sum(axis=1) + d_values[:, None] * p["wv"]
        grads["wv"] = f.g.T @ d_values
        grads["bv"] = np.array([d_values.sum()], dtype=d_values.dtype)
        d_e += d_g[:, None, :] / CARDS
        d_a2 = d_e * (f.a2 > 0)
        grads["w2"] = f.h1.reshape(-1, f.h1.shape[2]).T @ d_a2.reshape(-1, embed)
        grads["b2"] = d_a2.sum(axis=(0, 1))
        d_a1 = (d_a2 @ p["w2"].T) * (f.a1 > 0)
        grads["w1"] = f.x.reshape(-1, f.x.shape[2]).T @ d_a1.reshape(-1, d_a1.shape[2])
        grads["b1"] = d_a1.sum(axis=(0, 1))
        return {name: grads[name].astype(p[name].dtype) for name in p}


def masked_softmax(scores: Floats, legal: NDArray[np.bool_]) -> Floats:
    """The softmax of each row's scores over its legal cards (0 elsewhere)."""
    masked = np.where(legal, scores, -np.inf)
    top = masked.max(axis=1, keepdims=True)
    weights = np.where(legal, np.exp(masked - top), 0.0)
    probabilities: Floats = weights / weights.sum(axis=1, keepdims=True)
    return probabilities


def masked_log_softmax(scores: Floats, legal: NDArray[np.bool_]) -> Floats:
    """The log of :func:`masked_softmax`, finite also where a probability underflows to 0
    (0 for the cards that are not legal)."""
    shifted = np.where(legal, scores, -np.inf)
    shifted = np.where(legal, shifted - shifted.max(axis=1, keepdims=True), 0.0)
    total = np.where(legal, np.exp(shifted), 0.0).sum(axis=1, keepdims=True)
    log_p: Floats = np.where(legal, shifted - np.log(total), 0.0)
    return log_p


def loss_and_gradients(
    net: SetNet,
    x: Floats,
    legal: NDArray[np.bool_],
    chosen: NDArray[np.intp],
    returns: Floats,
    entropy: float,
    value_weight: float = 0.5,
    baseline: Floats | None = None,
    advantages: Floats | None = None,
    old_log_p: Floats | None = None,
    clip: float = 0.0,
) -> tuple[float, Params]:
    """The policy-gradient loss and its gradient for every parameter.

    Plain REINFORCE with a baseline (``clip`` 0): ``-mean(A * log pi(chosen)) - entropy *
    mean(H(pi)) + value_weight * mean((value - return)^2) / 2``. With ``clip`` above 0 the
    policy term is PPO's clipped surrogate ``-mean(min(r A, clip(r, 1 - clip, 1 + clip) A))``,
    ``r = pi(chosen) / exp(old_log_p)``, the probability ratio to the policy that played.
    The advantage ``A`` is held fixed: ``advantages`` if given, else ``return - baseline``
    (the baseline: the value head's output for these rows unless given)."""
    f = net.forward(x)
    n = len(x)
    log_p = masked_log_softmax(f.scores, legal)
    p = np.where(legal, np.exp(log_p), 0.0)
    rows = np.arange(n)
    if advantages is None:
        advantages = returns - (f.values if baseline is None else baseline)
    held = advantages.astype(f.scores.dtype)
    ent = -(p * log_p).sum(axis=1)
    chosen_log_p = log_p[rows, chosen]
    if clip > 0:
        if old_log_p is None:
            raise ValueError("a clipped update needs the log-probabilities of the playing policy")
        ratio = np.exp(chosen_log_p - old_log_p)
        clipped = np.clip(ratio, 1 - clip, 1 + clip)
        surrogate = np.minimum(ratio * held, clipped * held)
        policy_loss = -float(surrogate.mean())
        # the gradient flows through r where the unclipped term is the smaller one
        active = ratio * held <= clipped * held
        weight = np.where(active, held * ratio, 0.0)
    else:
        policy_loss = -float((held * chosen_log_p).mean())
        weight = held
    loss = (
        policy_loss
        - entropy * float(ent.mean())
        + value_weight * 0.5 * float(((f.values - returns) ** 2).mean())
    )
    one_hot = np.zeros_like(p)
    one_hot[rows, chosen] = 1.0
    d_scores = -(weight[:, None] * (one_hot - p)) / n
    d_scores += entropy * p * (log_p + ent[:, None]) / n
    d_scores = np.where(legal, d_scores, 0.0).astype(f.scores.dtype)
    d_values = (value_weight * (f.values - returns) / n).astype(f.values.dtype)
    return loss, net.gradients(f, d_scores, d_values)


@dataclass
class Adam:
    """Adam steps for gradient descent on a dict of arrays."""

    lr: float
    beta1: float = 0.9
    beta2: float = 0.999
    steps: int = 0
    m: Params = field(default_factory=dict)
    v: Params = field(default_factory=dict)

    def step(self, params: Params, grads: Params) -> None:
        self.steps += 1
        for name, grad in grads.items():
            m = self.m.get(name, np.zeros_like(grad))
            v = self.v.get(name, np.zeros_like(grad))
            m = self.beta1 * m + (1 - self.beta1) * grad
            v = self.beta2 * v + (1 - self.beta2) * grad * grad
            self.m[name], self.v[name] = m, v
            m_hat = m / (1 - self.beta1**self.steps)
            v_hat = v / (1 - self.beta2**self.steps)
            params[name] = (params[name] - self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(
                params[name].dtype
            )


# ------------------------------------------------------------------------------ the player
class Player:
    """The network behind the observation: scores for every card of a batch."""

    def __init__(self, rows: CardRows, net: SetNet) -> None:
        self.rows = rows
        self.net = net

    def scores(self, observations: NDArray[np.float32]) -> tuple[Floats, Floats]:
        x = self.rows(observations)
        return x, self.net.forward(x).scores

    def greedy(self, observations: NDArray[np.float32], masks: NDArray[np.int8]) -> NDArray[Any]:
        return best_legal(self.scores(observations)[1], masks)


def greedy_results(player: Player, opponents: str, games: int, seed: int) -> list[bool]:
    """Whether the greedy player in seat 0 won each game against three ``opponents`` seats,
    on the deals of seeds ``seed .. seed + games - 1`` (:func:`_fantan_eval.greedy_results`)."""
    return shared.greedy_results(player.greedy, player.rows.players, opponents, games, seed)


def make_player(args: argparse.Namespace, dtype: Any = np.float32) -> Player:
    """The untrained player of a run: the network initialised from ``--seed``."""
    encoding = make_encoding("fantan", players=args.players)
    assert isinstance(encoding, FanTanEncoding)
    rows = CardRows(encoding)
    rng = np.random.default_rng([args.seed, 1])
    return Player(rows, SetNet(init_params(rows.size, args.hidden, args.embed, rng, dtype)))


# --------------------------------------------------------------------------------- training
@dataclass
class Curve(shared.Curve):
    """The learning curve, with the mean training loss since the point before."""

    losses: list[float] = field(default_factory=list)


@dataclass
class Decision:
    """One training decision: the observation, its legal cards, the card chosen and its
    log-probability under the policy that chose it."""

    observation: NDArray[np.float32]
    legal: NDArray[np.bool_]
    chosen: int
    log_p: float
    reward_to_go: float = 0.0


def step_size_share(args: argparse.Namespace, games: int, seconds: float) -> float:
    """The share of ``--lr`` for the next update: from 1 down to ``--lr-end`` in a straight
    line over the run (its ``--games`` when given, else its ``--minutes``)."""
    end = float(args.lr_end)
    if end == 1.0:
        return 1.0
    if args.games < GAMES_UNLIMITED:
        progress = games / int(args.games)
    else:
        progress = seconds / (60.0 * float(args.minutes))
    return 1.0 + (end - 1.0) * min(max(progress, 0.0), 1.0)


def train(args: argparse.Namespace, player: Player, log: Callable[[str], None] = say) -> Curve:
    """Train ``player`` by policy gradient against random seats (REINFORCE, or PPO's clipped
    updates with ``--clip``); the curve of its progress."""
    envs = fanfold.envs.gym_vector_env(
        "fantan",
        opponents="random",
        num_envs=args.tables,
        players=args.players,
        reward=args.reward,
    )
    rng = np.random.default_rng([args.seed, 2])
    adam = Adam(args.lr)
    observations, _ = envs.reset(seed=args.seed * 100_003)
    # per table: the game in progress, step by step (the decision taken, if it counts; reward)
    pending: list[list[tuple[Decision | None, float]]] = [[] for _ in range(args.tables)]
    finished: list[list[Decision]] = []
    curve = Curve()
    games = wins = block_games = block_wins = 0
    losses: list[float] = []
    start = time.monotonic()
    deadline = start + args.minutes * 60.0

    def point() -> None:
        won, low, high = rate(greedy_results(player, "random", args.curve_games, CURVE_SEED))
        curve.games.append(games)
        curve.train_rate.append(block_wins / block_games if block_games else math.nan)
        curve.greedy_rate.append(won)
        curve.greedy_low.append(low)
        curve.greedy_high.append(high)
        curve.seconds.append(time.monotonic() - start)
        curve.losses.append(float(np.mean(losses)) if losses else math.nan)
        losses.clear()
        log(
            f"{games:>8} games {curve.seconds[-1]:7.0f} s  load {os.getloadavg()[0]:4.1f}"
            f"  training {curve.train_rate[-1]:.3f}  greedy {won:.3f} ({low:.3f}-{high:.3f})"
            f"  loss {curve.losses[-1]:+.4f}"
        )

    point()
    while games < args.games and time.monotonic() < deadline:
        masks = observations["action_mask"]
        _, scores = player.scores(observations["observation"])
        legal = masks[:, :CARDS] > 0
        noisy = np.where(legal, scores + rng.gumbel(size=scores.shape), -np.inf)
        actions = np.where(legal.any(axis=1), noisy.argmax(axis=1), PASS_INDEX)
        choices = legal.sum(axis=1) > 1
        # (a pass, where no card is legal, is no decision: its row's log-probability unused)
        with np.errstate(invalid="ignore", divide="ignore"):
            log_p = masked_log_softmax(scores, legal)
        played_log_p = log_p[np.arange(len(actions)), actions % CARDS]
        before = observations["observation"]
        observations, rewards, terminated, truncated, _ = envs.step(actions)
        for table in range(args.tables):
            decision = (
                Decision(
                    before[table], legal[table], int(actions[table]), float(played_log_p[table])
                )
                if choices[table]
                else None
            )
            pending[table].append((decision, float(rewards[table])))
        for table in np.flatnonzero(terminated | truncated).tolist():
            steps = pending[table]
            pending[table] = []
            to_go = 0.0
            kept = []
            for decision, reward in reversed(steps):
                to_go += reward
                if decision is not None:
                    decision.reward_to_go = to_go
                    kept.append(decision)
            finished.append(kept)
            games += 1
            block_games += 1
            # won: the last step's reward is above 0 (with reward="cards" too: the outcome's
            # +1 or -1 outweighs one step's change of the margin, a few cards / 13)
            won = bool(terminated[table]) and steps[-1][1] > 0
            wins += won
            block_wins += won
            if block_games >= args.block:
                point()
                block_games = block_wins = 0
            if games >= args.games:
                break
        if len(finished) >= args.batch or (games >= args.games and finished):
            decisions = [decision for game in finished for decision in game]
            finished = []
            if decisions:
                x = player.rows(np.stack([d.observation for d in decisions]))
                legal_rows = np.stack([d.legal for d in decisions])
                chosen = np.array([d.chosen for d in decisions], dtype=np.intp)
                returns = np.array([d.reward_to_go for d in decisions], dtype=x.dtype)
                old_log_p = np.array([d.log_p for d in decisions], dtype=x.dtype)
                # the advantages, held through the epochs (one update: the loss computes them)
                advantages = None
                if args.epochs > 1 or args.normalize:
                    advantages = returns - player.net.forward(x).values
                    if args.normalize and len(advantages) > 1:
                        spread = advantages.std() + 1e-8
                        advantages = (advantages - advantages.mean()) / spread
                adam.lr = args.lr * step_size_share(args, games, time.monotonic() - start)
                for _ in range(args.epochs):
                    loss, grads = loss_and_gradients(
                        player.net,
                        x,
                        legal_rows,
                        chosen,
                        returns,
                        args.entropy,
                        advantages=advantages,
                        old_log_p=old_log_p,
                        clip=args.clip,
                    )
                    losses.append(loss)
                    adam.step(player.net.params, grads)
    if block_games:
        point()
    envs.close()
    seconds = time.monotonic() - start
    log(f"trained on {games} games in {seconds:.0f} s ({wins / max(games, 1):.3f} won)")
    return curve


# ---------------------------------------------------------------------------------- picture
def save_curve(curve: Curve, path: str, untrained: float, players: int) -> None:
    """The learning curve as a picture, with the untrained network's rate across."""
    shared.save_curve(
        curve,
        path,
        players,
        f"Fan Tan, {players} players: a set encoder on the standard observation",
        "set encoder, greedy (95% interval)",
        [(untrained, f"untrained ({untrained:.1%})", "C3", "--")],
    )


def report(name: str, trained: list[bool], untrained: list[bool]) -> None:
    """Print both players' rates against ``name`` seats and their difference."""
    for who, results in (("trained", trained), ("untrained", untrained)):
        won, low, high = rate(results)
        say(f"{who:>9} vs {name}: {won:.1%} ({low:.1%}-{high:.1%}) of {len(results)} games")
    difference, low, high = paired_difference(trained, untrained)
    say(
        f"trained - untrained vs {name}, same deals: {difference:+.1f} points"
        f" ({low:+.1f} to {high:+.1f})"
    )


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    player = make_player(args)
    untrained = Player(player.rows, SetNet({k: v.copy() for k, v in player.net.params.items()}))
    say(f"load average {os.getloadavg()[0]:.1f} at the start")
    curve = train(args, player)
    if args.weights:
        arrays: dict[str, Any] = dict(player.net.params)
        np.savez(args.weights, **arrays)
    untrained_rate = rate(greedy_results(untrained, "random", args.curve_games, CURVE_SEED))[0]
    if args.eval_games:
        trained = greedy_results(player, "random", args.eval_games, FINAL_SEED)
        report("random", trained, greedy_results(untrained, "random", args.eval_games, FINAL_SEED))
    if args.medium_games:
        trained = greedy_results(player, "medium", args.medium_games, FINAL_SEED)
        report(
            "medium", trained, greedy_results(untrained, "medium", args.medium_games, FINAL_SEED)
        )
    say(f"load average {os.getloadavg()[0]:.1f} at the end")
    if args.out:
        save_curve(curve, args.out, untrained_rate, args.players)


if __name__ == "__main__":
    main()
