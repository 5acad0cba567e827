"""AI players. Agents see views and legal actions, never states, and own their RNG.

Importing this package registers every built-in agent; :func:`create_agent` makes one by name.
"""

from fanfold.agents.base import (
    Agent,
    agent_names,
    agent_specs,
    create_agent,
    register_agent,
    strongest_agent,
)
from fanfold.agents.match import play_game
from fanfold.agents.random_agent import RandomAgent

__all__ = [
    "Agent",
    "RandomAgent",
    "agent_names",
    "agent_specs",
    "create_agent",
    "play_game",
    "register_agent",
    "strongest_agent",
]
