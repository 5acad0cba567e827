"""Many Fano330-R-Morris tables stepped at compiled speed, for the vector environment.

:class:`MorrisTables` keeps ``count`` tables of one Morris variant in arrays and steps them
with the kernels of :mod:`fanfold.envs.morris_kernels`: the learner's action, then the random
bot's, and the learner's observation and mask written into the caller's batch. It plays
exactly what the Python path plays for the same seeds (an
:class:`~fanfold.envs.episode.Episode` with a learner seat and a ``random`` bot, cut at its
step limit), which ``tests/envs/test_morris_stepping.py`` checks. The outcome's words stay in
Python.

Importing this module loads Numba; :func:`warm_up` compiles (or loads from the cache) every
kernel, and joins the build's warm-ups
(:data:`fanfold.agents.strategy.compiled.ENVIRONMENT_WARM_UPS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from fanfold.envs import morris_kernels as kernels
from fanfold.envs.compiled_tables import Ints, SelfPlayTables
from fanfold.games.morris.board import PIECES, neighbours
from fanfold.games.morris.config import MorrisConfig
from fanfold.games.morris.state import MorrisState

if TYPE_CHECKING:
    from fanfold.envs.encoding import Encoding
    from fanfold.envs.gymnasium_env import FanfoldGymEnv


#: The most positions the repetition rule remembers: one per movement, so one per step.
SEEN = 4096


def supports(seats: Sequence[str], max_steps: int | None, config: object = None) -> bool:
    """Whether :class:`MorrisTables` plays this environment: Morris, one learner seat and a
    ``random`` bot, a step limit of 1 to :data:`SEEN`."""
    del config  # every variant of the game
    return sorted(seats) == ["human", "random"] and max_steps is not None and 1 <= max_steps <= SEEN


def _stack(code: int) -> str:
    if code == 0:
        return ""
    if code < 5:
        return PIECES[code - 1]
    return PIECES[(code - 5) // 4] + PIECES[(code - 5) % 4]


def decode(key: int) -> tuple[tuple[str, ...], int]:
    """A position (board and side to move) from :func:`kernels.position_key`'s number."""
    side = key % 2
    key //= 2
    stacks = []
    for _ in range(kernels.POINTS):
        stacks.append(_stack(key % 21))
        key //= 21
    return tuple(stacks), side


def supports_self_play(config: object, max_steps: int | None) -> bool:
    """Whether :class:`MorrisTables` plays self-play of this variant: every variant, a step
    limit of 1 to :data:`SEEN`."""
    return isinstance(config, MorrisConfig) and max_steps is not None and 1 <= max_steps <= SEEN


class MorrisTables(SelfPlayTables):
    """``count`` Morris tables with the learner in ``seat`` and a random bot in the other, or
    in self-play (``seat`` of :data:`~fanfold.envs.morris_kernels.EVERY_SEAT`) both sides the
    caller's.

    Args:
        config: the variant.
        seat: the learner's seat, or :data:`~fanfold.envs.morris_kernels.EVERY_SEAT`.
        count: how many tables.
        num_actions: the encoding's action count.
        max_steps: actions after which an episode is cut.
    """

    def __init__(
        self, config: MorrisConfig, seat: int, count: int, num_actions: int, max_steps: int
    ) -> None:
        super().__init__(seat, count)
        self.config = config
        self.max_steps = max_steps
        adjacent = neighbours(config.adjacency)
        self.pairs = np.array(
            [
                (source - 1, target - 1)
                for source in range(1, kernels.POINTS + 1)
                for target in adjacent[source]
            ],
            dtype=np.int64,
        )
        self.board = np.zeros((count, kernels.POINTS, 2), dtype=np.int64)
        self.heights = np.zeros((count, kernels.POINTS), dtype=np.int64)
        self.scal = np.zeros((count, kernels.S_COLUMNS), dtype=np.int64)
        self.seen = np.zeros((count, SEEN), dtype=np.int64)
        self.rng = np.zeros((count, 2, 625), dtype=np.int64)
        self.scratch = np.zeros(num_actions, dtype=np.int8)

    def start(self, which: Sequence[int] | Ints, seeds: Sequence[int]) -> None:
        """An empty board at each table of ``which``; the bot seeded from ``seeds`` as the
        environment seeds it, and playing first where it is White."""
        kernels.start(
            self.board,
            self.heights,
            self.pairs,
            self.scal,
            self.seen,
            self.rng,
            np.asarray(which, dtype=np.int64),
            np.asarray(seeds, dtype=np.int64),
            self.seat,
            self.max_steps,
            self.scratch,
        )

    def act(self, which: Ints, actions: Ints) -> None:
        """The learner's legal action at each table of ``which``, then the bot's."""
        kernels.act(
            self.board,
            self.heights,
            self.pairs,
            self.scal,
            self.seen,
            self.rng,
            which,
            actions,
            self.seat,
            self.max_steps,
            self.scratch,
        )

    def is_over(self, which: Ints) -> npt.NDArray[np.bool_]:
        """Whether the game at each table of ``which`` is over by the rules."""
        over = np.zeros(len(which), dtype=np.bool_)
        kernels.over_of(self.board, self.heights, self.pairs, self.scal, which, over, self.scratch)
        return over

    def is_cut(self, which: Ints) -> npt.NDArray[np.bool_]:
        """Whether the step limit cut the game at each table of ``which`` before its end."""
        cut: npt.NDArray[np.bool_] = (
            self.scal[which, kernels.S_STEPS] >= self.max_steps
        ) & ~self.is_over(which)
        return cut

    def _observe(
        self,
        which: Ints,
        rows: Ints,
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        seats: Ints,
    ) -> None:
        over = np.zeros(len(which), dtype=np.bool_)
        kernels.observe(
            self.board,
            self.heights,
            self.pairs,
            self.scal,
            which,
            rows,
            observations,
            masks,
            seats,
            self.max_steps,
            over,
        )

    def deciders(self, which: Ints) -> Ints:
        """The side to move at each table of ``which``."""
        seats: Ints = self.scal[which, kernels.S_TO_MOVE].copy()
        return seats

    def state(self, index: int, *, history: bool = True) -> MorrisState:
        """Table ``index``'s game as a rules state; ``history=False`` leaves the positions
        the repetition rule remembers out (the outcome reads only whether one repeated)."""
        scal = self.scal[index]
        board = tuple(
            "".join(PIECES[code] for code in self.board[index, point, :height].tolist())
            for point, height in enumerate(self.heights[index].tolist())
        )
        seen = (
            frozenset(decode(key) for key in self.seen[index, : int(scal[kernels.S_SEEN])].tolist())
            if history
            else frozenset()
        )
        return MorrisState(
            self.config, board, int(scal[kernels.S_TO_MOVE]), seen, bool(scal[kernels.S_DRAWN])
        )


def warm_up() -> None:
    """Compile (or load from Numba's cache) every kernel, on a few games of both variants."""
    from fanfold.envs.morris import MorrisEncoding
    from fanfold.games.morris.config import PRESETS
    from fanfold.games.morris.game import MorrisGame

    for preset, seat in ((PRESETS[0], 0), (PRESETS[-1], 1)):
        encoding = MorrisEncoding(MorrisGame(), preset.config)
        tables = MorrisTables(preset.config, seat, 2, encoding.num_actions, 100)
        tables.play_first_legal(encoding.layout.size, encoding.num_actions, 100)


def tables(env: FanfoldGymEnv, count: int, encoding: Encoding) -> MorrisTables:
    """``count`` compiled tables playing what ``env`` plays (one that :func:`supports`)."""
    return MorrisTables(env.config, env.seat, count, encoding.num_actions, env.max_steps or 0)


def self_play_tables(encoding: Encoding, count: int, max_steps: int | None) -> MorrisTables:
    """``count`` compiled self-play tables (a step limit that :func:`supports_self_play`)."""
    config = encoding.config
    assert isinstance(config, MorrisConfig)
    return MorrisTables(config, kernels.EVERY_SEAT, count, encoding.num_actions, max_steps or 0)
