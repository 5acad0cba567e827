"""The perfect Fano330-R-Morris player, reading the solved table (:mod:`fanfold.solvers.morris`).

It never turns a won position into a draw or a loss, nor a drawn one into a loss; it wins as
fast as it can and loses as slowly as it can, and picks at random (with its own generator)
among equally good moves. A move that would repeat an earlier position of the game counts as
the draw that the repetition rule makes it, so the agent is perfect given the game's history
too: after perfect play a won game never repeats, because every winning move shortens the
distance to the end.

Graded down with ``mistakes=P`` (``perfect(mistakes=0.2)``), the agent plays a second-best move
with probability ``P`` at each decision where the moves are not all equally good: one of the
moves whose value comes next after the best (a slower win, a draw given away from a won
position, a loss from a drawn one, a faster loss). ``mistakes=0`` is the perfect player, move
for move. The difficulty levels of the game are this agent at chosen rates
(:mod:`fanfold.agents.strategy.morris`).

The first game in a variant loads the table from the cache, or solves it (a few seconds) and
caches it; see :func:`fanfold.solvers.morris.load_table`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from fanfold.agents.base import Agent, AgentConfig
from fanfold.core.config import GameConfig
from fanfold.core.errors import ConfigError, Refusal
from fanfold.core.phrases import Phrase
from fanfold.core.registry import AnyGame
from fanfold.games.morris import MorrisAction, MorrisConfig, MorrisGame, MorrisView

if TYPE_CHECKING:
    from fanfold.solvers.morris import MorrisTable

_LOG = logging.getLogger(__name__)


def plays_morris(game: AnyGame) -> bool:
    """The perfect agent plays Fano330-R-Morris only."""
    return isinstance(game, MorrisGame)


@dataclass(frozen=True)
class PerfectConfig(AgentConfig):
    """Settings of the table player.

    Attributes:
        mistakes: the probability of a second-best move at a decision where the moves are
            not all equally good (0: perfect play).
    """

    mistakes: float = 0.0

    def validate(self) -> None:
        if not 0.0 <= self.mistakes <= 1.0:
            raise ConfigError(
                Refusal("agent.zero_to_one", name="mistakes", value=f"{self.mistakes}")
            )


class PerfectAgent(Agent[MorrisView, MorrisAction]):
    """Plays Fano330-R-Morris perfectly from the solved table.

    Args:
        game: the Morris game.
        seed: seeds the agent's own generator, used to choose among equally good moves (and
            when to make a mistake).
        cache_dir: where the solved tables are cached (default: the user cache directory).
        mistakes: the probability of a second-best move where one exists (0: perfect play).

    Attributes:
        mistakes_made: how many second-best moves the agent has played.
        graded_decisions: decisions at which a second-best move existed.
    """

    name = "perfect"

    def __init__(
        self,
        game: AnyGame,
        seed: int = 0,
        *,
        cache_dir: Path | None = None,
        mistakes: float = 0.0,
    ) -> None:
        if not plays_morris(game):
            raise TypeError(f"the perfect agent plays Fano330-R-Morris, not {game.title}")
        if not 0.0 <= mistakes <= 1.0:
            raise ConfigError(Refusal("agent.zero_to_one", name="mistakes", value=f"{mistakes}"))
        super().__init__(game, seed)
        self.cache_dir = cache_dir
        self.mistakes = mistakes
        self.mistakes_made = 0
        self.graded_decisions = 0

    def table(self, view: MorrisView) -> MorrisTable:
        """The solved table of the variant being played."""
        from fanfold.solvers.morris import load_table

        return load_table(
            view.state.config.adjacency, cache_dir=self.cache_dir, message=_LOG.warning
        )

    def prepare(self, config: GameConfig, say: Callable[[str], None]) -> None:
        from fanfold.solvers.morris import load_table, progress_printer, stored_path

        if not isinstance(config, MorrisConfig):
            raise TypeError(f"the perfect agent plays Fano330-R-Morris, not {config!r}")

        if stored_path(config.adjacency, self.cache_dir) is None:
            say(Phrase("morris.solve_first_use", adjacency=config.adjacency.value))
        progress = progress_printer(say, config.adjacency)
        load_table(config.adjacency, cache_dir=self.cache_dir, progress=progress, message=say)

    def choose(self, view: MorrisView, legal: Sequence[MorrisAction]) -> MorrisAction:
        from fanfold.solvers.morris import action_value

        table = self.table(view)
        scored = [(action, action_value(table, view.state, action).rank) for action in legal]
        ranks = sorted({rank for _, rank in scored}, reverse=True)
        wanted = ranks[0]
        if len(ranks) > 1:
            self.graded_decisions += 1
            if self.mistakes and self.rng.random() < self.mistakes:
                self.mistakes_made += 1
                wanted = ranks[1]
        choices = [action for action, rank in scored if rank == wanted]
        return choices[self.rng.randrange(len(choices))]
