"""Fan Tan card features: each card's place in its row, as numbers a linear scorer can use.

The Fan Tan observation (:class:`~fanfold.envs.fantan.FanTanEncoding`) says which cards the
observer holds and which are on the table; what a player weighs when choosing a card (does it
open a card of mine or only the others'? how many cards lie beyond it in its row?) is a
count along the row, which no weighted sum of those bits can express. :class:`FanTanCardFeatures`
computes those counts from a batch of observation tensors, for every card at once, so a
policy can score each legal card with one shared set of weights (the learning example
``examples/fantan_learning.py`` does).

Everything is counted from the observer's view only: "mine" are the cards in the ``hand``
block, "others" every card neither held nor on the table (held by some other seat; which one
the view does not tell). "Beyond" a card is the part of its row on the far side of it from the
starting card: the cards that can only be played after it. For the starting card itself
(a seven in the standard game) both directions count.

>>> from fanfold.envs.encodings import make_encoding
>>> features = FanTanCardFeatures(make_encoding("fantan"))
>>> features.names[:3]
('start', 'mine_beyond', 'others_beyond')
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from fanfold.envs.fantan import CARDS, RANKS, FanTanEncoding
from fanfold.games.fantan.cards import rank_order

SUITS = 4

#: The features of each card that depend on the card, with what each is.
CARD_FEATURES: tuple[tuple[str, str], ...] = (
    ("start", "1 for the card that starts its row (both directions lie beyond it)"),
    ("mine_beyond", "my cards beyond it in its row, / 6"),
    ("others_beyond", "the others' cards beyond it, / 6"),
    ("next_mine", "the card(s) it opens (next beyond it) that are mine: 0, 1 or 2"),
    ("next_others", "the card(s) it opens that are the others': 0, 1 or 2"),
    ("others_to_mine", "the others' cards between it and my nearest card beyond it, / 6"),
    ("row_end", "1 when nothing lies beyond it (the last card of its row's direction)"),
    ("mine_in_suit", "my cards in its suit, / 13"),
    ("others_in_suit", "the others' cards in its suit, / 13"),
)

#: What the card features are multiplied by for the two later copies of them: how far the
#: hand has gone for me, and whether another seat is near going out.
PHASES: tuple[tuple[str, str], ...] = (
    ("late", "x (1 - cards I hold / 13)"),
    ("close", "x (1 when another seat holds 3 cards or fewer)"),
)

#: Every feature of a card, in order: the card features, then each of them x each phase.
FEATURES: tuple[tuple[str, str], ...] = CARD_FEATURES + tuple(
    (f"{name}_{phase}", f"{name} {meaning}")
    for phase, meaning in PHASES
    for name, _ in CARD_FEATURES
)

FeatureArray = NDArray[np.float32]


class FanTanCardFeatures:
    """Per-card features from Fan Tan observation tensors (see the module's description).

    Args:
        encoding: the Fan Tan encoding whose observations will be given (its variant sets the
            rank order: ace high or low).

    Raises:
        ValueError: not a Fan Tan encoding.
    """

    def __init__(self, encoding: FanTanEncoding) -> None:
        if not isinstance(encoding, FanTanEncoding):
            raise ValueError(
                f"card features are for Fan Tan's encoding, not {type(encoding).__name__}"
            )
        self.encoding = encoding
        self.names: tuple[str, ...] = tuple(name for name, _ in FEATURES)
        offsets = encoding.layout.offsets
        self._hand = offsets["hand"]
        self._layout = offsets["layout"]
        self._start_rank = offsets["start_rank"]
        self._counts = offsets["hand_counts"]
        self._players = encoding.players
        # card index (suit * 13 + rank - 1) of each row position (lowest rank first)
        order = rank_order(encoding.config.ace_high)
        self._index = np.array(
            [[suit * RANKS + rank - 1 for rank in order] for suit in range(SUITS)], dtype=np.intp
        )
        # the row position of each starting rank 1..13 (column 0: no starting rank yet)
        self._start_position = np.array(
            [0] + [order.index(rank) for rank in range(1, RANKS + 1)], dtype=np.intp
        )

    @property
    def size(self) -> int:
        """How many features each card has."""
        return len(self.names)

    def __call__(self, observations: NDArray[np.floating]) -> FeatureArray:
        """The features of every card: ``(batch, 52, size)`` for ``(batch, observation size)``
        tensors (or ``(52, size)`` for one tensor), cards in action-index order.

        While a variant's starting rank is still to be chosen (the Domino game before its
        first card), every card is counted as if the row started at the lowest rank.

        Raises:
            ValueError: tensors of the wrong size.
        """
        single = observations.ndim == 1
        batch = np.atleast_2d(np.asarray(observations, dtype=np.float32))
        if batch.ndim != 2 or batch.shape[1] != self.encoding.layout.size:
            raise ValueError(
                f"expected observations of {self.encoding.layout.size} numbers, "
                f"not an array of shape {observations.shape}"
            )
        rows = self._index  # (4, 13) card indices
        mine = batch[:, self._hand : self._hand + CARDS][:, rows]  # (B, 4, 13)
        table = batch[:, self._layout : self._layout + CARDS][:, rows]
        others = 1.0 - mine - table
        rank = batch[:, self._start_rank : self._start_rank + RANKS + 1].argmax(axis=1)
        start = self._start_position[rank][:, None, None]  # (B, 1, 1)
        position = np.arange(RANKS)[None, None, :]
        up = (position > start).astype(np.float32)
        down = (position < start).astype(np.float32)
        at_start = (position == start).astype(np.float32)

        def beyond(cards: FeatureArray) -> FeatureArray:
            above = cards[..., ::-1].cumsum(axis=-1)[..., ::-1] - cards  # after the position
            below = cards.cumsum(axis=-1) - cards  # before it
            total: FeatureArray = up * above + down * below + at_start * (above + below)
            return total

        def following(cards: FeatureArray) -> FeatureArray:
            pad = np.zeros_like(cards[..., :1])
            above = np.concatenate([cards[..., 1:], pad], axis=-1)
            below = np.concatenate([pad, cards[..., :-1]], axis=-1)
            total: FeatureArray = up * above + down * below + at_start * (above + below)
            return total

        mine_beyond = beyond(mine)
        others_beyond = beyond(others)
        others_to_mine = self._others_to_mine(mine, others, up, down, at_start)
        held = mine.sum(axis=(1, 2))  # (B,)
        counts = batch[:, self._counts + 1 : self._counts + self._players]
        close = (counts.min(axis=1) <= 3).astype(np.float32)
        shape = mine.shape
        base = len(CARD_FEATURES)
        out = np.empty((*shape, len(self.names)), dtype=np.float32)
        out[..., 0] = at_start
        out[..., 1] = mine_beyond / 6.0
        out[..., 2] = others_beyond / 6.0
        out[..., 3] = following(mine)
        out[..., 4] = following(others)
        out[..., 5] = others_to_mine / 6.0
        out[..., 6] = (beyond(np.ones_like(mine)) == 0).astype(np.float32)
        out[..., 7] = np.broadcast_to(mine.sum(axis=-1, keepdims=True), shape) / 13.0
        out[..., 8] = np.broadcast_to(others.sum(axis=-1, keepdims=True), shape) / 13.0
        late = np.clip(1.0 - held / 13.0, 0.0, 1.0)
        out[..., base : 2 * base] = out[..., :base] * late[:, None, None, None]
        out[..., 2 * base :] = out[..., :base] * close[:, None, None, None]
        # rows (suit, position) back to card index order
        result = np.empty((batch.shape[0], CARDS, len(self.names)), dtype=np.float32)
        result[:, rows.reshape(-1)] = out.reshape(batch.shape[0], CARDS, len(self.names))
        return result[0] if single else result

    @staticmethod
    def _others_to_mine(
        mine: FeatureArray,
        others: FeatureArray,
        up: FeatureArray,
        down: FeatureArray,
        at_start: FeatureArray,
    ) -> FeatureArray:
        """Others' cards between each position and my nearest card beyond it (0 when I hold
        none beyond it); for the starting card, the nearer of the two sides' counts."""
        none = np.float32(RANKS)

        def side(reverse: bool) -> FeatureArray:
            m = mine[..., ::-1] if reverse else mine
            o = others[..., ::-1] if reverse else others
            result = np.zeros_like(m)
            # scan from the far end towards the start: running (others since my last card)
            found = np.zeros_like(m[..., 0])
            count = np.zeros_like(m[..., 0])
            for position in range(RANKS - 1, -1, -1):
                result[..., position] = np.where(found > 0, count, none)
                is_mine = m[..., position]
                count = np.where(is_mine > 0, 0.0, count + o[..., position])
                found = np.maximum(found, is_mine)
            return result[..., ::-1] if reverse else result

        above = side(False)
        below = side(True)
        nearest = up * above + down * below + at_start * np.minimum(above, below)
        return np.where(nearest >= none, 0.0, nearest).astype(np.float32)
