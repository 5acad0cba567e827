"""AI players. Agents see views and legal actions, never states, and own their RNG.

An agent is data: a registered name and a config, written ``mcts(iterations=2000)``;
:func:`create_agent` makes one from such a text, :func:`parse_agent` reads it.
"""

from fanfold.agents.base import (
    Agent,
    AgentConfig,
    AgentSpec,
    AnyAgent,
    RegisteredAgent,
    agent_names,
    create_agent,
    parse_agent,
    register_agent,
    registered_agent,
    registered_agents,
    strongest_agent,
)
from fanfold.agents.random_agent import RandomAgent

__all__ = [
    "Agent",
    "AgentConfig",
    "AgentSpec",
    "AnyAgent",
    "RandomAgent",
    "RegisteredAgent",
    "agent_names",
    "create_agent",
    "parse_agent",
    "register_agent",
    "registered_agent",
    "registered_agents",
    "strongest_agent",
]
