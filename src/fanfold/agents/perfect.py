"""The perfect Fano330-R-Morris player, reading the solved table (:mod:`fanfold.solvers.morris`).

It never turns a won position into a draw or a loss, nor a drawn one into a loss; it wins as
fast as it can and loses as slowly as it can, and picks at random (with its own generator)
among equally good moves. A move that would repeat an earlier position of the game counts as
the draw that the repetition rule makes it, so the agent is perfect given the game's history
too: after perfect play a won game never repeats, because every winning move shortens the
distance to the end.

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
    """The perfect agent has no settings: it always plays a best move."""


class PerfectAgent(Agent[MorrisView, MorrisAction]):
    """Plays Fano330-R-Morris perfectly from the solved table.

    Args:
        game: the Morris game.
        seed: seeds the agent's own generator, used to choose among equally good moves.
        cache_dir: where the solved tables are cached (default: the user cache directory).
    """

    name = "perfect"

    def __init__(self, game: AnyGame, seed: int = 0, *, cache_dir: Path | None = None) -> None:
        if not plays_morris(game):
            raise TypeError(f"the perfect agent plays Fano330-R-Morris, not {game.title}")
        super().__init__(game, seed)
        self.cache_dir = cache_dir

    def table(self, view: MorrisView) -> MorrisTable:
        """The solved table of the variant being played."""
        from fanfold.solvers.morris import load_table

        return load_table(
            view.state.config.adjacency, cache_dir=self.cache_dir, message=_LOG.warning
        )

    def prepare(self, config: GameConfig, say: Callable[[str], None]) -> None:
        from fanfold.solvers.morris import cache_path, load_table

        if not isinstance(config, MorrisConfig):
            raise TypeError(f"the perfect agent plays Fano330-R-Morris, not {config!r}")

        if not cache_path(config.adjacency, self.cache_dir).exists():
            say(
                "The perfect player is solving Fano330-R-Morris "
                f"({config.adjacency.value} adjacency): first use only, a few seconds..."
            )
        load_table(config.adjacency, cache_dir=self.cache_dir, message=say)

    def choose(self, view: MorrisView, legal: Sequence[MorrisAction]) -> MorrisAction:
        from fanfold.solvers.morris import action_value

        table = self.table(view)
        scored = [(action, action_value(table, view.state, action).rank) for action in legal]
        best = max(rank for _, rank in scored)
        choices = [action for action, rank in scored if rank == best]
        return choices[self.rng.randrange(len(choices))]
