"""The built-in agents, in one explicit list (:data:`BUILTIN_AGENTS`), registered when
:mod:`fanfold.agents` is imported."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fanfold.agents.base import (
    AgentConfig,
    AgentMaker,
    AnyAgent,
    RegisteredAgent,
    parse_agent,
    register_agent,
    with_time_cap,
)
from fanfold.agents.fan_solver import FanSolverAgent, SolverConfig, plays_fan
from fanfold.agents.fano_greedy import GreedyConfig, make_greedy
from fanfold.agents.heuristic import HeuristicAgent, HeuristicConfig
from fanfold.agents.ladder.agent import LadderConfig, make_ladder
from fanfold.agents.ladder.exploit import ExploitConfig, make_exploit
from fanfold.agents.levels import LEVELS, has_levels, level_agent
from fanfold.agents.mcts import MCTSAgent, MCTSConfig
from fanfold.agents.perfect import PerfectAgent, PerfectConfig, plays_morris
from fanfold.agents.pimc import PIMCAgent, PIMCConfig
from fanfold.agents.planner import PlannerConfig, make_planner, plays_fano
from fanfold.agents.random_agent import RandomAgent, RandomConfig
from fanfold.agents.strategy import has_knowledge
from fanfold.core.errors import ConfigError, Refusal
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


def _heuristic_v1(game: AnyGame, config: Any, seed: int) -> AnyAgent:
    del config
    from fanfold.agents.strategy.fano_knowledge import FanoKnowledge

    agent = HeuristicAgent(game, seed)
    agent.knowledge = FanoKnowledge(game)
    return agent


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
            raise ConfigError(
                Refusal("agent.more_than_zero", name="seconds", value=f"{self.seconds}")
            )


def _level(level: str) -> AgentMaker:
    def make(game: AnyGame, config: Any, seed: int) -> AnyAgent:
        spec = with_time_cap(parse_agent(level_agent(game, level)), config.seconds)
        return spec.create(game, seed)

    return make


def _everywhere(game: AnyGame) -> bool:
    del game
    return True


_LEVEL_TEXTS = {
    "easy": "the easy level: beatable by a beginner",
    "medium": "the medium level",
    "hard": "the hard level: the strongest bot that answers within about a second",
}

#: The built-in agents, in the order the registry lists them: the levels last.
BUILTIN_AGENTS: tuple[RegisteredAgent, ...] = (
    RegisteredAgent(
        "random", RandomConfig(), _random, "uniformly random legal moves", _everywhere, 0
    ),
    RegisteredAgent(
        "mcts",
        MCTSConfig(iterations=200),
        _mcts,
        "information-set Monte Carlo tree search (random or heuristic playouts)",
        _everywhere,
        20,
    ),
    RegisteredAgent(
        "mcts-strong",
        MCTSConfig(iterations=1000),
        _mcts,
        "the same search with five times the playouts",
        _everywhere,
        30,
    ),
    RegisteredAgent(
        "pimc",
        PIMCConfig(),
        _pimc,
        "determinized Monte Carlo: each move tried on the same dealt states, played out by "
        "the game's strategy",
        has_knowledge,
        25,
    ),
    RegisteredAgent(
        "perfect",
        PerfectConfig(),
        _perfect,
        "Fano330-R-Morris solved: perfect play from the retrograde table "
        "(mistakes=P: a second-best move with probability P)",
        plays_morris,
        100,
    ),
    RegisteredAgent(
        "solver",
        SolverConfig(),
        _solver,
        "Fan patience solved: plays the exact solver's win on every winnable deal "
        "(mistakes=P: another move with probability P)",
        plays_fan,
        100,
    ),
    RegisteredAgent(
        "heuristic",
        HeuristicConfig(),
        _heuristic,
        "the game's strategy played directly, one quick move a decision with no search",
        has_knowledge,
        10,
    ),
    RegisteredAgent(
        "heuristic-v1",
        HeuristicConfig(),
        _heuristic_v1,
        "Fano's medium level until the turn planner: the strategy of 2026-11 played directly, "
        "kept unchanged as a fixed reference",
        plays_fano,
        9,
    ),
    RegisteredAgent(
        "greedy",
        GreedyConfig(),
        make_greedy,
        "a fast Fano yardstick written apart from the strategy: each action scored by what it "
        "changes at once (progress, what it takes, what it leaves exposed), no search",
        plays_fano,
        12,
    ),
    RegisteredAgent(
        "planner",
        PlannerConfig(),
        make_planner,
        "Fano's turn planner: the best whole turn of the seat's own actions, searched on a few "
        "deals of its view, judged by what the opponents can do next",
        plays_fano,
        15,
    ),
    RegisteredAgent(
        "ladder",
        LadderConfig(),
        make_ladder,
        "Fano's yardstick ladder (style=balanced, rush, defend, attack, bluff, honest, call, "
        "counter, hoard): the whole own turn searched, judged by a learned evaluation, compiled",
        plays_fano,
        16,
    ),
    RegisteredAgent(
        "exploit",
        ExploitConfig(),
        make_exploit,
        "Fano's best response to a known policy: the ladder's look-ahead with the opponents "
        "played by the target's member (target=medium, hard or a style) in its continuations",
        plays_fano,
        14,
    ),
    *(
        RegisteredAgent(
            name, LevelConfig(), _level(name), _LEVEL_TEXTS[name], has_levels, 40 + 5 * strength
        )
        for strength, name in enumerate(LEVELS)
    ),
)

for _entry in BUILTIN_AGENTS:
    register_agent(_entry)
