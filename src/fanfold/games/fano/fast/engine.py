"""The fast path's Python face: states as arrays, steps that agree with the reference, and
compiled random playouts.

Importing this module imports Numba and the kernels (compiled on first call, or loaded from
Numba's cache); :mod:`fanfold.games.fano.fast` imports it only when first used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from fanfold.core.game import Outcome
from fanfold.games.fano.actions import FanoAction
from fanfold.games.fano.config import FanoConfig
from fanfold.games.fano.fast import codec, kernels, layout
from fanfold.games.fano.rules import outcome as reference_outcome
from fanfold.games.fano.state import FanoState

ActionIds = npt.NDArray[np.int64]

#: Scratch buffers of the step API (one process, one caller at a time).
_LEGAL = np.empty(layout.MAX_ACTIONS, np.int64)
_SHUFFLE = np.zeros(layout.SHUFFLE_SIZE, np.int32)


@lru_cache(maxsize=64)
def _config_array(config: FanoConfig) -> codec.StateArray:
    return codec.encode_config(config)


def _no_options() -> codec.StateArray:
    return np.zeros(0, np.int32)


@dataclass(frozen=True, eq=False)
class FastState:
    """A Fano position on the fast path: the config, the game's seed (which names the
    reference's reshuffles) and the state array (see :mod:`.layout`); ``options`` is the
    config as the kernels read it (filled in when not given)."""

    config: FanoConfig
    seed: int
    array: codec.StateArray
    options: codec.StateArray = field(default_factory=_no_options, repr=False)

    def __post_init__(self) -> None:
        if not len(self.options):
            object.__setattr__(self, "options", _config_array(self.config))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, FastState)
            and self.config == other.config
            and self.seed == other.seed
            and np.array_equal(self.array, other.array)
        )

    __hash__ = None  # type: ignore[assignment]  # a mutable array inside


@lru_cache(maxsize=64)
def _decks(config: FanoConfig) -> codec.StateArray:
    return codec.decks(config)


def encode(state: FanoState) -> FastState:
    """The fast state of a reference state."""
    return FastState(state.config, state.seed, codec.encode_state(state))


def decode(state: FastState) -> FanoState:
    """The reference state of a fast state."""
    return codec.decode_state(state.array, state.config, state.seed)


def legal_action_ids(state: FastState) -> ActionIds:
    """The decider's legal actions as packed ids, in the reference's order."""
    count = kernels.legal_actions(state.array, state.options, _LEGAL)
    return _LEGAL[:count].copy()


def legal_actions(state: FastState) -> tuple[FanoAction, ...]:
    """The decider's legal actions as reference action values."""
    return tuple(codec.to_action(packed) for packed in legal_action_ids(state).tolist())


def apply(state: FastState, action: int | FanoAction) -> FastState:
    """The state after a legal action (a packed id or a reference action), reshuffles done
    exactly as the reference does them (derived from the game's seed)."""
    packed = action if isinstance(action, int) else codec.action_id(action)
    cfg = state.options
    shuffle = _SHUFFLE
    shuffle[layout.SHUFFLE_MODE] = 1
    shuffle[layout.SHUFFLE_GIVEN] = -1
    array = state.array.copy()
    status = kernels.apply(array, cfg, np.int64(packed), shuffle)
    if status == layout.NEEDS_SHUFFLE:
        seat = int(shuffle[layout.SHUFFLE_SEAT])
        count = int(shuffle[layout.SHUFFLE_COUNT])
        shuffles = int(state.array[layout.HEADER + seat * layout.PLAYER_WIDTH + layout.SHUFFLES])
        order = codec.reshuffle_permutation(state.seed, seat, shuffles, count)
        shuffle[layout.SHUFFLE_GIVEN] = count
        shuffle[layout.SHUFFLE_PERM : layout.SHUFFLE_PERM + count] = order
        array = state.array.copy()
        status = kernels.apply(array, cfg, np.int64(packed), shuffle)
        if status != layout.OK:  # pragma: no cover - one reshuffle per action at most
            raise RuntimeError("the fast path asked for a second reshuffle in one action")
    return FastState(state.config, state.seed, array, cfg)


def outcome(state: FastState) -> Outcome | None:
    """The game's outcome (the reference's reading of the decoded winner or turn limit)."""
    cfg = state.options
    array = state.array
    if array[layout.PHASE] != layout.P_OVER and kernels.winner(array, cfg) < 0:
        return None
    return reference_outcome(decode(state))


def seed(value: int) -> None:
    """Seed the fast path's own generator (reshuffles and choices of compiled playouts)."""
    kernels.seed_generator(value)


def playout(state: FastState, max_actions: int = 1 << 30) -> tuple[FastState, int]:
    """Uniformly random legal actions until the game ends (or ``max_actions``): the state
    reached and the number of actions played. Reshuffles come from the fast path's own
    generator (:func:`seed`), not from the game's seed: a determinized playout's future
    shuffles are unknown anyway."""
    array = state.array.copy()
    played = kernels.playout(array, state.options, max_actions)
    return FastState(state.config, state.seed, array, state.options), int(played)


def greedy_playout(state: FastState, max_actions: int = 1 << 30) -> tuple[FastState, int]:
    """Like :func:`playout`, the moves chosen by a rough compiled preference (promote, make a
    prestige card, attack, play; one move in ten and ties at random)."""
    array = state.array.copy()
    played = kernels.greedy_playout(array, state.options, max_actions)
    return FastState(state.config, state.seed, array, state.options), int(played)


def random_games(config: FanoConfig, games: int) -> int:
    """Play ``games`` uniformly random games from compiled deals; the actions played."""
    template = np.zeros(codec.size(config), np.int32)
    return int(kernels.random_games(template, _config_array(config), _decks(config), games))


def warm_up() -> None:
    """Compile (or load from the cache) every kernel of the engine on a tiny game (the
    strategy's compiled policy and search warm up in
    :func:`fanfold.agents.strategy.fano_fast.warm_up`)."""
    from fanfold.games.fano.rules import new_state

    config = FanoConfig(turns_per_player=2)
    random_games(config, 1)
    greedy_playout(encode(new_state(config, 1)), 5)
    state = encode(new_state(config, 0))
    legal = legal_action_ids(state)
    apply(state, int(legal[0]))
    outcome(state)
