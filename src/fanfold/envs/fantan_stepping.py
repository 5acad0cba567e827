"""Many Fan Tan tables stepped at compiled speed, for the vector environment.

:class:`FanTanTables` keeps ``count`` tables of one Fan Tan variant in arrays and steps them
with the kernels of :mod:`fanfold.envs.fantan_kernels`: the learner's action, then the random
bots' until the learner decides again, and the learner's observation and action mask written
into the caller's batch. It plays exactly what the Python path plays for the same seeds (an
:class:`~fanfold.envs.episode.Episode` with a learner seat and ``random`` bots: the deal of
every hand, each bot's draws, the observation, the mask, the outcome), which
``tests/envs/test_fantan_stepping.py`` checks over many seeded games of every preset. Only
SHA-256 (a hand's deal seed, :func:`fanfold.core.rng.derive_seed`) and the outcome's words stay
in Python.

:func:`supports` says which environments it covers: Fan Tan, every seat but the learner's a
``random`` bot or (with a fixed starting rank) the ``heuristic`` agent, its choice compiled
(:func:`~fanfold.envs.fantan_kernels.heuristic_card`, the strategy's card scores of
:mod:`fanfold.agents.strategy.fantan_kernels`), with or without a step limit (every seat's
actions counted); and self-play (:func:`supports_self_play`,
:class:`~fanfold.envs.selfplay_env.SelfPlayVectorEnv`), where every seat decides through the
caller. Importing this module loads Numba; :func:`warm_up` compiles (or
loads from the cache) every kernel, and joins the build's warm-ups
(:data:`fanfold.agents.strategy.compiled.ENVIRONMENT_WARM_UPS`), so an installation compiles
nothing at first use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from fanfold.agents.strategy import fantan_fast
from fanfold.core.rng import derive_seed
from fanfold.envs import fantan_kernels as kernels
from fanfold.envs.compiled_tables import Ints, SelfPlayTables
from fanfold.games.fantan import rules
from fanfold.games.fantan.actions import PASS, PLAYS, FanTanAction
from fanfold.games.fantan.config import FanTanConfig, Scoring
from fanfold.games.fantan.state import FanTanState

if TYPE_CHECKING:
    from fanfold.envs.encoding import Encoding
    from fanfold.envs.gymnasium_env import FanfoldGymEnv


#: The longest history a hand can have: 52 plays, and at most one pass per seat between two
#: plays (a card is always playable by someone while cards are held).
HISTORY = 52 * 9

_SCORING = {Scoring.PLAIN: 0, Scoring.CHIPS: 1, Scoring.PENALTY: 2}
_BLOCKS = (
    "hand",
    "layout",
    "played_by",
    "hand_counts",
    "passes",
    "start_rank",
    "dealer",
    "leader",
    "to_move",
    "hand_number",
    "scores",
    "pool",
    "last_winner",
)


def supports(seats: Sequence[str], max_steps: int | None, config: object = None) -> bool:
    """Whether :class:`FanTanTables` plays this environment: Fan Tan, one learner seat
    (``"human"``), in every other seat a ``random`` bot or, in a variant with a fixed starting
    rank, the ``heuristic`` agent; any step limit."""
    fixed = isinstance(config, FanTanConfig) and config.start_rank is not None
    return (
        (max_steps is None or max_steps >= 0)
        and sum(1 for seat in seats if seat == "human") == 1
        and all(seat in ("human", "random") or (seat == "heuristic" and fixed) for seat in seats)
    )


def bots(config: FanTanConfig, seats: Sequence[str] | None) -> tuple[Any, ...]:
    """What the kernels' ``bots`` holds: each seat's kind (a ``heuristic`` seat's
    :data:`~fanfold.envs.fantan_kernels.HEURISTIC`, every other :data:`~fanfold.envs.
    fantan_kernels.RANDOM`), then the strategy's scoring tables (a fixed starting rank's; of
    the right types but unread where no seat is heuristic)."""
    kinds = np.array(
        [kernels.HEURISTIC if seat == "heuristic" else kernels.RANDOM for seat in seats or ()]
        or [kernels.RANDOM] * config.players,
        dtype=np.int64,
    )
    fixed = config if config.start_rank is not None else replace(config, start_rank=7)
    _, pop, beyond, position, start, span, weights = fantan_fast.tables(fixed).scoring()
    return (kinds, pop, beyond, position, int(start), span, weights)


def supports_self_play(config: object, max_steps: int | None) -> bool:
    """Whether :class:`FanTanTables` plays self-play of this variant: every variant, any step
    limit."""
    return isinstance(config, FanTanConfig) and (max_steps is None or max_steps >= 0)


class FanTanTables(SelfPlayTables):
    """``count`` Fan Tan tables with the learner in ``seat`` and random bots elsewhere, or in
    self-play (``seat`` of :data:`~fanfold.envs.fantan_kernels.EVERY_SEAT`) every seat the
    caller's.

    Args:
        config: the variant.
        seat: the learner's seat, or :data:`~fanfold.envs.fantan_kernels.EVERY_SEAT`.
        count: how many tables.
        offsets: where each observation block starts (the encoding's ``layout.offsets``).
        max_steps: actions (every seat's) after which a match is cut (``None``: never).
        seats: each seat's text (``"human"``, ``"random"``, ``"heuristic"``: what
            :func:`supports`); default: ``random`` bots.
    """

    def __init__(
        self,
        config: FanTanConfig,
        seat: int,
        count: int,
        offsets: dict[str, int],
        max_steps: int | None = None,
        seats: Sequence[str] | None = None,
    ) -> None:
        super().__init__(seat, count)
        self.config = config
        players = config.players
        opening = config.opening
        self.cfg = np.zeros(kernels.C_SIZE, dtype=np.int64)
        self.cfg[kernels.C_PLAYERS] = players
        self.cfg[kernels.C_LEARNER] = seat
        self.cfg[kernels.C_OPENING] = -1 if opening is None else opening.index
        self.cfg[kernels.C_START_RANK] = config.start_rank or 0
        self.cfg[kernels.C_SCORING] = _SCORING[config.scoring]
        self.cfg[kernels.C_ANTE] = config.ante
        self.cfg[kernels.C_PASS_CHIPS] = config.pass_chips
        self.cfg[kernels.C_CARD_CHIPS] = config.card_chips
        self.cfg[kernels.C_HANDS] = config.hands
        self.cfg[kernels.C_TARGET] = -1 if config.target is None else config.target
        self.cfg[kernels.C_MAX_STEPS] = -1 if max_steps is None else max_steps
        self.tables = np.zeros((14, 1 << 13), dtype=np.int64)
        for rank in range(1, 14):
            self.tables[rank] = rules.suit_table(rank, config.ace_high, config.up_before_down)
        self.offsets = np.array([offsets[name] for name in _BLOCKS], dtype=np.int64)
        self.scal = np.zeros((count, kernels.S_COLUMNS), dtype=np.int64)
        self.hands = np.zeros((count, players), dtype=np.int64)
        self.passes = np.zeros((count, players), dtype=np.int64)
        self.scores = np.zeros((count, players), dtype=np.int64)
        self.played_by = np.full((count, 52), -1, dtype=np.int64)
        self.history = np.zeros((count, HISTORY), dtype=np.int64)
        self.rng = np.zeros((count, players, kernels.MT_N + 1), dtype=np.int64)
        self.deck_rng = np.zeros(kernels.MT_N + 1, dtype=np.int64)
        self.bots = bots(config, seats)

    # ------------------------------------------------------------------------- stepping
    def start(self, which: Sequence[int] | Ints, seeds: Sequence[int]) -> None:
        """Deal a new game at each table of ``which`` from its seed (``seeds``, 0 to
        2**31 - 2 as an environment draws them), and let its bots play up to the learner."""
        indices = np.asarray(which, dtype=np.int64)
        deal_seeds = np.array([derive_seed(seed, "deal", 0) for seed in seeds], dtype=np.uint64)
        self._deal_and_play(indices, np.zeros(len(indices), dtype=np.int64), deal_seeds, seeds)
        self._deal_waiting(indices)

    def act(self, which: Ints, actions: Ints) -> None:
        """The learner's action at each table of ``which`` (legal: the caller checked it
        against the mask), then its bots' until the learner decides or the match ends."""
        self._play(kernels.learner_acts, which, actions)
        self._deal_waiting(which)

    def _play(self, kernel: Callable[..., None], *rest: Any) -> None:
        """Call a kernel that plays with the arrays every one takes first, as one tuple
        (``cfg, tables, scal, hands, passes, scores, played_by, history, rng, bots``), then
        ``rest``."""
        playing = (
            self.cfg,
            self.tables,
            self.scal,
            self.hands,
            self.passes,
            self.scores,
            self.played_by,
            self.history,
            self.rng,
            self.bots,
        )
        kernel(playing, *rest)

    def _deal_waiting(self, which: Ints) -> None:
        """Deal the next hand wherever a hand ended with the match going on, and go on."""
        while True:
            waiting = which[self.scal[which, kernels.S_STATUS] == kernels.NEEDS_DEAL]
            if not len(waiting):
                return
            numbers = self.scal[waiting, kernels.S_HAND_NUMBER] + 1
            seeds = self.scal[waiting, kernels.S_SEED]
            deal_seeds = np.array(
                [
                    derive_seed(int(seed), "deal", int(number))
                    for seed, number in zip(seeds, numbers, strict=True)
                ],
                dtype=np.uint64,
            )
            self._deal_and_play(waiting, numbers, deal_seeds, seeds)

    def _deal_and_play(
        self, which: Ints, numbers: Ints, deal_seeds: npt.NDArray[np.uint64], seeds: Any
    ) -> None:
        """Deal hand ``numbers`` at the tables ``which`` (the deck from ``deal_seeds``, the
        bots from ``seeds``) and let the bots play up to the learner."""
        self._play(
            kernels.deal_and_play,
            self.deck_rng,
            which,
            numbers,
            deal_seeds,
            np.asarray(seeds, dtype=np.int64),
        )

    def is_over(self, which: Ints) -> npt.NDArray[np.bool_]:
        """Whether the match at each table of ``which`` is over."""
        over: npt.NDArray[np.bool_] = self.scal[which, kernels.S_FINISHED] != 0
        return over

    def is_cut(self, which: Ints) -> npt.NDArray[np.bool_]:
        """Whether the step limit cut the match at each table of ``which`` before its end."""
        cut: npt.NDArray[np.bool_] = self.scal[which, kernels.S_STATUS] == kernels.CUT
        return cut

    def deciders(self, which: Ints) -> Ints:
        """The seat to move at each table of ``which``."""
        seats: Ints = self.scal[which, kernels.S_TO_MOVE].copy()
        return seats

    def _observe(
        self,
        which: Ints,
        rows: Ints,
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        seats: Ints,
    ) -> None:
        kernels.observe(
            self.cfg,
            self.tables,
            self.offsets,
            self.scal,
            self.hands,
            self.passes,
            self.scores,
            self.played_by,
            which,
            rows,
            observations,
            masks,
            seats,
        )

    # --------------------------------------------------------------------------- states
    def state(self, index: int, *, history: bool = True) -> FanTanState:
        """Table ``index``'s game as a rules state (for outcomes, messages and tests);
        ``history=False`` leaves the hand's history out (empty), which the outcome does not
        read."""
        scal = self.scal[index]
        players = self.config.players
        length = int(scal[kernels.S_HISTORY]) if history else 0
        actions: tuple[FanTanAction, ...] = tuple(
            PASS if code == kernels.PASS else PLAYS[code]
            for code in self.history[index, :length].tolist()
        )
        last_winner = int(scal[kernels.S_LAST_WINNER])
        start_rank = int(scal[kernels.S_START_RANK])
        return FanTanState(
            config=self.config,
            seed=int(scal[kernels.S_SEED]),
            hand_number=int(scal[kernels.S_HAND_NUMBER]),
            dealer=int(scal[kernels.S_DEALER]),
            leader=int(scal[kernels.S_LEADER]),
            to_move=int(scal[kernels.S_TO_MOVE]),
            hands=tuple(int(hand) for hand in self.hands[index, :players]),
            layout=int(scal[kernels.S_LAYOUT]),
            start_rank=start_rank or None,
            history=actions,
            passes=tuple(int(count) for count in self.passes[index, :players]),
            scores=tuple(int(score) for score in self.scores[index, :players]),
            pool=int(scal[kernels.S_POOL]),
            last_winner=None if last_winner < 0 else last_winner,
            finished=bool(scal[kernels.S_FINISHED]),
        )


def warm_up() -> None:
    """Compile (or load from Numba's cache) every kernel, on a few games of two variants."""
    from fanfold.envs.fantan import FanTanEncoding
    from fanfold.games.fantan.config import PRESETS
    from fanfold.games.fantan.game import FanTanGame

    for preset in (PRESETS[0], PRESETS[-1]):  # one hand; a match of many hands
        config = preset.config
        layout = FanTanEncoding(FanTanGame(), config).layout
        seats = ["human"] + ["heuristic" if config.start_rank else "random"] * (config.players - 1)
        FanTanTables(config, 0, 2, layout.offsets, 300, seats).play_first_legal(
            layout.size, 53, 400
        )


def tables(env: FanfoldGymEnv, count: int, encoding: Encoding) -> FanTanTables:
    """``count`` compiled tables playing what ``env`` plays (one that :func:`supports`)."""
    return FanTanTables(
        env.config, env.seat, count, encoding.layout.offsets, env.max_steps, env.seats
    )


def self_play_tables(encoding: Encoding, count: int, max_steps: int | None) -> FanTanTables:
    """``count`` compiled self-play tables (every variant)."""
    config = encoding.config
    assert isinstance(config, FanTanConfig)
    return FanTanTables(config, kernels.EVERY_SEAT, count, encoding.layout.offsets, max_steps)
