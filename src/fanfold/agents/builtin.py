"""Registers the built-in agents."""

from fanfold.agents.base import register_agent
from fanfold.agents.mcts import mcts_agent, strong_mcts_agent
from fanfold.agents.perfect import PerfectAgent, plays_morris
from fanfold.agents.random_agent import RandomAgent

register_agent("random", RandomAgent, "uniformly random legal moves", strength=0)
register_agent(
    "mcts",
    mcts_agent,
    "information-set Monte Carlo tree search, 200 playouts (at most 1 s) a move",
    strength=20,
)
register_agent(
    "mcts-strong",
    strong_mcts_agent,
    "information-set Monte Carlo tree search, 1000 playouts (at most 3 s) a move",
    strength=30,
)
register_agent(
    "perfect",
    PerfectAgent,
    "Fano330-R-Morris solved: perfect play from the retrograde table",
    supports=plays_morris,
    strength=100,
)
