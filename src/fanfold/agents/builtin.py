"""Registers the built-in agents."""

from __future__ import annotations

from typing import Any

from fanfold.agents.base import AnyAgent, RegisteredAgent, register_agent
from fanfold.agents.mcts import MCTSAgent, MCTSConfig
from fanfold.agents.perfect import PerfectAgent, PerfectConfig, plays_morris
from fanfold.agents.random_agent import RandomAgent, RandomConfig
from fanfold.core.registry import AnyGame


def _random(game: AnyGame, config: Any, seed: int) -> AnyAgent:
    del config
    return RandomAgent(game, seed)


def _mcts(game: AnyGame, config: Any, seed: int) -> AnyAgent:
    return MCTSAgent(game, config, seed)


def _perfect(game: AnyGame, config: Any, seed: int) -> AnyAgent:
    del config
    return PerfectAgent(game, seed)


def _everywhere(game: AnyGame) -> bool:
    del game
    return True


register_agent(
    RegisteredAgent(
        "random", RandomConfig(), _random, "uniformly random legal moves", _everywhere, 0
    )
)
register_agent(
    RegisteredAgent(
        "mcts",
        MCTSConfig(iterations=200),
        _mcts,
        "information-set Monte Carlo tree search with random playouts",
        _everywhere,
        20,
    )
)
register_agent(
    RegisteredAgent(
        "mcts-strong",
        MCTSConfig(iterations=1000),
        _mcts,
        "the same search with five times the playouts",
        _everywhere,
        30,
    )
)
register_agent(
    RegisteredAgent(
        "perfect",
        PerfectConfig(),
        _perfect,
        "Fano330-R-Morris solved: perfect play from the retrograde table",
        plays_morris,
        100,
    )
)
