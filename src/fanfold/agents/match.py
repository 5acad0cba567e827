"""Playing a whole game between agents."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fanfold.agents.base import Agent
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame


def play_game(
    game: AnyGame,
    config: Any,
    agents: Sequence[Agent],
    seed: int = 0,
    *,
    max_actions: int = 1_000_000,
) -> tuple[Any, GameRecord]:
    """Play from the dealt start until the game ends; returns the final state and its record.

    Each agent is asked only on its own seat's decisions and sees only that seat's view.
    """
    if len(agents) != game.num_players(config):
        raise ValueError(f"{game.title} needs {game.num_players(config)} agents, not {len(agents)}")
    state = game.new_state(config, seed)
    record = GameRecord.start(game, config, seed, players=[agent.name for agent in agents])
    actions: list[str] = []
    for _ in range(max_actions):
        player = game.current_player(state)
        if player is None:
            break
        legal = game.legal_actions(state)
        action = agents[player].choose(game.observe(state, player), legal)
        actions.append(game.action_text(action))
        state = game.apply(state, action)
    else:
        raise RuntimeError(f"{game.title} did not end within {max_actions} actions")
    outcome = game.outcome(state)
    record = GameRecord(
        record.game,
        record.config,
        record.seed,
        tuple(actions),
        None,
        record.players,
        outcome.to_json() if outcome is not None else None,
    )
    return state, record
