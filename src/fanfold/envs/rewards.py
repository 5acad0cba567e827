"""Reward options of the single-seat environments: the game's return at the end (the
default), or for Fan Tan the card margin's change at every step as well.

``reward="outcome"`` (the default): 0 at every step, the learner's return when the game ends.

``reward="cards"`` (Fan Tan only): every step's reward is also the change, from the learner's
observation before the step to the one after it, of its *card margin*: the mean of the other
seats' cards held minus its own, divided by the cards a seat is dealt (52 / players; 13 with
four players). Read from the ``hand_counts`` block of the observation, so from the seat's view
only. A step that plays a card and sees the others keep theirs earns about +1/13; a pass while
the others play earns less than 0. Over an episode the rewards sum to the return plus the
margin at the end minus the margin at the learner's first observation (the telescoping sum):
a winner's end margin is the others' mean count / 13, a loser's is its deficit to that mean,
so a near miss is told apart from a rout. The first margin is fixed before the learner's first
decision (the deal and the bots' plays before it), so it moves no policy gradient.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

#: The reward options, by name.
REWARDS = ("outcome", "cards")


def check_reward(reward: str, encoding: Any, game: str) -> None:
    """Refuse an unknown reward option, or ``"cards"`` for a game whose observation does not
    count each seat's cards held (Fan Tan's does: its ``hand_counts`` block).

    Raises:
        ValueError: saying which options there are.
    """
    if reward not in REWARDS:
        raise ValueError(f"reward must be 'outcome' or 'cards', not {reward!r}")
    if reward == "cards" and "hand_counts" not in encoding.layout.offsets:
        raise ValueError(f"reward='cards' is for Fan Tan only, not {game!r}")


class CardMargin:
    """The card margin of Fan Tan observation tensors, one or a batch (see the module)."""

    def __init__(self, encoding: Any) -> None:
        self.players: int = encoding.players
        start = encoding.layout.offsets["hand_counts"]
        self.counts = slice(start, start + self.players)
        self.dealt = 52 / self.players

    def __call__(self, observations: NDArray[np.float32]) -> NDArray[np.float64]:
        """The margin of each observation (a float array of the batch's shape, minus the
        tensor axis)."""
        counts = np.asarray(observations, dtype=np.float64)[..., self.counts]
        others = (counts.sum(axis=-1) - counts[..., 0]) / (self.players - 1)
        margin: NDArray[np.float64] = (others - counts[..., 0]) / self.dealt
        return margin
