"""The ``onestep`` bot: takes a win on the spot when one is there, else a random move. It plays
every game, built-in or not: it asks the game, never the game's name.

In a game with hidden cards it cannot see the state, so it deals ``samples`` states that fit
its view (``game.sample_state``) and counts a move as winning when it wins in each of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fanfold.agents.base import Agent, AgentConfig, AnyAgent, RegisteredAgent
from fanfold.core.config import ranged
from fanfold.core.game import ActionT, ViewT
from fanfold.core.registry import AnyGame


@dataclass(frozen=True)
class OneStepConfig(AgentConfig):
    """Settings: ``samples``, the states dealt from the view where cards are hidden."""

    samples: int = ranged(4, 1, 100)


class OneStepAgent(Agent[ViewT, ActionT]):
    """A move that wins at once where there is one, else a random move."""

    def __init__(self, game: AnyGame, config: OneStepConfig, seed: int = 0) -> None:
        super().__init__(game, seed)
        self.samples = config.samples if game.has_hidden_information else 1

    def choose(self, view: ViewT, legal: Sequence[ActionT]) -> ActionT:
        seat = view.player
        states = [self.game.sample_state(view, self.rng) for _ in range(self.samples)]
        for action in legal:
            if all(self._wins(state, action, seat) for state in states):
                return action
        return legal[self.rng.randrange(len(legal))]

    def _wins(self, state: Any, action: ActionT, seat: int) -> bool:
        outcome = self.game.outcome(self.game.apply_legal(state, action))
        return outcome is not None and outcome.winners == (seat,)


def _make(game: AnyGame, config: Any, seed: int) -> AnyAgent:
    return OneStepAgent(game, config, seed)


def _everywhere(game: AnyGame) -> bool:
    del game
    return True


#: The bots this package adds (its ``fanfold.agents`` entry point names this).
AGENTS = (
    RegisteredAgent(
        "onestep",
        OneStepConfig(),
        _make,
        "takes a win on the spot when there is one, else a random move (samples=N: states "
        "dealt from the view where cards are hidden)",
        _everywhere,
        5,
    ),
)
