"""Many Fan patience tables stepped at compiled speed, for the vector environment.

:class:`FanTables` keeps ``count`` tables of one Fan variant in arrays and steps them with the
kernels of :mod:`fanfold.envs.fan_kernels`: the player's move, the legal moves after it (the
mask), and the observation written into the caller's batch. It plays exactly what the Python
path plays for the same seeds (an :class:`~fanfold.envs.episode.Episode` of the one seat, cut at
its step limit), which ``tests/envs/test_fan_stepping.py`` checks over many seeded games of
every preset. The deal (PySolFC's numbering) and the outcome's words stay in Python.

Importing this module loads Numba; :func:`warm_up` compiles (or loads from the cache) every
kernel, and joins the build's warm-ups
(:data:`fanfold.agents.strategy.compiled.ENVIRONMENT_WARM_UPS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from fanfold.core.cards import Card
from fanfold.envs import fan_kernels as kernels
from fanfold.envs.compiled_tables import Ints, SelfPlayTables
from fanfold.games.fan import rules
from fanfold.games.fan.config import FanConfig
from fanfold.games.fan.deals import deal_fans
from fanfold.games.fan.state import FanState

if TYPE_CHECKING:
    from fanfold.envs.encoding import Encoding
    from fanfold.envs.gymnasium_env import FanfoldGymEnv

_CARDS = tuple(Card.from_index(index) for index in range(52))


def supports(seats: Sequence[str], max_steps: int | None, config: object = None) -> bool:
    """Whether :class:`FanTables` plays this environment: Fan patience (its one seat the
    learner's), with no step limit or one of at least 1."""
    del config  # every variant of the game
    return list(seats) == ["human"] and (max_steps is None or max_steps >= 1)


class FanTables(SelfPlayTables):
    """``count`` Fan patience tables.

    Args:
        config: the variant.
        count: how many tables.
        num_actions: the encoding's action count.
        max_steps: moves after which an episode is cut (``None``: never).
    """

    def __init__(
        self, config: FanConfig, count: int, num_actions: int, max_steps: int | None
    ) -> None:
        super().__init__(0, count)
        self.config = config
        self.sequences = bool(config.sequence_moves)
        self.any_to_empty = bool(config.any_card_to_empty)
        self.max_steps = -1 if max_steps is None else max_steps
        self.fans = np.zeros((count, kernels.FANS, kernels.DEPTH), dtype=np.int64)
        self.lengths = np.zeros((count, kernels.FANS), dtype=np.int64)
        self.foundations = np.zeros((count, 4), dtype=np.int64)
        self.steps = np.zeros(count, dtype=np.int64)
        self.moves = np.zeros(count, dtype=np.int64)
        self.masks = np.zeros((count, num_actions), dtype=np.int8)
        self.deals = [0] * count

    def start(self, which: Sequence[int] | Ints, seeds: Sequence[int]) -> None:
        """Deal PySolFC's deal ``seeds[k]`` at table ``which[k]``."""
        indices = np.asarray(which, dtype=np.int64)
        for index, seed in zip(indices.tolist(), seeds, strict=True):
            # the deal rules.new_state makes, without its check that every card is there once
            fans = deal_fans(seed) if seed >= 0 else rules.new_state(self.config, seed).fans
            self.deals[index] = seed
            for number, fan in enumerate(fans):
                self.lengths[index, number] = len(fan)
                self.fans[index, number, : len(fan)] = [card.index for card in fan]
            self.foundations[index] = 0
            self.steps[index] = 0
        kernels.refresh(
            self.fans,
            self.lengths,
            self.foundations,
            self.masks,
            indices,
            self.sequences,
            self.any_to_empty,
            self.moves,
        )

    def act(self, which: Ints, actions: Ints) -> None:
        """The legal move ``actions[k]`` at each table ``which[k]``."""
        kernels.act(
            self.fans,
            self.lengths,
            self.foundations,
            self.steps,
            self.masks,
            which,
            actions,
            self.sequences,
            self.any_to_empty,
            self.max_steps,
            self.moves,
        )

    def is_over(self, which: Ints) -> npt.NDArray[np.bool_]:
        """Whether the game at each table of ``which`` is over (won, or no legal move)."""
        over: npt.NDArray[np.bool_] = self.moves[which] == 0
        return over

    def deciders(self, which: Ints) -> Ints:
        """The seat that decides at each table of ``which``: the one seat, 0."""
        return np.zeros(len(which), dtype=np.int64)

    def is_cut(self, which: Ints) -> npt.NDArray[np.bool_]:
        """Whether the step limit cut the game at each table of ``which`` before its end."""
        if self.max_steps < 0:
            return np.zeros(len(which), dtype=np.bool_)
        cut: npt.NDArray[np.bool_] = (self.steps[which] >= self.max_steps) & (
            self.moves[which] != 0
        )
        return cut

    def _observe(
        self,
        which: Ints,
        rows: Ints,
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        seats: Ints,
    ) -> None:
        """Fan has one seat: ``seats`` (0) changes nothing."""
        del seats
        kernels.observe(self.fans, self.lengths, self.foundations, which, rows, observations)
        masks[rows] = self.masks[which]

    def state(self, index: int, *, history: bool = True) -> FanState:
        """Table ``index``'s game as a rules state (``history`` is for the interface shared
        with the other games' tables: a Fan state has none)."""
        del history
        fans = tuple(
            tuple(_CARDS[card] for card in self.fans[index, number, :length].tolist())
            for number, length in enumerate(self.lengths[index].tolist())
        )
        top = self.foundations[index].tolist()
        return FanState(self.config, fans, (top[0], top[1], top[2], top[3]), self.deals[index])


def warm_up() -> None:
    """Compile (or load from Numba's cache) every kernel, on a few games of two variants."""
    from fanfold.envs.fan import FanEncoding
    from fanfold.games.fan.config import PRESETS
    from fanfold.games.fan.game import FanGame

    for preset in (PRESETS[0], PRESETS[-1]):  # one card at a time; sequence moves
        encoding = FanEncoding(FanGame(), preset.config)
        tables = FanTables(preset.config, 2, encoding.num_actions, 200)
        tables.play_first_legal(encoding.layout.size, encoding.num_actions, 200)


def supports_self_play(config: object, max_steps: int | None) -> bool:
    """Whether :class:`FanTables` plays self-play of this variant: every variant (one seat),
    with no step limit or one of at least 1."""
    return supports(["human"], max_steps, config)


def self_play_tables(encoding: Encoding, count: int, max_steps: int | None) -> FanTables:
    """``count`` compiled self-play tables: the one seat's, as :func:`tables`."""
    config = encoding.config
    assert isinstance(config, FanConfig)
    return FanTables(config, count, encoding.num_actions, max_steps)


def tables(env: FanfoldGymEnv, count: int, encoding: Encoding) -> FanTables:
    """``count`` compiled tables playing what ``env`` plays (one that :func:`supports`)."""
    return FanTables(env.config, count, encoding.num_actions, env.max_steps)
