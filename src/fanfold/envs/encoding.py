"""The base of every game's encoding: a fixed action table and an observation layout.

An :class:`Encoding` belongs to one game and one variant config. It gives

* a fixed list of every action the variant can ever offer, each at its own index (the same
  indices in every position and for every seat): :meth:`Encoding.action_index` and
  :meth:`Encoding.action` convert both ways, :meth:`Encoding.legal_mask` marks the legal
  ones. Actions are stored relative to the seat that takes them where the game has seats
  with different material (Fano's suits), so one index means the same move for every seat;
* an observation built from one seat's *view* only (never the full state): a flat
  ``float32`` tensor whose :class:`~fanfold.envs.layout.Layout` documents every block, and the
  dict form of the same numbers.

Encodings import numpy and the game packages only, so they work without the ``envs`` extra.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.errors import IllegalActionError, Refusal
from fanfold.core.registry import AnyGame
from fanfold.envs.layout import FloatArray, Layout

MaskArray = NDArray[np.int8]


class Encoding(ABC):
    """A game variant's action table and observation layout.

    Subclasses list the variant's actions in relative form (:meth:`relative_actions`), convert
    an action to and from that form for a seat (:meth:`to_relative`, :meth:`from_relative`),
    and fill the observation blocks from a view (:meth:`fill`).

    Args:
        game: the game.
        config: the variant's config.
    """

    def __init__(self, game: AnyGame, config: Any) -> None:
        self.game = game
        self.config = config
        self.players = game.num_players(config)
        self.layout = self.make_layout()
        table = tuple(self.relative_actions())
        index: dict[Hashable, int] = {}
        for number, key in enumerate(table):
            if key in index:
                raise ValueError(f"the action table lists {key!r} twice")
            index[key] = number
        self._table = table
        self._index = index
        # (seat, action) -> index, filled as actions are met: to_relative depends on nothing
        # else, and there are at most seats x num_actions of them
        self._seen: dict[tuple[int, Hashable], int] = {}

    # ------------------------------------------------------------ for subclasses
    @abstractmethod
    def make_layout(self) -> Layout:
        """The observation layout of this variant."""

    @abstractmethod
    def relative_actions(self) -> Iterable[Hashable]:
        """Every action the variant can offer, in relative form, in index order."""

    def to_relative(self, seat: int, action: Any) -> Hashable:
        """``action`` taken by ``seat``, in relative form (default: the action itself)."""
        del seat
        return action  # type: ignore[no-any-return]  # actions are hashable values

    def from_relative(self, seat: int, key: Hashable) -> Any:
        """The action that ``key`` (relative form) is for ``seat`` (default: the key)."""
        del seat
        return key

    @abstractmethod
    def fill(self, view: Any, blocks: dict[str, FloatArray]) -> None:
        """Write ``view`` into the (zeroed) blocks of an observation."""

    # ------------------------------------------------------------------ actions
    @property
    def num_actions(self) -> int:
        """How many indices the action table has."""
        return len(self._table)

    def action_index(self, seat: int, action: Any) -> int:
        """The index of ``action`` taken by ``seat``.

        Raises:
            IllegalActionError: the action is not one this variant can offer.
        """
        number = self._seen.get((seat, action))
        if number is not None:
            return number
        key = self.to_relative(seat, action)
        number = self._index.get(key)
        if number is None:
            text = self.game.action_text(action)
            raise IllegalActionError(Refusal("envs.not_in_table", action=text))
        self._seen[seat, action] = number
        return number

    def action(self, seat: int, index: int) -> Any:
        """The action at ``index`` for ``seat``.

        Raises:
            IllegalActionError: ``index`` is outside ``0 .. num_actions - 1``.
        """
        if not 0 <= index < len(self._table):
            last = len(self._table) - 1
            raise IllegalActionError(Refusal("envs.index_out_of_range", index=index, last=last))
        return self.from_relative(seat, self._table[index])

    def action_label(self, index: int) -> str:
        """The relative form of the action at ``index`` as text (seat-independent)."""
        return str(self._table[index])

    def legal_mask(self, seat: int, legal: Sequence[Any]) -> MaskArray:
        """1 at the index of every action in ``legal`` (taken by ``seat``), 0 elsewhere."""
        mask = np.zeros(len(self._table), dtype=np.int8)
        seen = self._seen
        mask[[seen.get((seat, a)) or self.action_index(seat, a) for a in legal]] = 1
        return mask

    def legal_indices(self, seat: int, legal: Sequence[Any]) -> list[int]:
        """The sorted indices of the actions in ``legal`` (taken by ``seat``)."""
        return sorted({self.action_index(seat, action) for action in legal})

    # -------------------------------------------------------------- observations
    def observation(self, view: Any) -> FloatArray:
        """The flat observation tensor of a view (see :attr:`layout`)."""
        # filled in a scratch tensor whose block views are cut once, then copied out
        scratch = self._scratch
        scratch[0].fill(0.0)
        self.fill(view, scratch[1])
        return scratch[0].copy()

    @cached_property
    def _scratch(self) -> tuple[FloatArray, dict[str, FloatArray]]:
        tensor = self.layout.zeros()
        return tensor, self.layout.views(tensor)

    def observation_dict(self, view: Any) -> dict[str, FloatArray]:
        """The dict form of a view's observation: block name to values in the block's shape."""
        return self.layout.views(self.observation(view))


def one_hot(values: FloatArray, index: int | None) -> None:
    """Set ``values[index]`` to 1 (nothing for ``None``)."""
    if index is not None:
        values[index] = 1.0
