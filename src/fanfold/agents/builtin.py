"""Registers the built-in agents."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fanfold.agents.base import (
    AgentConfig,
    AgentMaker,
    AgentSpec,
    AnyAgent,
    RegisteredAgent,
    parse_agent,
    register_agent,
)
from fanfold.agents.fan_solver import FanSolverAgent, SolverConfig, plays_fan
from fanfold.agents.heuristic import HeuristicAgent, HeuristicConfig
from fanfold.agents.levels import LEVELS, has_levels, level_agent
from fanfold.agents.mcts import MCTSAgent, MCTSConfig
from fanfold.agents.perfect import PerfectAgent, PerfectConfig, plays_morris
from fanfold.agents.pimc import PIMCAgent, PIMCConfig
from fanfold.agents.random_agent import RandomAgent, RandomConfig
from fanfold.agents.strategy import has_knowledge
from fanfold.core.errors import ConfigError
from fanfold.core.registry import AnyGame


def _random(game: AnyGame, config: Any, seed: int) -> AnyAgent:
    del config
    return RandomAgent(game, seed)


def _mcts(game: AnyGame, config: Any, seed: int) -> AnyAgent:
    return MCTSAgent(game, config, seed)


def _perfect(game: AnyGame, config: Any, seed: int) -> AnyAgent:
    return PerfectAgent(game, seed, mistakes=config.mistakes)


def _pimc(game: AnyGame, config: Any, seed: int) -> AnyAgent:
    return PIMCAgent(game, config, seed)


def _solver(game: AnyGame, config: Any, seed: int) -> AnyAgent:
    return FanSolverAgent(game, config, seed)


def _heuristic(game: AnyGame, config: Any, seed: int) -> AnyAgent:
    del config
    return HeuristicAgent(game, seed)


@dataclass(frozen=True)
class LevelConfig(AgentConfig):
    """A level is the configured agent its game names for it; ``seconds`` caps that agent's
    time a decision where it searches (a browser table or the terminal asks for a cap).

    Attributes:
        seconds: the cap (``None``: the level's own budget only).
    """

    seconds: float | None = None

    def validate(self) -> None:
        if self.seconds is not None and self.seconds <= 0:
            raise ConfigError(f"seconds must be more than 0, not {self.seconds}")


def _level(level: str) -> AgentMaker:
    def make(game: AnyGame, config: Any, seed: int) -> AnyAgent:
        spec = parse_agent(level_agent(game, level))
        cap = config.seconds
        if cap is not None and "seconds" in spec.config.option_texts():
            own = getattr(spec.config, "seconds", None)
            seconds = cap if own is None else min(own, cap)
            spec = AgentSpec(spec.name, spec.config.with_options({"seconds": f"{seconds:g}"}))
        return spec.create(game, seed)

    return make


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
        "information-set Monte Carlo tree search (random or heuristic playouts)",
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
        "pimc",
        PIMCConfig(),
        _pimc,
        "determinized Monte Carlo: each move tried on the same dealt states, played out by "
        "the game's strategy",
        has_knowledge,
        25,
    )
)
register_agent(
    RegisteredAgent(
        "perfect",
        PerfectConfig(),
        _perfect,
        "Fano330-R-Morris solved: perfect play from the retrograde table "
        "(mistakes=P: a second-best move with probability P)",
        plays_morris,
        100,
    )
)
register_agent(
    RegisteredAgent(
        "solver",
        SolverConfig(),
        _solver,
        "Fan patience solved: plays the exact solver's win on every winnable deal "
        "(mistakes=P: another move with probability P)",
        plays_fan,
        100,
    )
)
register_agent(
    RegisteredAgent(
        "heuristic",
        HeuristicConfig(),
        _heuristic,
        "the game's strategy played directly, one quick move a decision with no search",
        has_knowledge,
        10,
    )
)
_LEVEL_TEXTS = {
    "easy": "the easy level: beatable by a beginner",
    "medium": "the medium level",
    "hard": "the hard level: the strongest bot that answers within about a second",
}
for _strength, _name in enumerate(LEVELS):
    register_agent(
        RegisteredAgent(
            _name, LevelConfig(), _level(_name), _LEVEL_TEXTS[_name], has_levels, 40 + 5 * _strength
        )
    )
