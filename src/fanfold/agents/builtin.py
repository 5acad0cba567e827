"""Registers the built-in agents."""

from fanfold.agents.base import register_agent
from fanfold.agents.random_agent import RandomAgent

register_agent("random", RandomAgent, "uniformly random legal moves")
