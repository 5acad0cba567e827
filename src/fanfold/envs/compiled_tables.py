"""What the vector environment asks of a game's compiled tables.

Each game whose vector environment steps on compiled kernels (:data:`fanfold.envs.vector_env.
STEPPING`) keeps its tables in arrays behind a :class:`CompiledTables`: deal, the learner's
action and the bots' replies, whether each game is over or cut by a step limit, the learner's
observation and mask written into the caller's batch, and a table's game as a rules state (for
its outcome and for tests). The games' modules (``fantan_stepping``, ``fano_stepping``,
``fan_stepping``, ``morris_stepping``) say how their kernels do it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

#: Table indices, actions and rows as the vector environment passes them.
Ints = npt.NDArray[np.int64]


class CompiledTables(ABC):
    """Many tables of one variant, stepped together on a game's compiled kernels, playing
    exactly what the Python path plays for the same seeds."""

    @abstractmethod
    def start(self, which: Sequence[int] | Ints, seeds: Sequence[int]) -> None:
        """Deal a new game at each table of ``which`` from its seed, and let its bots play up
        to the learner's first decision."""

    @abstractmethod
    def act(self, which: Ints, actions: Ints) -> None:
        """The learner's action at each table of ``which`` (legal: the caller checked it
        against the mask), then the bots' until the learner decides or the game ends."""

    @abstractmethod
    def is_over(self, which: Ints) -> npt.NDArray[np.bool_]:
        """Whether the game at each table of ``which`` is over by the rules."""

    def is_cut(self, which: Ints) -> npt.NDArray[np.bool_]:
        """Whether a step limit cut the game at each table of ``which`` before its end (never,
        for tables without a step limit)."""
        return np.zeros(len(which), dtype=np.bool_)

    @abstractmethod
    def observe(
        self,
        which: Ints,
        rows: Ints,
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
    ) -> None:
        """Write table ``which[k]``'s learner observation and mask into row ``rows[k]``."""

    @abstractmethod
    def state(self, index: int, *, history: bool = True) -> Any:
        """Table ``index``'s game as a rules state (``history=False``: without the parts its
        outcome does not read, where the game keeps any)."""

    def outcome(self, index: int, game: Any) -> Any:
        """The outcome of the game over at table ``index`` (``game``'s
        :meth:`~fanfold.core.game.Game.outcome` of its state; a game's tables may read it off
        their arrays instead, the same outcome)."""
        return game.outcome(self.state(index, history=False))

    def play_first_legal(self, size: int, num_actions: int, steps: int) -> None:
        """Deal games 1 and 2 at tables 0 and 1 and play each learner's first legal action
        until a game ends or is cut, or ``steps`` actions: every kernel runs once (the
        build's warm-up). ``size`` and ``num_actions``: the encoding's observation length and
        action count."""
        rows = np.arange(2, dtype=np.int64)
        self.start(rows, [1, 2])
        observations = np.zeros((2, size), dtype=np.float32)
        masks = np.zeros((2, num_actions), dtype=np.int8)
        for _ in range(steps):
            self.observe(rows, rows, observations, masks)
            if (self.is_over(rows) | self.is_cut(rows)).any():
                return
            actions = np.array([int(np.flatnonzero(mask)[0]) for mask in masks], dtype=np.int64)
            self.act(rows, actions)


class SelfPlayTables(CompiledTables):
    """Compiled tables that also play self-play (every seat the caller's, no bots), for
    :class:`~fanfold.envs.selfplay_env.SelfPlayVectorEnv`: who decides at each table, and any
    seat's observation and mask.

    Args:
        seat: the learner's seat, or ``-1`` (each game's ``EVERY_SEAT``): every seat, the
            one deciding at each table.
        count: how many tables.
    """

    def __init__(self, seat: int, count: int) -> None:
        self.seat = seat
        self.count = count
        self._seats = np.full(count, seat, dtype=np.int64)

    @abstractmethod
    def deciders(self, which: Ints) -> Ints:
        """The seat that decides now at each table of ``which``."""

    def learner_seats(self, which: Ints) -> Ints:
        """The learner's seat at each table of ``which`` (in self-play, the decider's)."""
        if self.seat < 0:
            return self.deciders(which)
        return self._seats[: len(which)]

    def observe(
        self,
        which: Ints,
        rows: Ints,
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        seats: Ints | None = None,
    ) -> None:
        """Write table ``which[k]``'s observation and mask for the learner (or for seat
        ``seats[k]``) into row ``rows[k]``."""
        chosen = self.learner_seats(which) if seats is None else seats
        self._observe(which, rows, observations, masks, chosen)

    @abstractmethod
    def _observe(
        self,
        which: Ints,
        rows: Ints,
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        seats: Ints,
    ) -> None:
        """Write table ``which[k]``'s observation and mask for seat ``seats[k]`` into row
        ``rows[k]``."""
