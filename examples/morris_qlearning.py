"""Train OpenSpiel's tabular Q-learner on Fano330-R-Morris and judge it by the solved table.

The learner plays White (player 0) against a uniform random Black in ``python_fanfold_morris``
(registered by :func:`fanfold.envs.register_openspiel`), through OpenSpiel's own
``rl_environment`` and ``tabular_qlearner``. After every block of training episodes it is
measured greedily (no exploration):

* **soundness**: the fraction of its moves that keep the game-theoretic value of the position,
  by the solved table (:func:`fanfold.envs.openspiel_game.morris_value_keeping_actions`);
* **score against random**: wins minus losses over evaluation games, per game;

and at the end the same against a bot (``mcts(iterations=50)``). The learning curve is saved
as a picture.

Run: ``python examples/morris_qlearning.py --episodes 20000 --out morris_qlearning.png``.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import tabular_qlearner

import fanfold.envs
from fanfold.agents import create_agent
from fanfold.envs.openspiel_game import morris_value_keeping_actions


def evaluate(game: Any, learner: Any, opponent: str, games: int, seed: int) -> tuple[float, float]:
    """The learner's soundness and mean return (as White) over ``games`` greedy games."""
    rng = random.Random(seed)
    bot = None if opponent == "random" else create_agent(opponent, fanfold_game(game), seed)
    sound = moves = 0
    total = 0.0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == 0:
                action = greedy(learner, state, legal)
                sound += action in morris_value_keeping_actions(state)
                moves += 1
            elif bot is None:
                action = rng.choice(legal)
            else:
                view = state.episode.game.observe(state.fanfold_state, 1)
                choice = bot.choose(view, state.episode.table.legal_actions())
                action = state.episode.encoding.action_index(1, choice)
            state.apply_action(action)
        total += state.returns()[0]
    return sound / max(moves, 1), total / games


def fanfold_game(game: Any) -> Any:
    """The fanfold game under an OpenSpiel game."""
    return game.fanfold_game


def greedy(learner: Any, state: Any, legal: list[int]) -> int:
    """The learner's best-valued legal action (ties: the first)."""
    key = str(state.observation_tensor(0))
    values = learner._q_values[key]  # the Q-table, read to act greedily
    return max(legal, key=lambda action: values[action])


def main(argv: list[str] | None = None) -> None:
    """Train, measure along the way, save the curve and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=20000, help="training episodes")
    parser.add_argument("--blocks", type=int, default=10, help="measurements along the way")
    parser.add_argument("--eval-games", type=int, default=100, help="games per measurement")
    parser.add_argument("--out", default="morris_qlearning.png", help="the picture")
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seeds the environment, the random Black and the learner's exploration",
    )
    args = parser.parse_args(argv)
    np.random.seed(args.seed)  # OpenSpiel's tabular Q-learner explores with NumPy's generator

    fanfold.envs.register_openspiel()
    game = pyspiel.load_game("python_fanfold_morris")
    env = rl_environment.Environment(
        game, observation_type=rl_environment.ObservationType.OBSERVATION, seed=args.seed
    )
    actions = env.action_spec()["num_actions"]
    learner = tabular_qlearner.QLearner(player_id=0, num_actions=actions, step_size=0.2)
    rng = random.Random(args.seed)
    curve: list[tuple[int, float, float]] = []
    block = max(args.episodes // args.blocks, 1)
    for episode in range(1, args.episodes + 1):
        time_step = env.reset()
        while not time_step.last():
            if time_step.observations["current_player"] == 0:
                action = learner.step(time_step).action
            else:
                action = rng.choice(time_step.observations["legal_actions"][1])
            time_step = env.step([action])
        learner.step(time_step)
        if episode % block == 0 or episode == args.episodes:
            soundness, score = evaluate(game, learner, "random", args.eval_games, episode)
            curve.append((episode, soundness, score))
            print(
                f"{episode:>7} episodes: sound moves {soundness:.1%}, score vs random {score:+.2f}"
            )
    untrained = tabular_qlearner.QLearner(player_id=0, num_actions=actions)
    base_sound, base_score = evaluate(game, untrained, "random", args.eval_games, 1)
    bot_sound, bot_score = evaluate(game, learner, "mcts(iterations=50)", args.eval_games // 2, 2)
    print(f"untrained (first legal move): sound moves {base_sound:.1%}, score {base_score:+.2f}")
    print(f"trained vs mcts(iterations=50): sound moves {bot_sound:.1%}, score {bot_score:+.2f}")

    figure, axis = plt.subplots(figsize=(7, 4))
    episodes = [point[0] for point in curve]
    axis.plot(episodes, [point[1] for point in curve], marker="o", label="moves keeping the value")
    axis.plot(episodes, [point[2] for point in curve], marker="s", label="score vs random (W-L)")
    axis.axhline(base_sound, linestyle=":", color="grey", label="untrained: value kept")
    axis.set_xlabel("training episodes")
    axis.set_ylim(-1.05, 1.05)
    axis.set_title("Tabular Q-learning on Fano330-R-Morris (White), judged by the solved table")
    axis.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(args.out, dpi=100)
    print(f"curve saved to {args.out}")


if __name__ == "__main__":
    main()
