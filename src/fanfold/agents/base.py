"""The agent interface and the registry of agents by name."""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fanfold.core.errors import UnknownGameError
from fanfold.core.registry import AnyGame


class Agent(ABC):
    """A player that chooses among legal actions from what its seat may see.

    Args:
        game: the game being played.
        seed: seeds the agent's own generator (never the dealer's).
    """

    #: The name the registry and the command line use.
    name: str = "agent"

    def __init__(self, game: AnyGame, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        """One of ``legal`` for the seat whose view this is."""

    def prepare(self, config: Any, say: Callable[[str], None]) -> None:
        """Get ready for a game with ``config`` before it starts (load tables, warm up),
        telling the player through ``say`` about anything slow. The default has nothing to do."""
        del config, say


AgentFactory = Callable[[AnyGame, int], Agent]


@dataclass(frozen=True)
class AgentSpec:
    """A registered agent: how to make it and which games it plays."""

    name: str
    factory: AgentFactory
    description: str
    supports: Callable[[AnyGame], bool]
    strength: int


_AGENTS: dict[str, AgentSpec] = {}
_loaded = False


def register_agent(
    name: str,
    factory: AgentFactory,
    description: str,
    supports: Callable[[AnyGame], bool] = lambda game: True,
    strength: int = 0,
) -> None:
    """Add an agent under ``name``; ``strength`` orders agents, the strongest is the default."""
    _AGENTS[name] = AgentSpec(name, factory, description, supports, strength)


def _ensure_loaded() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        importlib.import_module("fanfold.agents.builtin")


def agent_specs(game: AnyGame | None = None) -> list[AgentSpec]:
    """Registered agents (those that play ``game`` when it is given)."""
    _ensure_loaded()
    return [spec for spec in _AGENTS.values() if game is None or spec.supports(game)]


def strongest_agent(game: AnyGame) -> str:
    """The name of the strongest registered agent that plays ``game``."""
    return max(agent_specs(game), key=lambda spec: spec.strength).name


def agent_names(game: AnyGame | None = None) -> list[str]:
    """Names of the registered agents (those that play ``game`` when it is given)."""
    return [spec.name for spec in agent_specs(game)]


def create_agent(name: str, game: AnyGame, seed: int = 0) -> Agent:
    """Make the agent called ``name`` for ``game``."""
    _ensure_loaded()
    spec = _AGENTS.get(name.strip().lower())
    if spec is None or not spec.supports(game):
        names = ", ".join(agent_names(game))
        raise UnknownGameError(f"no agent {name!r} for {game.title}; agents: {names}")
    return spec.factory(game, seed)
