"""AI players. Agents see views and legal actions, never states, and own their RNG.

An agent is data: a registered name and a config, written ``mcts(iterations=2000)``;
:func:`create_agent` makes one from such a text, :func:`parse_agent` reads it. Importing this
package registers the built-in agents (:mod:`fanfold.agents.builtin`); agents from other
packages are found through ``fanfold.agents`` entry points. :func:`prepare` loads the
strategies' compiled code (a server calls it once before its bots play).
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
    with_time_cap,
)
from fanfold.agents.builtin import BUILTIN_AGENTS
from fanfold.agents.random_agent import RandomAgent
from fanfold.agents.strategy import prepare

__all__ = [
    "BUILTIN_AGENTS",
    "Agent",
    "AgentConfig",
    "AgentSpec",
    "AnyAgent",
    "RandomAgent",
    "RegisteredAgent",
    "agent_names",
    "create_agent",
    "parse_agent",
    "prepare",
    "register_agent",
    "registered_agent",
    "registered_agents",
    "strongest_agent",
    "with_time_cap",
]
